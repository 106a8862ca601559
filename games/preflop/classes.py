"""The 169 hold'em starting-hand classes, their 1,326 combos and exact deal probabilities.

Cards are numbered as in :mod:`games.holdem.evaluators` (phevaluator's encoding): card id
``4 * rank + suit`` with rank 0 = deuce ... 12 = ace and suits 0-3.  A *combo* is an unordered
pair of distinct cards (1,326 of them, in :func:`itertools.combinations` order of the card ids);
its *class* forgets the suits except whether the two cards share one: ``AA`` (6 combos),
``AKs`` (4 combos), ``AKo`` (12 combos), the higher rank written first.

Class index = the standard 13x13 chart, read row by row: row ``r`` and column ``c`` count
ranks down from the ace (0 = A, 1 = K, ..., 12 = 2); the cell ``(r, c)`` is the pair on the
diagonal (``r == c``), the suited hand of ranks ``r`` and ``c`` above it (``r < c``, e.g. row A
column K is ``AKs``) and the offsuit hand below it (``r > c``, row K column A is ``AKo``); its
index is ``13 * r + c``, so ``CLASSES[0] == "AA"``, ``CLASSES[1] == "AKs"``,
``CLASSES[13] == "AKo"`` and ``CLASSES[168] == "22"``.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import combinations

import numpy as np
from numpy.typing import NDArray

from pokerdyn.games.errors import GameError

RANK_CHARS = "23456789TJQKA"  # rank 0 .. 12
RANKS = RANK_CHARS[::-1]      # "AKQJT98765432": the chart's row (column) order
N_CLASSES = 169
N_COMBOS = 1326
N_DEALS = N_COMBOS * 1225  # ordered pairs of disjoint combos (player 1, player 2)


def _class_name(r: int, c: int) -> str:
    hi, lo = RANK_CHARS[12 - min(r, c)], RANK_CHARS[12 - max(r, c)]
    if r == c:
        return hi + lo
    return hi + lo + ("s" if r < c else "o")


CLASSES: tuple[str, ...] = tuple(_class_name(r, c) for r in range(13) for c in range(13))
GRID: NDArray[np.int64] = np.arange(N_CLASSES).reshape(13, 13)  # GRID[r, c] = class index
_INDEX = {name: i for i, name in enumerate(CLASSES)}


def grid_names() -> list[list[str]]:
    """The 13x13 chart of class names (row A first: ``AA AKs ... A2s``; column A: ``AKo`` ...)."""
    return [[CLASSES[GRID[r, c]] for c in range(13)] for r in range(13)]


def class_index(name: str) -> int:
    """Index (0..168) of a class name such as ``AA``, ``AKs``, ``T3o``."""
    try:
        return _INDEX[name]
    except (KeyError, TypeError):
        raise GameError(f"unknown hand class {name!r} (expected like AA, AKs, T3o: higher "
                        "rank first)") from None


def grid_cell(name: str) -> tuple[int, int]:
    """Row and column of a class in the 13x13 chart (``GRID[grid_cell(n)] == class_index(n)``);
    GameError for an unknown class."""
    return divmod(class_index(name), 13)


def class_of_cards(c1: int, c2: int) -> int:
    """Class index of the two cards ``c1 != c2`` (card ids 0..51)."""
    r1, r2 = c1 // 4, c2 // 4
    hi, lo = max(r1, r2), min(r1, r2)
    row, col = 12 - hi, 12 - lo
    if r1 == r2:
        return 13 * row + row
    return 13 * row + col if c1 % 4 == c2 % 4 else 13 * col + row


@lru_cache(maxsize=None)
def combos() -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """``(cards, cls)``: the 1,326 combos as card-id pairs (1326, 2), ``c1 < c2``, and each
    combo's class index (1326,).  Read-only arrays."""
    cards = np.array(list(combinations(range(52), 2)), dtype=np.int64)
    cls = np.array([class_of_cards(int(a), int(b)) for a, b in cards], dtype=np.int64)
    cards.flags.writeable = False
    cls.flags.writeable = False
    return cards, cls


def class_combos(name: str) -> NDArray[np.int64]:
    """The combos (card-id pairs) of one class: 6 for a pair, 4 suited, 12 offsuit."""
    cards, cls = combos()
    return cards[cls == class_index(name)]


@lru_cache(maxsize=None)
def disjoint_pair_counts() -> NDArray[np.int64]:
    """``n[i, j]``: ordered pairs (combo of class i, combo of class j) sharing no card; sums to
    1326 * 1225.  Read-only."""
    # 0/1 matrices multiplied in float64 (BLAS; numpy's integer matmul has none and took
    # ~10 s): every product is an integer below 2**53, so the counts are exact
    cards, cls = combos()
    onehot = np.zeros((N_COMBOS, N_CLASSES))
    onehot[np.arange(N_COMBOS), cls] = 1.0
    hits = np.zeros((N_COMBOS, 52))
    hits[np.arange(N_COMBOS), cards[:, 0]] = 1.0
    hits[np.arange(N_COMBOS), cards[:, 1]] = 1.0
    disjoint = (hits @ hits.T) == 0
    n = np.rint(onehot.T @ disjoint.astype(np.float64) @ onehot).astype(np.int64)
    n.flags.writeable = False
    return n


@lru_cache(maxsize=None)
def pair_probabilities() -> NDArray[np.float64]:
    """:func:`disjoint_pair_counts` as probabilities (169, 169), summing to 1.  Read-only."""
    p = disjoint_pair_counts() / N_DEALS
    p.flags.writeable = False
    return p


def deal_probability(a: str, b: str) -> Fraction:
    """Exact probability that player 1 is dealt class ``a`` and player 2 class ``b`` (card
    removal at the level of combos): disjoint combo pairs / (1326 * 1225)."""
    n = disjoint_pair_counts()[class_index(a), class_index(b)]
    return Fraction(int(n), N_DEALS)


def deal_probabilities() -> list[list[Fraction]]:
    """All 169 x 169 deal probabilities of :func:`deal_probability` (rows: player 1)."""
    n = disjoint_pair_counts()
    return [[Fraction(int(x), N_DEALS) for x in row] for row in n]


__all__ = ["CLASSES", "GRID", "N_CLASSES", "N_COMBOS", "N_DEALS", "RANK_CHARS", "class_combos",
           "class_index", "class_of_cards", "combos", "deal_probabilities", "deal_probability",
           "disjoint_pair_counts", "grid_cell", "grid_names", "pair_probabilities",
           "RANKS"]
