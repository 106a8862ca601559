"""Exact splitting of a one-dimensional game-parameter axis (the pot ``P``) and exact linear
feasibility (Fourier-Motzkin) for the constraints of equilibrium families.

A constraint is a pair ``(expr, strict)`` meaning ``expr > 0`` (strict) or ``expr >= 0``,
with ``expr`` affine in the free strategy parameters and rational in ``P``.  On an open
interval of the P axis between consecutive critical values (real roots of every polynomial
in ``P`` that appears) all signs are constant, so one rational sample point decides it;
every critical value (rational or algebraic, e.g. ``(5 + sqrt(73))/2``) is decided on its
own by exact substitution.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Sequence

import sympy as sp

from pokerdyn.solvers.symbolic.feasibility import algebraic
from pokerdyn.solvers.symbolic.feasibility.algebraic import sign
from pokerdyn.solvers.symbolic.feasibility import radical

Constraint = tuple[sp.Expr, bool]


def _polys(expr: sp.Expr, p: sp.Symbol) -> list[sp.Poly]:
    num, den = sp.fraction(sp.together(expr))
    out = []
    for part in (num, den):
        part = sp.expand(part)
        if p in part.free_symbols:
            out.append(sp.Poly(part, p))
    return out


@lru_cache(maxsize=None)
def _poly_roots(expr: sp.Expr, p: sp.Symbol) -> tuple[sp.Expr, ...]:
    roots = []
    for _, (fac, _m) in enumerate(sp.factor_list(expr, p)[1]):
        if fac.free_symbols - {p} or p not in fac.free_symbols:
            continue
        for r in sp.Poly(fac, p).real_roots():
            r = sp.nsimplify(r) if isinstance(r, sp.CRootOf) and sp.Poly(fac, p).degree() <= 2 else r
            roots.append(r)
    return tuple(roots)


def positive_roots(expr: sp.Expr, p: sp.Symbol, low: sp.Expr = sp.S.Zero) -> list[sp.Expr]:
    """Exact real roots ``> low`` of the numerator and denominator of ``expr`` in ``p``
    (``expr`` must depend on ``p`` only)."""
    return list(_positive_roots(expr, p, low))


@lru_cache(maxsize=None)
def _positive_roots(expr: sp.Expr, p: sp.Symbol, low: sp.Expr) -> tuple[sp.Expr, ...]:
    # the same bound differences and pivots recur across families and pieces
    if radical.radicals(expr, p):
        return tuple(r for r in _radical_roots(expr, p) if sign(r - low) > 0)
    out = []
    for poly in _polys(expr, p):
        for r in _poly_roots(poly.as_expr(), p):
            if sign(r - low) > 0:
                out.append(r)
    return tuple(out)


def _radical_roots(expr: sp.Expr, p: sp.Symbol) -> list[sp.Expr]:
    """Real roots of ``expr = (A + B sqrt R)/C`` (:mod:`solvers.symbolic.feasibility.radical`) where its sign can
    change: the roots of ``A^2 - B^2 R`` with ``A B <= 0`` there (the others are roots of the
    conjugate ``A - B sqrt R``), every root of ``C`` and of ``R`` (where the root stops being
    real)."""
    root = radical.radical_of([expr], p)
    a, b, c = radical.parts(expr, root)
    out = []
    h = sp.expand(a * a - b * b * root.base)
    for part, check in ((h, True), (c, False), (root.base, False)):
        if p not in part.free_symbols:
            continue
        for fac, _ in sp.factor_list(part, p)[1]:
            if p not in fac.free_symbols:
                continue
            for r in _poly_roots(fac, p):
                if not check or _sign_at(a, fac, r, p) * _sign_at(b, fac, r, p) <= 0:
                    out.append(r)
    return merge_points(out)


def _sign_at(g: sp.Expr, fac: sp.Expr, r: sp.Expr, p: sp.Symbol) -> int:
    """Exact sign of the polynomial ``g`` at the root ``r`` of the irreducible ``fac``: zero
    iff ``fac`` divides ``g``; else the (nonzero) value's sign."""
    if p not in sp.sympify(g).free_symbols:
        return sign(g)
    if sp.rem(g, fac, p) == 0:
        return 0
    return sign(g.xreplace({p: r}))


def merge_points(points: Iterable[sp.Expr]) -> list[sp.Expr]:
    """Sorted, exactly deduplicated critical values (``oo`` last, if given)."""
    out: list[sp.Expr] = []
    for r in sorted(points, key=lambda r: float(sp.N(r, 30))):
        if not out or (r is sp.oo) != (out[-1] is sp.oo) or \
                r is not sp.oo and sign(r - out[-1]) != 0:
            out.append(r)
    return out


