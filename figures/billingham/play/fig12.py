"""Billingham Fig. 12: as Fig. 11 for L in {48, 96, 192} (quick mode: the same L, fewer
rounds)."""
from __future__ import annotations

from pathlib import Path

from pokerdyn.figures.base import FigureResult
from pokerdyn.figures.billingham.play.fig11 import grid

LS = (48, 96, 192)


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    return grid(out_dir, seed, quick, LS, "billingham_fig12", 12)
