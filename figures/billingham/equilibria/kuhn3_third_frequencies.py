"""Billingham Fig. 2: equilibrium bluffing and calling frequencies of one-third street
three-player Kuhn poker against P; free parameters' ranges shaded, P = 2, 5, P* marked
(all found by the enumeration, none typed in)."""
from __future__ import annotations

from pathlib import Path

from pokerdyn.figures.base import FigureResult
from pokerdyn.figures.billingham.equilibria.plots import family_figure


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    path, numbers = family_figure("kuhn3-third", out_dir, "strategy",
                                  "kuhn3_third_frequencies.png", quick)
    return FigureResult("kuhn3_third_frequencies", (path,),
                        "Equilibrium frequencies of kuhn3-third against P from the exact "
                        "families; shaded bands are the ranges a family's free parameters "
                        "allow (e.g. b_J, b_Q with b_J + b_Q fixed).", numbers,
                        "Billingham Fig. 2, eqs (1)-(6)")
