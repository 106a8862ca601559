"""Arithmetic in ``QQ(P)(sqrt R)``: expressions in the pot ``P``, free parameters and one
square root ``sqrt(R(P))`` of a square-free polynomial (the full-street family F10 of
kuhn3-full-simplified has ``R = P^4 - 4P^3 + 4P^2 + 12P + 12``, README issue 14).

Every such expression is ``(A + B sqrt R) / C`` with ``A, B, C`` polynomials (numerator and
denominator reduced modulo ``u^2 = R``, the denominator made free of the root by its
conjugate); it is zero iff ``A = B = 0`` (``R`` is not a square).  Its real roots in ``P``
are among the roots of ``A^2 - B^2 R``: a root ``r`` of that polynomial is one of
``A + B sqrt R`` iff ``A(r) B(r) <= 0`` (else it is a root of the conjugate), decided
exactly (:func:`solvers.symbolic.feasibility.pot_split.positive_roots`, with :func:`parts`).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Sequence

import sympy as sp

from pokerdyn.solvers.symbolic.feasibility import algebraic

_U = sp.Dummy("u")


def radicals(e: sp.Expr, p: sp.Symbol) -> set:
    """The square-root atoms of ``e`` whose radicand contains ``p`` (``R**(m/2)``)."""
    return {a for a in sp.sympify(e).atoms(sp.Pow)
            if a.exp.is_Rational and a.exp.q == 2 and p in a.base.free_symbols}


def radical_of(exprs: Iterable[sp.Expr], p: sp.Symbol) -> sp.Expr | None:
    """The one ``sqrt(R(P))`` of ``exprs`` (None if there is none; ValueError if several
    radicands occur: nested or several roots are outside this module)."""
    bases = {a.base for e in exprs for a in radicals(e, p)}
    if not bases:
        return None
    if len(bases) > 1 or any(radicals(b, p) for b in bases):
        raise ValueError(f"more than one square root in P: {sorted(map(str, bases))}")
    return sp.sqrt(next(iter(bases)))


def _lift(e: sp.Expr, base: sp.Expr) -> sp.Expr:
    """``e`` with ``R**(m/2)`` (m odd) written ``R**((m-1)/2) u``."""
    sub = {a: base ** ((a.exp.p - 1) // 2) * _U for a in sp.sympify(e).atoms(sp.Pow)
           if a.base == base and a.exp.is_Rational and a.exp.q == 2}
    return sp.sympify(e).xreplace(sub)


def _reduce(poly: sp.Expr, base: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """``poly`` (polynomial in u) as ``a + b u`` modulo ``u^2 = R``."""
    a, b = algebraic.split_square(poly, _U, base)
    return sp.expand(a), sp.expand(b)


def parts(e: sp.Expr, root: sp.Expr) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """``(A, B, C)`` with ``e = (A + B sqrt R) / C``, polynomials (ZeroDivisionError when the
    denominator is zero in the field)."""
    base = root.base
    num, den = sp.fraction(sp.together(_lift(e, base)))
    n0, n1 = _reduce(num, base)
    m0, m1 = _reduce(den, base)
    c = sp.expand(m0 * m0 - m1 * m1 * base)
    if c == 0:
        raise ZeroDivisionError(f"{e} has a zero denominator")
    return sp.expand(n0 * m0 - n1 * m1 * base), sp.expand(n1 * m0 - n0 * m1), c


@lru_cache(maxsize=8192)
def _normal(e: sp.Expr, root: sp.Expr, form=sp.cancel) -> sp.Expr:
    a, b, c = parts(e, root)
    return form(a / c) + form(b / c) * root


def normal(e: sp.Expr, p: sp.Symbol, form=sp.cancel) -> sp.Expr:
    """``e`` as ``a + b sqrt(R)`` with ``a, b`` rational functions put in ``form``
    (cancelled by default; ``e`` unchanged when it has no root in ``P``)."""
    root = radical_of([e], p)
    return sp.sympify(e) if root is None else _normal(sp.sympify(e), root, form)


def is_zero(e: sp.Expr, p: sp.Symbol) -> bool:
    """Exactly: ``e`` vanishes identically (in P and the free parameters)."""
    root = radical_of([e], p)
    if root is None:
        return sp.cancel(e) == 0
    a, b, _ = parts(e, root)
    return a == 0 and b == 0


def sqrt_of(disc: sp.Expr, p: sp.Symbol) -> sp.Expr:
    """A square root of ``disc`` (rational in ``p``) up to sign, as ``q sqrt(R)`` with ``q``
    rational in ``p`` and ``R`` a square-free polynomial with square-free integer content
    (``sqrt(num/den) = sqrt(num den)/den``: both signs are used by the caller)."""
    num, den = sp.fraction(sp.cancel(disc))
    coeff, facs = sp.factor_list(sp.expand(num * den), p)
    coeff = sp.Rational(coeff)
    whole, rad = sp.Integer(1), sp.Integer(1)
    for f, m in facs:
        whole *= f ** (m // 2)
        rad *= f ** (m % 2)
    k = int(coeff.p * coeff.q)
    sq, rest = 1, 1
    for prime, m in sp.factorint(abs(k)).items():
        sq *= prime ** (m // 2)
        rest *= prime ** (m % 2)
    rest *= -1 if k < 0 else 1
    scale = whole * sq / (coeff.q * den)
    return scale * sp.sqrt(sp.expand(rest * rad))


def linear_root(coeffs: Sequence[sp.Expr], p: sp.Symbol) -> sp.Expr | None:
    """The root ``-c0/c1`` of ``c1 x + c0`` in normal form (None if ``c1`` is zero)."""
    c1, c0 = coeffs
    if is_zero(c1, p):
        return None
    return normal(-c0 / c1, p)


def lift_poly(e: sp.Expr, x: sp.Symbol, p: sp.Symbol) -> list[sp.Expr]:
    """The coefficients (highest first) of ``e``, a polynomial in ``x`` over ``QQ(P)(sqrt
    R)``, each in normal form, with zero leading coefficients dropped."""
    root = radical_of([e], p)
    coeffs = sp.Poly(sp.expand(e), x).all_coeffs()
    if root is not None:
        coeffs = [_normal(c, root) for c in coeffs]
    while coeffs and (coeffs[0] == 0 or is_zero(coeffs[0], p)):
        coeffs = coeffs[1:]
    return coeffs
