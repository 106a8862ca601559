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
    """
    if check_every < 1:
        raise GameError(f"check_every={check_every} is outside [1, inf)")
    fp = FictitiousPlay(schedule="simultaneous", averaging="infoset")
    t0, s0 = (0, uniform_strategy(cg)) if resume is None else _check_resume(cg, resume)
    sigma = fp.init(cg, s0)
    start = time.perf_counter()
    t, mr, k = t0, float("inf"), check_every
    saved = (t, sigma.copy())
    row = np.empty((1, cg.n_players))
    while t < max_iterations:
        if k == 1:  # the regret before the update, from the update's own best responses
            fp.advance(cg, sigma, t, 1, regrets=row)  # the Java averages them in, also last
            mr = float(row.max())
            if log is not None:
                log(t, mr)
            t += 1
            if mr < epsilon:
                break
            continue
        if t % k == 0:
            mr = max_regret(cg, sigma, check=False)
            if log is not None:
                log(t, mr)
            if mr < epsilon:                    # replay the window one check per iteration
                t, sigma = saved[0], saved[1].copy()
                k = 1
                continue
            saved = (t, sigma.copy())
        fp.advance(cg, sigma, t, 1)
        t += 1
    reg = regrets(cg, sigma, check=False)
    return PaperFP(sigma, t, mr, reg, float(reg.sum()), time.perf_counter() - start)
