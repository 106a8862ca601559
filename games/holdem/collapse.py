"""Exact collapse of trailing chance: boards dealt after the last betting round.

When the last rounds of a game have no betting and deal only shared cards (Mercer's Simple
Hold'em: the two board cards are followed by the showdown alone), every node below the last
decision is a chance node whose subtree holds no decision.  Such a subtree changes no
information set and no strategy; only its expected payoff matters.  :func:`trailing_round`
finds where that part starts and :class:`BoardExpectation` gives the exact expected pot
shares over the remaining board for every deal path at that depth, so the builder writes one
terminal node per (public node, deal path) there instead of a chance node and one showdown per
board.

Exactness: the board's multiset of ranks is dealt with its card-removal weight
``prod_r C(left_r, m_r) / C(left, K)`` (as :func:`games.holdem.cards.deal_multisets`), a
player's share among ``w`` tied winners is ``1/w``; the expectation is summed in integers
scaled by ``lcm(1..n)`` and divided once, so each expected share is the float nearest to the
exact rational.  The evaluator's strengths are tabulated once per (distinct known hand,
board), never per node.
"""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb, lcm

import numpy as np
from numpy.typing import NDArray

from pokerdyn.games.errors import GameError
from pokerdyn.games.holdem.cards import Deck
from pokerdyn.games.holdem.deals import DealPaths, hands


def trailing_round(rounds: Sequence, merged: bool, evaluator, collapse: bool | None) -> int | None:
    """Index of the first round of the trailing rounds that can be collapsed, or None.

    ``collapse``: None collapses when possible, False never, True requires it (GameError
    when the rules do not allow it).  Possible when the last rounds have no betting, deal
    only shared cards (at least one), the deals are merged by rank and the evaluator gives
    strengths (not ``shares``)."""
    if collapse is False:
        return None
    r = len(rounds)
    while r > 0 and not rounds[r - 1].has_betting:
        r -= 1
    why = None
    if r == 0:
        why = "no round has betting"
    elif r == len(rounds) or not sum(rnd.shared_cards for rnd in rounds[r:]):
        why = "no board is dealt after the last betting round"
    elif any(rnd.hole_cards for rnd in rounds[r:]):
        why = "hole cards are dealt after the last betting round"
    elif not merged:
        why = "the deals are not merged by rank (merge=False or a suited evaluator)"
    elif hasattr(evaluator, "shares"):
        why = "the evaluator gives pot shares, not strengths"
    if why is None:
        return r
    if collapse:
        raise GameError(f"collapse=True is not possible: {why}")
    return None


