"""Hold'em preflop: the 169 starting-hand classes (:mod:`games.preflop.classes`) and their
exact heads-up all-in equities (:mod:`games.preflop.equity`)."""
from pokerdyn.games.preflop.classes import (CLASSES, GRID, class_combos, class_index, combos,
                                   deal_probabilities, deal_probability, disjoint_pair_counts)
from pokerdyn.games.preflop.equity import EquityTable, hu_equity, hu_equity_table

__all__ = ["CLASSES", "EquityTable", "GRID", "class_combos", "class_index", "combos",
           "deal_probabilities", "deal_probability", "disjoint_pair_counts", "hu_equity",
           "hu_equity_table"]
