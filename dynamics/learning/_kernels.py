"""Numba kernels of the reach-weighted (unconditional) payoff derivatives.

``G[J * A + b, q] = dE_q / d sigma[J, b] = sum_{g in J} reach(g) V[child(g, b), q]``: the
expected payoff is multilinear in the behaviour probabilities and, with perfect recall, every
path crosses ``J`` at most once.  Its second derivatives pair two decisions on one path:
for a node ``g`` of ``J`` below the edge ``a`` of an ancestor ``h`` of ``I``,
``d2E_q / d sigma[I, a] d sigma[J, b] += reach(h) * pi(child(h, a) -> g) * V[child(g, b), q]``.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from pokerdyn.solvers.qre._kernels import CHANCE, DECISION, children, node_values


@njit(cache=True)
def _reach(kind, parent, edge, infoset, chance_prob, sigma):
    n = kind.shape[0]
    r = np.empty(n)
    r[0] = 1.0
    for i in range(1, n):
        p = parent[i]
        r[i] = r[p] * (chance_prob[i] if kind[p] == CHANCE else sigma[infoset[p], edge[i]])
    return r


@njit(cache=True)
def payoff_gradient(kind, player, parent, edge, infoset, chance_prob, terminal_index,
                    payoffs, legal, sigma):
    """``G (n_infosets * A, n_players)``: every player's dE/d sigma[J, b]."""
    n_inf, amax = legal.shape
    nq = payoffs.shape[1]
    V = node_values(kind, parent, edge, infoset, chance_prob, terminal_index, payoffs, sigma)
    r = _reach(kind, parent, edge, infoset, chance_prob, sigma)
    G = np.zeros((n_inf * amax, nq))
    for i in range(1, kind.shape[0]):
        g = parent[i]
        if kind[g] == DECISION and r[g] != 0.0:
            for q in range(nq):
                G[infoset[g] * amax + edge[i], q] += r[g] * V[i, q]
    return G


@njit(cache=True)
def owner_hessian(kind, player, parent, edge, infoset, chance_prob, terminal_index, payoffs,
                  legal, sigma):
    """``H[I * A + a, J * A + b] = d2 E_{owner(I)} / d sigma[I, a] d sigma[J, b]``."""
    n_inf, amax = legal.shape
    V = node_values(kind, parent, edge, infoset, chance_prob, terminal_index, payoffs, sigma)
    r = _reach(kind, parent, edge, infoset, chance_prob, sigma)
    child = children(kind, parent, edge, amax)
    H = np.zeros((n_inf * amax, n_inf * amax))
    for g in range(1, kind.shape[0]):
        if kind[g] != DECISION:
            continue
        J = infoset[g]
        qJ = player[g]
        pi = 1.0
        k = g
        while k > 0:
            h = parent[k]
            if kind[h] == DECISION:
                I = infoset[h]
                a = edge[k]
                qI = player[h]
                f = r[h] * pi
                if f != 0.0:
                    for b in range(amax):
                        if legal[J, b]:
                            c = child[g, b]
                            H[I * amax + a, J * amax + b] += f * V[c, qI]
                            H[J * amax + b, I * amax + a] += f * V[c, qJ]
            pi *= chance_prob[k] if kind[h] == CHANCE else sigma[infoset[h], edge[k]]
            k = h
    return H
