"""Synthetic layered games generated with numpy, for scale tests and benchmarks.

The tree alternates rounds: in each round every player acts once (``n_actions`` actions),
then chance draws one of ``n_outcomes`` outcomes that nobody observes.  A player's
information set is their own action history, so the game has perfect recall, few
information sets and as many nodes as wanted.  Chance probabilities and zero-sum payoffs
are random (explicit seed).
"""
from __future__ import annotations

import numpy as np

from pokerdyn.games.arrays import game_from_arrays
from pokerdyn.games.tree import CHANCE, DECISION, TERMINAL, Game, Infoset


def _layers(rounds: int, n_players: int) -> list[int]:
    """Layer kinds: -1 chance, p >= 0 decision of player p; terminals follow the last."""
    out = [-1]
    for r in range(rounds):
        out += list(range(n_players))
        if r < rounds - 1:
            out.append(-1)
    return out


def layered_size(rounds: int, n_players: int = 2, n_actions: int = 2, n_outcomes: int = 3) -> int:
    """Number of nodes of :func:`layered_game` with these sizes."""
    size, total = 1, 1
    for k in _layers(rounds, n_players):
        size *= n_outcomes if k < 0 else n_actions
        total += size
    return total


def layered_game(rounds: int, n_players: int = 2, n_actions: int = 2, n_outcomes: int = 3,
                 seed: int = 0) -> Game:
    """A random layered game (see module docstring) built with :func:`game_from_arrays`."""
    rng = np.random.default_rng(seed)
    A = n_actions
    offsets = {}
    infosets = []
    for p in range(n_players):
        for r in range(rounds):
            offsets[p, r] = len(infosets)
            infosets += [Infoset(f"P{p + 1}:{r}.{c}|", p, tuple(f"a{i}" for i in range(A)))
                         for c in range(A ** r)]
    n = layered_size(rounds, n_players, A, n_outcomes)
    kind = np.full(n, TERMINAL, dtype=np.int8)
    parent = np.full(n, -1, dtype=np.int32)
    edge = np.zeros(n, dtype=np.int16)
    player = np.full(n, -1, dtype=np.int8)
    infoset = np.full(n, -1, dtype=np.int32)
    prob = np.ones(n)
    hist = np.zeros((1, n_players), dtype=np.int64)  # own action history, base A
    start, size, rnd = 0, 1, 0
    for k in _layers(rounds, n_players):
        level = slice(start, start + size)
        b = n_outcomes if k < 0 else A
        child = slice(start + size, start + size * (b + 1))
        parent[child] = np.repeat(np.arange(start, start + size, dtype=np.int32), b)
        edge[child] = np.tile(np.arange(b, dtype=np.int16), size)
        if k < 0:
            kind[level] = CHANCE
            w = rng.random((size, b)) + 0.05
            prob[child] = (w / w.sum(axis=1, keepdims=True)).ravel()
            hist = np.repeat(hist, b, axis=0)
        else:
            kind[level] = DECISION
            player[level] = k
            infoset[level] = offsets[k, rnd] + hist[:, k]
            hist = np.repeat(hist, b, axis=0)
            hist[:, k] = hist[:, k] * A + np.tile(np.arange(A), size)
            if k == n_players - 1:
                rnd += 1
        start, size = start + size, size * b
    del hist
    u = rng.standard_normal((size, n_players))
    u -= u.mean(axis=1, keepdims=True)
    return game_from_arrays(f"layered-{rounds}x{n_players}x{A}x{n_outcomes}", n_players, kind,
                            parent, edge, player, infoset, infosets, prob, u,
                            description="synthetic layered game (games.catalog.synthetic)")