def rational_between(a: sp.Expr, b: sp.Expr) -> sp.Rational:
    """A simple rational strictly between ``a`` and ``b`` (``b`` may be ``oo``)."""
    if b is sp.oo:
        return sp.floor(a) + 1
    fa, fb = float(sp.N(a, 30)), float(sp.N(b, 30))
    for den in (1, 2, 4, 8, 10, 16, 100, 1000, 10 ** 6):
        q = sp.Rational(round((fa + fb) / 2 * den), den)
        if sign(q - a) > 0 and sign(b - q) > 0:
            return q
    return sp.nsimplify((a + b) / 2, rational=True)


@dataclass(frozen=True)
class Piece:
    """A piece of the P axis: the open interval ``(low, high)`` or the point ``low``."""

    low: sp.Expr
    high: sp.Expr
    sample: sp.Expr

    @property
    def is_point(self) -> bool:
        return self.low == self.high

    def as_set(self) -> sp.Set:
        return sp.FiniteSet(self.low) if self.is_point else sp.Interval.open(self.low, self.high)


def pieces(points: Sequence[sp.Expr], low: sp.Expr = sp.S.Zero) -> list[Piece]:
    """Open intervals between consecutive critical values above ``low`` and the values."""
    pts = [r for r in merge_points(points) if sign(r - low) > 0]
    out, a = [], low
    for r in pts:
        out.append(Piece(a, r, rational_between(a, r)))
        out.append(Piece(r, r, r))
        a = r
    out.append(Piece(a, sp.oo, rational_between(a, sp.oo)))
    return out


def is_affine(cons: Sequence[Constraint], xs: Sequence[sp.Symbol]) -> bool:
    """Whether every constraint is affine in ``xs`` (:func:`_affine` raises no error)."""
    try:
        for e, _ in cons:
            _affine(e, xs)
    except ValueError:
        return False
    return True


def _affine(expr: sp.Expr, xs: Sequence[sp.Symbol]) -> tuple[list[sp.Expr], sp.Expr]:
    """Coefficients of ``xs`` and the constant term of an affine ``expr`` (ValueError if not
    affine in ``xs``)."""
    e = sp.expand(expr)
    coeffs = [e.coeff(x, 1) for x in xs]
    rest = sp.expand(e - sum(c * x for c, x in zip(coeffs, xs)))
    if rest.free_symbols & set(xs):  # algebraic coefficients that did not cancel
        rest = _drop_zero_terms(rest, xs)
    if any(c.free_symbols & set(xs) for c in coeffs) or rest.free_symbols & set(xs):
        raise ValueError(f"constraint {expr} is not affine in {list(xs)}")
    return coeffs, rest


def _drop_zero_terms(e: sp.Expr, xs: Sequence[sp.Symbol]) -> sp.Expr:
    """``e`` without the terms in ``xs`` whose numeric coefficient is exactly zero (sums of
    radicals that ``expand`` leaves unsimplified)."""
    for x in xs:
        c = e.coeff(x, 1)
        if c != 0 and c.is_number and sign(c) == 0:
            e = sp.expand(e - c * x)
    return e


def eliminate(cons: Sequence[Constraint], xs: Sequence[sp.Symbol], sign_of=sign,
              derived: list | None = None) -> list[Constraint]:
    """Fourier-Motzkin elimination of ``xs``: the constraints without ``xs`` that hold iff
    some ``xs`` satisfy ``cons``.  ``sign_of`` decides coefficient signs (exactly for numbers;
    by a sample point for expressions in ``P`` on an interval where they keep their sign).
    Every bound difference formed is appended to ``derived`` (its roots are critical)."""
    cur = [(sp.expand(e), s) for e, s in cons]
    for e, _ in cur:
        _affine(e, xs)
    for i, x in enumerate(xs):
        lower, upper, keep = [], [], []
        for e, strict in cur:
            c = sp.expand(e).coeff(x, 1)
            sg = sign_of(c) if c != 0 else 0
            if sg == 0:
                keep.append((sp.expand(e - c * x) if c != 0 else e, strict))
                continue
            bound = sp.cancel(-(sp.expand(e) - c * x) / c)
            (lower if sg > 0 else upper).append((bound, strict))
        if derived is not None:
            for group in (lower, upper):
                for j in range(len(group)):
                    for k in range(j + 1, len(group)):
                        derived.append(group[j][0] - group[k][0])
        for lo, s1 in lower:
            for hi, s2 in upper:
                d = sp.cancel(hi - lo)
                if derived is not None:
                    derived.append(d)
                keep.append((d, s1 or s2))
        cur = keep
    return cur


