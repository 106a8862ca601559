"""The numba kernel of agent-based play (see :mod:`dynamics.play.experiments` for the model).

State lives in *rows*: one row per (agent, memory slot); an agent's slot is normally the
seat it sits in, so each agent keeps separate frequencies, estimates and observation windows
for every seat.  ``row_of[c, s]`` is the row that plays seat s in seating configuration c.

Per round (one chunk of pre-drawn uniforms ``u[i]``: deal, one per random slot, seating):

1. seating c (fixed, cyclic ``i mod n_configs`` or drawn), the profile
   ``x_j = freq[row_of[c, owner_j], j]``, the deal and one action per random information set
   (:class:`dynamics.play.tables.TreeTables`), the terminal by table lookup;
2. every seated row adds the terminal to its ring buffer of the last ``L`` of *its own*
   hands and updates its running estimator sums (``kind[r] >= 0``: ratio estimators of the
   seat's observer with weight table ``kind[r]``; ``-1``: class counts + Newton steps for
   maximum likelihood; ``-2``: fixed rows, no estimates); zero-information windows keep the previous estimate;
3. the row's rule moves its own frequencies: ``FIXED`` never, ``GRADIENT`` by
   ``k * g_j(estimates)`` (Billingham (27)-(29)), ``FICTITIOUS`` towards the best response to
   its estimates (``g_j > 0 -> 1``, ``< 0 -> 0``) with step ``max(1 / (n + 1), k)``;
   always clipped to [0, 1].
"""
from __future__ import annotations

from numba import njit

from pokerdyn.dynamics.play._play_kernel import _newton_ml

FIXED, GRADIENT, FICTITIOUS = 0, 1, 2
SEAT_FIXED, SEAT_CYCLIC, SEAT_RANDOM = 0, 1, 2


@njit(cache=True)
def _gradient(j, est_row, t_start, t_coef, t_vars):
    g = 0.0
    for q in range(t_start[j], t_start[j + 1]):
        v = t_coef[q]
        for c in range(t_vars.shape[1]):
            v *= est_row[t_vars[q, c]]
        g += v
    return g


@njit(cache=True)
def play_chunk(i0, u, seating, row_of, slot_par, table, pact, owner, exshow, chips,
               rule, k, L, freq, est, n_upd, ring, n_obs,
               e_start, e_par, kind, wn, wd, num, den, cls, coef, opp, ml_sweeps, counts,
               t_start, t_coef, t_vars, agent_of_row, pay, stack, hist):
    """Play ``u.shape[0]`` rounds starting at round ``i0``; updates all state in place."""
    n_rounds = u.shape[0]
    n_configs = row_of.shape[0]
    n_seats = row_of.shape[1]
    n_slots = slot_par.shape[1]
    nd = table.shape[0]
    m = owner.shape[0]
    mask = ring.shape[1] - 1
    nt = exshow.shape[0]
    for i in range(n_rounds):
        if seating == 0:
            c = 0
        elif seating == 1:
            c = (i0 + i) % n_configs
        else:
            c = min(int(u[i, n_slots + 1] * n_configs), n_configs - 1)
        d = min(int(u[i, 0] * nd), nd - 1)
        code = 0
        for q in range(n_slots):
            j = slot_par[d, q]
            if j < m:
                x = freq[row_of[c, owner[j]], j]
                p0 = x if pact[j] == 0 else 1.0 - x
                if u[i, q + 1] >= p0:
                    code |= 1 << q
        term = table[d, code]
        hist[term] += 1
        for s in range(n_seats):
            r = row_of[c, s]
            a = agent_of_row[r]
            pay[a] += exshow[term, s]
            stack[a] += chips[term, s]
            # -- the row's window of its own last L hands
            old = nt
            if n_obs[r] >= L[r]:
                old = ring[r, (n_obs[r] - L[r]) & mask]
            ring[r, n_obs[r] & mask] = term
            n_obs[r] += 1
            if kind[r] == -1:  # maximum likelihood
                counts[r, cls[s, term]] += 1
                counts[r, cls[s, old]] -= 1
                _newton_ml(counts[r], coef[s], opp[s], est[r], ml_sweeps)
            elif kind[r] >= 0:
                for e in range(e_start[s], e_start[s + 1]):
                    num[r, e] += wn[kind[r], term, e] - wn[kind[r], old, e]
                    den[r, e] += wd[kind[r], term, e] - wd[kind[r], old, e]
                    if den[r, e] > 0:
                        est[r, e_par[e]] = num[r, e] / den[r, e]
            if rule[r] == 0:
                continue
            n_upd[r] += 1
            for j in range(m):
                if owner[j] != s:
                    continue
                g = _gradient(j, est[r], t_start, t_coef, t_vars)
                x = freq[r, j]
                if rule[r] == 1:
                    x += k[r] * g
                elif g != 0.0:
                    br = 1.0 if g > 0.0 else 0.0
                    x += max(1.0 / (n_upd[r] + 1.0), k[r]) * (br - x)
                x = min(1.0, max(0.0, x))
                freq[r, j] = x
                est[r, j] = x
