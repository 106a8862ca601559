"""Billingham Fig. 12: as Fig. 11 for L in {48, 96, 192} (quick mode: the same L, fewer
rounds)."""
from __future__ import annotations

from pathlib import Path

from pokerdyn.figures.base import Figure, FigureResult, finish
from pokerdyn.figures.billingham.play.fig11 import grid

LS = (48, 96, 192)


def figure(seed: int = 0, quick: bool = False) -> Figure:
    return grid(seed, quick, LS, "billingham_fig12", 12)


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/<name>.png``; its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick), out_dir)
