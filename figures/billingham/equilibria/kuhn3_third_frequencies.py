"""Billingham Fig. 2: equilibrium bluffing and calling frequencies of one-third street
three-player Kuhn poker against P; free parameters' ranges shaded, P = 2, 5, P* marked
(all found by the enumeration, none typed in)."""
from __future__ import annotations

from pathlib import Path

from pokerdyn.figures.base import Figure, FigureResult, described, finish
from pokerdyn.figures.billingham.equilibria.plots import family_plot


def figure(seed: int = 0, quick: bool = False, out_dir: Path | None = None) -> Figure:
    """The figure (the families cached in ``out_dir`` when given)."""
    fig, numbers = family_plot("kuhn3-third", "strategy", quick, out_dir=out_dir)
    return described(fig, "kuhn3_third_frequencies",
                     "Equilibrium frequencies of kuhn3-third against P from the exact "
                     "families; shaded bands are the ranges a family's free parameters "
                     "allow (e.g. b_J, b_Q with b_J + b_Q fixed).", numbers,
                     "Billingham Fig. 2, eqs (1)-(6)")


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/kuhn3_third_frequencies.png`` (the families cached
    there); its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick, out_dir=out_dir), out_dir)
