"""Billingham Fig. 6: the expectations E1, E2, E3 of skp's equilibrium solutions against P."""
from __future__ import annotations

from pathlib import Path

from pokerdyn.figures.base import Figure, FigureResult, described, finish
from pokerdyn.figures.billingham.equilibria.plots import family_plot


def figure(seed: int = 0, quick: bool = False, out_dir: Path | None = None) -> Figure:
    """The figure (the families cached in ``out_dir`` when given)."""
    fig, numbers = family_plot("skp", "payoffs", quick, out_dir=out_dir)
    return described(fig, "skp_expectations",
                     "Ex-showdown expectations of skp's equilibrium families against P "
                     "(closed forms from the enumeration): player 1 does best in Solution 1, "
                     "player 2 in Solution 2, player 3 in Solution 3 for P > P*.",
                     numbers, "Billingham Fig. 6, eqs (15)-(17)")


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/skp_expectations.png`` (the families cached
    there); its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick, out_dir=out_dir), out_dir)
