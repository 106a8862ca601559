"""The numba kernel of repeated play (see :mod:`dynamics.play.repeated` for the model).

Per round, with no allocation and no data-dependent branches on the hot path:

* randomness: xoshiro256** (64-bit output, seeded from a numpy SeedSequence), split into
  32-bit slices: the deal by multiply-shift of one slice, then one action for every random
  information set that can be reached in that deal (``SLOTS`` = 3 slots, unused ones forced),
  each ``slice >= P(action 0) * 2^32``.  Exactly two outputs per round.  The terminal is a table
  lookup ``table[deal, action bits]`` (no tree walk, no data-dependent branch).
* observations: one ring buffer of terminal indices (size a power of two above max L_p); for
  player p the hand leaving the window is the one L_p rounds back (a sentinel terminal with
  zero weights before the window fills).
* ratio estimators: running integer num/den sums of per-terminal weights (exact; packed
  as ``den << 32 | num`` in one int64 with packed weights, so one add and one subtract
  update both: the halves never carry or borrow), estimate
  = num * (1/den) (a reciprocal table: no division) when den > 0, else the previous value.
  Estimators with the same weights and window (SKP: Players 1 and 2 both use (44)) are
  computed once.  All estimates live in one flat vector ``V`` (ratio: one slot per distinct
  estimator, then a constant 1.0; ML: one row of m + 1 per player, column m = 1.0).  ML: running class counts and a few
  warm-started coordinate Newton steps on the concave per-coordinate log-likelihood.
* update: ``x_j += k_owner * g_j(estimates of the owner)``, clipped to [0, 1], where g_j is
  the multilinear polynomial (derived symbolically) ``c0 + c1 u + c2 w + c3 u w`` in the
  owner's estimates u, w of at most ``VARS`` = 2 other parameters
  (:meth:`dynamics.play.tables.GradientTerms.multilinear`; ``g_src``: the slots of u, w in
  ``V``, the constant-1.0 slot when unused).  Written out, not looped over terms: two
  loads per parameter instead of one per term factor keep the kernel at >= 4e7 rounds/s.
"""
from __future__ import annotations

import numpy as np
from numba import njit

M32 = np.uint64(0xFFFFFFFF)
LOW32 = np.int64(0xFFFFFFFF)
SLOTS = 3  # random decisions per deal drawn by the kernel (table width 2^SLOTS)
VARS = 2  # estimates one gradient may read (its coefficients: one per subset, 2^VARS)
TWO32 = 4294967296.0