class BoardExpectation:
    """Expected pot shares over the ``k`` trailing board cards for every deal path of
    ``paths`` (its last depth), per set of active players (:meth:`shares`)."""

    def __init__(self, deck: Deck, evaluator, paths: DealPaths, n: int, k: int):
        per, R = deck.per_rank, deck.ranks
        self.n = n
        known = [hands(paths, p) for p in range(n)]            # (J, m) card ids per player
        out = np.array([[c for d in path for c in d] for path in paths.cards[-1]],
                       dtype=np.int64).reshape(len(paths.cards[-1]), -1)
        J = out.shape[0]
        used = np.zeros((J, R), dtype=np.int64)
        if out.size:
            np.add.at(used, (np.repeat(np.arange(J), out.shape[1]), (out // per).ravel()), 1)
        left = per - used
        boards = list(combinations_with_replacement(range(R), k))
        mult = np.array([[b.count(r) for r in range(R)] for b in boards], dtype=np.int64)
        ctab = np.array([[comb(a, m) for m in range(k + 1)] for a in range(per + 1)],
                        dtype=np.int64)
        # card-removal weight numerators (J, boards); the denominator C(left, k) is common
        self.weight = ctab[left[:, None, :], mult[None, :, :]].prod(axis=2)
        total = int(left[0].sum())
        self.denom = comb(total, k)
        if (self.weight.sum(axis=1) != self.denom).any():   # (J, boards) here
            raise AssertionError("board weights do not sum to C(left, k)")
        # strengths tabulated once per (distinct known rank multiset, board)
        m = known[0].shape[1]
        ranks = np.sort(np.stack(known, axis=1) // per, axis=2).reshape(J * n, m)
        uniq, inv = np.unique(ranks, axis=0, return_inverse=True)
        rows = np.concatenate([np.repeat(uniq, len(boards), axis=0),
                               np.tile(np.array(boards, dtype=np.int64).reshape(len(boards), k),
                                       (len(uniq), 1))], axis=1)
        table = np.asarray(evaluator.strength(deck, _card_ids(rows, per)),
                           dtype=np.int64).reshape(len(uniq), len(boards))
        # compress strengths to their order (int32) per (path, player, board)
        order = np.unique(table, return_inverse=True)[1].reshape(table.shape).astype(np.int32)
        # (boards, J, n) and (boards, J): one contiguous slab per board
        self.strength = np.ascontiguousarray(np.moveaxis(order[np.ravel(inv).reshape(J, n)],
                                                         2, 0))
        self.weight = np.ascontiguousarray(self.weight.T)

    def shares(self, active: Sequence[bool]) -> tuple[NDArray[np.int64], int]:
        """Expected share of the pot of each player with the ``active`` seats in the
        showdown, exactly: integer numerators (J, n) and their common denominator (the sum
        over boards of weight x 1/(tied winners), scaled by ``lcm(1..n) C(left, k)``)."""
        act = np.asarray(active, dtype=bool)
        scale = lcm(*range(1, self.n + 1))
        num = np.zeros(self.strength.shape[1:], dtype=np.int64)
        low = np.int32(-1)
        for s_b, w_b in zip(self.strength, self.weight):
            s = np.where(act, s_b, low)
            win = s == s.max(axis=1, keepdims=True)
            num += win * (w_b * (scale // win.sum(axis=1)))[:, None]
        return num, scale * self.denom


def expected_payoffs(num: NDArray[np.int64], denom: int, contrib: Sequence, collusion,
                     team: Sequence[int]) -> NDArray[np.float64]:
    """Net payoffs (J, n) of a collapsed showdown, each the float nearest to the exact
    rational: expected shares ``num / denom`` of the pot, minus the (rational)
    contributions, pooled among the ``team`` as :func:`games.holdem.build.build_game` does
    (``pot``: gross shares; ``weak``/``strong``: net payoffs), all in integers scaled by a
    common denominator and divided once."""
    con = [Fraction(c) for c in contrib]
    q = lcm(*(c.denominator for c in con))
    c_int = np.array([int(c * q) for c in con], dtype=np.int64)
    t = len(team) if collusion in ("weak", "strong", "pot") else 1
    team = list(team)
    gross = num * (int(c_int.sum()) * t)                  # gross x denom q t
    if collusion == "pot":
        gross[:, team] = gross[:, team].sum(axis=1, keepdims=True) // t
    pay = gross - c_int * (denom * t)
    if collusion in ("weak", "strong"):
        pay[:, team] = pay[:, team].sum(axis=1, keepdims=True) // t
    if np.abs(pay).max(initial=0) >= 2 ** 53:
        raise AssertionError("collapsed payoff numerators exceed exact float integers")
    return pay / float(denom * q * t)


def _card_ids(rank_rows: NDArray[np.int64], per: int) -> NDArray[np.int64]:
    """Card ids for rows of ranks: copy index = the rank's occurrence number in the row
    (clipped to the deck; such rows have weight 0), so the cards of a row are distinct."""
    rows = np.sort(rank_rows, axis=1)
    occ = np.zeros_like(rows)
    for j in range(1, rows.shape[1]):
        occ[:, j] = np.where(rows[:, j] == rows[:, j - 1], occ[:, j - 1] + 1, 0)
    return rows * per + np.minimum(occ, per - 1)


__all__ = ["BoardExpectation", "expected_payoffs", "trailing_round"]
