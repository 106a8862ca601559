"""The 169 preflop hand classes as a :class:`~games.tournament.showdown.HandModel`: names,
13x13 grid positions and exact card-removal pair probabilities, with the equities of
:mod:`games.preflop.equity` (imported on first use).

Pair probabilities count disjoint combos: ``P(i, j) = #{(a, b): a in i, b in j, a and b
share no card} / (1326 * 1225)``, e.g. ``P(AA, AA) = 6 * 1 / (1326 * 1225)``.
"""
from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from games.errors import GameError
from games.tournament.showdown import HandModel

RANKS = "AKQJT98765432"


def class_names() -> tuple[str, ...]:
    """The 169 class names, pairs ``AA``, suited ``AKs``, offsuit ``AKo`` (grid order)."""
    return tuple(grid_name(r, c) for r in range(13) for c in range(13))


def grid_name(row: int, col: int) -> str:
    """Name at a 13x13 grid cell: pairs on the diagonal, suited above it (row = higher
    rank), offsuit below it (column = higher rank)."""
    a, b = RANKS[min(row, col)], RANKS[max(row, col)]
    return a + b if row == col else a + b + ("s" if row < col else "o")


def grid_cell(name: str) -> tuple[int, int]:
    """Inverse of :func:`grid_name`; GameError for an unknown class."""
    ok = len(name) in (2, 3) and name[0] in RANKS and name[1] in RANKS
    if ok:
        hi, lo = RANKS.index(name[0]), RANKS.index(name[1])
        if len(name) == 2 and hi == lo:
            return hi, lo
        if len(name) == 3 and hi < lo and name[2] in "so":
            return (hi, lo) if name[2] == "s" else (lo, hi)
    raise GameError(f"hand class {name!r} is unknown; allowed: the 169 classes like AA, AKs, "
                    "T3o (higher rank first)")


def _combo_names(order: tuple[str, ...]) -> NDArray[np.int64]:
    """Class index (in ``order``) of each of the 1,326 two-card combos, cards r*4+s."""
    index = {n: i for i, n in enumerate(order)}
    out = []
    for a, b in itertools.combinations(range(52), 2):
        ra, rb = a // 4, b // 4                  # rank 0 = A
        hi, lo = min(ra, rb), max(ra, rb)
        name = RANKS[hi] + RANKS[lo] + ("" if ra == rb else "s" if a % 4 == b % 4 else "o")
        out.append(index[name])
    return np.array(out)


@lru_cache(maxsize=4)
def class_pair_prob(order: tuple[str, ...]) -> NDArray[np.float64]:
    """Exact card-removal probabilities (169, 169) of two players' classes, in ``order``."""
    combos = list(itertools.combinations(range(52), 2))
    cards = np.zeros((len(combos), 52), dtype=np.int64)
    for k, (a, b) in enumerate(combos):
        cards[k, a] = cards[k, b] = 1
    disjoint = (cards @ cards.T) == 0                                   # (1326, 1326)
    cls = _combo_names(order)
    onehot = np.zeros((len(combos), len(order)))
    onehot[np.arange(len(combos)), cls] = 1
    counts = onehot.T @ disjoint @ onehot
    return counts / counts.sum()


def preflop_model() -> HandModel:
    """The 169-class model of :mod:`games.preflop`: its class order, exact deal
    probabilities and heads-up equities with their tie probabilities."""
    try:
        from games.preflop import classes
        from games.preflop.equity import hu_equity_table
    except ImportError as exc:
        raise GameError(f"the 169-class equity table is not available ({exc}); it comes "
                        "with games.preflop") from None
    table = hu_equity_table()
    order = tuple(getattr(table, "classes", None) or
                  sorted(class_names(), key=classes.class_index))
    if hasattr(classes, "disjoint_pair_counts"):
        n = np.asarray(classes.disjoint_pair_counts(), dtype=np.float64)
        pair = n / n.sum()
    else:
        pair = class_pair_prob(order)
    tie = None
    if getattr(table, "tie", None) is not None and getattr(table, "total", None) is not None:
        tie = np.asarray(table.tie, dtype=np.float64) / np.maximum(table.total, 1)
    return HandModel(names=order, pair_prob=pair, tie=tie,
                     equity=np.asarray(table.equity, dtype=np.float64))


__all__ = ["RANKS", "class_names", "class_pair_prob", "grid_cell", "grid_name",
           "preflop_model"]
