"""Billingham Fig. 5: the equilibrium solutions of simplified one-third street three-player
Kuhn poker (skp), b_J, c_K and d_Q against the pot P, from the exact enumeration."""
from __future__ import annotations

from pathlib import Path

from pokerdyn.figures.base import Figure, FigureResult, described, finish
from pokerdyn.figures.billingham.equilibria.plots import family_plot


def figure(seed: int = 0, quick: bool = False, out_dir: Path | None = None) -> Figure:
    """The figure (the families cached in ``out_dir`` when given)."""
    fig, numbers = family_plot("skp", "strategy", quick, out_dir=out_dir)
    return described(fig, "skp_solutions",
                     "Equilibrium frequencies of skp against P from the exact families: one "
                     "solution for P < 5 (never bluff, never call), a range of b_J at P = 5, "
                     "one solution for 5 < P < P*, and Billingham's Solutions 1-3 for "
                     "P >= P* = (5 + sqrt 73)/2.", numbers, "Billingham Fig. 5, eqs (12)-(14)")


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/skp_solutions.png`` (the families cached
    there); its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick, out_dir=out_dir), out_dir)
