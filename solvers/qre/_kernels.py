"""Numba kernels of the agent logit QRE over the compiled arrays (games.compiled).

The action value of ``(I, a)`` is the owner's expected payoff of playing ``a`` at ``I``
*given that I is reached* (McKelvey and Palfrey 1998; Turocy 2005): the mean over the
nodes ``h`` of ``I``, weighted by their reach, of the value of ``h``'s child through ``a``
under the profile.  Reaches are kept as logarithms so that sets reached only through
actions of probability ``exp(-lambda c)`` (which underflow far out on the branch) keep
well-defined beliefs: the weights are ``exp(log reach(h) - logsumexp_I log reach)``.

The Jacobian of the values with respect to the log-probabilities ``x = log sigma`` has two
parts: through the values below ``h`` (a walk up from every decision node ``g`` to its
ancestors) and through the beliefs at ``I`` (a walk up from every node ``h`` of ``I``).
Both cost ``O(nodes * depth * actions)``; nothing is differenced numerically.
"""
from __future__ import annotations

import numpy as np
from numba import njit

TERMINAL, CHANCE, DECISION = 0, 1, 2


@njit(cache=True)
def children(kind, parent, edge, amax):
    """``child[h, a]``: the node reached from decision or chance node ``h`` by edge ``a``."""
    n = kind.shape[0]
    amx = amax
    for i in range(1, n):
        if edge[i] + 1 > amx:
            amx = edge[i] + 1
    child = np.full((n, amx), -1, dtype=np.int32)
    for i in range(1, n):
        child[parent[i], edge[i]] = i
    return child


@njit(cache=True)
def log_reach(kind, parent, edge, infoset, chance_prob, logsig):
    """Log of every node's reach probability (all players and chance) under
    ``sigma = exp(logsig)``, as an unevaluated sum ``hi + lo`` (Knuth's two-sum): far out
    on a branch a path adds ``-lam c`` to ``O(1)`` terms and the beliefs need the small
    terms exactly; ``-inf`` below a chance outcome of probability 0."""
    n = kind.shape[0]
    hi = np.empty(n)
    lo = np.zeros(n)
    hi[0] = 0.0
    for i in range(1, n):
        p = parent[i]
        if kind[p] == CHANCE:
            c = chance_prob[i]
            a = np.log(c) if c > 0.0 else -np.inf
        else:
            a = logsig[infoset[p], edge[i]]
        s = hi[p] + a
        if np.isfinite(s):
            bb = s - hi[p]
            lo[i] = lo[p] + ((hi[p] - (s - bb)) + (a - bb))
        hi[i] = s
    return hi, lo


@njit(cache=True)
def node_values(kind, parent, edge, infoset, chance_prob, terminal_index, payoffs, sigma):
    """``V[h, q]``: player ``q``'s expected payoff from node ``h`` on under ``sigma``."""
    n = kind.shape[0]
    nq = payoffs.shape[1]
    V = np.zeros((n, nq))
    for i in range(n - 1, 0, -1):
        t = terminal_index[i]
        if t >= 0:
            for q in range(nq):
                V[i, q] = payoffs[t, q]
        p = parent[i]
        w = chance_prob[i] if kind[p] == CHANCE else sigma[infoset[p], edge[i]]
        if w != 0.0:
            for q in range(nq):
                V[p, q] += w * V[i, q]
    if terminal_index[0] >= 0:
        for q in range(nq):
            V[0, q] = payoffs[terminal_index[0], q]
    return V


@njit(cache=True)
def beliefs(kind, infoset, n_inf, hi, lo):
    """Normalised weight of each decision node within its information set (``exp(lr -
    logsumexp)``, ``lr = hi + lo``), and ``reached[I]``: False where every node of ``I``
    has reach 0."""
    n = kind.shape[0]
    top = np.full(n_inf, -1, dtype=np.int64)
    for h in range(n):
        if kind[h] == DECISION and hi[h] > -np.inf:
            I = infoset[h]
            if top[I] < 0 or hi[h] > hi[top[I]]:
                top[I] = h
    tot = np.zeros(n_inf)
    w = np.zeros(n)
    for h in range(n):
        if kind[h] == DECISION and hi[h] > -np.inf:
            t = top[infoset[h]]
            w[h] = np.exp((hi[h] - hi[t]) + (lo[h] - lo[t]))
            tot[infoset[h]] += w[h]
    reached = top >= 0
    for h in range(n):
        if kind[h] == DECISION and reached[infoset[h]]:
            w[h] /= tot[infoset[h]]
    return w, reached


