"""Exact real solutions in the unit box of a zero-dimensional polynomial system over QQ, as
algebraic numbers: the lex Groebner basis in shape position ``x_i = g_i(t)``, ``h(t) = 0``
(t the last unknown; Becker and Weispfenning, "Groebner Bases", 1993, sec. 8.1), ``h``
factored over QQ and each real root of a factor ``f`` taken as sympy's ``CRootOf``.

Every value at such a point is a polynomial ``q(t)`` over QQ: it is exactly zero when ``f``
divides ``q`` and else has the sign of ``q`` at the isolated root, read from a numerical
evaluation (nonzero, so a finite precision decides it).  This spares the triangular solver's
radicals, whose number fields sympy factors very slowly once several are nested (Gambit's
``e08.efg``, a three-player game with a quadratic support system, stalled there).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import sympy as sp
from sympy.polys.domains import QQ

_T = sp.Dummy("t")


@dataclass(frozen=True)
class Point:
    """One real solution: ``values[x]`` a polynomial in ``t`` over QQ, ``t`` the root
    ``root`` of the irreducible ``factor`` (degree 1: a rational point)."""

    factor: sp.Poly
    root: sp.Expr
    values: dict

    def value(self, q: sp.Poly) -> sp.Expr:
        """The exact value of ``q(t)`` (a rational or a polynomial in the ``CRootOf``)."""
        r = q.rem(self.factor)
        if self.factor.degree() == 1:
            return sp.Rational(r.eval(self.root)) if not r.is_zero else sp.S.Zero
        return sp.expand(r.as_expr().xreplace({_T: self.root}))

    def sign(self, q: sp.Poly) -> int:
        """The exact sign of ``q(t)``."""
        r = q.rem(self.factor)
        if r.is_zero:
            return 0
        if self.factor.degree() == 1:
            v = sp.Rational(r.eval(self.root))
            return 1 if v.p > 0 else (-1 if v.p < 0 else 0)
        digits = 30
        while True:  # nonzero: enough digits separate it from 0
            v = sp.N(r.as_expr().xreplace({_T: self.root}), digits)
            if abs(v) > 10 ** (-(digits // 2)):
                return 1 if v > 0 else -1
            digits *= 2


def real_points(eqs: Sequence[sp.Poly], xs: Sequence[sp.Symbol]) -> list[Point] | None:
    """Every real solution of ``eqs = 0`` with each unknown in ``[0, 1]``; None when the
    system is not zero-dimensional or its lex basis is not in shape position (the caller
    solves it another way)."""
    xs = list(xs)
    G = sp.groebner(list(eqs), *xs, order="lex", domain=QQ)
    if G.exprs == [1]:
        return []
    if not G.is_zero_dimensional:
        return None
    last = xs[-1]
    uni = [g for g in G.polys if g.free_symbols <= {last}]
    shape = {}
    for g in G.polys:
        if g.free_symbols <= {last}:
            continue
        lead = xs[next(k for k, e in enumerate(g.monoms()[0]) if e)]
        rest = g.as_expr() - lead
        if g.degree(lead) != 1 or g.coeff_monomial(lead) != 1 or rest.free_symbols - {last} \
                or lead in shape:
            return None
        shape[lead] = sp.Poly(-rest.xreplace({last: _T}), _T, domain=QQ)
    if len(uni) != 1 or len(shape) != len(xs) - 1:
        return None
    h = sp.Poly(uni[0].as_expr().xreplace({last: _T}), _T, domain=QQ)
    out = []
    for f, _ in h.factor_list()[1]:
        f = f.monic()
        roots = [sp.Rational(-f.nth(0))] if f.degree() == 1 else f.real_roots()
        for r in roots:
            if not (r >= 0 and r <= 1):  # exact comparison (isolating intervals)
                continue
            pt = Point(f, r, {last: sp.Poly(_T, _T, domain=QQ), **shape})
            if all(pt.sign(q) >= 0 and pt.sign(1 - q) >= 0 for x, q in shape.items()):
                out.append(pt)
    return out


def reduce_root(e: sp.Expr) -> sp.Expr | None:
    """``e``, a rational function over QQ of one ``CRootOf`` ``r`` (no other symbol), as the
    polynomial in ``r`` of degree below its minimal polynomial's (exact: numerator times the
    inverse of the denominator modulo the minimal polynomial); None for another shape."""
    roots = e.atoms(sp.CRootOf)
    if len(roots) != 1 or e.free_symbols:
        return None
    r = next(iter(roots))
    f = sp.Poly(r.poly.as_expr().xreplace({r.poly.gen: _T}), _T, domain=QQ)
    try:
        num, den = (sp.Poly(sp.expand(x).xreplace({r: _T}), _T, domain=QQ)
                    for x in sp.fraction(sp.together(e)))
    except (sp.PolynomialError, sp.CoercionFailed):
        return None
    q = (num * den.invert(f)).rem(f) if den.degree() > 0 else (num.quo_ground(den.LC())).rem(f)
    return sp.expand(q.as_expr().xreplace({_T: r}))


def at_point(elem, point: Point, xs: Sequence[sp.Symbol]) -> sp.Poly:
    """A sparse-ring element in the unknowns ``xs`` (no other generator left in it) as the
    polynomial in ``t`` it becomes at ``point``."""
    R = elem.ring
    pos = {str(g): k for k, g in enumerate(R.symbols)}
    idx = [(pos[str(x)], point.values[x]) for x in xs]
    out = sp.Poly(0, _T, domain=QQ)
    for m, c in elem.terms():
        t = sp.Poly(c, _T, domain=QQ)
        for k, q in idx:
            if m[k]:
                t = t * q ** m[k]
        out = out + t
    return out
