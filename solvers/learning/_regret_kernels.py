"""Numba kernels shared by the regret-based solvers (CFR family, multiplicative weights).

Counterfactual values of one player come from a forward pass (the others' and chance's reach)
and one backward pass over the compiled arrays (nodes are ordered parents before children, so
a reverse loop sees every node after its subtree); the player's own reach is computed per
information set (:func:`solvers._kernels.own_reach_sets`).  16 bytes per node of buffers.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit
from numpy.typing import NDArray

from pokerdyn.solvers import _kernels as K

CHANCE, DECISION = K.CHANCE, K.DECISION


@njit(cache=True)
def cfv_into(kind, player, parent, edge, infoset, chance_prob, terminal_index, payoffs, sigma,
             who, cfv, cf_reach, own, reach, v, iparent, topo, m):
    """:func:`counterfactual_values` with the caller's buffers (``reach``, ``v``: float64 per
    node) and ``who``'s information-set tree (``iparent``, ``topo[:m]``,
    :func:`solvers._kernels.infoset_tree`), so that an iterative solver allocates once."""
    n = kind.shape[0]
    reach[0] = 1.0
    v[0] = 0.0
    for i in range(1, n):
        p = parent[i]
        if kind[p] == CHANCE:
            w = chance_prob[i]
        elif player[p] == who:
            w = 1.0
        else:
            w = sigma[infoset[p], edge[i]]
        reach[i] = reach[p] * w
        v[i] = 0.0
    for k in range(m):
        I = topo[k]
        cf_reach[I] = 0.0
        for a in range(cfv.shape[1]):
            cfv[I, a] = 0.0
    # node by node, as in Zinkevich et al.: each set's actions are summed over its nodes in
    # the same order, so actions of exactly equal value get exactly equal sums (CFR+ turns
    # a regret of 1e-20 instead of 0 into a different strategy)
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
    K.own_reach_sets(sigma, iparent, topo, m, cfv.shape[1], own)


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
    n_inf, amax = cfv.shape
    iparent, topo = K.infoset_tree(kind, player, parent, edge, infoset, n_inf, amax, who)
    cfv_into(kind, player, parent, edge, infoset, chance_prob, terminal_index, payoffs, sigma,
             who, cfv, cf_reach, own, np.empty(n), np.empty(n), iparent, topo, topo.shape[0])


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
