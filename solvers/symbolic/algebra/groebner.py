"""Exact solution of one block of indifference equations by a lex Groebner basis.

At a rational pot the coefficients lie in QQ: a zero-dimensional block is solved back from
its lex basis, keeping only roots in [0, 1] (each unknown is a probability), found by exact
root isolation of the univariate polynomials (``sp.Poly.real_roots``).  With the pot
symbolic the coefficients lie in QQ(P) and a univariate polynomial is factored over QQ(P):
its linear factors give rational-function branches (valid for all but finitely many P).
A block with free unknowns (positive dimension) is decomposed exactly at a numeric pot
(:func:`.positive_dimensional.decompose`: families rational in a maximal independent set of unknowns, and
recursion where a denominator vanishes; a block it does not finish in ``POSDIM_SECONDS``
goes back to the triangular solver); with ``P`` symbolic it goes to the triangular
solver (:func:`solvers.symbolic.algebra.triangular.solve_triangular`), which leaves them free.
An irreducible quadratic factor ``a x^2 + b x + c`` over QQ(P) gives the two branches
``x = (-b +- sqrt(b^2 - 4ac))/(2a)`` (square factors of the discriminant pulled out:
:func:`solvers.symbolic.feasibility.radical.sqrt_of`); back-substitution goes on in ``QQ(P)(sqrt R)``
(:mod:`solvers.symbolic.feasibility.radical`), where an unknown must then be fixed by a factor of degree 1.  A branch
that would need a second root or a factor of higher degree is recorded in ``SKIPPED``;
irrational roots at a numeric pot are carried as 50-digit floats and recorded in
``NUMERIC`` (a family whose values stay floats is flagged by the caller: not exact).
"""
from __future__ import annotations

import contextlib
import signal
from typing import Sequence

import sympy as sp

from pokerdyn.solvers.symbolic.algebra import triangular
from pokerdyn.solvers.symbolic.algebra.triangular import solve_triangular
from pokerdyn.solvers.symbolic.feasibility import box_proofs, radical
from pokerdyn.solvers.symbolic.algebra import positive_dimensional
from pokerdyn.solvers.symbolic.algebra.support_solve import SupportTimeout, deadline

SKIPPED: list = []
NUMERIC: list = []  # irreducible factors of degree > 1 met at a numeric pot
FALLBACK: list = []  # positive-dimensional blocks handed back to the triangular solver
POSDIM_SECONDS = 30.0
TRIANGULAR_SECONDS = 120.0
DIGITS = 50
PROOF_BOXES = 2000  # the box proof's budget before a positive-dimensional decomposition
PROOF_SECONDS = 5.0


def solve_block(eqs: Sequence[sp.Expr], xs: Sequence[sp.Symbol], p: sp.Symbol | None
                ) -> list[dict]:
    """All solution branches ``{x: value}`` of ``eqs = 0`` (unknowns in [0, 1] at a
    numeric pot); an empty list if there is none."""
    eqs, xs = [sp.expand(e) for e in eqs], list(xs)
    eqs, xs, aside = _set_aside(eqs, xs)
    if not eqs:
        return [_resolve(aside, {})]
    if not xs:  # nonzero equations in P alone: no solution for generic P (nor at this pot)
        return []
    dom = sp.QQ if p is None else sp.QQ.frac_field(p)
    G = sp.groebner(eqs, *xs, order="grevlex", domain=dom)
    if G.exprs == [1]:
        return []
    if not G.is_zero_dimensional and p is None:
        # unknowns are probabilities: a block whose zero set misses the unit box is done
        # (kuhn3-full-simplified at P = 5: eight blocks the decomposition gave up on after
        # 150 s each are empty there, shown by one contraction)
        if box_proofs.empty(eqs, xs) or box_proofs.empty(G.exprs, xs):
            return []
        # before the decomposition (up to 30 s on one block: P = 5 has one of 8 unknowns
        # whose 16 components all lie outside the box) a larger proof budget, which costs
        # at most about a second where no proof exists
        if box_proofs.empty(eqs, xs, boxes=PROOF_BOXES, seconds=PROOF_SECONDS):
            return []
        sols = _positive(eqs, xs)
    elif not G.is_zero_dimensional:
        dropped = len(triangular.DROPPED)
        sols = [s for s, only, _ in solve_triangular(eqs, xs, p) if not only]
        if p is not None and len(triangular.DROPPED) > dropped:
            sols += _radical_branches(eqs, xs, p)
    else:
        lex = G.fglm("lex") if len(xs) > 1 else G
        sols = _back(list(lex.exprs), xs, {}, p)
    return [_resolve(aside, s) for s in sols]