@njit(cache=True)
def action_values(kind, player, parent, edge, infoset, chance_prob, terminal_index, payoffs,
                  legal, logsig):
    """Conditional action values ``v[I, a]`` (0 where ``I`` cannot be reached), the node
    values ``V``, the beliefs ``w`` and ``reached``."""
    sigma = np.exp(logsig)
    n_inf, amax = legal.shape
    hi, lo = log_reach(kind, parent, edge, infoset, chance_prob, logsig)
    w, reached = beliefs(kind, infoset, n_inf, hi, lo)
    V = node_values(kind, parent, edge, infoset, chance_prob, terminal_index, payoffs, sigma)
    v = np.zeros((n_inf, amax))
    for i in range(1, kind.shape[0]):
        p = parent[i]
        if kind[p] == DECISION and w[p] != 0.0:
            v[infoset[p], edge[i]] += w[p] * V[i, player[p]]
    return v, V, w, reached


@njit(cache=True)
def value_jacobian(kind, player, parent, edge, infoset, chance_prob, terminal_index, payoffs,
                   legal, logsig):
    """``D[I * amax + a, J * amax + b] = d v[I, a] / d log sigma[J, b]`` (the probabilities
    of each action taken as independent variables; the simplex is an equation of the
    branch) and the values ``v``."""
    sigma = np.exp(logsig)
    n_inf, amax = legal.shape
    v, V, w, reached = action_values(kind, player, parent, edge, infoset, chance_prob,
                                     terminal_index, payoffs, legal, logsig)
    child = children(kind, parent, edge, amax)
    D = np.zeros((n_inf * amax, n_inf * amax))
    n = kind.shape[0]
    for g in range(1, n):
        if kind[g] != DECISION:
            continue
        J = infoset[g]
        # (1) values below: every ancestor decision node h, child c on the path to g
        pi = 1.0
        k = g
        while k > 0 and pi != 0.0:
            h = parent[k]
            if kind[h] == DECISION and w[h] != 0.0:
                I = infoset[h]
                a = edge[k]
                q = player[h]
                f = w[h] * pi
                for b in range(amax):
                    if legal[J, b] and sigma[J, b] != 0.0:
                        D[I * amax + a, J * amax + b] += f * sigma[J, b] * V[child[g, b], q]
            pi *= chance_prob[k] if kind[h] == CHANCE else sigma[infoset[h], edge[k]]
            k = h
        # (2) beliefs at g's own set: the edges above g move the weight of g within J
        if w[g] == 0.0:
            continue
        qg = player[g]
        k = g
        while k > 0:
            h = parent[k]
            if kind[h] == DECISION and player[h] != qg:
                col = infoset[h] * amax + edge[k]
                for a in range(amax):
                    if legal[J, a]:
                        D[J * amax + a, col] += w[g] * (V[child[g, a], qg] - v[J, a])
            k = h
    return D, v, reached


@njit(cache=True)
def assemble(D, vflat, x, lam, idx, ref_pos, is_ref, set_pos, n_inf):
    """The branch system ``H`` and its Jacobian ``(n, n + 1)`` (solvers.qre.core.
    BranchSystem) from the value Jacobian ``D`` and values over the legal actions ``idx``."""
    n = idx.shape[0]
    sums = np.zeros(n_inf)
    ex = np.exp(x)
    for k in range(n):
        sums[set_pos[k]] += ex[k]
    h = np.empty(n)
    J = np.zeros((n, n + 1))
    for k in range(n):
        r = ref_pos[k]
        if is_ref[k]:
            h[k] = sums[set_pos[k]] - 1.0
            continue
        h[k] = x[k] - x[r] - lam * (vflat[idx[k]] - vflat[idx[r]])
        rk, rr = idx[k], idx[r]
        for j in range(n):
            J[k, j] = -lam * (D[rk, idx[j]] - D[rr, idx[j]])
        J[k, k] += 1.0
        J[k, r] -= 1.0
        J[k, n] = -(vflat[rk] - vflat[rr])
    for k in range(n):
        if is_ref[k]:
            s = set_pos[k]
            for j in range(n):
                if set_pos[j] == s:
                    J[k, j] = ex[j]
    return h, J
