"""Showdown evaluators: hand strengths (higher wins, ties split the pot).

An :class:`Evaluator` maps hands (rows of card ids, hole cards then shared cards; see
:mod:`games.holdem.cards`) to integer strengths, vectorised over all rows at once: the builder
evaluates every (hand, board) of a game once, as a table, never per terminal node.  An
evaluator may instead define ``shares(deck, hands, active)`` returning each player's share of
the pot directly (rows summing to 1 over the active players); the builder checks that.
``suited`` says whether suits matter (if not, the builder may merge deals by rank).
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from pokerdyn.games.errors import GameError
from pokerdyn.games.holdem.cards import Deck


class Evaluator(Protocol):
    suited: bool

    def strength(self, deck: Deck, hands: NDArray[np.int64]) -> NDArray[np.int64]:
        """Strength of each row of ``hands`` (shape (n, cards)); higher wins."""


def pot_shares(strength: NDArray, active: NDArray[np.bool_]) -> NDArray[np.float64]:
    """Each player's share of the pot (n, players): the strongest active hands split it."""
    s = np.where(active, strength, np.iinfo(np.int64).min)
    win = (s == s.max(axis=1, keepdims=True)) & active
    return win / win.sum(axis=1, keepdims=True)


def _table(deck: Deck, hands: NDArray, value, size: int | None) -> NDArray[np.int64]:
    """Apply ``value(sorted rank tuple)`` through a table of the distinct rank multisets;
    with ``size``, the best ``size``-card subset counts."""
    ranks = np.sort(np.asarray(hands) // deck.per_rank, axis=1)[:, ::-1]
    uniq, inv = np.unique(ranks, axis=0, return_inverse=True)

    def best(row):
        if size is None or len(row) == size:
            return value(tuple(row))
        return max(value(tuple(sorted(c, reverse=True))) for c in combinations(row, size))

    vals = np.fromiter((best(tuple(int(x) for x in r)) for r in uniq), np.int64, len(uniq))
    return vals[np.ravel(inv)]


@lru_cache(maxsize=None)
def mercer_value(ranks: tuple[int, ...]) -> int:
    """FourCardEvaluator.java ``evaluate``: ranks sorted descending (0-based) ->
    ``10000*type + 1000*d + 100*c + 10*b + a`` with type junk 0, pair 3, two pair 4,
    trips 5, quads 6; d..a the group ranks then kickers, highest first."""
    groups: dict[int, list[int]] = {}
    for r in sorted(set(ranks), reverse=True):
        groups.setdefault(ranks.count(r), []).append(r)
    kick = groups.get(1, [])

    def value(t, d, c=0, b=0, a=0):
        return 10000 * t + 1000 * d + 100 * c + 10 * b + a

    if 4 in groups:
        return value(6, groups[4][0])
    if 3 in groups:
        return value(5, groups[3][0], kick[0])
    if 2 in groups:
        p = groups[2]
        return value(4, p[0], p[1]) if len(p) == 2 else value(3, p[0], kick[0], kick[1])
    return value(0, *kick[:4])


class MercerEvaluator:
    """Mercer's 4-card ranking (high card < pair < two pair < trips < quads), the best
    4-card hand of hole + shared cards, ties as FourCardEvaluator.java's ``value()``."""

    suited = False

    def strength(self, deck: Deck, hands: NDArray[np.int64]) -> NDArray[np.int64]:
        if np.shape(hands)[1] < 4:
            raise GameError(f"Mercer hands need 4 cards, got {np.shape(hands)[1]}")
        return _table(deck, hands, mercer_value, 4)


class LeducEvaluator:
    """Leduc (OpenSpiel ``RankHand``): a pair with the board beats any high card; otherwise
    the higher card, then the lower one (ranks only, so suits never break ties)."""

    suited = False

    def strength(self, deck: Deck, hands: NDArray[np.int64]) -> NDArray[np.int64]:
        if np.shape(hands)[1] != 2:
            raise GameError(f"Leduc hands have 2 cards, got {np.shape(hands)[1]}")
        R = deck.ranks
        return _table(deck, hands, lambda r: R * R + r[0] if r[0] == r[1] else r[0] * R + r[1],
                      None)


class HoldemEvaluator:
    """Texas hold'em, best 5 of 5-7 cards on a 52-card ``Deck(13, suits=4)`` (card id
    ``4 * rank + suit``, which is phevaluator's own encoding), through ``phevaluator``
    (perfect-hash C evaluator; install the ``holdem`` extra)."""

    suited = True

    def strength(self, deck: Deck, hands: NDArray[np.int64]) -> NDArray[np.int64]:
        try:
            from phevaluator import evaluate_cards
        except ImportError as e:  # pragma: no cover - the extra is in the test extra
            raise GameError("the hold'em evaluator needs phevaluator (pip install "
                            "'pokerdyn[holdem]')") from e
        if deck.ranks != 13 or deck.suits != 4:
            raise GameError(f"the hold'em evaluator needs Deck(13, suits=4), got {deck}")
        hands = np.asarray(hands)
        if not 5 <= hands.shape[1] <= 7:
            raise GameError(f"hold'em hands have 5 to 7 cards, got {hands.shape[1]}")
        # phevaluator: 1 is the best hand (royal flush), 7462 the worst
        return 7463 - np.fromiter((evaluate_cards(*map(int, h)) for h in hands), np.int64,
                                  hands.shape[0])


__all__ = ["Evaluator", "HoldemEvaluator", "LeducEvaluator", "MercerEvaluator", "mercer_value",
           "pot_shares"]