def _radical_branches(eqs: list, xs: list, p: sp.Symbol) -> list[dict]:
    """The branches with a square root in ``P`` of a block whose triangular solve dropped
    some: the unknowns in no equation are left free, and if the rest is zero-dimensional
    its lex basis is solved back (the rational branches are the triangular solver's)."""
    used = [x for x in xs if any(x in e.free_symbols for e in eqs)]
    if len(used) == len(xs):
        return []
    G = sp.groebner(eqs, *used, order="grevlex", domain=sp.QQ.frac_field(p))
    if G.exprs == [1] or not G.is_zero_dimensional:
        return []
    lex = G.fglm("lex") if len(used) > 1 else G
    return [s for s in _back(list(lex.exprs), used, {}, p)
            if any(radical.radicals(v, p) for v in s.values())]


def _positive(eqs: list, xs: list) -> list[dict]:
    """A positive-dimensional block at a numeric pot: :func:`.positive_dimensional.decompose` within
    ``POSDIM_SECONDS`` (when no outer time limit runs), else the triangular solver (exact
    and complete, only slower; the block is recorded in ``FALLBACK``) within
    ``TRIANGULAR_SECONDS``, else nothing, recorded in ``positive_dimensional.UNHANDLED``."""
    outer = hasattr(signal, "getitimer") and signal.getitimer(signal.ITIMER_REAL)[0] > 0
    n0 = len(positive_dimensional.UNHANDLED)
    try:
        with contextlib.nullcontext() if outer else deadline(POSDIM_SECONDS):
            sols = positive_dimensional.decompose(eqs, xs, lambda lex, ys: _back(lex, ys, {}, None))
        if len(positive_dimensional.UNHANDLED) == n0:
            return sols
        # a component posdim cannot decide (algebraic values at this pot: F10 of
        # kuhn3-full-simplified at 13/4) stays reported in UNHANDLED, and the block goes to
        # the triangular solver too, which carries irrational roots as floats, so that the
        # sweep still sees the support
        n0 = len(positive_dimensional.UNHANDLED)
    except SupportTimeout:
        if outer:
            raise
    del positive_dimensional.UNHANDLED[n0:]  # the triangular solver decides those components
    FALLBACK.append(tuple(eqs))
    try:
        with contextlib.nullcontext() if outer else deadline(TRIANGULAR_SECONDS):
            return [s for s, only, _ in solve_triangular(eqs, xs, None) if not only]
    except SupportTimeout:
        positive_dimensional.UNHANDLED.append((tuple(eqs), f"block not solved in {POSDIM_SECONDS:g} s + "
                                 f"{TRIANGULAR_SECONDS:g} s (triangular fallback)"))
        return []


def _set_aside(eqs: list, xs: list) -> tuple[list, list, list]:
    """Equations with an unknown that no other equation contains, of degree 1 with a
    constant coefficient: they only fix that unknown (``x = value of the others``), so
    they leave the system (a positive-dimensional block often becomes zero-dimensional)."""
    aside = []
    changed = True
    while changed:
        changed = False
        for k, e in enumerate(eqs):
            for x in sorted(e.free_symbols & set(xs), key=lambda s: s.name):
                if any(x in f.free_symbols for j, f in enumerate(eqs) if j != k):
                    continue
                c1 = e.coeff(x, 1)
                if c1.free_symbols & set(xs) or sp.degree(e, x) != 1:
                    continue
                aside.append((x, sp.expand(-e.coeff(x, 0) / c1)))
                eqs = eqs[:k] + eqs[k + 1:]
                xs = [y for y in xs if y != x]
                changed = True
                break
            if changed:
                break
    return eqs, xs, aside


