"""The interval propagation of :mod:`.boxes` compiled with numba, for case walks of more than
:data:`.boxes.SMALL_BOXES` conditions (kuhn3-full-simplified's 13: 12,019 checks at P = 5 in
0.04-0.08 s, against about 3 s in plain Python).  Imported on first use only: numba and the
numba modules the cached kernel needs take about 0.7 s to load, more than the plain
propagation of a small walk takes in all.  The same operations in the same order as
:func:`.boxes._propagate_lists` (tests/test_walk_boxes.py compares the two on every check of
three walks)."""
from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _min4(a: float, b: float, c: float, d: float) -> float:
    m = a  # Python's min: the first least value (the same result, NaN included)
    if b < m:
        m = b
    if c < m:
        m = c
    if d < m:
        m = d
    return m


@njit(cache=True)
def _max4(a: float, b: float, c: float, d: float) -> float:
    m = a
    if b > m:
        m = b
    if c > m:
        m = c
    if d > m:
        m = d
    return m


@njit(cache=True)
def _term(clo: float, chi: float, m: int, dlo, dhi, skip: int) -> tuple:
    """Range of the monomial ``m`` (parameter ``skip`` left out) times ``[clo, chi]``."""
    lo = 1.0
    hi = 1.0
    i = 0
    while m:
        if m & 1 and i != skip:
            lo *= dlo[i]
            hi *= dhi[i]
        m >>= 1
        i += 1
    return (_min4(clo * lo, clo * hi, chi * lo, chi * hi),
            _max4(clo * lo, clo * hi, chi * lo, chi * hi))


@njit(cache=True)
def _propagate(one, zero, codes, mono, clo, chi, nterms, deps, tol0) -> bool:
    """The propagation of :meth:`.boxes.Boxes.feasible` (:func:`.boxes._propagate_lists`,
    the same operations in the same order) on arrays: up to 30 sweeps over the conditions."""
    n = codes.shape[0]
    dlo = np.empty(n)
    dhi = np.empty(n)
    for i in range(n):
        if one >> i & 1:
            dlo[i] = 1.0
            dhi[i] = 1.0
        elif zero >> i & 1:
            dlo[i] = 0.0
            dhi[i] = 0.0
        else:
            dlo[i] = 0.0
            dhi[i] = 1.0
    for _ in range(30):
        changed = False
        for j in range(n):
            lo = 0.0
            hi = 0.0
            for k in range(nterms[j]):
                a, b = _term(clo[j, k], chi[j, k], mono[j, k], dlo, dhi, np.int64(-1))
                lo += a
                hi += b
            big = abs(lo)
            if abs(hi) > big:
                big = abs(hi)
            tol = tol0 * (1.0 + big)
            if codes[j] == 0 and hi < -tol or codes[j] == 1 and lo > tol:
                return False
            if codes[j] != 2:
                continue
            if lo > tol or hi < -tol:
                return False
            for y in range(n):
                if not (deps[j] >> y & 1) or dlo[y] == dhi[y]:
                    continue
                al = 0.0
                ah = 0.0
                bl = 0.0
                bh = 0.0
                for k in range(nterms[j]):
                    a, b = _term(clo[j, k], chi[j, k], mono[j, k], dlo, dhi, y)
                    if mono[j, k] >> y & 1:
                        al += a
                        ah += b
                    else:
                        bl += a
                        bh += b
                if al <= 0.0 <= ah or not (np.isfinite(al) and np.isfinite(ah)
                                           and np.isfinite(bl) and np.isfinite(bh)):
                    continue
                qlo = _min4(-bl / al, -bl / ah, -bh / al, -bh / ah)
                qhi = _max4(-bl / al, -bl / ah, -bh / al, -bh / ah)
                a = qlo - tol0
                if not (a > dlo[y]):
                    a = dlo[y]
                b = qhi + tol0
                if not (b < dhi[y]):
                    b = dhi[y]
                if a > b:
                    return False
                if a > dlo[y] + 1e-12 or b < dhi[y] - 1e-12:
                    dlo[y] = a
                    dhi[y] = b
                    changed = True
        if not changed:
            return True
    return True
