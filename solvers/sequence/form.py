"""Sequence form of a two-player game (Koller, Megiddo & von Stengel 1996; the LP survey's
sec. on the sequence form), built sparse from the compiled tree.

Player ``p``'s sequences are the empty sequence (index 0) and one sequence per (information
set, action) of ``p``.  A realization plan ``x`` satisfies ``E x = e``: ``x[0] = 1`` and, for
every information set ``I``, the sum of ``x`` over ``I``'s actions equals ``x`` of ``I``'s
parent sequence (the owner's last action before ``I``; unique under perfect recall).  The
payoff matrices ``A[p][s1, s2]`` sum chance reach times ``p``'s payoff over the terminals
reached by the sequence pair ``(s1, s2)``, so ``x^T A[p] y`` is ``p``'s expected payoff.

:func:`exact_sequence_form` holds the same payoff matrices in rationals, built from the game's
own exact payoffs and chance probabilities (sympy Rationals of a .efg file, or a builder's
expressions at the exact parameter values), never from the float matrices: a product of two
floats such as ``0.1 * 50`` is no longer the rational it stood for.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import scipy.sparse as sps
from numba import njit
from numpy.typing import NDArray

from pokerdyn.games import CompiledGame, GameError
from pokerdyn.games.strategy import check_strategy

from pokerdyn.solvers import _kernels as K
from pokerdyn.solvers.evaluation import check_player

CHANCE, DECISION = K.CHANCE, K.DECISION


@dataclass(frozen=True, eq=False)
class SequenceForm:
    """Sparse sequence-form data of a two-player game.

    ``n_sequences[p]``; ``seq[I, a]``: the owner's sequence index of action ``a`` at set
    ``I`` (-1 for illegal actions); ``parent_seq[I]``: the owner's parent sequence of ``I``;
    ``E[p]`` (``(1 + #sets of p, n_sequences[p])``) and ``e[p]`` the plan constraints;
    ``A[p]`` (``(n_sequences[0], n_sequences[1])``) the payoff matrix of player ``p``;
    ``reach``: the chance reach summed over the terminals of each sequence pair.
    """

    n_sequences: tuple[int, int]
    seq: NDArray[np.int64]
    parent_seq: NDArray[np.int64]
    E: tuple[sps.csr_matrix, sps.csr_matrix]
    e: tuple[NDArray[np.float64], NDArray[np.float64]]
    A: tuple[sps.csr_matrix, sps.csr_matrix]
    reach: sps.csr_matrix | None = None   # chance reach summed over each pair's terminals

    def realization_plan(self, cg: CompiledGame, sigma: NDArray[np.float64],
                         player: int) -> NDArray[np.float64]:
        """Realization plan of ``player`` for the behaviour profile ``sigma``."""
        player = check_player(cg, player)
        sigma = check_strategy(cg, sigma, "sigma")
        x = np.zeros(self.n_sequences[player])
        x[0] = 1.0
        mine = np.nonzero(cg.infoset_player == player)[0]
        # parents before children: an information set's parent sequence has a lower index
        for I in mine[np.argsort(self.parent_seq[mine], kind="stable")]:
            for a in range(int(cg.n_actions[I])):
                x[self.seq[I, a]] = x[self.parent_seq[I]] * sigma[I, a]
        return x

    def behaviour(self, cg: CompiledGame, plans: tuple[NDArray[np.float64], ...]
                  ) -> NDArray[np.float64]:
        """Behaviour profile of realization plans (uniform where a set has plan 0)."""
        sigma = cg.legal / cg.n_actions[:, None].astype(np.float64)
        for I in range(cg.n_infosets):
            x = plans[int(cg.infoset_player[I])]
            n = int(cg.n_actions[I])
            row = np.maximum(x[self.seq[I, :n]], 0.0)
            if row.sum() > 1e-12:
                sigma[I, :n] = row / row.sum()
        return sigma


@njit(cache=True)
def _node_sequences(kind, player, parent, edge, infoset, seq):
    """Each node's last own sequence of both players (0 = empty)."""
    n = kind.shape[0]
    out = np.zeros((n, 2), dtype=np.int64)
    for i in range(1, n):
        p = parent[i]
        out[i, 0] = out[p, 0]
        out[i, 1] = out[p, 1]
        if kind[p] == DECISION:
            out[i, player[p]] = seq[infoset[p], edge[i]]
    return out


def sequence_form(cg: CompiledGame) -> SequenceForm:
    """The sparse sequence form of a two-player compiled game (cached on ``cg``)."""
    got = cg.cache.get("sequence_form")
    if got is not None:
        return got
    if cg.n_players != 2:
        raise GameError(f"the sequence form needs a 2-player game; {cg.name!r} has "
                        f"{cg.n_players} players")
    seq = np.full(cg.legal.shape, -1, dtype=np.int64)
    n_seq = [1, 1]
    for I in range(cg.n_infosets):
        p, n = int(cg.infoset_player[I]), int(cg.n_actions[I])
        seq[I, :n] = np.arange(n_seq[p], n_seq[p] + n)
        n_seq[p] += n
    node_seq = _node_sequences(cg.kind, cg.player, cg.parent, cg.edge, cg.infoset, seq)
    dec = np.nonzero(cg.infoset >= 0)[0]
    parent_seq = np.zeros(cg.n_infosets, dtype=np.int64)
    parent_seq[cg.infoset[dec]] = node_seq[dec, cg.player[dec]]
    Es, es = [], []
    for p in range(2):
        mine = np.nonzero(cg.infoset_player == p)[0]
        rows, cols, vals = [0], [0], [1.0]
        for r, I in enumerate(mine, start=1):
            n = int(cg.n_actions[I])
            rows += [r] * (n + 1)
            cols += [int(parent_seq[I]), *seq[I, :n].tolist()]
            vals += [-1.0] + [1.0] * n
        Es.append(sps.csr_matrix((vals, (rows, cols)), shape=(len(mine) + 1, n_seq[p])))
        e = np.zeros(len(mine) + 1)
        e[0] = 1.0
        es.append(e)
    chance = K.reach_probs(cg.kind, cg.player, cg.parent, cg.edge, cg.infoset, cg.chance_prob,
                           np.ones(cg.legal.shape), -2)
    term = np.nonzero(cg.terminal_index >= 0)[0]
    w = chance[term]
    s1, s2 = node_seq[term, 0], node_seq[term, 1]
    A = tuple(sps.csr_matrix((w * cg.payoffs[cg.terminal_index[term], p], (s1, s2)),
                             shape=tuple(n_seq)) for p in range(2))
    reach = sps.csr_matrix((w, (s1, s2)), shape=tuple(n_seq))
    got = SequenceForm(tuple(n_seq), seq, parent_seq, tuple(Es), tuple(es), A, reach)
    cg.cache["sequence_form"] = got
    return got


@dataclass(frozen=True, eq=False)
class ExactSequenceForm:
    """The sequence-form payoffs in rationals, sparse: ``A[p]`` maps ``(s1, s2)`` to player
    ``p``'s chance-weighted payoff of the pair (entries that are 0 left out), ``reach`` to the
    chance reach of its terminals; ``payoffs``: the exact terminal payoffs (rows of
    ``cg.payoffs``); ``constant``: the payoff sum when it is the same at every terminal, else
    None (a constant-sum game)."""

    A: tuple[dict[tuple[int, int], Fraction], dict[tuple[int, int], Fraction]]
    reach: dict[tuple[int, int], Fraction]
    payoffs: tuple[tuple[Fraction, ...], ...]
    constant: Fraction | None
    shape: tuple[int, int]

    def dense(self, which) -> NDArray:
        """``A[p]`` (``which`` = p) or ``reach`` (``which`` = "reach") as a dense object array."""
        S = self.reach if which == "reach" else self.A[which]
        out = np.empty(self.shape, dtype=object)
        out[:, :] = Fraction(0)
        for (i, j), v in S.items():
            out[i, j] = v
        return out

    def times(self, p: int, y: list) -> list[Fraction]:
        """``A[p] y`` (length ``n_sequences[0]``)."""
        out = [Fraction(0)] * self.shape[0]
        for (i, j), v in self.A[p].items():
            if y[j]:
                out[i] += v * y[j]
        return out

    def times_left(self, p: int, x: list) -> list[Fraction]:
        """``A[p]^T x`` (length ``n_sequences[1]``)."""
        out = [Fraction(0)] * self.shape[1]
        for (i, j), v in self.A[p].items():
            if x[i]:
                out[j] += v * x[i]
        return out


def _fraction(v) -> Fraction:
    return Fraction(int(v.p), int(v.q))


def exact_chance_probs(cg: CompiledGame) -> dict[int, Fraction]:
    """Node -> its chance probability as the game states it (a .efg file's rationals; a
    builder's expressions at the exact parameter values; a float array's entries as the
    rationals of denominator <= 10^9 they round, :func:`games.exact_values.exact_number`), the
    last outcome of each chance node taking the rest, so that every chance node's outcomes sum
    to exactly 1 (Gambit requires it of an .efg; the LCP's payoff shift is
    strategy-independent only then)."""
    got = cg.cache.get("exact_chance_probs")
    if got is not None:
        return got
    from pokerdyn.games.exact_values import exact_value, exact_values
    subs = exact_values(cg.game, cg.values)
    parent = np.asarray(cg.parent)
    chance_nodes = np.nonzero(np.asarray(cg.kind) == CHANCE)[0]
    kids_of: dict[int, list[int]] = {int(c): [] for c in chance_nodes}
    for k in np.nonzero(np.isin(parent, chance_nodes))[0]:
        kids_of[int(parent[k])].append(int(k))
    probs: dict[int, Fraction] = {}
    for kids in kids_of.values():
        kids.sort(key=lambda k: int(cg.edge[k]))
        rest = Fraction(1)
        for k in kids[:-1]:
            probs[k] = _fraction(exact_value(cg.game, cg.game.edge_prob[k], subs))
            rest -= probs[k]
        probs[kids[-1]] = rest
    cg.cache["exact_chance_probs"] = probs
    return probs


def exact_terminal_payoffs(cg: CompiledGame) -> tuple[tuple[Fraction, ...], ...]:
    """Every terminal's payoffs as the game states them (rows of ``cg.payoffs``, exact)."""
    from pokerdyn.games.exact_values import exact_value, exact_values
    subs = exact_values(cg.game, cg.values)
    memo: dict = {}

    def one(u) -> Fraction:
        if u not in memo:
            memo[u] = _fraction(exact_value(cg.game, u, subs))
        return memo[u]

    return tuple(tuple(one(u) for u in row) for row in cg.game.payoffs)


def exact_sequence_form(cg: CompiledGame) -> ExactSequenceForm:
    """The :class:`ExactSequenceForm` of a two-player compiled game (cached on ``cg``)."""
    got = cg.cache.get("exact_sequence_form")
    if got is not None:
        return got
    sf = sequence_form(cg)
    probs = exact_chance_probs(cg)
    pays = exact_terminal_payoffs(cg)
    parent = np.asarray(cg.parent)
    if (parent[1:] >= np.arange(1, len(parent))).any():
        raise AssertionError("compiled nodes are not in parents-first order")
    reach_node = [Fraction(1)] * len(parent)
    for i in range(1, len(parent)):
        reach_node[i] = reach_node[int(parent[i])] * probs.get(i, 1)
    ns = _node_sequences(cg.kind, cg.player, cg.parent, cg.edge, cg.infoset, sf.seq)
    A: tuple[dict, dict] = ({}, {})
    reach: dict = {}
    for node in np.nonzero(cg.terminal_index >= 0)[0]:
        w = reach_node[int(node)]
        if not w:
            continue
        key = (int(ns[node, 0]), int(ns[node, 1]))
        reach[key] = reach.get(key, 0) + w
        for p in range(2):
            u = pays[int(cg.terminal_index[node])][p]
            if u:
                A[p][key] = A[p].get(key, 0) + w * u
    for p in range(2):
        for key in [k for k, v in A[p].items() if not v]:
            del A[p][key]
    sums = {sum(row) for row in pays}
    got = ExactSequenceForm(A, reach, pays, sums.pop() if len(sums) == 1 else None,
                            tuple(sf.n_sequences))
    cg.cache["exact_sequence_form"] = got
    return got


__all__ = ["ExactSequenceForm", "SequenceForm", "exact_chance_probs", "exact_sequence_form",
           "exact_terminal_payoffs", "sequence_form"]
