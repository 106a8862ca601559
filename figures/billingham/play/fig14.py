"""Billingham Fig. 14: P = 9, k = 0.01, L = 6 and 192, S2 dashed (see Fig. 13's module)."""
from __future__ import annotations

from pathlib import Path

from pokerdyn.figures.base import Figure, FigureResult, finish
from pokerdyn.figures.billingham.play.fig13 import pair


def figure(seed: int = 0, quick: bool = False) -> Figure:
    return pair(seed, quick, 0.01, "billingham_fig14", 14)


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/<name>.png``; its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick), out_dir)
