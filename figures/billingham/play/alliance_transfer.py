"""Alliances in repeated one-third street Kuhn poker with rotating seats (Billingham sec.
2.1): mean ex-showdown payoff per agent at a neutral table and at a table where agents A
and B are allied, at P = 5 (seat-3 bluff total 1/3 or 2/5, eq. (9)) and P = 9 (seat-1
Q-calls c_Q = 2/13 in Solution B); every player always plays an equilibrium of the
one-hand game.  Bars: simulation +- 2 batch-means standard errors; black marks: exact
expectations from the tree (:func:`dynamics.play.experiments.exact_table_payoffs`)."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from pokerdyn.dynamics.play.experiments import alliance_experiment

from pokerdyn.figures.base import Figure, FigureResult, described, finish, new_figure


def figure(seed: int = 0, quick: bool = False) -> Figure:
    rounds = 200_000 if quick else 20_000_000
    fig, axes = new_figure(1, 2, size=(10, 4), sharey=True)
    numbers = {"rounds per table": rounds}
    for ax, pot in zip(axes, (5, 9)):
        ex = alliance_experiment(pot, rounds=rounds, seed=seed)
        x = np.arange(3)
        for off, (lab, res, exact) in zip((-0.2, 0.2), (("neutral", ex.neutral,
                                                        ex.exact_neutral),
                                                       ("A+B allied", ex.alliance,
                                                        ex.exact_alliance))):
            ax.bar(x + off, res.mean_payoffs, 0.38, yerr=2 * res.stderr(), capsize=3,
                   label=lab, alpha=0.75)
            ax.plot(x + off, [float(v) for v in exact], "k_", ms=18, mew=2)
            numbers[f"P={pot} {lab}: simulated mean (A, B, C)"] = [round(v, 5) for v in
                                                                   res.mean_payoffs]
            numbers[f"P={pot} {lab}: exact (A, B, C)"] = [str(v) for v in exact]
        numbers[f"P={pot}: alliance pooled mean (exact {sum(ex.exact_alliance[:2])})"] = \
            round(ex.alliance.pooled[0], 5)
        d, se = ex.shift()
        numbers[f"P={pot}: allied - neutral per agent (A, B, C)"] = [round(float(v), 5)
                                                                     for v in d]
        numbers[f"P={pot}: its standard error (common random numbers)"] = [
            round(float(v), 5) for v in se]
        ax.axhline(0, color="grey", lw=0.6)
        ax.set_xticks(x, ["A", "B", "C (outsider)"])
        ax.set_title(f"kuhn3-third, P = {pot}, seats rotating", fontsize=9)
        ax.set_ylabel("mean ex-showdown payoff per hand")
    axes[0].legend(fontsize=8)
    return described(
        fig, "alliance_transfer",
        "Two allied agents who use the equilibrium's free parameter by seat (P = 5: bluff "
        "total; P = 9: Q-calls) take 1/360 (P = 5) or 1/468 (P = 9) chips per hand from the "
        "outsider, although every player always plays an equilibrium strategy. Both tables "
        "use the same random numbers, so the allied - neutral shift (key numbers) is resolved "
        "even in quick mode, where the bars themselves are too noisy.",
        numbers, "Billingham (three-player Kuhn), sec. 2.1, eqs. (3), (6), (9), (11)")


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/<name>.png``; its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick), out_dir)
