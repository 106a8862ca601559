"""The card side of a hold'em-style game: all deal paths, level by level, and what each
player sees of them.

A *stage* deals ``k`` cards to one seat (hole cards) or to the board (seat -1).  The paths at
depth ``d`` are all outcomes of the first ``d`` stages (every seat gets its hole cards, folded
or not, as in Mercer's code; stages after the game has ended are simply never reached).  Per
depth: the parent path, the outcome index at the parent's chance node, the exact probability
(Fraction and float) and the deal.  A player's *view* of a path keeps the deals of the
stages he sees (his own hole cards, the board, his partner's under strong collusion); views
are numbered per (player, depth) and become the private part of information sets.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from itertools import combinations_with_replacement
from math import comb

from pokerdyn.games.holdem.cards import Deck, deal

SHARED = -1


@dataclass(frozen=True)
class Stage:
    round: int
    seat: int          # SHARED for the board
    k: int


@dataclass(frozen=True)
class DealPaths:
    """Per depth ``d`` (0 .. n_stages): ``parent[d]``/``edge[d]``/``prob[d]`` arrays (depth 0:
    the single empty path), ``frac[d]`` exact probabilities, ``deal[d]`` the cards dealt by
    stage ``d - 1`` (tuple) and ``cards[d]`` all cards out, per stage (tuple of tuples)."""

    stages: tuple[Stage, ...]
    parent: tuple
    edge: tuple
    prob: tuple
    frac: tuple
    cards: tuple

    @property
    def counts(self) -> np.ndarray:
        return np.array([len(c) for c in self.cards], dtype=np.int64)


def deal_paths(deck: Deck, stages: tuple[Stage, ...], merge: bool) -> DealPaths:
    """Every path of the deal ``stages``, exact (card removal) probabilities."""
    parent, edge, prob, frac, cards = [np.array([-1])], [np.array([0])], [np.array([1.0])], \
        [[Fraction(1)]], [[()]]
    for st in stages:
        par, ed, fr, cs, pr = [], [], [], [], []
        for j, path in enumerate(cards[-1]):
            used = tuple(c for d in path for c in d)
            for e, (dealt, p) in enumerate(deal(deck, used, st.k, merge)):
                par.append(j)
                ed.append(e)
                fr.append(frac[-1][j] * p)
                pr.append(float(p))
                cs.append(path + (dealt,))
        parent.append(np.array(par, dtype=np.int64))
        edge.append(np.array(ed, dtype=np.int64))
        prob.append(np.array(pr, dtype=np.float64))   # conditional on the parent path
        frac.append(fr)
        cards.append(cs)
    return DealPaths(tuple(stages), tuple(parent), tuple(edge), tuple(prob), tuple(frac),
                     tuple(cards))


def views(paths: DealPaths, player: int, team: tuple[int, ...] = (),
          per_rank: int = 0) -> tuple[list, list]:
    """For each depth, the view id of every path for ``player`` and the list of distinct
    views (tuple per stage: the deal, or None where hidden); ``team``: seats that share
    their hole cards with each other (strong collusion).  With ``per_rank`` (merged deals)
    a deal is seen as its ranks: copy indices depend on the cards of others."""
    seen = [st.seat in (SHARED, player) or (player in team and st.seat in team)
            for st in paths.stages]
    ids, tables = [], []
    for d, cs in enumerate(paths.cards):
        index: dict = {}
        vid = np.empty(len(cs), dtype=np.int64)
        for j, path in enumerate(cs):
            key = tuple((tuple(c // per_rank for c in x) if per_rank else x) if seen[i] else None
                        for i, x in enumerate(path))
            vid[j] = index.setdefault(key, len(index))
        ids.append(vid)
        tables.append(list(index))
    return ids, tables


def hands(paths: DealPaths, player: int) -> np.ndarray:
    """Card ids of ``player``'s hole cards then the board, per final path (n_paths, k)."""
    own = [i for i, st in enumerate(paths.stages) if st.seat == player]
    board = [i for i, st in enumerate(paths.stages) if st.seat == SHARED]
    rows = [[c for i in own + board for c in path[i]] for path in paths.cards[-1]]
    return np.array(rows, dtype=np.int64).reshape(len(rows), -1)


__all__ = ["DealPaths", "SHARED", "Stage", "deal_paths", "hands", "merged_counts", "path_counts",
           "views"]


def path_counts(deck: Deck, stages: tuple[Stage, ...]) -> np.ndarray:
    """Number of deal paths per depth (0 .. n_stages) when deals are merged by rank, as
    :func:`deal_paths` with ``merge=True`` would make them, without making them: a forward
    count over the ranks still in the deck (at most ``(copies + 1) ** ranks`` states)."""
    states = {tuple([deck.per_rank] * deck.ranks): 1}
    out = [1]
    for st in stages:
        nxt: dict[tuple[int, ...], int] = {}
        for left, n in states.items():
            for ms in combinations_with_replacement(range(deck.ranks), st.k):
                new = list(left)
                for r in ms:
                    new[r] -= 1
                if min(new) < 0 or any(comb(left[r], ms.count(r)) == 0 for r in set(ms)):
                    continue
                key = tuple(new)
                nxt[key] = nxt.get(key, 0) + n
        states = nxt
        out.append(sum(states.values()))
    return np.array(out, dtype=np.int64)



def merged_counts(deck: Deck, stages: tuple[Stage, ...]) -> np.ndarray:
    """:func:`path_counts` as float64 (exact below 2**53), in milliseconds for any deck.

    A merged path is a sequence of rank multisets ``m_1 .. m_d`` (``|m_i| = k_i``) that no
    rank's copies can't cover, so the number of paths of depth ``j`` is the coefficient of
    ``x_1^k_1 .. x_j^k_j`` in ``B(x)^ranks``, where ``B`` sums the monomials ``x^v`` of one
    rank's take ``v`` (``v_i <= k_i``, ``sum(v) <= copies``).  The truncated power lives in
    an array of ``prod(k_i + 1)`` coefficients, whatever the number of deal paths."""
    ks = [st.k for st in stages]
    if not ks:
        return np.ones(1)
    shape = tuple(k + 1 for k in ks)
    takes = [i for i in np.ndindex(shape) if sum(i) <= deck.per_rank]
    power = np.zeros(shape)
    power[(0,) * len(ks)] = 1.0
    for _ in range(deck.ranks):
        nxt = np.zeros(shape)
        for v in takes:
            nxt[tuple(slice(i, n) for i, n in zip(v, shape))] += \
                power[tuple(slice(0, n - i) for i, n in zip(v, shape))]
        power = nxt
    return np.array([power[tuple(ks[:j]) + (0,) * (len(ks) - j)] for j in range(len(ks) + 1)])
