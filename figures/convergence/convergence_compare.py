"""Convergence of fictitious play, multiplicative weights (hedge) and CFR+ on the same games:
NashConv of the output profile against iterations and against wall-clock time, for the
river game (R1 vs R1, one bet of 0.5) and 3-player Kuhn poker."""
from __future__ import annotations

from pathlib import Path
from typing import Mapping

import numpy as np

from pokerdyn.games import compile_game, get_game
from pokerdyn.solvers.methods.compare import compare
from pokerdyn.solvers.iterative import SolverResult

from pokerdyn.figures.base import Figure, FigureResult, described, finish, new_figure

METHODS = ("fp", "hedge", "cfr+")
GAMES = ("river", "kuhn3")
ITERATIONS = {"river": 1_000_000, "kuhn3": 200_000}  # full mode; quick mode: 1/200


def plot_convergence(ax_iter, ax_time, results: Mapping[str, SolverResult], title: str = ""):
    """NashConv against iterations on ``ax_iter`` and against seconds on ``ax_time``
    (log-log); returns the two axes."""
    for name, res in results.items():
        h = res.history
        nc = np.maximum(h[:, 1], 1e-16)
        if name == "lp":
            ax_time.axvline(h[0, 2], color="k", ls=":", lw=1, label=f"lp ({h[0, 2]:.3f} s)")
            continue
        ax_iter.loglog(h[:, 0], nc, label=name)
        ax_time.loglog(np.maximum(h[:, 2], 1e-6), nc, label=name)
    ax_iter.set_xlabel("iteration")
    ax_time.set_xlabel("seconds")
    for ax in (ax_iter, ax_time):
        ax.set_ylabel("NashConv")
        ax.set_title(title, fontsize=9)
        ax.legend(fontsize=8)
    return ax_iter, ax_time


def figure(seed: int = 0, quick: bool = False) -> Figure:
    scale = 200 if quick else 1  # quick: enough for the curves to separate
    fig, axes = new_figure(len(GAMES), 2, size=(10, 4 * len(GAMES)))
    numbers = {}
    for row, name in zip(axes, GAMES):
        cg = compile_game(get_game(name))
        iters = ITERATIONS[name] // scale
        results = compare(cg, METHODS, seconds=None, iterations=iters)
        plot_convergence(row[0], row[1], results, title=name)
        for m, res in results.items():
            numbers[f"{name} {m}: NashConv after {iters} it."] = \
                f"{res.nash_conv:.2e} ({res.seconds:.2f} s)"
    return described(fig, "convergence_compare",
                     "NashConv of fictitious play, per-information-set multiplicative "
                     "weights (hedge) and CFR+ against iterations and time, each run for "
                     "the same number of iterations from the uniform profile (the "
                     "iteration axis is deterministic, the time axis is measured). CFR+ "
                     "falls roughly like "
                     "1/t, fictitious play more slowly and with oscillations, hedge "
                     "slowest (like 1/sqrt(t)), as Ganzfried reports for FP vs hedge.",
                     numbers, "Ganzfried (tournaments) sec. 7; Tammelin (CFR+); pokerdyn")


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/<name>.png``; its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick), out_dir)
