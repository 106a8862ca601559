"""The explicit registry of figure modules run by ``pokerdyn reproduce`` (in this order).
Adding a figure is one line here: name -> module path."""
from __future__ import annotations

import importlib
from types import ModuleType

FIGURES: dict[str, str] = {
    "fp_convergence": "figures.fp_convergence",
    "river_value_bet_size": "figures.river_value_bet_size",
    "river_strategy_tree": "figures.river_strategy_tree",
    "convergence_compare": "figures.convergence_compare",
    "ode_cycles": "figures.ode_cycles",
    "ode_manifold": "figures.ode_manifold",
    "ode_fates": "figures.ode_fates",
    "ode_expectations": "figures.ode_expectations",
    "ode_portrait3d": "figures.ode_portrait3d",
    "ode_basin": "figures.ode_basin",
    "billingham_fig11": "figures.billingham_fig11",
    "billingham_fig12": "figures.billingham_fig12",
    "billingham_fig13": "figures.billingham_fig13",
    "billingham_fig14": "figures.billingham_fig14",
    "billingham_fig15": "figures.billingham_fig15",
    "billingham_fig16": "figures.billingham_fig16",
    "billingham_fig17": "figures.billingham_fig17",
    "alliance_transfer": "figures.alliance_transfer",
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