def _resolve(aside: list, sol: dict) -> dict:
    """The set-aside unknowns in terms of the solution (last set aside first)."""
    out = dict(sol)
    for x, e in reversed(aside):
        out[x] = sp.expand(e.xreplace(out))
    return out


def _back(polys: list, xs: list, known: dict, p) -> list[dict]:
    """Solve a lex basis from its last unknown upwards (``known``: values so far)."""
    todo = [x for x in xs if x not in known]
    if not todo:
        return [dict(known)]
    x = todo[-1]
    rest = set(todo[:-1])
    uni = []
    for f in polys:
        g = sp.expand(f.xreplace(known)) if known else f
        if g != 0 and x in g.free_symbols and not (g.free_symbols & rest):
            uni.append(g)
    if not uni:
        return []
    if p is not None and any(radical.radicals(v, p) for v in known.values()):
        roots = _radical_roots(uni, x, p)
    else:
        h = uni[0]
        for g in uni[1:]:
            h = sp.gcd(h, g)
        roots = _roots(h, x, p)
    out = []
    for r in roots:
        known2 = {**known, x: r}
        if _consistent(polys, known2, rest, p):
            out += _back(polys, xs, known2, p)
    return out


def _consistent(polys, known, rest, p=None) -> bool:
    for f in polys:
        if f.free_symbols & rest:
            continue
        v = f.xreplace(known)
        if v.free_symbols - {s for s in v.free_symbols if s.name == "P"}:
            continue
        if p is not None and radical.radicals(v, p):
            if not radical.is_zero(v, p):
                return False
        elif v.has(sp.Float):
            if abs(v.evalf(DIGITS)) > 1e-30:
                return False
        elif sp.cancel(v) != 0:
            return False
    return True


def _roots(h: sp.Expr, x: sp.Symbol, p) -> list:
    if p is None:
        poly = sp.Poly(h, x)
        if not (poly.domain.is_QQ or poly.domain.is_ZZ):
            return [r for r in sp.solve(h, x) if r.is_real and 0 <= r <= 1]
        out = []
        for fac, _ in poly.factor_list()[1]:
            if fac.degree() == 1:
                r = -fac.all_coeffs()[1] / fac.all_coeffs()[0]
                out += [r] if 0 <= r <= 1 else []
            elif fac.degree() > 1 and fac.count_roots(0, 1):
                # an irrational root: carried on as a 50-digit float (exact radicals made
                # back-substitution and sign tests cost tens of seconds per leaf)
                NUMERIC.append(fac.as_expr())
                out += [sp.Float(r.evalf(DIGITS), DIGITS) for r in fac.real_roots()
                        if 0 <= r <= 1]
        return out
    num = sp.numer(sp.together(h))
    out = []
    for fac, _ in sp.factor_list(num, x)[1]:
        pf = sp.Poly(fac, x)
        if pf.degree() == 1:
            a, b = pf.all_coeffs()
            out.append(sp.cancel(-b / a))
        elif pf.degree() == 2:
            a, b, c = pf.all_coeffs()
            root = radical.sqrt_of(b * b - 4 * a * c, p)
            out += [radical.normal((-b + s * root) / (2 * a), p) for s in (1, -1)]
        elif pf.degree() > 2:
            SKIPPED.append(fac)
    return out


def _radical_roots(uni: list, x: sp.Symbol, p: sp.Symbol) -> list:
    """The root of the univariate polynomials ``uni`` over ``QQ(P)(sqrt R)``: from one of
    degree 1 (the others are checked by the caller); none of degree 1: SKIPPED."""
    polys = sorted((c for c in (radical.lift_poly(g, x, p) for g in uni) if c), key=len)
    if not polys:
        return []
    if len(polys[0]) == 1:
        return []  # a nonzero constant: no root
    if len(polys[0]) > 2:
        SKIPPED.append(uni[0])
        return []
    r = radical.linear_root(polys[0], p)
    return [] if r is None else [r]
