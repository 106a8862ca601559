"""The CFR family's variants against each other: NashConv of the average profile against
wall-clock time and against iterations for CFR, CFR+, linear CFR, discounted CFR, predictive
CFR+ and PDCFR+ (``pokerdyn.solvers.learning.cfr_plus``), each run from the uniform profile
for the same time budget on Leduc and the river game, and (full mode) OpenSpiel's 3-player
Leduc and 3-player Mercer mini hold'em."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from pokerdyn.games import compile_game, get_game
from pokerdyn.solvers.methods import CFR_METHODS
from pokerdyn.solvers.methods.compare import compare

from pokerdyn.figures.base import Figure, FigureResult, described, finish, new_figure

# game -> seconds per variant (full mode; quick mode: QUICK_BUDGET and the first three games)
GAMES: dict[str, float] = {"leduc": 20.0, "river": 2.0,
                           "openspiel:leduc_poker(players=3)": 30.0,
                           "mercer-mmh(players=3)": 60.0}
QUICK_BUDGET = 0.5
COLOURS = {"cfr": "0.55", "cfr+": "k", "lcfr": "tab:orange", "dcfr": "tab:blue",
           "pcfr+": "tab:green", "pdcfr+": "tab:red"}


def _games(quick: bool) -> dict[str, float]:
    if not quick:
        try:  # OpenSpiel is optional: without it, the figure keeps the other games
            import pyspiel  # noqa: F401
            return dict(GAMES)
        except ImportError:
            return {g: b for g, b in GAMES.items() if not g.startswith("openspiel:")}
    return {g: QUICK_BUDGET for g in list(GAMES)[:2]}


def figure(seed: int = 0, quick: bool = False) -> Figure:
    games = _games(quick)
    fig, axes = new_figure(len(games), 2, size=(10, 3.4 * len(games)), squeeze=False)
    numbers: dict[str, str] = {}
    for row, (spec, budget) in zip(axes, games.items()):
        cg = compile_game(get_game(spec))
        runs = compare(cg, CFR_METHODS, seconds=budget)
        for m, res in runs.items():
            h = res.history
            nc = np.maximum(h[:, 1], 1e-16)
            style = dict(color=COLOURS[m], lw=1.4, label=m)
            row[0].loglog(np.maximum(h[:, 2], 1e-4), nc, **style)
            row[1].loglog(h[:, 0], nc, **style)
            numbers[f"{spec} {m}"] = (f"NashConv {res.nash_conv:.2e} after {res.iterations:,} "
                                      f"it. ({res.seconds:.1f} s)")
        row[0].set_xlabel("wall-clock time (s)")
        row[1].set_xlabel("iteration")
        for ax in row:
            ax.set_ylabel("NashConv (chips, sum over players)")
            ax.set_title(f"{spec} ({cg.n_nodes:,} histories; {budget:g} s each)",
                         fontsize=9)
            ax.grid(True, which="major", lw=0.3)
        row[0].legend(fontsize=8, title="variant", title_fontsize=8)
    fig.suptitle("The CFR family: NashConv of the average profile, from the uniform profile",
                 fontsize=10)
    return described(fig, "convergence_cfr_variants",
                     "NashConv of the average profile of each CFR variant against time "
                     "(left) and iterations (right), each variant given the same wall-clock "
                     "budget. Discounted CFR leads on the poker games with betting after a "
                     "board (Brown and Sandholm 2019); predictive CFR+ and PDCFR+ lead on the "
                     "small games and trail CFR+ on Leduc, as Farina, Kroer and Sandholm "
                     "(2021) report for two of their poker games; vanilla CFR and linear CFR "
                     "are slowest.", numbers,
                     "Brown & Sandholm 2019; Farina, Kroer & Sandholm 2021; Xu et al. 2024")


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/<name>.png``; its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick), out_dir)
