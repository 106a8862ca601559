"""Fictitious-play convergence (NashConv against iterations, log-log) for kuhn, kuhn3 and
skp at P = 9: the damped cycling that the hold'em-builder paper (Mercer) describes."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from pokerdyn.games import compile_game, get_game
from pokerdyn.solvers import fictitious_play

from pokerdyn.figures.base import Figure, FigureResult, described, finish, new_figure

CASES = (("kuhn", {}), ("kuhn3", {}), ("skp", {"P": 9}))


def figure(seed: int = 0, quick: bool = False) -> Figure:
    iters = 2_000 if quick else 100_000
    fig, ax = new_figure()
    numbers = {}
    for name, vals in CASES:
        cg = compile_game(get_game(name), **vals)
        for schedule, ls in (("simultaneous", "-"), ("alternating", "--")):
            res = fictitious_play(cg, iterations=iters, schedule=schedule)
            h = res.history
            ax.loglog(h[:, 0], np.maximum(h[:, 1], 1e-16), ls, label=f"{name} ({schedule})")
            numbers[f"{name} {schedule}: NashConv after {iters} it."] = f"{res.nash_conv:.3e}"
    ax.set_xlabel("iteration")
    ax.set_ylabel("NashConv of the average strategy")
    ax.set_title("Fictitious play (reach-weighted averaging), P = 9 for skp")
    ax.legend(fontsize=8)
    return described(fig, "fp_convergence",
                     "NashConv of the fictitious-play average profile against iterations "
                     "(log-log), simultaneous and alternating updates. The curves fall "
                     "roughly like 1/t with superimposed oscillations: the damped cycling "
                     "of best responses around the equilibrium.",
                     numbers, "Mercer (hold'em builder) sec. on fictitious play; pokerdyn")


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/<name>.png``; its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick), out_dir)