def _univariate_candidates(cons: Sequence[Constraint], x: sp.Symbol) -> list[sp.Expr]:
    """Points that represent every piece of the solution set of numeric rational constraints
    in one variable: the real roots of all numerators and denominators, a rational between
    consecutive roots and one beyond each end (signs are constant in between)."""
    roots: list[sp.Expr] = []
    for e, _ in cons:
        num, den = sp.fraction(sp.together(e))
        for part in (num, den):
            part = sp.expand(part)
            if x in part.free_symbols:
                roots += _real_roots(part, x)
    roots = merge_points(roots)
    if not roots:
        return [], [sp.S.Zero]
    between = [sp.floor(roots[0]) - 1, sp.floor(roots[-1]) + 1]
    between += [rational_between(a, b) for a, b in zip(roots, roots[1:])]
    return roots, between


def _real_roots(expr: sp.Expr, x: sp.Symbol) -> list[sp.Expr]:
    """Real roots of a univariate polynomial with rational or algebraic coefficients."""
    try:
        return list(_poly_roots(expr, x))
    except NotImplementedError:  # algebraic coefficients: roots in radicals
        coeffs = sp.Poly(expr, x).all_coeffs()
        if len(coeffs) == 2:  # linear: one exact quotient
            return [sp.radsimp(-coeffs[1] / coeffs[0])]
        if len(coeffs) == 3:  # quadratic formula; the discriminant's sign is exact
            a, b, c = coeffs
            d = sp.expand(b * b - 4 * a * c)
            sd = sign(d)
            if sd < 0:
                return []
            return [(-b + s * sp.sqrt(d)) / (2 * a) for s in ((0,) if sd == 0 else (-1, 1))]
        out = []
        for r in sp.roots(sp.Poly(expr, x)):
            if r.is_real or abs(sp.N(sp.im(r), 50)) < sp.Float(10) ** -40:
                out.append(sp.re(r) if not r.is_real else r)
        return out


def _holds(cons: Sequence[Constraint], x: sp.Symbol, v: sp.Expr) -> bool:
    for e, strict in cons:
        num, den = _fraction(e)
        d = sign(den.xreplace({x: v}))
        if d == 0:
            return False
        s = sign(num.xreplace({x: v})) * d
        if s < 0 or (s == 0 and strict):
            return False
    return True


