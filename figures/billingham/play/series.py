"""Shared pieces of the SKP repeated-play figures (Billingham Figs. 11-17): cached runs of
:func:`dynamics.play.repeated.simulate` / :func:`~dynamics.play.repeated.estimator_study`
and plot helpers that take an ``ax`` and return it."""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence

import numpy as np

from pokerdyn.dynamics.play.repeated import EstimatorStudy, SimulationResult, estimator_study, simulate
from pokerdyn.dynamics.skp_points import skp_point

POT = 9
# Figs. 11-15 (sec. 4.2): the printed estimators (44), (45), (47) with the denominator of
# (46) corrected (the printed (46) is biased: dynamics.play.estimators)
ESTIMATOR = "corrected"
FULL_ROUNDS = 10_000_000  # the paper's time series run to ~10^7 rounds
QUICK_ROUNDS = 200_000
COLORS = {"b_J": "tab:red", "c_K": "tab:blue", "d_Q": "tab:green"}
LABELS = {"b_J": "$b_J$ (Player 3)", "c_K": "$c_K$ (Player 1)", "d_Q": "$d_Q$ (Player 2)"}


def rounds_for(quick: bool) -> int:
    return QUICK_ROUNDS if quick else FULL_ROUNDS


@lru_cache(maxsize=64)
def run(k: float, L: int, rounds: int, seed: int, init: tuple[float, ...] | None = None,
        n_points: int = 400) -> SimulationResult:
    """One SKP run at P = 9 (12 deals, :data:`ESTIMATOR`); the seed of each (k, L, init)
    cell is spawned from ``seed`` and the cell's parameters, so figures sharing a cell
    share the run."""
    key = [int(seed), int(L), int(round(k * 1e7))] + [int(round(v * 1e6)) for v in init or ()]
    return simulate("skp", pot=POT, k=k, L=L, rounds=rounds, init=init,
                    seed=np.random.SeedSequence(key), n_points=n_points, estimator=ESTIMATOR)


@lru_cache(maxsize=4)
def study(quick: bool, seed: int) -> EstimatorStudy:
    """Billingham App. D: frequencies fixed at S3, P = 9 (1.1e7 rounds, first 1e6 dropped)."""
    if quick:
        return estimator_study(pot=POT, at="S3", L=(6, 24, 96), rounds=200_000,
                               discard=20_000, seed=seed)
    return estimator_study(pot=POT, at="S3", L=(6, 12, 24, 48, 96, 192, 384),
                           rounds=11_000_000, discard=1_000_000, seed=seed)


def plot_frequencies(ax, res: SimulationResult, point: str | None = None, title: str = ""):
    """b_J, c_K, d_Q against rounds; ``point`` (e.g. "S2") as dashed horizontal lines."""
    for j, name in enumerate(res.names):
        ax.plot(res.times, res.frequencies[:, j], color=COLORS[name], lw=0.8,
                label=LABELS[name])
        if point:
            ax.axhline(skp_point(point, POT)[name], color=COLORS[name], ls="--", lw=0.8)
    ax.set_ylim(0, 1)
    ax.set_xlabel("round")
    ax.set_ylabel("frequency")
    ax.set_title(title, fontsize=9)
    return ax


def payoff_numbers(res: SimulationResult) -> list[float]:
    """Mean ex-showdown payoffs per round (12-deal convention, as Billingham's Table 1)."""
    return [round(float(v), 4) for v in res.mean_payoffs]


def late_mean(res: SimulationResult, frac: float = 0.25) -> dict[str, float]:
    """Mean frequencies over the last ``frac`` of the run."""
    n = max(1, int(len(res.times) * frac))
    return {nm: round(float(v), 3) for nm, v in zip(res.names, res.frequencies[-n:].mean(0))}


def nearest_point(freqs: dict[str, float], points: Sequence[str] = ("S1", "S2")) -> str:
    dist = {p: np.linalg.norm([freqs[n] - v for n, v in skp_point(p, POT).items()])
            for p in points}
    return min(dist, key=dist.get)
