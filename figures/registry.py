"""The explicit registry of figure modules run by ``pokerdyn reproduce`` (in this order).
Adding a figure is one line here: name -> module path."""
from __future__ import annotations

import importlib
from types import ModuleType

FIGURES: dict[str, str] = {
    "fp_convergence": "figures.convergence.fp_convergence",
    "river_value_bet_size": "figures.river.value_bet_size",
    "river_strategy_tree": "figures.river.strategy_tree",
    "river_table13": "figures.river.table13",
    "convergence_compare": "figures.convergence.convergence_compare",
    "ode_cycles": "figures.billingham.ode.cycles",
    "ode_manifold": "figures.billingham.ode.manifold",
    "ode_fates": "figures.billingham.ode.fates",
    "ode_expectations": "figures.billingham.ode.expectations",
    "ode_portrait3d": "figures.billingham.ode.portrait3d",
    "ode_basin": "figures.billingham.ode.basin",
    "billingham_fig11": "figures.billingham.play.fig11",
    "billingham_fig12": "figures.billingham.play.fig12",
    "billingham_fig13": "figures.billingham.play.fig13",
    "billingham_fig14": "figures.billingham.play.fig14",
    "billingham_fig15": "figures.billingham.play.fig15",
    "billingham_fig16": "figures.billingham.play.fig16",
    "billingham_fig17": "figures.billingham.play.fig17",
    "billingham_table1": "figures.billingham.play.table1",
    "alliance_transfer": "figures.billingham.play.alliance_transfer",
    "kuhn3_third_frequencies": "figures.billingham.equilibria.kuhn3_third_frequencies",
    "kuhn3_third_expectations": "figures.billingham.equilibria.kuhn3_third_expectations",
    "skp_solutions": "figures.billingham.equilibria.skp_solutions",
    "skp_expectations": "figures.billingham.equilibria.skp_expectations",
    "full_street_dynamics": "figures.frontier.full_street_dynamics",
    "qre_selection": "figures.qre.selection",
    "qre_stability": "figures.qre.stability",
    "n_card": "figures.frontier.n_card",
    "n_card_midrange": "figures.frontier.n_card_midrange",
    "full_street": "figures.frontier.full_street",
    "kuhn3_family": "figures.frontier.kuhn3_family",
    "kuhn3_pot": "figures.frontier.kuhn3_pot",
    "kuhn3_p4_curves": "figures.frontier.kuhn3_p4_curves",
    "mercer_tables_2p": "figures.mercer.tables_2p",
    "mercer_tables_3p": "figures.mercer.tables_3p",
    "mercer_table7": "figures.mercer.table7",
    "mercer_table8": "figures.mercer.table8",
    "mercer_fig2": "figures.mercer.fig2",
    "mercer_epsilon": "figures.mercer.epsilon",
    "mercer_pot": "figures.mercer.pot",
    "mercer_colluders": "figures.mercer.colluders",
    "mercer_strong": "figures.mercer.strong",
    "mercer_report": "figures.mercer.report",
    "tournament_chart": "figures.tournament.chart",
    "tournament_fp_hedge": "figures.tournament.fp_hedge",
}


def load(name: str) -> ModuleType:
    """Import the figure module registered as ``name``."""
    if name not in FIGURES:
        raise ValueError(f"unknown figure {name!r}; available: {', '.join(FIGURES)}")
    return importlib.import_module(FIGURES[name])