@lru_cache(maxsize=4096)
def _fraction(e: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """Numerator and denominator of ``e`` over a common denominator (asked for every
    candidate point of :func:`_univariate_point`)."""
    return sp.fraction(sp.together(e))


def _univariate_point(cons: Sequence[Constraint], x: sp.Symbol) -> sp.Expr | None:
    """An exact point satisfying numeric rational constraints in one variable (None if
    there is none); a point inside an interval of solutions where there is one."""
    fast = algebraic.univariate_point(cons, x)  # coefficients in one QQ(sqrt k)
    if fast is not None:
        return fast[1]
    roots, between = _univariate_candidates(cons, x)
    return next((v for v in between + roots if _holds(cons, x, v)), None)


def feasible(cons: Sequence[Constraint], xs: Sequence[sp.Symbol]) -> bool:
    """Exact feasibility of numeric affine constraints in ``xs`` (one free variable may
    enter rationally).  Rational coefficients: Fourier-Motzkin in Python fractions
    (:func:`_fraction_feasible`, the same elimination without sympy's arithmetic)."""
    rows = _fraction_rows(cons, xs)
    if rows is not None:
        return _fraction_feasible(rows, len(xs))
    try:
        reduced = eliminate(cons, xs)
    except ValueError:
        if len(xs) != 1:
            return witness(cons, xs) is not None
        return _univariate_point(cons, xs[0]) is not None
    for e, strict in reduced:
        s = sign(e)
        if s < 0 or (s == 0 and strict):
            return False
    return True


def _fraction_rows(cons: Sequence[Constraint], xs: Sequence[sp.Symbol]) -> list | None:
    """Each constraint ``a . xs + k > 0`` (or ``>= 0``) as ``(a, k, strict)`` in Fractions;
    None unless every constraint is affine in ``xs`` with rational coefficients."""
    from fractions import Fraction

    idx = {x: i for i, x in enumerate(xs)}
    rows = []
    for e, strict in cons:
        a = [Fraction(0)] * len(xs)
        k = Fraction(0)
        for term, c in sp.expand(e).as_coefficients_dict().items():
            if not c.is_Rational:
                return None
            q = Fraction(int(c.p), int(c.q))
            if term is sp.S.One:
                k += q
            elif term in idx:
                a[idx[term]] += q
            else:
                return None
        rows.append((tuple(a), k, bool(strict)))
    return rows


def _fraction_feasible(rows: list, n: int) -> bool:
    """Fourier-Motzkin elimination of the ``n`` variables of ``(a, k, strict)`` rows, in
    exact fractions: True iff some point satisfies every row.  A row without variables is
    decided at once; equal rows are kept once (the strict one where both occur)."""
    cur: dict = {}
    if not _add_rows(cur, rows):
        return False
    for i in range(n):
        lower, upper, nxt = [], [], {}
        for (a, k), s in cur.items():
            c = a[i]
            if c == 0:
                nxt[a, k] = nxt.get((a, k), False) or s
            else:  # scaled to coefficient +1 (x_i >= ...) or -1 (x_i <= ...)
                m = abs(c)
                (lower if c > 0 else upper).append((tuple(v / m for v in a), k / m, s))
        if not _add_rows(nxt, ((tuple(x + y for x, y in zip(al, au)), kl + ku, sl or su)
                               for al, kl, sl in lower for au, ku, su in upper)):
            return False
        cur = nxt
    return True


def _add_rows(into: dict, rows) -> bool:
    """Add ``(a, k, strict)`` rows to ``into`` ((a, k) -> strict, OR-ed over equal rows);
    False as soon as a row without variables fails (``k < 0``, or ``k = 0`` strict)."""
    for a, k, s in rows:
        if not any(a):
            if k < 0 or (k == 0 and s):
                return False
            continue
        into[a, k] = into.get((a, k), False) or s
    return True


def witness(cons: Sequence[Constraint], xs: Sequence[sp.Symbol], steps: int = 12) -> dict | None:
    """An exact rational point of the grid ``{0, 1/steps, ..., 1}^k`` that satisfies
    non-affine numeric constraints (free parameters are probabilities), or None.  A witness
    is an exact certificate of feasibility; None means no grid point works (a feasible set
    thinner than the grid would be missed: used only for constraints that are not affine)."""
    import itertools
    grid = [sp.Rational(i, steps) for i in range(steps + 1)]
    fs = [(sp.lambdify(xs, e, "sympy"), s) for e, s in cons]
    for pt in itertools.product(grid, repeat=len(xs)):
        ok = True
        for f, strict in fs:
            try:
                v = sign(f(*pt))
            except (ZeroDivisionError, TypeError, ValueError):  # 0/0 or a pole
                ok = False
                break
            if v < 0 or (v == 0 and strict):
                ok = False
                break
        if ok:
            return dict(zip(xs, pt))
    return None


def interior_point(cons: Sequence[Constraint], xs: Sequence[sp.Symbol]) -> dict:
    """An exact point satisfying numeric affine constraints (midpoint of the feasible range
    of each variable in turn; back-substitution after Fourier-Motzkin)."""
    point: dict = {}
    cur = list(cons)
    # each constraint checked, not their sum: x*y and -x*y cancel in it (cent4.efg's
    # families, whose sample then reached a sign with a free parameter in it)
    if len(xs) > 1 and not is_affine(cons, xs):
        return witness(cons, xs) or {}
    if len(xs) == 1 and not is_affine(cons, xs):
        v = _univariate_point(cons, xs[0])
        return {} if v is None else {xs[0]: v}
    for k in range(len(xs)):
        x = xs[k]
        reduced = eliminate(cur, xs[k + 1:])
        lo, hi = [], []
        for e, strict in reduced:
            e = _drop_zero_terms(sp.expand(e.subs(point)), xs[k:])
            c = e.coeff(x, 1)
            if c == 0:
                continue
            b = -_drop_zero_terms(sp.expand(e - c * x), [x]) / c
            (lo if sign(c) > 0 else hi).append(sp.radsimp(b))
        a = max(lo, key=lambda v: float(sp.N(v, 30))) if lo else None
        b = min(hi, key=lambda v: float(sp.N(v, 30))) if hi else None
        if a is None and b is None:
            v = sp.S.Zero
        elif a is None:
            v = b - 1
        elif b is None:
            v = a + 1
        else:
            v = (a + b) / 2
        point[x] = sp.radsimp(sp.expand(v))
        cur = [(sp.expand(e.subs(x, point[x])), s) for e, s in cur]
    return point
