"""One module per figure of the reference papers; see figures.registry.FIGURES.

A module that draws defines ``figure(seed=0, quick=False, ...) -> Figure``, which returns
its matplotlib Figure (not saved: PNG, SVG or PDF is the caller's choice; ``fig.summary``
and ``fig.numbers`` say what it shows), and ``main(out_dir, seed=0, quick=False) ->
FigureResult``, which saves it (and any table beside it) into ``out_dir``; a table module
(the Mercer tables) defines ``main`` only.  Figures compute through the library, never a
script, and importing them leaves matplotlib's backend as it is.
``pokerdyn.reproduce`` (``pokerdyn reproduce``) runs them all.
"""
from __future__ import annotations

__all__ = ["FigureResult"]


def __getattr__(name: str):
    # lazy: importing figures.registry (every CLI start) must not import matplotlib
    if name == "FigureResult":
        from pokerdyn.figures.base import FigureResult
        return FigureResult
    raise AttributeError(f"module 'figures' has no attribute {name!r}")
