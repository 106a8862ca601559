"""A reduced but real hand model for 3-seat jam/fold: the 169 preflop classes grouped into
``k`` buckets by equity against a random hand, with

* exact bucket-pair deal probabilities (sums of the classes' card-removal probabilities of
  :func:`games.preflop.classes.pair_probabilities`),
* exact heads-up bucket equities and tie probabilities (the deal-weighted averages of the
  exact 169-class table, :func:`games.preflop.equity.hu_equity_table`),
* 3-way all-in outcome probabilities by Monte Carlo over real cards (three disjoint combos
  drawn uniformly from the buckets' combos, a board from the 46 other cards, phevaluator
  ranks), with the standard error of every probability reported.

Three-seat deal probabilities are :func:`games.tournament.jamfold.deal_probabilities`' own
pairwise card-removal approximation of the exact triple counts.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from pokerdyn.games.errors import GameError
from pokerdyn.games.preflop.classes import N_CLASSES, combos, pair_probabilities
from pokerdyn.games.tournament.showdown import HandModel, weak_orderings


@dataclass(frozen=True)
class Buckets:
    """``model``: the k-bucket HandModel (names ``B0`` strongest ... ``B{k-1}``);
    ``members``: bucket of each of the 169 classes; ``multiway_se``: largest standard
    error of a 3-way outcome probability; ``samples``: Monte Carlo deals per bucket triple."""
    model: HandModel
    members: NDArray[np.int64]
    multiway_se: float
    samples: int


def equity_buckets(k: int) -> NDArray[np.int64]:
    """Bucket (0 = strongest) of each class: classes sorted by equity against a random hand,
    cut into ``k`` groups of (nearly) equal deal probability."""
    from pokerdyn.games.preflop.equity import hu_equity_table
    if not 2 <= k <= N_CLASSES:
        raise GameError(f"buckets={k}; allowed: 2 to {N_CLASSES}")
    order = np.argsort(-hu_equity_table().against_random(), kind="stable")
    mass = np.cumsum(pair_probabilities().sum(axis=1)[order])
    out = np.empty(N_CLASSES, dtype=np.int64)
    out[order] = np.minimum((mass - mass[0] / 2) * k, k - 1).astype(np.int64)
    if len(np.unique(out)) != k:
        raise GameError(f"buckets={k} leaves an empty bucket")   # pragma: no cover
    return out


def _three_way(members, k: int, samples: int, rng) -> tuple[dict, float]:
    """Outcome probabilities over ``weak_orderings(3)`` of every sorted bucket triple."""
    from phevaluator import evaluate_cards
    cards, cls = combos()
    by_bucket = [cards[members[cls] == b] for b in range(k)]
    W = weak_orderings(3)
    index = {tuple(r): i for i, r in enumerate(W)}
    out, se = {}, 0.0
    for a in range(k):
        for b in range(a, k):
            for c in range(b, k):
                counts = np.zeros(len(W))
                n = 0
                while n < samples:
                    hands = [by_bucket[x][rng.integers(len(by_bucket[x]))] for x in (a, b, c)]
                    used = np.concatenate(hands)
                    if len(set(used.tolist())) < 6:
                        continue                       # overlapping combos: redraw
                    rest = np.setdiff1d(np.arange(52), used)
                    board = rng.choice(rest, 5, replace=False).tolist()
                    rank = [evaluate_cards(*h.tolist(), *board) for h in hands]  # low wins
                    strength = np.unique(-np.array(rank), return_inverse=True)[1].ravel()
                    counts[index[tuple(strength)]] += 1
                    n += 1
                p = counts / samples
                se = max(se, float(np.sqrt(p * (1 - p) / samples).max()))
                out[(a, b, c)] = p
    return out, se


def bucket_model(k: int = 10, samples: int = 1000, seed: int = 0) -> Buckets:
    """The k-bucket model of the module docstring (Monte Carlo with ``samples`` deals per
    sorted bucket triple, seeded)."""
    from pokerdyn.games.preflop.equity import hu_equity_table
    if samples < 1:
        raise GameError(f"samples={samples}; allowed: at least 1")
    members = equity_buckets(k)
    table = hu_equity_table()
    S = np.zeros((N_CLASSES, k))
    S[np.arange(N_CLASSES), members] = 1
    P = pair_probabilities()
    pair = S.T @ P @ S
    eq = (S.T @ (P * table.equity) @ S) / pair
    tie = (S.T @ (P * table.tie / np.maximum(table.total, 1)) @ S) / pair
    eq = (eq + 1 - eq.T) / 2                                     # exact up to rounding
    mc, se = _three_way(members, k, samples, np.random.default_rng(seed))
    W = weak_orderings(3)
    index = {tuple(r): i for i, r in enumerate(W)}

    def multiway(classes: tuple[int, ...]) -> NDArray[np.float64]:
        order = np.argsort(classes, kind="stable")
        p_sorted = mc[tuple(int(classes[i]) for i in order)]
        out = np.zeros(len(W))
        for w, p in zip(W, p_sorted):          # w[j]: strength of the j-th sorted seat
            v = np.empty(3, dtype=np.int64)
            v[order] = w
            out[index[tuple(v)]] += p
        return out

    names = tuple(f"B{b}" for b in range(k))
    model = HandModel(names=names, pair_prob=pair / pair.sum(), equity=eq, tie=tie,
                      multiway=multiway)
    return Buckets(model=model, members=members, multiway_se=se, samples=samples)


__all__ = ["Buckets", "bucket_model", "equity_buckets"]
