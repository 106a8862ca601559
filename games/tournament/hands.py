"""The 169 preflop hand classes of :mod:`games.preflop` as a
:class:`~games.tournament.showdown.HandModel`: class names, exact card-removal pair
probabilities (:func:`games.preflop.classes.pair_probabilities`) and the exact heads-up
equities with their tie probabilities (:func:`games.preflop.equity.hu_equity_table`)."""
from __future__ import annotations

import numpy as np

from pokerdyn.games.preflop.classes import CLASSES, pair_probabilities
from pokerdyn.games.tournament.showdown import HandModel


def preflop_model() -> HandModel:
    """The 169-class model, in the class order of :data:`games.preflop.classes.CLASSES`."""
    from pokerdyn.games.preflop.equity import hu_equity_table
    table = hu_equity_table()
    if tuple(table.classes) != CLASSES:
        raise AssertionError("equity table classes are not in CLASSES order")  # pragma: no cover
    return HandModel(names=CLASSES, pair_prob=pair_probabilities(),
                     tie=np.asarray(table.tie, dtype=np.float64) / np.maximum(table.total, 1),
                     equity=np.asarray(table.equity, dtype=np.float64))


__all__ = ["preflop_model"]
