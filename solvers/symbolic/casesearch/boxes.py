"""A cheap necessary test for a leaf of the case walk: interval constraint propagation.

The leaf's parameters in case (c) range over ``[0, 1]``, the others are fixed, and ``P``
ranges over a cell of the axis (as ``t = 1/P`` on the unbounded cell, so every bound is
finite).  Each equality ``g_j = 0`` of the leaf, written ``A y + B = 0`` for one of its open
parameters ``y``, narrows ``y`` to ``-B/A`` (interval arithmetic, when ``0`` is not in
``A``); each (a)/(b) case needs ``g_j`` to reach its sign.  Sweeps repeat until nothing
narrows.  Floating point with a margin far above rounding: a leaf is discarded only when a
condition fails by more than the margin, so no equilibrium is lost; the exact solver decides
the leaves that survive.

Walks of at most :data:`SMALL_BOXES` conditions propagate in plain Python
(:func:`_propagate_lists`); larger ones in the numba kernel of :mod:`.box_kernel` (the same
operations in the same order), imported on first use, since numba and its modules take about
0.7 s to load.
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np

TOL = 1e-9
# a walk over at most this many conditions propagates in plain Python unless the compiled
# kernel is loaded already: kuhn3-third's 7 at P = 9 (64 checks) take 5 ms there, with P
# symbolic (2,236 checks) 0.4 s, against about 0.7 s to load numba and the kernel from its
# cache (2.5 s to compile it); kuhn3-full-simplified's 13 at P = 5 (12,019 checks) take
# 3 s there against 0.05 s compiled
SMALL_BOXES = 7


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
    as lists for :func:`_propagate_lists` and as arrays for the numba kernel."""

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
        self._terms, self._split = _term_lists(list(self._mono.tolist()),
                                               self._nterms.tolist(), self.deps)
        # (s, flip or not) -> coefficient ranges (lo, hi) as arrays and as lists
        self._coeffs: dict = {}

    def _ranges(self, s: tuple[float, float], flipped: bool) -> tuple:
        """The coefficient ranges (lo, hi) over ``s`` as arrays (the numba kernel's)."""
        return self._ranges_both(s, flipped)[:2]

    def _ranges_both(self, s: tuple[float, float], flipped: bool) -> tuple:
        """The coefficient ranges over ``s`` as arrays and as lists: (lo, hi, lo, hi)."""
        key = (s, flipped)
        if key not in self._coeffs:
            if len(self._coeffs) > 4096:
                self._coeffs.clear()
            lo = np.zeros(self._mono.shape)
            hi = np.zeros(self._mono.shape)
            for j, t in enumerate(self.tables):
                for k, c in enumerate(t.values()):
                    lo[j, k], hi[j, k] = _coeff(c, s, self.deg[j] if flipped else 0)
            self._coeffs[key] = (lo, hi, lo.tolist(), hi.tolist())
        return self._coeffs[key]

    def feasible(self, one: int, zero: int, case: str, low: float, high: float) -> bool:
        """False only if no point of the leaf ``(one, zero, case)`` with ``P`` in
        ``[low, high]`` (``high`` may be inf) satisfies its conditions."""
        if math.isinf(high):
            s = (0.0, 1.0 / low if low > 0 else math.inf)
            if math.isinf(s[1]):
                return True
            lo, hi, lo_l, hi_l = self._ranges_both(s, True)
        else:
            lo, hi, lo_l, hi_l = self._ranges_both((low, high), False)
        codes = [_CODE[c] for c in case]
        if len(self.tables) <= SMALL_BOXES and _KERNEL is None:
            return _propagate_lists(one, zero, codes, self._terms, self._split, lo_l, hi_l,
                                    TOL)
        return bool(_kernel()(one, zero, np.array(codes, np.int64), self._mono, lo, hi,
                              self._nterms, self._deps, TOL))


_CODE = {"a": 0, "b": 1, "c": 2}
_KERNEL = None  # box_kernel._propagate once loaded


