"""The P axis cut into cells for the case search: every positive real root of every value a
gain takes at a 0/1 vertex of its parameters, and the open intervals between them.

A gain ``g_j`` is multilinear, so its value at any vertex of the box of its open parameters
is its value at a full 0/1 assignment of its parameters: there are at most
``sum_j 2^{|deps_j|}`` such polynomials in ``P``, known before the walk.  On each cell every
one of them has a constant sign, so a set of pots is a bitmask over the cells, and the walk
can ask whether all the conditions of a partial case hold at one common pot (not each at a
pot of its own).  Bit ``2k`` is the open interval below root ``k``, bit ``2k + 1`` the root
itself, the last bit the interval above the largest root.
"""
from __future__ import annotations

from fractions import Fraction
from functools import reduce
from math import gcd
from typing import Sequence

import mpmath
import sympy as sp

from pokerdyn.solvers.symbolic.feasibility import pot_split
from pokerdyn.solvers.symbolic.casesearch.compiled_gains import Coeff, as_expr


def _primitive(c: Coeff) -> Coeff | None:
    """The coefficient polynomial up to a positive factor (None: constant or not integer)."""
    if not all(isinstance(a, int) for a in c):
        return None
    while c and c[-1] == 0:
        c = c[:-1]
    if len(c) < 2:
        return None
    g = reduce(gcd, c)
    return tuple(a // g for a in c)


def _at_fraction(c: Coeff, x: Fraction) -> int:
    v = Fraction(0)
    for a in reversed(c):
        v = v * x + a
    return (v > 0) - (v < 0)


class Cells:
    """Cells of the P axis (``p`` symbolic) or one cell (``p`` None: the pot is a number)."""

    def __init__(self, coeffs: Sequence[Coeff], p: sp.Symbol | None):
        self.p = p
        prims = {q for q in map(_primitive, coeffs) if q is not None} if p is not None else set()
        roots: list[sp.Expr] = []
        self._zeros: dict[Coeff, set[int]] = {}
        per = {q: pot_split.positive_roots(as_expr(q, p), p) for q in prims}
        roots = pot_split.merge_points([r for rs in per.values() for r in rs])
        fl = [float(sp.N(r, 30)) for r in roots]
        for q, rs in per.items():
            idx = set()
            for r in rs:
                fr = float(sp.N(r, 30))
                idx |= {k for k, f in enumerate(fl)
                        if abs(f - fr) <= 1e-9 * max(1.0, abs(f)) and pot_split.sign(r - roots[k]) == 0}
            self._zeros[q] = idx
        self.roots = roots
        self.pieces = pot_split.pieces(roots) if p is not None else []
        self.n = len(self.pieces) if p is not None else 1
        self.all = (1 << self.n) - 1
        self._mp = [mpmath.mpf(str(sp.N(r, 60))) for r in roots]
        self._samples = [Fraction(int(sp.numer(pc.sample)), int(sp.denom(pc.sample)))
                         if not pc.is_point else None for pc in self.pieces]
        self._cache: dict = {}

    def point_value(self, k: int) -> sp.Expr:
        """The exact pot of point cell ``k``."""
        return self.roots[(k - 1) // 2]

    def open_mask(self) -> int:
        return sum(1 << k for k, pc in enumerate(self.pieces) if not pc.is_point) if self.p else 1

    def sign_masks(self, c: Coeff) -> tuple[int, int, int]:
        """(cells where ``c > 0``, ``c < 0``, ``c = 0``)."""
        hit = self._cache.get(c)
        if hit is not None:
            return hit
        if self.p is None or len(c) < 2 or not any(c[1:]):
            a = c[0] if c else 0
            s = (a > 0) - (a < 0) if isinstance(a, int) else pot_split.sign(a)
            out = (self.all if s > 0 else 0, self.all if s < 0 else 0, self.all if s == 0 else 0)
        elif _primitive(c) is None:
            raise ValueError(f"coefficient {c} of a gain is not a polynomial in P over QQ")
        else:
            zeros = self._zeros[_primitive(c)]
            pos = neg = zero = 0
            with mpmath.workdps(60):
                for k, pc in enumerate(self.pieces):
                    if pc.is_point:
                        i = (k - 1) // 2
                        if i in zeros:
                            zero |= 1 << k
                            continue
                        v = mpmath.polyval(list(reversed(c)), self._mp[i])
                        s = (v > 0) - (v < 0) if abs(v) > mpmath.mpf(10) ** -40 else \
                            pot_split.sign(as_expr(c, self.p).xreplace({self.p: self.roots[i]}))
                    else:
                        s = _at_fraction(c, self._samples[k])
                    if s > 0:
                        pos |= 1 << k
                    elif s < 0:
                        neg |= 1 << k
                    else:
                        zero |= 1 << k
            out = (pos, neg, zero)
        self._cache[c] = out
        return out
