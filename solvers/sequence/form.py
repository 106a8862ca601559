"""Sequence form of a two-player game (Koller, Megiddo & von Stengel 1996; the LP survey's
sec. on the sequence form), built sparse from the compiled tree.

Player ``p``'s sequences are the empty sequence (index 0) and one sequence per (information
set, action) of ``p``.  A realization plan ``x`` satisfies ``E x = e``: ``x[0] = 1`` and, for
every information set ``I``, the sum of ``x`` over ``I``'s actions equals ``x`` of ``I``'s
parent sequence (the owner's last action before ``I``; unique under perfect recall).  The
payoff matrices ``A[p][s1, s2]`` sum chance reach times ``p``'s payoff over the terminals
reached by the sequence pair ``(s1, s2)``, so ``x^T A[p] y`` is ``p``'s expected payoff.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sps
from numba import njit
from numpy.typing import NDArray

from games import CompiledGame, GameError
from games.strategy import check_strategy

from solvers import _kernels as K
from solvers.evaluation import check_player

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


__all__ = ["SequenceForm", "sequence_form"]
