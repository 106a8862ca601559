"""The one loop shared by every iterative solver: fictitious play (all its variants, the
hold'em paper's and the normal-form one), multiplicative weights, the CFR family and CFR+
over ranges.

:func:`iterate` is the loop.  A method supplies only its step (``advance(game, state, t0,
n)``: ``n`` iterations from iteration ``t0``, typically one numba call) and the loop owns
everything else: when to measure (a schedule of checkpoint iterations: geometric, every
``k``, every iteration), what to measure (NashConv, the largest regret, a normal form's
best-response gain), the stopping rule on the measure (``tol``, the paper's ``epsilon``),
the iteration cap, the wall-clock budget, the checkpoint callback (a log, a saved state to
resume or replay from), the progress bar and the history.  :func:`run_iterative` is its
front for the methods of a compiled game (``init``/``advance``/``average``: fictitious play,
hedge, CFR): NashConv of the average at geometric checkpoints, stopping at ``tol``.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray
from tqdm.auto import tqdm

from pokerdyn.games import CompiledGame, GameError
from pokerdyn.games.strategy import check_strategy, uniform_strategy

from pokerdyn.solvers.evaluation import expected_payoffs, nash_conv


class Step(Protocol):
    """What :func:`iterate` drives: a name (the progress bar's) and a step."""

    name: str

    def advance(self, game: Any, state: Any, t0: int, n: int) -> None: ...


class IterativeMethod(Protocol):
    """A method of a compiled game as :func:`run_iterative` drives it: a :class:`Step` that
    also makes its state from a starting profile and gives its output profile."""

    name: str

    def init(self, cg: CompiledGame, sigma0: NDArray[np.float64]) -> Any: ...

    def advance(self, cg: CompiledGame, state: Any, t0: int, n: int) -> None: ...

    def average(self, cg: CompiledGame, state: Any) -> NDArray[np.float64]: ...


@dataclass(frozen=True)
class SolverResult:
    """Outcome of an iterative solver.

    ``history`` has one row per checkpoint: (iteration, NashConv, seconds since start).
    ``strategy`` is the method's output profile (the average strategy).
    """

    method: str
    strategy: NDArray[np.float64]
    iterations: int
    seconds: float
    nash_conv: float
    expected_payoffs: NDArray[np.float64]
    history: NDArray[np.float64]
    converged: bool
    options: dict = field(default_factory=dict)


# CPU seconds per iteration and compiled node of each method's run_iterative (its NashConv
# checkpoints included), measured with time.process_time on the development machine
# (Python 3.11, numba, one core of a shared x86-64 server) on kuhn (55 nodes, 10^6
# iterations), leduc (1,939 nodes, 10^4) and mercer-mmh(players=3) (4.3 million nodes, 50
# iterations): the largest of the three, rounded up (fp 5.9e-8, hedge 1.13e-7, cfr+ 5.5e-8,
# cfr 5.3e-8; the other CFR variants within 20% of CFR+ on leduc).  Used only to refuse runs of many hours before they start
# (pokerdyn.commands.common.check_solver_work), so a factor of two does not matter.
SECONDS_PER_NODE: dict[str, float] = {"fp": 6e-8, "hedge": 1.2e-7, "cfr+": 6e-8, "cfr": 6e-8,
                                     "lcfr": 6e-8, "dcfr": 6e-8, "pcfr+": 7e-8,
                                     "pdcfr+": 7e-8}


def estimated_seconds(method: str, iterations: float, n_nodes: int) -> float:
    """Estimated CPU seconds of ``iterations`` iterations of the iterative ``method`` (a key
    of :data:`SECONDS_PER_NODE`, else 0: no iterations) on a compiled game of ``n_nodes``
    nodes; at most 1e300 (no overflow for any iteration count)."""
    per = SECONDS_PER_NODE.get(method, 0.0)
    return min(min(iterations, 1e300) * float(n_nodes) * per, 1e300) if per else 0.0


def checkpoints(limit: int, growth: float = 1.1) -> list[int]:
    """Iterations at which NashConv is measured: 1..10, then geometric, ending at limit."""
    pts, t = [], 1
    while t < limit:
        pts.append(t)
        t = max(t + 1, int(t * growth))
    pts.append(limit)
    return sorted(set(pts))


@dataclass(frozen=True)
class Run:
    """What :func:`iterate` hands back: the method's ``state`` (advanced in place),
    ``iterations`` (the iteration reached, on the count ``start`` is on), ``value`` (the
    last checkpoint's measure; nan without a checkpoint), ``history`` (rows (iteration,
    measure, seconds since the start), one per checkpoint), ``converged`` (``stop`` held
    at the last checkpoint) and ``out_of_time`` (the ``seconds`` budget ended the run)."""

    state: Any
    iterations: int
    value: float
    history: NDArray[np.float64]
    converged: bool
    out_of_time: bool


def iterate(game: Any, method: Step, state: Any, *, iterations: int, at: Iterable[int],
            measure: Callable[[Any, Any], float], start: int = 0,
            stop: Callable[[float], bool] | None = None, seconds: float | None = None,
            chunk: int | None = None, progress: bool = False, label: str = "value",
            on_checkpoint: Callable[[int, float, Any], None] | None = None) -> Run:
    """The one iterative loop: advance ``method`` on ``game`` from iteration ``start`` to
    ``start + iterations``, measuring at the checkpoints ``at``.

    Parameters
    ----------
    game, method, state : what ``method.advance(game, state, t0, n)`` runs ``n`` iterations
        of, from iteration ``t0`` (the state is changed in place).
    iterations : number of iterations at most (the cap).
    at : checkpoint iterations, increasing (any iterable, read lazily: ``range(k, cap, k)``);
        those outside ``[start, start + iterations]`` are skipped; one equal to ``start``
        measures the starting state.  After the last checkpoint the method advances to the
        cap without measuring.
    measure : ``measure(game, state)``, the float recorded at a checkpoint.
    stop : ``stop(value)`` ends the run at a checkpoint (``converged``): ``tol`` on
        NashConv, the paper's ``epsilon`` on the largest regret.
    seconds : wall-clock budget, read after every advance; once spent, the state is
        measured (a checkpoint out of schedule) and the run ends.
    chunk : most iterations per ``advance`` call (None: a whole stretch between
        checkpoints, one numba call; 1 makes the clock read after every iteration).
    progress : a tqdm bar named ``method.name``, showing the last measure as ``label``.
    on_checkpoint : ``on_checkpoint(iteration, value, state)`` after each measure (a log;
        a saved state to resume a run or replay a window from), before ``stop``.

    Returns
    -------
    Run
        The state, the iteration reached, the last measure and the history.
    """
    limit = start + iterations
    begin = time.perf_counter()
    done, value, conv, late = start, float("nan"), False, False
    hist: list[tuple[float, float, float]] = []
    bar = tqdm(total=iterations, desc=method.name, disable=not progress, leave=False,
               mininterval=0.5)
    try:
        for cp in _targets(at, start, limit):
            end = min(cp, limit)
            while done < end and not late:
                n = end - done if chunk is None else min(chunk, end - done)
                method.advance(game, state, done, n)
                if progress:
                    bar.update(n)
                done += n
                late = seconds is not None and time.perf_counter() - begin >= seconds
            if cp > limit and not late:  # the stretch after the last checkpoint
                break
            value = measure(game, state)
            elapsed = time.perf_counter() - begin
            hist.append((done, value, elapsed))
            if progress:
                bar.set_postfix({label: f"{value:.2e}"}, refresh=False)
            if on_checkpoint is not None:
                on_checkpoint(done, value, state)
            if stop is not None and stop(value):
                conv = True
                break
            if late or (seconds is not None and elapsed >= seconds):
                late = True
                break
    finally:
        bar.close()
    return Run(state, done, value, np.asarray(hist, dtype=np.float64).reshape(-1, 3), conv,
               late)


def _targets(at: Iterable[int], start: int, limit: int) -> Iterable[int]:
    """The checkpoints of ``at`` in ``[start, limit]``, then ``limit + 1`` (the marker of
    the stretch to ``limit`` without a measure) unless ``limit`` is a checkpoint."""
    last = start - 1
    for cp in at:
        cp = int(cp)
        if cp < start or cp <= last:
            continue
        if cp > limit:
            break
        last = cp
        yield cp
    if last < limit:
        yield limit + 1


def run_iterative(cg: CompiledGame, method: IterativeMethod, iterations: int = 10_000,
                  tol: float | None = None, sigma0: NDArray[np.float64] | None = None,
                  seconds: float | None = None, progress: bool = False,
                  growth: float = 1.1, *,
                  on_checkpoint: Callable[[int, float, Any], None] | None = None
                  ) -> SolverResult:
    """Run ``method`` until NashConv <= ``tol``, ``iterations`` or ``seconds`` is reached:
    :func:`iterate` with NashConv of the average profile measured at the geometric
    :func:`checkpoints` (``on_checkpoint(iteration, nash_conv, state)`` after each)."""
    if isinstance(iterations, float) and iterations.is_integer():
        iterations = int(iterations)
    if not isinstance(iterations, (int, np.integer)) or iterations < 1:
        raise GameError(f"iterations={iterations!r} is outside the allowed range [1, inf) "
                        "(an integer)")
    if seconds is not None and not seconds > 0:
        raise GameError(f"seconds={seconds!r} is outside the allowed range (0, inf)")
    if tol is not None and not tol > 0:
        raise GameError(f"tol={tol} is outside the allowed range (0, inf)")
    # the one check of the caller's profile; the loop evaluates its own iterates
    sigma0 = uniform_strategy(cg) if sigma0 is None else \
        check_strategy(cg, sigma0, what="sigma0").copy()
    state = method.init(cg, sigma0)
    start = time.perf_counter()
    run = iterate(cg, method, state, iterations=iterations, at=checkpoints(iterations, growth),
                  measure=lambda g, st: nash_conv(g, method.average(g, st), check=False),
                  stop=None if tol is None else (lambda nc: nc <= tol), seconds=seconds,
                  progress=progress, on_checkpoint=on_checkpoint, label="nash_conv")
    avg = method.average(cg, state)
    return SolverResult(method=method.name, strategy=avg, iterations=run.iterations,
                        seconds=time.perf_counter() - start, nash_conv=run.value,
                        expected_payoffs=expected_payoffs(cg, avg, check=False),
                        history=run.history, converged=run.converged)
