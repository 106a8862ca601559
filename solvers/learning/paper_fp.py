"""Fictitious play as the hold'em paper ran it (Mercer Hold'em; its Java ``Strategies.nes``).

The paper's fictitious play (``Strategies.nes`` of its Java code): start from the uniform
profile; every iteration each player's pure best response to the current profile is mixed
into it per information set with weight ``1/(t+1)`` (simultaneous, infoset averaging); stop
as soon as the largest single-player regret of the profile *before* the update is below
``epsilon`` (the Java then applies that last update too, which we reproduce).
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from pokerdyn.games import CompiledGame, GameError
from pokerdyn.games.strategy import check_strategy, uniform_strategy
from pokerdyn.solvers.evaluation import max_regret, regrets
from pokerdyn.solvers.iterative import iterate
from pokerdyn.solvers.learning.fictitious_play import FictitiousPlay


@dataclass(frozen=True)
class PaperFP:
    """Outcome of :func:`paper_fictitious_play`: ``strategy`` (after the last update, as the
    Java returns it), ``iterations``, ``max_regret`` (of the profile the stop was decided on),
    ``regrets`` and ``nash_conv`` of the returned profile, ``seconds``."""

    strategy: NDArray[np.float64]
    iterations: int
    max_regret: float
    regrets: NDArray[np.float64]
    nash_conv: float
    seconds: float


def _check_resume(cg: CompiledGame, resume) -> tuple[int, NDArray[np.float64]]:
    """``resume = (t, sigma)`` checked once, at the entry: ``t`` an integer >= 0 and
    ``sigma`` a profile of ``cg`` (games.strategy.check_strategy)."""
    try:
        t, sigma = resume
    except (TypeError, ValueError):
        raise GameError("resume must be a pair (t, sigma): iterations done and the profile "
                        "after them") from None
    if isinstance(t, bool) or not isinstance(t, (int, np.integer)) or t < 0:
        raise GameError(f"resume t={t!r} is outside the allowed range [0, inf) (an integer)")
    return int(t), check_strategy(cg, sigma, what="resume sigma")


@dataclass
class _Sigma:
    """The paper's FP state: the profile and, while each iteration is checked, the regret
    row its update computes (of the profile before the update)."""

    sigma: NDArray[np.float64]
    row: NDArray[np.float64] | None = None


class PaperStep:
    """One step of the paper's fictitious play (simultaneous, per-information-set
    averaging), as :func:`solvers.iterative.iterate` drives it; with ``state.row`` set, the
    update also logs the regrets of the profile it answers (one iteration per call)."""

    name = "paper-fp"

    def __init__(self):
        self.fp = FictitiousPlay(schedule="simultaneous", averaging="infoset")

    def advance(self, cg: CompiledGame, state: _Sigma, t0: int, n: int) -> None:
        self.fp.advance(cg, state.sigma, t0, n, regrets=state.row)


def paper_fictitious_play(cg: CompiledGame, epsilon: float = 0.01, max_iterations: int = 20_000,
                          check_every: int = 1, log=None,
                          resume: tuple[int, NDArray[np.float64]] | None = None) -> PaperFP:
    """Fictitious play exactly as ``Strategies.nes``: stops once the profile's largest
    single-player regret is below ``epsilon`` (checked before every update, the Java rule)
    or after ``max_iterations``.

    ``check_every=k > 1`` saves time on large games: the regret is measured every ``k``
    iterations and, at the first check below ``epsilon``, the last ``k`` iterations are
    replayed from the previous check with the regret measured before each (the Java's stop
    unless the regret dipped below ``epsilon`` and rose again between two earlier checks).
    ``log(t, max_regret)`` is called at each check.  ``resume=(t, sigma)`` continues a run
    from its profile after ``t`` iterations (``max_iterations`` counts from 0).

    Both passes are :func:`solvers.iterative.iterate` runs: every ``k`` iterations with the
    largest regret measured, then (from the saved check) every iteration with the regret
    the update computes.
    """
    if check_every < 1:
        raise GameError(f"check_every={check_every} is outside [1, inf)")
    step = PaperStep()
    t0, s0 = (0, uniform_strategy(cg)) if resume is None else _check_resume(cg, resume)
    state = _Sigma(step.fp.init(cg, s0))
    start = time.perf_counter()
    t, mr, k = t0, float("inf"), check_every
    below = lambda m: m < epsilon  # noqa: E731  (the Java's strict test)
    if k > 1:
        saved = [t, state.sigma.copy()]

        def check(t: int, m: float, st: _Sigma) -> None:
            if log is not None:
                log(t, m)
            if not below(m):
                saved[:] = [t, st.sigma.copy()]

        run = iterate(cg, step, state, start=t, iterations=max(max_iterations - t, 0),
                      at=range(-(-t // k) * k, max_iterations, k),
                      measure=lambda g, st: max_regret(g, st.sigma, check=False), stop=below,
                      on_checkpoint=check, label="max_regret")
        t, mr = run.iterations, run.value if run.history.size else mr
        if run.converged:              # replay the window one check per iteration
            t, state = saved[0], _Sigma(saved[1])
            k = 1
    if k == 1:  # the regret before the update, from the update's own best responses
        state.row = np.empty((1, cg.n_players))  # the Java averages them in, also last
        run = iterate(cg, step, state, start=t, iterations=max(max_iterations - t, 0),
                      at=range(t + 1, max_iterations + 1),
                      measure=lambda g, st: float(st.row.max()), stop=below,
                      on_checkpoint=None if log is None else
                      (lambda t, m, st: log(t - 1, m)), label="max_regret")
        t, mr = run.iterations, run.value if run.history.size else mr
    sigma = state.sigma
    reg = regrets(cg, sigma, check=False)
    return PaperFP(sigma, t, mr, reg, float(reg.sum()), time.perf_counter() - start)
