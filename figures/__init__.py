"""One module per figure of the reference papers; see figures.registry.FIGURES.

Each module defines ``main(out_dir, seed=0, quick=False) -> FigureResult`` using only the
public API of games/solvers/dynamics, and writes its PNG(s) into ``out_dir``.
"""
from __future__ import annotations

__all__ = ["FigureResult"]


def __getattr__(name: str):
    # lazy: importing figures.registry (every CLI start) must not import matplotlib
    if name == "FigureResult":
        from pokerdyn.figures.base import FigureResult
        return FigureResult
    raise AttributeError(f"module 'figures' has no attribute {name!r}")
