"""A game given as a small public tree over private classes ("ranges"), without enumerating
the deals as tree nodes.

Chance first deals every player ``p`` a private class ``c_p`` in ``0..K-1`` with joint
probability ``deal[c_0, ..., c_{N-1}]``; then the players move along a public tree, each
seeing its own class and the public history (information set = (player, class, public
node)).  A strategy is one probability vector over actions per (decision node, class):
an array ``(K, A)`` per decision node.  A terminal's payoff depends on the classes of a
subset of the players only (``seats``: e.g. the players still in at a showdown), so it is
stored as an array of shape ``(K,) * len(seats) + (N,)``; the game's expected payoff is
``sum_c deal[c] * prod_p reach_p(c_p) * payoff[c_seats]``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from pokerdyn.games.errors import GameError
from pokerdyn.games.tree import DECISION, TERMINAL


@dataclass(frozen=True)
class RangeGame:
    """Public tree (nodes in BFS order, parents first) over private classes.

    Attributes
    ----------
    n_players, n_classes : N and K.
    deal : (K,)*N joint class probabilities, summing to 1.
    kind : (V,) DECISION or TERMINAL per public node (node 0 the root).
    parent, edge : (V,) parent node and the parent's action leading here (-1 at the root).
    actor : (V,) acting player (-1 at terminals).
    actions : per node the action labels (empty at terminals).
    seats : per node the players whose classes the payoff depends on (None at decisions).
    payoffs : per node the payoff array ``(K,)*len(seats) + (N,)`` (None at decisions).
    labels : per node the public history label.
    names : the K class names.
    """

    n_players: int
    n_classes: int
    deal: NDArray[np.float64]
    kind: NDArray[np.int8]
    parent: NDArray[np.int64]
    edge: NDArray[np.int64]
    actor: NDArray[np.int64]
    actions: tuple
    seats: tuple
    payoffs: tuple
    labels: tuple
    names: tuple

    def __post_init__(self):
        N, K, V = self.n_players, self.n_classes, self.kind.size
        if self.deal.shape != (K,) * N or abs(float(self.deal.sum()) - 1) > 1e-9:
            raise GameError(f"deal has shape {self.deal.shape} / sum {self.deal.sum():g}; "
                            f"expected {(K,) * N} summing to 1")
        for v in range(V):
            if self.kind[v] == TERMINAL:
                want = (K,) * len(self.seats[v]) + (N,)
                if self.payoffs[v].shape != want:
                    raise GameError(f"terminal {v} payoffs have shape "
                                    f"{self.payoffs[v].shape}, expected {want}")
            elif self.kind[v] != DECISION:
                raise GameError(f"node {v} is neither a decision nor a terminal")
            if v > 0 and not 0 <= self.parent[v] < v:
                raise GameError(f"node {v}: parent {self.parent[v]} is not an earlier node")

    @property
    def decisions(self) -> NDArray[np.int64]:
        return np.flatnonzero(self.kind == DECISION)

    def children(self, v: int) -> list[int]:
        """Children of node ``v`` in action order."""
        kids = np.flatnonzero(self.parent == v)
        return [int(c) for c in kids[np.argsort(self.edge[kids])]]

    def uniform(self) -> dict[int, NDArray[np.float64]]:
        """The uniform strategy: decision node -> (K, A)."""
        return {int(v): np.full((self.n_classes, len(self.actions[v])), 1 / len(self.actions[v]))
                for v in self.decisions}


__all__ = ["RangeGame"]
