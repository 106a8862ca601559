"""Numba kernels over the compiled arrays (games.compiled.CompiledGame).

Nodes are ordered parents-before-children, so reach probabilities come from one forward
loop and expected values from sums over terminals.  Best responses use a per-player node
order (decreasing own-depth, then decreasing index) so that every information set is decided
after all its nodes' subtrees and before its nodes are valued: one pass, O(n_nodes).
"""
from __future__ import annotations

import numpy as np
from numba import njit

TERMINAL, CHANCE, DECISION = 0, 1, 2


@njit(cache=True)
def reach_probs(kind, player, parent, edge, infoset, chance_prob, sigma, exclude):
    """Reach probability of every node; the actions of player ``exclude`` (if >= 0) count
    as 1 (counterfactual reach); ``exclude = -2`` keeps only chance (pure chance reach)."""
    n = kind.shape[0]
    reach = np.empty(n)
    reach[0] = 1.0
    for i in range(1, n):
        p = parent[i]
        if kind[p] == CHANCE:
            w = chance_prob[i]
        elif exclude == -2 or player[p] == exclude:
            w = 1.0
        else:
            w = sigma[infoset[p], edge[i]]
        reach[i] = reach[p] * w
    return reach


@njit(cache=True)
def own_reach(kind, player, parent, edge, infoset, sigma, who):
    """Product of player ``who``'s own action probabilities on the path to each node."""
    n = kind.shape[0]
    reach = np.empty(n)
    reach[0] = 1.0
    for i in range(1, n):
        p = parent[i]
        if kind[p] == DECISION and player[p] == who:
            reach[i] = reach[p] * sigma[infoset[p], edge[i]]
        else:
            reach[i] = reach[p]
    return reach


@njit(cache=True)
def expected_payoffs(kind, player, parent, edge, infoset, chance_prob, terminal_index,
                     payoffs, sigma):
    """Expected payoff of each player under the behaviour profile ``sigma``."""
    reach = reach_probs(kind, player, parent, edge, infoset, chance_prob, sigma, -1)
    out = np.zeros(payoffs.shape[1])
    for i in range(kind.shape[0]):
        t = terminal_index[i]
        if t >= 0:
            r = reach[i]
            for q in range(payoffs.shape[1]):
                out[q] += r * payoffs[t, q]
    return out


@njit(cache=True)
def own_depth(kind, player, parent, who):
    """Number of decisions of player ``who`` strictly above each node."""
    n = kind.shape[0]
    d = np.zeros(n, dtype=np.int32)
    for i in range(1, n):
        p = parent[i]
        d[i] = d[p] + (1 if (kind[p] == DECISION and player[p] == who) else 0)
    return d


@njit(cache=True)
def best_response(kind, player, parent, edge, infoset, chance_prob, terminal_index, payoffs,
                  legal, sigma, who, order, depth):
    """Pure best response of player ``who`` to ``sigma``.

    Returns ``(value, br, cf)``: the best-response value, the chosen action per
    information set (-1 for other players' sets) and the counterfactual action values
    ``cf[I, a]`` (opponents' and chance reach times payoff, summed over the set's nodes).
    ``order``/``depth`` come from :func:`br_order`.
    """
    n = kind.shape[0]
    n_inf, amax = legal.shape
    reach = reach_probs(kind, player, parent, edge, infoset, chance_prob, sigma, who)
    v = np.zeros(n)
    cf = np.zeros((n_inf, amax))
    br = np.full(n_inf, -1, dtype=np.int64)
    # first node (in `order`) of each group of equal own-depth
    k = 0
    while k < n:
        d = depth[order[k]]
        start = k
        while k < n and depth[order[k]] == d:
            i = order[k]
            t = terminal_index[i]
            if t >= 0:
                v[i] = reach[i] * payoffs[t, who]
            p = parent[i]
            if p >= 0:
                if kind[p] == DECISION and player[p] == who:
                    cf[infoset[p], edge[i]] += v[i]
                else:
                    v[p] += v[i]
            k += 1
        # decide player `who`'s sets at depth d-1: all their children (depth d) are valued
        for s in range(start, k):
            i = order[s]
            p = parent[i]
            if p >= 0 and kind[p] == DECISION and player[p] == who:
                I = infoset[p]
                if br[I] < 0:
                    best = -1
                    bv = -np.inf
                    for a in range(amax):
                        if legal[I, a] and (best < 0 or cf[I, a] > bv + 1e-14 * (1.0 + abs(bv))):
                            bv = cf[I, a]
                            best = a
                    br[I] = best
                if edge[i] == br[I]:
                    v[p] += v[i]
    return v[0], br, cf


def br_order(kind, player, parent, who):
    """Node order for :func:`best_response`: decreasing own-depth, then decreasing index."""
    depth = own_depth(kind, player, parent, who)
    idx = np.arange(kind.shape[0], dtype=np.int64)
    order = np.lexsort((-idx, -depth.astype(np.int64)))
    return order.astype(np.int64), depth
