"""Billingham Fig. 11: SKP repeated play at P = 9 from near S3 for k in {0.01, 0.001} and
L in {6, 12, 24}; the key numbers are each run's mean ex-showdown payoffs (the paper's
Table 1, withheld there: derived here from the simulation)."""
from __future__ import annotations

from pathlib import Path

from pokerdyn.figures.base import Figure, FigureResult, described, finish, new_figure
from pokerdyn.figures.billingham.play.series import payoff_numbers, plot_frequencies, rounds_for, run

KS = (0.01, 0.001)
LS = (6, 12, 24)


def grid(seed: int, quick: bool, Ls, name: str, fig_no: int) -> Figure:
    rounds = rounds_for(quick)
    fig, axes = new_figure(len(KS), len(Ls), size=(4 * len(Ls), 6.4), sharex=True)
    numbers = {"rounds": rounds}
    for i, k in enumerate(KS):
        for j, L in enumerate(Ls):
            res = run(k, L, rounds, seed)
            plot_frequencies(axes[i, j], res, title=f"k = {k}, L = {L}")
            numbers[f"k={k} L={L}: mean ex-showdown payoffs (P1, P2, P3)"] = payoff_numbers(res)
    axes[0, 0].legend(fontsize=7, loc="upper right")
    return described(
        fig, name,
        f"Frequencies b_J, c_K, d_Q against rounds at P = 9 from S3 + 0.01 (12 deals; "
        f"estimator 'corrected': the printed (44), (45), (47) and (46) with its denominator "
        f"corrected), k in {KS}, L in {tuple(Ls)}; mean ex-showdown payoffs per "
        f"round (12-deal convention: S2 gives twice (16) = -0.130, -0.104, 0.233).",
        numbers, f"Billingham (three-player Kuhn), Fig. {fig_no} and Table 1")


def figure(seed: int = 0, quick: bool = False) -> Figure:
    return grid(seed, quick, LS, "billingham_fig11", 11)


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/<name>.png``; its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick), out_dir)