@njit(cache=True, inline="always")
def _xoshiro(s0, s1, s2, s3):
    """One xoshiro256** step: (output, new state)."""
    r = (((s1 * np.uint64(5)) << np.uint64(7)) | ((s1 * np.uint64(5)) >> np.uint64(57))) \
        * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = (s3 << np.uint64(45)) | (s3 >> np.uint64(19))
    return r, s0, s1, s2, s3


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
def play(rounds, seed4, slot_par, table, pact, x, owner, k, L, g_src, g_coef,
         u_obs, w, inv, use_ml, cls, coef, opp, ml_sweeps,
         V, tr_idx, sample_at, s_x, s_est, s_hist, hist,
         stats_from, batch_len, bsum, ssum, ssq):
    """Play ``rounds`` hands; fills hist, samples and statistics in place (see module doc)."""
    s0, s1, s2, s3 = seed4[0], seed4[1], seed4[2], seed4[3]
    nd = np.int64(table.shape[0])
    m = x.shape[0]
    n_players = L.shape[0]
    lmax = 1
    for p in range(n_players):
        lmax = max(lmax, L[p])
    size = 1
    while size <= lmax:
        size *= 2
    mask = size - 1
    nt = hist.shape[0]  # terminal nt: the empty-window sentinel (zero weights)
    ring = np.full(size, nt, dtype=np.int64)
    t_old = np.empty(n_players, dtype=np.int64)
    n_u = u_obs.shape[0]
    acc = np.zeros(n_u, dtype=np.int64)
    row = m + 1  # ML: player p's estimates are V[p * row: (p + 1) * row]
    wf = w.ravel()  # (terminal, estimator) flattened: one index per load
    counts = np.zeros((n_players, coef.shape[1]), dtype=np.int64)
    # The state is kept as thresholds T_j = P(action 0) * 2^32 = (t_a + t_s x_j) * 2^32
    # (slot m: a forced action, T = 2^32 > every slice), and (27)-(29) are applied to T with
    # the coefficients pre-scaled by k_owner * t_s * 2^32: the same affine update and clip,
    # with a shorter round-to-round dependency chain (x -> actions -> estimates -> x).
    T = np.empty(m + 1)
    T[m] = TWO32
    t_a = np.empty(m)
    t_s = np.empty(m)
    gc = np.empty(4 * m)
    any_k = False
    for j in range(m):
        t_a[j] = 0.0 if pact[j] == 0 else 1.0
        t_s[j] = 1.0 if pact[j] == 0 else -1.0
        T[j] = (t_a[j] + t_s[j] * x[j]) * TWO32
        for c in range(4):
            gc[4 * j + c] = k[owner[j]] * t_s[j] * TWO32 * g_coef[j, c]
        if k[owner[j]] > 0.0:
            any_k = True
    gs = g_src.ravel()
    n_tr = tr_idx.shape[0]
    sample = 0
    next_sample = sample_at[0] if sample_at.shape[0] > 0 else -1
    b = 0
    in_batch = 0
    for i in range(rounds):
        # -- two xoshiro256** outputs: deal (multiply-shift) + three 32-bit action slices
        r1, s0, s1, s2, s3 = _xoshiro(s0, s1, s2, s3)
        r2, s0, s1, s2, s3 = _xoshiro(s0, s1, s2, s3)
        d = (np.int64(r1 >> np.uint64(32)) * nd) >> 32
        code = (np.int64(np.float64(np.int64(r1 & M32)) >= T[slot_par[d, 0]])
                | (np.int64(np.float64(np.int64(r2 >> np.uint64(32))) >= T[slot_par[d, 1]]) << 1)
                | (np.int64(np.float64(np.int64(r2 & M32)) >= T[slot_par[d, 2]]) << 2))
        term = table[d, code]
        hist[term] += 1
        # -- sliding windows: packed (den << 32 | num) running sums, one add per estimator
        for p in range(n_players):
            t_old[p] = ring[(i - L[p]) & mask]
        ring[i & mask] = term
        bt = term * n_u
        for u in range(n_u):
            a_ = acc[u] + wf[bt + u] - wf[t_old[u_obs[u]] * n_u + u]
            acc[u] = a_
            dd = a_ >> 32
            # branch-free "keep the previous estimate when den == 0" (then num == 0 too:
            # numerator cells are denominator cells, and inv[0] == 0)
            V[u] = (a_ & LOW32) * inv[dd] + np.float64(dd == 0) * V[u]
        if use_ml:
            for p in range(n_players):
                counts[p, cls[p, term]] += 1
                counts[p, cls[p, t_old[p]]] -= 1
                _newton_ml(counts[p], coef[p], opp[p], V[p * row:(p + 1) * row], ml_sweeps)
        # -- frequency updates (27)-(29): gradient at the owner's estimates
        if any_k:
            for j in range(m):
                z = V[gs[2 * j]]
                y = V[gs[2 * j + 1]]
                v = T[j] + gc[4 * j] + gc[4 * j + 1] * z + (gc[4 * j + 2] + gc[4 * j + 3] * z) * y
                v = TWO32 if v > TWO32 else v
                T[j] = 0.0 if v < 0.0 else v
        # -- statistics and samples
        if i >= stats_from:
            for q in range(n_tr):
                v = V[tr_idx[q]]
                ssum[q] += v
                ssq[q] += v * v
                bsum[q, b] += v
            in_batch += 1
            if in_batch == batch_len and b + 1 < bsum.shape[1]:
                b += 1
                in_batch = 0
        if i + 1 == next_sample:
            for j in range(m):  # non-adapting players keep their exact x
                s_x[sample, j] = t_a[j] + t_s[j] * (T[j] / TWO32) if k[owner[j]] > 0.0 else x[j]
            for q in range(n_tr):
                s_est[sample, q] = V[tr_idx[q]]
            for q in range(nt):
                s_hist[sample, q] = hist[q]
            sample += 1
            next_sample = sample_at[sample] if sample < sample_at.shape[0] else -1
    for j in range(m):
        if k[owner[j]] > 0.0:
            x[j] = t_a[j] + t_s[j] * (T[j] / TWO32)
