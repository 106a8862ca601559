"""Reduced pure strategies (plans) of an extensive-form game with perfect recall.

A player's *sequences* are the empty sequence (index 0) and one per (own information set,
action); each information set has a *parent sequence*, the owner's last action before it
(unique under perfect recall).  A reduced plan picks one action at every information set
that the player's own earlier picks leave reachable, and nothing at the others (Kuhn 1953;
von Stengel 1996, sec. 2): the plans below a sequence are the product, over the sets whose
parent it is, of the union over their actions of the plans below each action.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from pokerdyn.games.tree import DECISION, Game, GameError


@dataclass(frozen=True, eq=False)
class Sequences:
    """Every player's sequences: ``seq[I, a]`` the owner's sequence of action ``a`` at set
    ``I`` (-1 for illegal actions), ``parent_seq[I]``, ``n_sequences[p]``, the owner of each
    set; per node, each player's last own sequence above it (``node_seq``,
    ``(n_nodes, n_players)``)."""

    seq: NDArray[np.int64]
    parent_seq: NDArray[np.int64]
    n_sequences: tuple[int, ...]
    node_seq: NDArray[np.int64]
    infoset_player: NDArray[np.int64]

    def children(self, player: int) -> list[list[int]]:
        """Per sequence of ``player``, the information sets whose parent sequence it is."""
        out: list[list[int]] = [[] for _ in range(self.n_sequences[player])]
        for I in np.nonzero(self.infoset_player == player)[0]:
            out[int(self.parent_seq[I])].append(int(I))
        return out


def sequences(game: Game) -> Sequences:
    """The sequences of every player of ``game`` (one pass over the nodes)."""
    n_inf = game.n_infosets
    amax = max((len(I.actions) for I in game.infosets), default=1)
    seq = np.full((n_inf, amax), -1, dtype=np.int64)
    owner = np.fromiter((I.player for I in game.infosets), dtype=np.int64, count=n_inf)
    n_seq = [1] * game.n_players
    for I, info in enumerate(game.infosets):
        p, k = info.player, len(info.actions)
        seq[I, :k] = np.arange(n_seq[p], n_seq[p] + k)
        n_seq[p] += k
    kind, parent, edge = game.kind, game.parent, game.edge
    player, infoset = game.player, game.infoset
    node_seq = np.zeros((game.n_nodes, game.n_players), dtype=np.int64)
    parent_seq = np.full(n_inf, -1, dtype=np.int64)
    for i in range(1, game.n_nodes):
        j = int(parent[i])
        node_seq[i] = node_seq[j]
        if kind[j] == DECISION:
            node_seq[i, player[j]] = seq[infoset[j], edge[i]]
    for i in np.nonzero(kind == DECISION)[0]:
        I, p = int(infoset[i]), int(player[i])
        if parent_seq[I] < 0:
            parent_seq[I] = node_seq[i, p]
        elif parent_seq[I] != node_seq[i, p]:
            raise GameError(f"information set {game.infosets[I].label!r} is reached after "
                            "different own actions: the game lacks perfect recall")
    return Sequences(seq, parent_seq, tuple(n_seq), node_seq, owner)


def _children_first(kids: list[list[int]], sq: Sequences,
                    n_actions: NDArray[np.int64]) -> list[int]:
    """The player's sequences reachable from the empty one, every sequence after all of
    the sequences below it (a reversed depth-first preorder: no recursion, so trees of any
    depth)."""
    order, stack = [], [0]
    while stack:
        s = stack.pop()
        order.append(s)
        stack.extend(int(sq.seq[J, a]) for J in kids[s] for a in range(int(n_actions[J])))
    order.reverse()
    return order


def plan_count(sq: Sequences, player: int, n_actions: NDArray[np.int64]) -> int:
    """Number of reduced plans of ``player`` (exact Python int, without enumerating)."""
    kids = sq.children(player)
    count: dict[int, int] = {}
    for s in _children_first(kids, sq, n_actions):
        count[s] = math.prod(sum(count.pop(int(sq.seq[J, a])) for a in range(int(n_actions[J])))
                             for J in kids[s])
    return count[0]


def reduced_plans(sq: Sequences, player: int, n_actions: NDArray[np.int64]) -> NDArray[np.int16]:
    """The reduced plans of ``player``: ``(n_plans, n_infosets)`` action indices, -1 at the
    other players' sets and at own sets the plan leaves unreachable.  Order: the product
    order over the root sets (last set fastest), each set's actions in order."""
    kids = sq.children(player)
    n_inf = sq.seq.shape[0]
    below: dict[int, NDArray[np.int16]] = {}   # the plans below each finished sequence
    for s in _children_first(kids, sq, n_actions):
        block = np.full((1, n_inf), -1, dtype=np.int16)
        for J in kids[s]:
            opts = []
            for a in range(int(n_actions[J])):
                sub = below.pop(int(sq.seq[J, a]))
                sub[:, J] = a
                opts.append(sub)
            here = np.concatenate(opts)
            block = np.maximum(block[:, None, :], here[None, :, :]).reshape(-1, n_inf)
        below[s] = block
    return below[0]


def incidence(sq: Sequences, player: int, plans: NDArray[np.int16]) -> NDArray[np.int8]:
    """``(n_plans, n_sequences)`` 0/1: whether each plan plays each sequence (all of its
    actions); the empty sequence is in every plan."""
    out = np.zeros((plans.shape[0], sq.n_sequences[player]), dtype=np.int8)
    out[:, 0] = 1
    rows, sets = np.nonzero(plans >= 0)
    out[rows, sq.seq[sets, plans[rows, sets]]] = 1
    return out


__all__ = ["Sequences", "incidence", "plan_count", "reduced_plans", "sequences"]
