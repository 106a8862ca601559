"""Showdown outcomes of the jam/fold game: weak orderings of the all-in players' hands, their
probabilities from an equity provider, and the side pots they settle.

An outcome of an ``m``-player showdown is a *weak ordering* of the players' hand strengths
(a strength vector; equal values tie).  Pots are settled layer by layer (side pots): the
chips committed between two consecutive all-in levels go to the strongest hands among the
showdown players who committed at least the upper level, split evenly on a tie; a layer
only one player reached is returned to that player (an uncalled part of a push).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
from numpy.typing import NDArray

from pokerdyn.games.errors import GameError
from pokerdyn.games.preflop.orderings import weak_orderings  # noqa: F401  (outcome rows)

# classes of the m showdown players -> probabilities over weak_orderings(m)
MultiwayEquity = Callable[[tuple[int, ...]], NDArray[np.float64]]


@dataclass(frozen=True)
class HandModel:
    """Hand classes, their deal probabilities and showdown equities.

    Attributes
    ----------
    names : tuple of str
        The K hand-class names (``AA``, ``AKs``, ...), in index order.
    pair_prob : ndarray (K, K)
        Joint probability that two players hold classes (i, j), card removal included;
        sums to 1, symmetric.
    equity : ndarray (K, K)
        ``equity[i, j]``: class i's all-in equity against class j (win + tie/2).
    tie : ndarray (K, K), optional
        Probability of a split pot; without it a tie counts half as a win and half as a
        loss (exact in chips; for ICM payoffs the error is at most the tie probability
        times the ICM curvature over one pot).
    multiway : callable, optional
        Classes of m >= 3 showdown players -> probabilities over ``weak_orderings(m)``.
    """

    names: tuple[str, ...]
    pair_prob: NDArray[np.float64]
    equity: NDArray[np.float64]
    tie: NDArray[np.float64] | None = None
    multiway: MultiwayEquity | None = None

    def __post_init__(self):
        K = len(self.names)
        for what, a in (("pair_prob", self.pair_prob), ("equity", self.equity),
                        ("tie", self.tie)):
            if a is not None and np.shape(a) != (K, K):
                raise GameError(f"{what} has shape {np.shape(a)}, expected ({K}, {K})")
        if abs(float(np.sum(self.pair_prob)) - 1) > 1e-9 or (np.asarray(self.pair_prob) < 0).any():
            raise GameError("pair_prob must be non-negative and sum to 1")
        e = np.asarray(self.equity)
        if ((e < 0) | (e > 1)).any() or not np.allclose(e + e.T, 1, atol=1e-9):
            raise GameError("equity must lie in [0, 1] with equity[i, j] + equity[j, i] = 1")

    def outcome_probs(self, classes: NDArray[np.int64]) -> NDArray[np.float64]:
        """Probabilities over ``weak_orderings(m)`` for each row of ``classes`` (D, m)."""
        D, m = classes.shape
        if m == 2:
            e = np.asarray(self.equity)[classes[:, 0], classes[:, 1]]
            t = np.zeros(D) if self.tie is None else \
                np.asarray(self.tie)[classes[:, 0], classes[:, 1]]
            # weak_orderings(2) = (0,1), (1,0), (0,0): player 1 wins, player 0 wins, tie
            return np.stack([1 - e - t / 2, e - t / 2, t], axis=1)
        if self.multiway is None:
            raise GameError(f"{m}-way all-in equities need a multiway equity provider "
                            "(HandModel.multiway); none was given")
        W = len(weak_orderings(m))
        out = np.empty((D, W))
        uniq, inv = np.unique(classes, axis=0, return_inverse=True)
        for u, row in enumerate(uniq):
            p = np.asarray(self.multiway(tuple(int(c) for c in row)), dtype=np.float64)
            if p.shape != (W,) or (p < -1e-12).any() or abs(p.sum() - 1) > 1e-9:
                raise GameError(f"multiway equity of classes {row.tolist()} is not a "
                                f"probability vector over the {W} weak orderings")
            out[inv.ravel() == u] = p
        return out


def settle(committed: NDArray[np.float64], showdown: NDArray[np.bool_],
           strength: NDArray[np.int64]) -> NDArray[np.float64]:
    """Gross chips each player takes from the pot (side pots, ties split evenly).

    ``committed`` (N,): chips each player put in; ``showdown`` (N,): players still in;
    ``strength`` (N,): hand strength (only showdown players' values matter).  With one
    player left (everyone else folded) that player takes the pot.
    """
    gross = np.zeros(committed.shape[0])
    lo = 0.0
    for hi in np.unique(committed[showdown]):
        amount = np.clip(committed - lo, 0, hi - lo).sum()
        elig = showdown & (committed >= hi)
        best = strength[elig].max()
        win = elig & (strength == best)
        gross[win] += amount / win.sum()
        lo = hi
    # chips above the highest showdown level (a folded blind larger than every stack still
    # in) go back to their owners
    gross += np.clip(committed - lo, 0, None)
    return gross


__all__ = ["HandModel", "MultiwayEquity", "settle", "weak_orderings"]
