"""The one loop shared by every iterative solver (fictitious play, hedge, CFR+ ...).

A method supplies ``init`` (state from a starting profile), ``advance`` (run a number of
iterations, typically one numba call) and ``average`` (the profile the method outputs).  The
loop owns everything else: NashConv checkpoints on a geometric schedule, the stopping rule
(tolerance or iteration cap or wall-clock limit), the tqdm progress bar and the history.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray
from tqdm.auto import tqdm

from pokerdyn.games import CompiledGame, GameError
from pokerdyn.games.strategy import check_strategy, uniform_strategy

from pokerdyn.solvers.evaluation import expected_payoffs, nash_conv


class IterativeMethod(Protocol):
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
# cfr 5.3e-8).  Used only to refuse runs of many hours before they start
# (pokerdyn.commands.common.check_solver_work), so a factor of two does not matter.
SECONDS_PER_NODE: dict[str, float] = {"fp": 6e-8, "hedge": 1.2e-7, "cfr+": 6e-8, "cfr": 6e-8}


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


def run_iterative(cg: CompiledGame, method: IterativeMethod, iterations: int = 10_000,
                  tol: float | None = None, sigma0: NDArray[np.float64] | None = None,
                  seconds: float | None = None, progress: bool = False,
                  growth: float = 1.1) -> SolverResult:
    """Run ``method`` until NashConv <= ``tol``, ``iterations`` or ``seconds`` is reached."""
    if isinstance(iterations, float) and iterations.is_integer():
        iterations = int(iterations)
    if not isinstance(iterations, (int, np.integer)) or iterations < 1:
        raise GameError(f"iterations={iterations!r} is outside the allowed range [1, inf) "
                        "(an integer)")
    if seconds is not None and not seconds > 0:
        raise GameError(f"seconds={seconds!r} is outside the allowed range (0, inf)")
    if tol is not None and not tol > 0:
        raise GameError(f"tol={tol} is outside the allowed range (0, inf)")
    # the one check of the caller's profile; the loop below evaluates its own iterates
    sigma0 = uniform_strategy(cg) if sigma0 is None else \
        check_strategy(cg, sigma0, what="sigma0").copy()
    state = method.init(cg, sigma0)
    hist: list[tuple[float, float, float]] = []
    start = time.perf_counter()
    done, conv, nc = 0, False, float("nan")
    bar = tqdm(total=iterations, desc=method.name, disable=not progress, leave=False,
               mininterval=0.5)
    try:
        for cp in checkpoints(iterations, growth):
            method.advance(cg, state, done, cp - done)
            bar.update(cp - done)
            done = cp
            nc = nash_conv(cg, method.average(cg, state), check=False)
            elapsed = time.perf_counter() - start
            hist.append((done, nc, elapsed))
            bar.set_postfix(nash_conv=f"{nc:.2e}", refresh=False)
            if tol is not None and nc <= tol:
                conv = True
                break
            if seconds is not None and elapsed >= seconds:
                break
    finally:
        bar.close()
    avg = method.average(cg, state)
    return SolverResult(method=method.name, strategy=avg, iterations=done,
                        seconds=time.perf_counter() - start, nash_conv=nc,
                        expected_payoffs=expected_payoffs(cg, avg, check=False),
                        history=np.asarray(hist, dtype=np.float64).reshape(-1, 3),
                        converged=conv)
