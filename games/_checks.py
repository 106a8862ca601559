"""Numba kernels validating games: the perfect-recall check shared by GameBuilder and
game_from_arrays, and the structural check of game_from_arrays (one pass, O(n_nodes),
no large temporaries).

For each player, a node's *own sequence* is the player's last (information set, action)
pair on the path from the root (0 if none).  Perfect recall holds when all nodes of each of
the player's information sets share that sequence (the last pair fixes the whole sequence
by induction over the player's information sets).
"""
from __future__ import annotations

import functools

import numpy as np

from pokerdyn.games.errors import GameError


# trees smaller than this are checked in plain Python (lazy_njit)
SMALL_TREE = 5000


def lazy_njit(fn):
    """A tree check (first argument: the ``kind`` array) that runs as plain Python on trees
    of fewer than SMALL_TREE nodes, instant there, and otherwise as
    ``numba.njit(cache=True)(fn)``, compiled (or loaded from numba's cache, about 0.5 s) on
    the first large tree: building a small game, as every command does, never imports
    numba.  ``.py_func`` is the plain Python function, as with numba."""
    compiled = None

    @functools.wraps(fn)
    def call(*args):
        nonlocal compiled
        if args[0].shape[0] < SMALL_TREE:
            return fn(*args)
        if compiled is None:
            from numba import njit
            compiled = njit(cache=True)(fn)
        return compiled(*args)

    call.py_func = fn
    return call


TERMINAL, CHANCE, DECISION = 0, 1, 2

# codes returned by structure_error
STRUCTURE_ERRORS = {
    1: "node {n} has kind {kind} outside {{0, 1, 2}}",
    2: "node {n} has parent {parent}: the root comes first and every parent before its children",
    3: "terminal node {parent} has children",
    4: "decision node {n} has information-set index {infoset} outside [0, {max_infoset}]",
    5: "information set {label!r} has nodes of players {owner} and {player}",
    6: "node {n} has edge {edge} outside the {nchild} outcomes/actions of node {parent}",
    7: "node {parent} has two children on edge {edge}",
    8: "decision node {n} at information set {label!r} has {nchild} children for {nact} actions",
    9: "chance node {n} has no outcomes",
    10: "chance probability {prob} of outcome {edge} at node {parent} is outside [0, 1]",
    11: "chance probabilities at node {n} sum to {sum!r}, not 1",
}


@lazy_njit
def structure_error(kind, parent, edge, player, infoset, infoset_player, n_act, prob, atol):
    """(code, node, nchild of the node or its parent, chance sum) of the first structural
    error (see STRUCTURE_ERRORS) or (0, -1, 0, 0.0).  Sets ``prob`` to 1 wherever the
    parent is not a chance node."""
    n = kind.shape[0]
    n_inf = n_act.shape[0]
    nchild = np.zeros(n, dtype=np.int64)
    sums = np.zeros(n)
    for i in range(n):
        if kind[i] < 0 or kind[i] > 2:
            return 1, i, 0, 0.0
        p = parent[i]
        if (i == 0 and p != -1) or (i > 0 and (p < 0 or p >= i)):
            return 2, i, 0, 0.0
        if kind[i] == DECISION:
            I = infoset[i]
            if I < 0 or I >= n_inf:
                return 4, i, 0, 0.0
            if infoset_player[I] != player[i]:
                return 5, i, 0, 0.0
        if i == 0:
            prob[i] = 1.0
            continue
        if kind[p] == TERMINAL:
            return 3, i, 0, 0.0
        nchild[p] += 1
        if kind[p] == CHANCE:
            if not (prob[i] >= 0.0 and prob[i] <= 1.0):
                return 10, i, 0, 0.0
            sums[p] += prob[i]
        else:
            prob[i] = 1.0
    start = np.zeros(n + 1, dtype=np.int64)
    for i in range(n):
        start[i + 1] = start[i] + nchild[i]
    seen = np.zeros(n, dtype=np.bool_)
    for i in range(1, n):
        p = parent[i]
        e = edge[i]
        if e < 0 or e >= nchild[p]:
            return 6, i, nchild[p], 0.0
        if seen[start[p] + e]:
            return 7, i, nchild[p], 0.0
        seen[start[p] + e] = True
    for i in range(n):
        if kind[i] == DECISION and nchild[i] != n_act[infoset[i]]:
            return 8, i, nchild[i], 0.0
        if kind[i] == CHANCE:
            if nchild[i] == 0:
                return 9, i, 0, 0.0
            if abs(sums[i] - 1.0) > atol:
                return 11, i, nchild[i], sums[i]
    return 0, -1, 0, 0.0


@lazy_njit
def recall_violation(kind, parent, edge, player, infoset, offsets, n_infosets, who):
    """First pair (node of the set seen first, offending node) violating perfect recall
    for player ``who``, or (-1, -1).  ``offsets[I]`` numbers the (set, action) pairs."""
    n = kind.shape[0]
    seq = np.zeros(n, dtype=np.int64)
    first_seq = np.full(n_infosets, -1, dtype=np.int64)
    first_node = np.full(n_infosets, -1, dtype=np.int64)
    for i in range(n):
        p = parent[i]
        if p >= 0:
            if kind[p] == DECISION and player[p] == who:
                seq[i] = offsets[infoset[p]] + edge[i] + 1
            else:
                seq[i] = seq[p]
        if kind[i] == DECISION and player[i] == who:
            I = infoset[i]
            if first_node[I] < 0:
                first_node[I] = i
                first_seq[I] = seq[i]
            elif seq[i] != first_seq[I]:
                return first_node[I], i
    return -1, -1


def find_recall_violation(kind, parent, edge, player, infoset, n_actions):
    """(infoset index, first node, offending node, player) of the first perfect-recall
    violation, or None.  ``n_actions`` per information set."""
    n_actions = np.asarray(n_actions, dtype=np.int64)
    offsets = np.zeros(n_actions.shape[0] + 1, dtype=np.int64)
    offsets[1:] = np.cumsum(n_actions)
    found = []
    for who in np.unique(player[player >= 0]):
        a, b = recall_violation(kind, parent, edge, player, infoset, offsets,
                                n_actions.shape[0], int(who))
        if a >= 0:
            found.append((int(b), int(a), int(who)))
    if not found:
        return None
    b, a, who = min(found)  # the lowest offending node, as a single forward pass finds it
    return int(infoset[b]), a, b, who


def check_perfect_recall(kind, parent, edge, player, infoset, infosets) -> None:
    """Raise GameError naming the information set and nodes where perfect recall fails."""
    bad = find_recall_violation(kind, parent, edge, player, infoset,
                                [len(I.actions) for I in infosets])
    if bad is not None:
        I, a, b, who = bad
        raise GameError(f"perfect recall fails at information set {infosets[I].label!r}: "
                        f"nodes {a} and {b} differ in player {who + 1}'s own past actions "
                        "(the nodes of an information set must share them)")
