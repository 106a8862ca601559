"""A cheap necessary test for a leaf of the case walk: interval constraint propagation.

The leaf's parameters in case (c) range over ``[0, 1]``, the others are fixed, and ``P``
ranges over a cell of the axis (as ``t = 1/P`` on the unbounded cell, so every bound is
finite).  Each equality ``g_j = 0`` of the leaf, written ``A y + B = 0`` for one of its open
parameters ``y``, narrows ``y`` to ``-B/A`` (interval arithmetic, when ``0`` is not in
``A``); each (a)/(b) case needs ``g_j`` to reach its sign.  Sweeps repeat until nothing
narrows.  Floating point with a margin far above rounding: a leaf is discarded only when a
condition fails by more than the margin, so no equilibrium is lost; the exact solver decides
the leaves that survive.
"""
from __future__ import annotations

import math
import types
from typing import Sequence

import numpy as np
from numba import njit

TOL = 1e-9
# a walk over at most this many conditions propagates in plain Python: SKP's 63 leaves take
# 15 ms there, against 0.3 s to load the kernel from numba's cache (2.5 s to compile it);
# kuhn3-third's 7 take 1.7 s there against 0.05 s compiled
SMALL_BOXES = 5


def _mul(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    ps = [x * y for x in a for y in b]
    return min(ps), max(ps)


def _coeff(c: Sequence[int], s: tuple[float, float], flip: int) -> tuple[float, float]:
    """Range of the coefficient polynomial over ``s`` (``s`` >= 0); ``flip`` > 0: the
    polynomial in ``t = 1/P`` times ``t^flip`` (coefficients reversed)."""
    cs = list(c) + [0] * (flip + 1 - len(c)) if flip else list(c)
    if flip:
        cs = cs[::-1]
    lo = hi = 0.0
    for k, a in enumerate(cs):
        if a:
            pk = (s[0] ** k, s[1] ** k)
            lo += min(a * pk[0], a * pk[1])
            hi += max(a * pk[0], a * pk[1])
    return lo, hi


class Boxes:
    """The compiled gains (``tables``, ``deps``) prepared for propagation: per condition
    ``j`` its monomials (bit masks of the parameters) and coefficient polynomials in ``P``,
    as arrays for :func:`_propagate` (numba)."""

    def __init__(self, tables: Sequence[dict], deps: Sequence[int]):
        self.tables = [{m: tuple(float(a) for a in c) for m, c in t.items()} for t in tables]
        self.deps = list(deps)
        self.deg = [max((len(c) - 1 for c in t.values()), default=0) for t in tables]
        n = len(self.tables)
        width = max((len(t) for t in self.tables), default=0)
        self._mono = np.zeros((n, max(width, 1)), np.int64)
        self._nterms = np.array([len(t) for t in self.tables], np.int64)
        for j, t in enumerate(self.tables):
            self._mono[j, :len(t)] = list(t)
        self._deps = np.array(self.deps, np.int64)
        self._coeffs: dict = {}  # (s, flip or not) -> coefficient ranges (lo, hi) arrays

    def _ranges(self, s: tuple[float, float], flipped: bool) -> tuple:
        key = (s, flipped)
        if key not in self._coeffs:
            if len(self._coeffs) > 4096:
                self._coeffs.clear()
            lo = np.zeros(self._mono.shape)
            hi = np.zeros(self._mono.shape)
            for j, t in enumerate(self.tables):
                for k, c in enumerate(t.values()):
                    lo[j, k], hi[j, k] = _coeff(c, s, self.deg[j] if flipped else 0)
            self._coeffs[key] = (lo, hi)
        return self._coeffs[key]

    def feasible(self, one: int, zero: int, case: str, low: float, high: float) -> bool:
        """False only if no point of the leaf ``(one, zero, case)`` with ``P`` in
        ``[low, high]`` (``high`` may be inf) satisfies its conditions."""
        if math.isinf(high):
            s = (0.0, 1.0 / low if low > 0 else math.inf)
            if math.isinf(s[1]):
                return True
            lo, hi = self._ranges(s, True)
        else:
            lo, hi = self._ranges((low, high), False)
        codes = np.array([_CODE[c] for c in case], np.int64)
        kernel = _propagate_py if len(self.tables) <= SMALL_BOXES else _propagate
        return bool(kernel(one, zero, codes, self._mono, lo, hi, self._nterms, self._deps,
                           TOL))


_CODE = {"a": 0, "b": 1, "c": 2}


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
    """The propagation of :meth:`Boxes.feasible` (the former pure-Python loop, the same
    operations in the same order): up to 30 sweeps over the conditions."""
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


def _plain(kernel, **callees):
    """The plain-Python function of ``kernel`` with the kernels it calls replaced by
    ``callees`` (a kernel's ``py_func`` alone would still call, and so compile, them)."""
    fn = kernel.py_func
    return types.FunctionType(fn.__code__, {**fn.__globals__, **callees}, fn.__name__,
                              fn.__defaults__, fn.__closure__)


_term_py = _plain(_term, _min4=_min4.py_func, _max4=_max4.py_func)
_propagate_py = _plain(_propagate, _term=_term_py, _min4=_min4.py_func, _max4=_max4.py_func)
