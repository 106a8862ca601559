"""Billingham Fig. 5: the equilibrium solutions of simplified one-third street three-player
Kuhn poker (skp), b_J, c_K and d_Q against the pot P, from the exact enumeration."""
from __future__ import annotations

from pathlib import Path

from pokerdyn.figures.base import FigureResult
from pokerdyn.figures.billingham.equilibria.plots import family_figure


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    path, numbers = family_figure("skp", out_dir, "strategy", "skp_solutions.png", quick)
    return FigureResult("skp_solutions", (path,),
                        "Equilibrium frequencies of skp against P from the exact families: one "
                        "solution for P < 5 (never bluff, never call), a range of b_J at P = 5, "
                        "one solution for 5 < P < P*, and Billingham's Solutions 1-3 for "
                        "P >= P* = (5 + sqrt 73)/2.", numbers, "Billingham Fig. 5, eqs (12)-(14)")
