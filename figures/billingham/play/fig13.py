"""Billingham Figs. 13 and 14: P = 9, L = 6 and 192, with S2 dashed; Fig. 13 at k = 0.001
(close to S2, smoother and further from S2 as L grows), Fig. 14 at k = 0.01 (larger
oscillations; a relaxation oscillation at L = 192)."""
from __future__ import annotations

from pathlib import Path

from pokerdyn.figures.base import Figure, FigureResult, described, finish, new_figure
from pokerdyn.figures.billingham.play.series import late_mean, payoff_numbers, plot_frequencies, rounds_for, run

LS = (6, 192)
ZOOM = 20_000  # bottom row: the start of the same run, where single cycles are visible


def pair(seed: int, quick: bool, k: float, name: str, fig_no: int) -> Figure:
    rounds = rounds_for(quick)
    fig, axes = new_figure(2, 2, size=(10, 6.8), sharey=True)
    numbers = {"rounds": rounds, "zoom": f"first {ZOOM} rounds, every 5th"}
    for j, L in enumerate(LS):
        res = run(k, L, rounds, seed)
        plot_frequencies(axes[0, j], res, point="S2", title=f"k = {k}, L = {L} (dashed: S2)")
        start = run(k, L, ZOOM, seed, n_points=ZOOM // 5)  # same seed: the same hands
        plot_frequencies(axes[1, j], start, point="S2",
                         title=f"k = {k}, L = {L}: first {ZOOM} rounds")
        numbers[f"L={L}: late-time mean frequencies"] = late_mean(res)
        numbers[f"L={L}: mean ex-showdown payoffs"] = payoff_numbers(res)
    axes[0, 0].legend(fontsize=7)
    return described(fig, name,
                     f"P = 9, k = {k} (estimator 'corrected': printed (44), (45), (47), (46) "
                     f"with its denominator corrected): frequencies for L = 6 and 192 with the "
                     f"equilibrium S2 dashed (top: whole run, 400 samples; bottom: its first 20000 "
                     f"rounds), and mean frequencies over the last quarter of the run.",
                     numbers, f"Billingham (three-player Kuhn), Fig. {fig_no}")


def figure(seed: int = 0, quick: bool = False) -> Figure:
    return pair(seed, quick, 0.001, "billingham_fig13", 13)


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/<name>.png``; its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick), out_dir)
