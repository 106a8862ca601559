"""Billingham Fig. 6: the expectations E1, E2, E3 of skp's equilibrium solutions against P."""
from __future__ import annotations

from pathlib import Path

from pokerdyn.figures.base import FigureResult
from pokerdyn.figures.billingham.equilibria.plots import family_figure


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    path, numbers = family_figure("skp", out_dir, "payoffs", "skp_expectations.png", quick)
    return FigureResult("skp_expectations", (path,),
                        "Ex-showdown expectations of skp's equilibrium families against P "
                        "(closed forms from the enumeration): player 1 does best in Solution 1, "
                        "player 2 in Solution 2, player 3 in Solution 3 for P > P*.",
                        numbers, "Billingham Fig. 6, eqs (15)-(17)")
