"""One module per figure of the reference papers; see figures.registry.FIGURES.

Each module defines ``main(out_dir, seed=0, quick=False) -> FigureResult`` using only the
public API of games/solvers/dynamics, and writes its PNG(s) into ``out_dir``.
"""
from figures.base import FigureResult

__all__ = ["FigureResult"]