def _kernel():
    """The numba kernel (:func:`.box_kernel._propagate`), imported on first use."""
    global _KERNEL
    if _KERNEL is None:
        from pokerdyn.solvers.symbolic.casesearch.box_kernel import _propagate as kernel

        _KERNEL = kernel
    return _KERNEL


def __getattr__(name: str):
    if name == "_propagate":  # the compiled kernel by its former name (loads numba)
        return _kernel()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _term_lists(mono: list, nterms: list, deps: Sequence[int]) -> tuple[list, list]:
    """Per condition ``j``: the parameters (bit indices, ascending) of each of its terms, and
    per open parameter ``y`` of ``deps[j]`` the terms as ``(k, parameters other than y,
    whether the term has y)``."""
    terms = [[tuple(i for i in range(m.bit_length()) if m >> i & 1) for m in row[:nt]]
             for row, nt in zip(mono, nterms)]
    split = [[(y, [(k, tuple(i for i in bits if i != y), y in bits)
                   for k, bits in enumerate(tj)])
              for y in range(len(terms)) if d >> y & 1]
             for tj, d in zip(terms, deps)]
    return terms, split


def _propagate_lists(one: int, zero: int, codes: Sequence[int], terms: list, split: list,
                     clo: list, chi: list, tol0: float) -> bool:
    """The propagation of :meth:`Boxes.feasible` in plain Python on lists (``terms`` and
    ``split`` from :func:`_term_lists`, coefficient ranges ``clo``/``chi`` per condition and
    term): up to 30 sweeps over the conditions, the operations of the numba kernel in its
    order (a term's range: the product of its parameters' bounds in ascending order, then the
    least and greatest of the four products with the coefficient range, Python's min/max)."""
    n = len(codes)
    dlo = [1.0 if one >> i & 1 else 0.0 for i in range(n)]
    dhi = [0.0 if zero >> i & 1 else 1.0 for i in range(n)]
    isfinite = math.isfinite
    for _ in range(30):
        changed = False
        for j in range(n):
            cl, ch, code = clo[j], chi[j], codes[j]
            lo = hi = 0.0
            for k, bits in enumerate(terms[j]):
                pl = ph = 1.0
                for i in bits:
                    pl *= dlo[i]
                    ph *= dhi[i]
                c0, c1 = cl[k], ch[k]
                a, b, c, d = c0 * pl, c0 * ph, c1 * pl, c1 * ph
                lo += min(a, b, c, d)
                hi += max(a, b, c, d)
            big = abs(lo)
            if abs(hi) > big:
                big = abs(hi)
            tol = tol0 * (1.0 + big)
            if code == 0 and hi < -tol or code == 1 and lo > tol:
                return False
            if code != 2:
                continue
            if lo > tol or hi < -tol:
                return False
            for y, parts in split[j]:
                if dlo[y] == dhi[y]:
                    continue
                al = ah = bl = bh = 0.0
                for k, bits, has in parts:
                    pl = ph = 1.0
                    for i in bits:
                        pl *= dlo[i]
                        ph *= dhi[i]
                    c0, c1 = cl[k], ch[k]
                    a, b, c, d = c0 * pl, c0 * ph, c1 * pl, c1 * ph
                    if has:
                        al += min(a, b, c, d)
                        ah += max(a, b, c, d)
                    else:
                        bl += min(a, b, c, d)
                        bh += max(a, b, c, d)
                if al <= 0.0 <= ah or not (isfinite(al) and isfinite(ah) and isfinite(bl)
                                           and isfinite(bh)):
                    continue
                q1, q2, q3, q4 = -bl / al, -bl / ah, -bh / al, -bh / ah
                a = min(q1, q2, q3, q4) - tol0
                if not (a > dlo[y]):
                    a = dlo[y]
                b = max(q1, q2, q3, q4) + tol0
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


def _propagate_py(one, zero, codes, mono, clo, chi, nterms, deps, tol0) -> bool:
    """:func:`_propagate_lists` with the numba kernel's arguments (arrays)."""
    terms, split = _term_lists(mono.tolist(), nterms.tolist(), deps.tolist())
    return _propagate_lists(one, zero, list(codes.tolist()), terms, split, clo.tolist(),
                            chi.tolist(), tol0)
