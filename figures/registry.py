"""The explicit registry of figure modules run by ``pokerdyn reproduce`` (in this order).
Adding a figure is one line here: name -> module path."""
from __future__ import annotations

import importlib
from types import ModuleType

FIGURES: dict[str, str] = {
    "fp_convergence": "figures.fp_convergence",
    "kuhn3_third_frequencies": "figures.kuhn3_third_frequencies",
    "kuhn3_third_expectations": "figures.kuhn3_third_expectations",
    "skp_solutions": "figures.skp_solutions",
    "skp_expectations": "figures.skp_expectations",
}


def load(name: str) -> ModuleType:
    """Import the figure module registered as ``name``."""
    if name not in FIGURES:
        raise ValueError(f"unknown figure {name!r}; available: {', '.join(FIGURES)}")
    return importlib.import_module(FIGURES[name])
