"""The explicit registry of figure modules run by ``pokerdyn reproduce`` (in this order).
Adding a figure is one line here: name -> module path."""
from __future__ import annotations

import importlib
from types import ModuleType

from pokerdyn.games.errors import GameError

FIGURES: dict[str, str] = {
    "fp_convergence": "pokerdyn.figures.convergence.fp_convergence",
    "river_value_bet_size": "pokerdyn.figures.river.value_bet_size",
    "river_strategy_tree": "pokerdyn.figures.river.strategy_tree",
    "river_table13": "pokerdyn.figures.river.table13",
    "convergence_compare": "pokerdyn.figures.convergence.convergence_compare",
    "ode_cycles": "pokerdyn.figures.billingham.ode.cycles",
    "ode_manifold": "pokerdyn.figures.billingham.ode.manifold",
    "ode_fates": "pokerdyn.figures.billingham.ode.fates",
    "ode_expectations": "pokerdyn.figures.billingham.ode.expectations",
    "ode_portrait3d": "pokerdyn.figures.billingham.ode.portrait3d",
    "ode_basin": "pokerdyn.figures.billingham.ode.basin",
    "billingham_fig11": "pokerdyn.figures.billingham.play.fig11",
    "billingham_fig12": "pokerdyn.figures.billingham.play.fig12",
    "billingham_fig13": "pokerdyn.figures.billingham.play.fig13",
    "billingham_fig14": "pokerdyn.figures.billingham.play.fig14",
    "billingham_fig15": "pokerdyn.figures.billingham.play.fig15",
    "billingham_fig16": "pokerdyn.figures.billingham.play.fig16",
    "billingham_fig17": "pokerdyn.figures.billingham.play.fig17",
    "billingham_table1": "pokerdyn.figures.billingham.play.table1",
    "alliance_transfer": "pokerdyn.figures.billingham.play.alliance_transfer",
    "kuhn3_third_frequencies": "pokerdyn.figures.billingham.equilibria.kuhn3_third_frequencies",
    "kuhn3_third_expectations": "pokerdyn.figures.billingham.equilibria.kuhn3_third_expectations",
    "skp_solutions": "pokerdyn.figures.billingham.equilibria.skp_solutions",
    "skp_expectations": "pokerdyn.figures.billingham.equilibria.skp_expectations",
    "full_street_dynamics": "pokerdyn.figures.frontier.full_street_dynamics",
    "qre_selection": "pokerdyn.figures.qre.selection",
    "qre_stability": "pokerdyn.figures.qre.stability",
    "n_card": "pokerdyn.figures.frontier.n_card",
    "n_card_midrange": "pokerdyn.figures.frontier.n_card_midrange",
    "full_street": "pokerdyn.figures.frontier.full_street",
    "kuhn3_family": "pokerdyn.figures.frontier.kuhn3_family",
    "kuhn3_pot": "pokerdyn.figures.frontier.kuhn3_pot",
    "kuhn3_p4_curves": "pokerdyn.figures.frontier.kuhn3_p4_curves",
    "mercer_tables_2p": "pokerdyn.figures.mercer.tables_2p",
    "mercer_tables_3p": "pokerdyn.figures.mercer.tables_3p",
    "mercer_table7": "pokerdyn.figures.mercer.table7",
    "mercer_table8": "pokerdyn.figures.mercer.table8",
    "mercer_fig2": "pokerdyn.figures.mercer.fig2",
    "mercer_epsilon": "pokerdyn.figures.mercer.epsilon",
    "mercer_pot": "pokerdyn.figures.mercer.pot",
    "mercer_colluders": "pokerdyn.figures.mercer.colluders",
    "mercer_strong": "pokerdyn.figures.mercer.strong",
    "mercer_report": "pokerdyn.figures.mercer.report",
    "tournament_chart": "pokerdyn.figures.tournament.chart",
    "tournament_fp_hedge": "pokerdyn.figures.tournament.fp_hedge",
}


def load(name: str) -> ModuleType:
    """Import the figure module registered as ``name``."""
    if name not in FIGURES:
        raise GameError(f"unknown figure {name!r}; available: {', '.join(FIGURES)}")
    return importlib.import_module(FIGURES[name])
