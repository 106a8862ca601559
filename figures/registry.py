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
    "convergence_cfr_variants": "pokerdyn.figures.convergence.cfr_variants",
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



# Seconds of each figure in a quick run (``reproduce --quick``, warm numba cache, 2 jobs on
# the 2-core box of 2026-11-29, other work running): the weights of the progress bar, so that
# its estimate of the time left follows what is left rather than the count of figures.
QUICK_SECONDS: dict[str, float] = {
    "full_street_dynamics": 18.0, "n_card": 1.5, "n_card_midrange": 1.8,
    "mercer_tables_2p": 24.4, "full_street": 6.5, "kuhn3_family": 8.6,
    "mercer_tables_3p": 14.8, "mercer_table7": 0.1, "kuhn3_pot": 6.5,
    "kuhn3_p4_curves": 1.2, "mercer_table8": 9.1, "billingham_fig11": 5.3,
    "billingham_fig12": 2.0, "billingham_fig13": 1.6, "billingham_fig14": 2.4,
    "billingham_fig15": 1.5, "billingham_fig16": 0.9, "billingham_fig17": 0.9,
    "mercer_fig2": 12.2, "mercer_epsilon": 1.3, "mercer_pot": 1.3, "mercer_colluders": 1.5,
    "mercer_strong": 0.1, "mercer_report": 0.1, "billingham_table1": 9.7,
    "qre_selection": 6.1, "alliance_transfer": 3.2, "qre_stability": 1.5,
    "fp_convergence": 2.4, "ode_cycles": 5.2, "ode_manifold": 1.1,
    "convergence_compare": 4.9, "convergence_cfr_variants": 9.0, "ode_fates": 1.3, "ode_expectations": 1.5,
    "ode_portrait3d": 1.4, "river_value_bet_size": 4.2, "river_strategy_tree": 0.8,
    "ode_basin": 2.1, "river_table13": 6.5, "kuhn3_third_frequencies": 7.8,
    "kuhn3_third_expectations": 1.6, "tournament_chart": 4.2, "skp_solutions": 1.6,
    "skp_expectations": 1.9, "tournament_fp_hedge": 3.5,
}

# The reference papers, each with the figure-name prefixes of its figures (the report and
# the documentation's gallery group the figures by these, in this order)
PAPERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Billingham: three-player Kuhn poker, its equilibria and adaptive dynamics",
     ("billingham_", "skp_", "kuhn3_", "ode_", "full_street", "alliance", "n_card")),
    ("Quantal response on the Kuhn family", ("qre_",)),
    ("Papadopoulos: the river game", ("river_",)),
    ("Mercer: hold'em from rules, and collusion", ("mercer_",)),
    ("Ganzfried and Sandholm: tournament endgames", ("tournament_",)),
    ("Solver convergence (fictitious play, the CFR family, the LP)",
     ("fp_convergence", "convergence_")),
)


def paper_of(name: str) -> str:
    """The title of the paper a figure belongs to (:data:`PAPERS`); "Other figures" else."""
    return next((title for title, prefixes in PAPERS if name.startswith(prefixes)),
                "Other figures")


def load(name: str) -> ModuleType:
    """Import the figure module registered as ``name``."""
    if name not in FIGURES:
        raise GameError(f"unknown figure {name!r}; available: {', '.join(FIGURES)}")
    return importlib.import_module(FIGURES[name])
