"""Numba kernels shared by the regret-based solvers (CFR family, multiplicative weights).

Counterfactual values of one player come from a forward pass (the others' and chance's reach,
:func:`solvers._kernels.reach_probs`) and one backward pass over the compiled arrays (nodes
are ordered parents before children, so a reverse loop sees every node after its subtree).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit
from numpy.typing import NDArray

from solvers import _kernels as K

CHANCE, DECISION = K.CHANCE, K.DECISION


@njit(cache=True)
def counterfactual_values(kind, player, parent, edge, infoset, chance_prob, terminal_index,
                          payoffs, sigma, who, cfv, cf_reach, own):
    """Fill ``cfv[I, a]`` (counterfactual action values), ``cf_reach[I]`` (reach of the
    other players and chance, summed over the set's nodes) and ``own[I]`` (``who``'s own
    reach) for ``who``'s information sets; other rows are left untouched.

    ``cfv[I, a] = sum over h in I of pi_{-who}(h) u_who(h a)`` with ``u`` the expected payoff
    under ``sigma`` below ``h a`` (Zinkevich et al. 2007, eq. 7, times the reach).
    """
    n = kind.shape[0]
    reach = K.reach_probs(kind, player, parent, edge, infoset, chance_prob, sigma, who)
    mine = K.own_reach(kind, player, parent, edge, infoset, sigma, who)
    v = np.zeros(n)
    for i in range(n):
        if kind[i] == DECISION and player[i] == who:
            I = infoset[i]
            for a in range(cfv.shape[1]):
                cfv[I, a] = 0.0
            cf_reach[I] = 0.0
    for i in range(n - 1, 0, -1):
        t = terminal_index[i]
        if t >= 0:
            v[i] = payoffs[t, who]
        p = parent[i]
        if kind[p] == CHANCE:
            v[p] += chance_prob[i] * v[i]
        else:
            I = infoset[p]
            v[p] += sigma[I, edge[i]] * v[i]
            if player[p] == who:
                cfv[I, edge[i]] += reach[p] * v[i]
                if edge[i] == 0:
                    cf_reach[I] += reach[p]
                    own[I] = mine[p]


@njit(cache=True)
def regret_matching(regret_row, legal_row, out_row):
    """Strategy proportional to positive regrets; uniform over legal actions if none."""
    total = 0.0
    for a in range(regret_row.shape[0]):
        if legal_row[a] and regret_row[a] > 0.0:
            total += regret_row[a]
    n_legal = 0
    for a in range(regret_row.shape[0]):
        n_legal += 1 if legal_row[a] else 0
    for a in range(regret_row.shape[0]):
        if not legal_row[a]:
            out_row[a] = 0.0
        elif total > 0.0:
            out_row[a] = max(regret_row[a], 0.0) / total
        else:
            out_row[a] = 1.0 / n_legal


def normalise_average(acc: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """Rows of an accumulated (reach-weighted) strategy sum, normalised; uniform where the
    set was never reached."""
    sums = acc.sum(axis=1, keepdims=True)
    uniform = legal / legal.sum(axis=1, keepdims=True)
    safe = np.where(sums > 0, sums, 1.0)
    return np.where(sums > 0, acc / safe, uniform)


@dataclass
class RegretState:
    """State of a regret-based method: the current profile ``sigma``, a per-action table
    (cumulative regrets for CFR, log-weights for hedge) and the accumulated average ``avg``."""

    sigma: NDArray[np.float64]
    table: NDArray[np.float64]
    avg: NDArray[np.float64]

    @classmethod
    def start(cls, sigma0: NDArray[np.float64], table: NDArray[np.float64] | None = None):
        sigma = np.ascontiguousarray(sigma0, dtype=np.float64).copy()
        return cls(sigma, np.zeros_like(sigma) if table is None else table,
                   np.zeros_like(sigma))
