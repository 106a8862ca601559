"""The numba kernel of repeated play (see :mod:`dynamics.repeated_play` for the model).

Per round, with no allocation and no data-dependent branches on the hot path:

* randomness: xoshiro256** (64-bit output, seeded from a numpy SeedSequence), split into
  32-bit slices: the deal by multiply-shift of one slice, then one action for every random
  information set that can be reached in that deal (``slots``; SKP: at most 3), each
  ``slice >= P(action 0) * 2^32``.  Two outputs per round for SKP.  The terminal is a table
  lookup ``table[deal, action bits]`` (no tree walk, no data-dependent branch).
* observations: one ring buffer of terminal indices (size a power of two above max L_p); for
  player p the hand leaving the window is the one L_p rounds back (a sentinel terminal with
  zero weights before the window fills).
* ratio estimators: running integer num/den sums of per-terminal weights (exact), estimate
  = num/den when den > 0, else the previous value.  ML: running class counts and a few
  warm-started coordinate Newton steps on the concave per-coordinate log-likelihood.
* update: ``x_j += k_owner * g_j(estimates of the owner)``, clipped to [0, 1], where g_j is a
  multilinear polynomial given by its non-zero terms (derived symbolically): term q of g_j
  is ``t_coef[q] * prod_c est[owner, t_vars[q, c]]`` (column m of ``est`` holds 1.0).
"""
from __future__ import annotations

import numpy as np
from numba import njit

M32 = np.uint64(0xFFFFFFFF)
TWO32 = 4294967296.0


@njit(cache=True)
def _newton_ml(counts, coef, opp, est_row, sweeps):
    """Coordinate Newton ascent of sum_c n_c log q_c(theta) over theta in [0, 1]^mo."""
    mo = opp.shape[0]
    ncls = counts.shape[0]
    nm = coef.shape[1]
    for _ in range(sweeps):
        for j in range(mo):
            d1 = 0.0
            d2 = 0.0
            for c in range(ncls):
                n = counts[c]
                if n == 0:
                    continue
                alpha = 0.0
                beta = 0.0
                for mask in range(nm):
                    w = coef[c, mask]
                    if w == 0.0:
                        continue
                    for i in range(mo):
                        if i != j and (mask >> i) & 1:
                            w *= est_row[opp[i]]
                    if (mask >> j) & 1:
                        beta += w
                    else:
                        alpha += w
                if beta == 0.0:
                    continue
                q = max(alpha + beta * est_row[opp[j]], 1e-12)
                d1 += n * beta / q
                d2 -= n * beta * beta / (q * q)
            if d2 < 0.0:
                v = est_row[opp[j]] - d1 / d2
                est_row[opp[j]] = min(1.0, max(0.0, v))


@njit(cache=True)
def play(rounds, seed4, slot_par, table, pact, x, owner, k, L, t_start, t_coef, t_vars,
         e_obs, e_par, wn, wd, use_ml, cls, coef, opp, ml_sweeps,
         est, tr_obs, tr_par, sample_at, s_x, s_est, s_hist, hist,
         stats_from, batch_len, bsum, ssum, ssq):
    """Play ``rounds`` hands; fills hist, samples and statistics in place (see module doc)."""
    s0, s1, s2, s3 = seed4[0], seed4[1], seed4[2], seed4[3]
    nd = np.int64(table.shape[0])
    n_slots = slot_par.shape[1]
    m = x.shape[0]
    n_players = L.shape[0]
    lmax = 1
    for p in range(n_players):
        lmax = max(lmax, L[p])
    size = 1
    while size <= lmax:
        size *= 2
    mask = size - 1
    nt = hist.shape[0]
    ring = np.full(size, nt, dtype=np.int64)
    t_old = np.empty(n_players, dtype=np.int64)
    n_e = e_obs.shape[0]
    num = np.zeros(n_e, dtype=np.int64)
    den = np.zeros(n_e, dtype=np.int64)
    counts = np.zeros((n_players, coef.shape[1]), dtype=np.int64)
    # P(action 0) * 2^32 per parameter (int64: slices are < 2^32); row m: forced action 0
    thr = np.empty(m + 1, dtype=np.int64)
    thr[m] = np.int64(4294967296)
    for j in range(m):
        thr[j] = np.int64((x[j] if pact[j] == 0 else 1.0 - x[j]) * TWO32)
    any_k = False
    for p in range(n_players):
        if k[p] > 0.0:
            any_k = True
    n_tr = tr_obs.shape[0]
    sample = 0
    next_sample = sample_at[0] if sample_at.shape[0] > 0 else -1
    b = 0
    in_batch = 0
    spare = np.int64(0)
    for i in range(rounds):
        # -- deal (top 32 bits, multiply-shift) and one action per random slot (32-bit slices)
        code = 0
        d = 0
        for q in range(n_slots + 1):
            if q & 1 == 0:
                r = (((s1 * np.uint64(5)) << np.uint64(7)) |
                     ((s1 * np.uint64(5)) >> np.uint64(57))) * np.uint64(9)
                t = s1 << np.uint64(17)
                s2 ^= s0
                s3 ^= s1
                s1 ^= s2
                s0 ^= s3
                s2 ^= t
                s3 = (s3 << np.uint64(45)) | (s3 >> np.uint64(19))
                sl = np.int64(r >> np.uint64(32))
                spare = np.int64(r & M32)
            else:
                sl = spare
            if q == 0:
                d = (sl * nd) >> 32
            else:
                code |= np.int64(sl >= thr[slot_par[d, q - 1]]) << (q - 1)
        term = table[d, code]
        hist[term] += 1
        # -- sliding windows
        for p in range(n_players):
            t_old[p] = ring[(i - L[p]) & mask]
        ring[i & mask] = term
        for e in range(n_e):
            to = t_old[e_obs[e]]
            num[e] += wn[term, e] - wn[to, e]
            den[e] += wd[term, e] - wd[to, e]
            if den[e] > 0:
                est[e_obs[e], e_par[e]] = num[e] / den[e]
        if use_ml:
            for p in range(n_players):
                counts[p, cls[p, term]] += 1
                counts[p, cls[p, t_old[p]]] -= 1
                _newton_ml(counts[p], coef[p], opp[p], est[p], ml_sweeps)
        # -- frequency updates (27)-(29): gradient at the owner's estimates
        if any_k:
            for j in range(m):
                p = owner[j]
                g = 0.0
                for q in range(t_start[j], t_start[j + 1]):
                    v = t_coef[q]
                    for c in range(t_vars.shape[1]):
                        v *= est[p, t_vars[q, c]]
                    g += v
                v = min(1.0, max(0.0, x[j] + k[p] * g))
                x[j] = v
                thr[j] = np.int64((v if pact[j] == 0 else 1.0 - v) * TWO32)
        # -- statistics and samples
        if i >= stats_from:
            for q in range(n_tr):
                v = est[tr_obs[q], tr_par[q]]
                ssum[q] += v
                ssq[q] += v * v
                bsum[q, b] += v
            in_batch += 1
            if in_batch == batch_len and b + 1 < bsum.shape[1]:
                b += 1
                in_batch = 0
        if i + 1 == next_sample:
            for j in range(m):
                s_x[sample, j] = x[j]
            for q in range(n_tr):
                s_est[sample, q] = est[tr_obs[q], tr_par[q]]
            for q in range(nt):
                s_hist[sample, q] = hist[q]
            sample += 1
            next_sample = sample_at[sample] if sample < sample_at.shape[0] else -1
