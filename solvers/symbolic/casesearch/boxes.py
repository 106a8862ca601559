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
from typing import Sequence

TOL = 1e-9


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
    """The compiled gains (``tables``, ``deps``) prepared for propagation."""

    def __init__(self, tables: Sequence[dict], deps: Sequence[int]):
        self.tables = [{m: tuple(float(a) for a in c) for m, c in t.items()} for t in tables]
        self.deps = list(deps)
        self.deg = [max((len(c) - 1 for c in t.values()), default=0) for t in tables]

    def feasible(self, one: int, zero: int, case: str, low: float, high: float) -> bool:
        """False only if no point of the leaf ``(one, zero, case)`` with ``P`` in
        ``[low, high]`` (``high`` may be inf) satisfies its conditions."""
        n = len(case)
        dom = [(1.0, 1.0) if one >> i & 1 else (0.0, 0.0) if zero >> i & 1 else (0.0, 1.0)
               for i in range(n)]
        if math.isinf(high):
            s, flips = (0.0, 1.0 / low if low > 0 else math.inf), self.deg
            if math.isinf(s[1]):
                return True
        else:
            s, flips = (low, high), [0] * n
        coeffs = [{m: _coeff(c, s, flips[j]) for m, c in t.items()}
                  for j, t in enumerate(self.tables)]
        for _ in range(30):
            changed = False
            for j in range(n):
                lo, hi = self._range(coeffs[j], dom)
                tol = TOL * (1.0 + max(abs(lo), abs(hi)))
                if case[j] == "a" and hi < -tol or case[j] == "b" and lo > tol:
                    return False
                if case[j] != "c":
                    continue
                if lo > tol or hi < -tol:
                    return False
                for y in range(n):
                    if not (self.deps[j] >> y & 1) or dom[y][0] == dom[y][1]:
                        continue
                    new = self._narrow(coeffs[j], dom, y)
                    if new is None:
                        continue
                    a, b = max(dom[y][0], new[0] - TOL), min(dom[y][1], new[1] + TOL)
                    if a > b:
                        return False
                    if a > dom[y][0] + 1e-12 or b < dom[y][1] - 1e-12:
                        dom[y] = (a, b)
                        changed = True
            if not changed:
                return True
        return True

    @staticmethod
    def _term(c: tuple[float, float], m: int, dom: list, skip: int = -1) -> tuple[float, float]:
        lo = hi = 1.0
        i = 0
        while m:
            if m & 1 and i != skip:
                lo *= dom[i][0]
                hi *= dom[i][1]
            m >>= 1
            i += 1
        return _mul(c, (lo, hi))

    def _range(self, coeffs: dict, dom: list) -> tuple[float, float]:
        lo = hi = 0.0
        for m, c in coeffs.items():
            a, b = self._term(c, m, dom)
            lo += a
            hi += b
        return lo, hi

    def _narrow(self, coeffs: dict, dom: list, y: int) -> tuple[float, float] | None:
        al = ah = bl = bh = 0.0
        for m, c in coeffs.items():
            a, b = self._term(c, m, dom, skip=y)
            if m >> y & 1:
                al, ah = al + a, ah + b
            else:
                bl, bh = bl + a, bh + b
        if al <= 0.0 <= ah or not all(map(math.isfinite, (al, ah, bl, bh))):
            return None
        q = [-bl / al, -bl / ah, -bh / al, -bh / ah]
        return min(q), max(q)
