"""Game value of the river game against the bet size, both players with distribution R1
(Papadopoulos Fig. 4) and with R4 (Fig. 5), one and two bets, solved exactly by the
sequence-form LP (pot 1)."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from pokerdyn.games import compile_game
from pokerdyn.games.catalog.registry import make_game
from pokerdyn.games.catalog.river import DISTRIBUTIONS
from pokerdyn.solvers import solve_lp

from pokerdyn.figures.base import Figure, FigureResult, described, finish, new_figure

QUICK_GRID = (0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0)


def value_curve(dist: str, max_bets: int, bet_sizes) -> np.ndarray:
    """Player 1's equilibrium payoff for each bet size (both players hold ``dist``)."""
    d = DISTRIBUTIONS[dist]
    return np.array([solve_lp(compile_game(make_game(
        "river", dist1=d, dist2=d, max_bets=max_bets, bet_size=float(b)))).value
        for b in bet_sizes])


def plot_value_curves(ax, bet_sizes, curves: dict[str, np.ndarray], title: str):
    """One line per labelled curve of game value against bet size; returns ``ax``."""
    for label, v in curves.items():
        ax.plot(bet_sizes, v, marker="." if len(bet_sizes) < 20 else None, label=label)
    ax.axhline(0, color="k", lw=0.5)
    ax.axvline(1, color="grey", lw=0.5, ls=":")
    ax.set_xlabel("bet size (pot = 1)")
    ax.set_ylabel("game value (player 1's payoff)")
    ax.set_title(title)
    ax.legend()
    return ax


def figure(seed: int = 0, quick: bool = False) -> Figure:
    grid = np.array(QUICK_GRID) if quick else np.round(np.linspace(0.1, 5.0, 50), 6)
    fig, axes = new_figure(1, 2, size=(11, 4.2))
    numbers = {}
    for ax, dist, fig_no in zip(axes, ("R1", "R4"), (4, 5)):
        curves = {f"{k} bet{'s' if k > 1 else ''}": value_curve(dist, k, grid) for k in (1, 2)}
        plot_value_curves(ax, grid, curves, f"both players {dist} (Papadopoulos Fig. {fig_no})")
        for label, v in curves.items():
            i = int(np.argmin(v))
            numbers[f"{dist}, {label}: value at bet 1"] = f"{v[np.argmin(abs(grid - 1))]:+.4f}"
            numbers[f"{dist}, {label}: lowest value (bet size)"] = f"{v[i]:+.4f} ({grid[i]:g})"
    return described(
        fig, "river_value_bet_size",
        "Equilibrium game value (player 1's expected payoff, pot 1) of the river game against "
        "the bet size, both players holding R1 = (.1,.2,.3,.4) or R4 = (.05,.3,.45,.2), with "
        "one bet or bet-and-raise, by the sequence-form LP. The value is never positive: the "
        "second player has the advantage. With one bet it is lowest at a pot-sized bet (R1) or "
        "near it; with two bets the minimum moves slightly below the pot (0.7-0.8 on the fine "
        "grid), which the paper's coarse grid (0.5, 1, 2, 3, 5) cannot show. Above a bet of "
        "about 2 the one- and two-bet curves coincide (sec. 5.2).",
        numbers, "Papadopoulos, Figs. 4 and 5 (sec. 5.1)")


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/<name>.png``; its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick), out_dir)
