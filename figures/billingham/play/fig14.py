"""Billingham Fig. 14: P = 9, k = 0.01, L = 6 and 192, S2 dashed (see Fig. 13's module)."""
from __future__ import annotations

from pathlib import Path

from pokerdyn.figures.base import FigureResult
from pokerdyn.figures.billingham.play.fig13 import pair


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    return pair(out_dir, seed, quick, 0.01, "billingham_fig14", 14)
