"""Exact signs of real algebraic numbers given as sympy expressions: rationals, numbers of
one quadratic field such as Billingham's P* = (5 + sqrt 73)/2 (exact arithmetic in
QQ(sqrt k)), and nested square roots (a zero certificate by reduction modulo the radicals'
relations); anything else by high-precision evaluation away from zero and exact
simplification near it."""
from __future__ import annotations

from functools import lru_cache

import sympy as sp


def sign(expr: sp.Expr) -> int:
    """Exact sign (-1, 0, 1) of a real number given as a sympy expression (rationals and
    algebraic numbers such as ``5/2 + sqrt(73)/2``)."""
    e = sp.sympify(expr)
    if e.is_Rational:
        return (e.p > 0) - (e.p < 0)
    return _sign_irrational(e)


_S = sp.Dummy("s")


def _quadratic_sign(e: sp.Expr) -> int | None:
    """Exact sign of a rational function of one square root ``sqrt(k)`` (``k`` a rational
    that is not a square) by arithmetic in ``QQ(sqrt k)``: numerator and denominator reduced
    to ``a + b sqrt(k)``, whose sign is that of ``a`` and ``b`` when they agree and else
    ``sign(a) * sign(a^2 - k b^2)``.  None when ``e`` has another shape (then the
    numerical/simplification path decides).  This avoids ``equals``/``radsimp`` on the
    numbers of the critical value ``P* = (5 + sqrt 73)/2``, which cost seconds each."""
    rads = {a for a in e.atoms(sp.Pow) if a.exp.is_Rational and a.exp.q != 1}
    bases = {a.base for a in rads}
    if len(bases) != 1 or any(a.exp.q != 2 for a in rads):
        return None
    (k,) = bases
    if not (k.is_Rational and k > 0):
        return None
    sub = {a: k ** ((a.exp.p - 1) // 2) * _S for a in rads}
    num, den = sp.fraction(sp.together(e.xreplace(sub)))
    try:
        mod = sp.Poly(_S ** 2 - k, _S, domain="QQ")
        parts = [sp.Poly(sp.expand(x), _S, domain="QQ").rem(mod) for x in (num, den)]
    except (sp.PolynomialError, sp.CoercionFailed):
        return None
    if parts[1].is_zero:
        raise ZeroDivisionError(f"{e} has a zero denominator")
    out = 1
    for part in parts:
        a, b = part.coeff_monomial(1), part.coeff_monomial(_S)
        sa, sb = sign(a), sign(b)
        out *= sa if sb == 0 or sa == sb else (sb if sa == 0 else sa * sign(a * a - k * b * b))
    return out


def radical_zero(e: sp.Expr) -> bool:
    """True if ``e``, built from rationals and (nested) square roots, is certainly 0: every
    square root becomes a symbol ``t`` with the relation ``t^2 = base`` (square roots of
    integers split into square roots of primes, so that ``sqrt(146) = sqrt(2) sqrt(73)`` is
    seen), and the numerator of ``e`` reduces to 0 modulo these relations (a triangular set
    with pairwise coprime leading monomials, hence a Groebner basis).  False means "not
    proved" (dependent radicals can hide a zero); the caller then decides otherwise."""
    gens: dict = {}  # radicand -> symbol
    rels: list = []

    def root_of(base: sp.Expr) -> sp.Expr:
        if base.is_Integer and base > 0:
            out = sp.Integer(1)
            for prime, mult in sp.factorint(base).items():
                out *= prime ** (mult // 2)
                if mult % 2:
                    out *= root_of_atom(sp.Integer(prime))
            return out
        if base.is_Rational and base > 0:
            return root_of(sp.Integer(base.p * base.q)) / base.q
        return root_of_atom(base)

    def root_of_atom(base: sp.Expr) -> sp.Symbol:
        if base not in gens:
            t = gens[base] = sp.Dummy(f"t{len(gens)}")
            rels.append((t, t ** 2 - lift(base)))
        return gens[base]

    def lift(x: sp.Expr) -> sp.Expr:
        rads = {a for a in x.atoms(sp.Pow) if a.exp.is_Rational and a.exp.q != 1}
        if any(a.exp.q != 2 for a in rads):
            raise ValueError("not a square root")
        # innermost first, so that radicands are lifted before they are used
        sub = {a: root_of(lift(a.base)) ** a.exp.p for a in sorted(rads, key=sp.count_ops)}
        return x.xreplace(sub)

    try:
        num = sp.fraction(sp.together(lift(sp.sympify(e))))[0]
        if not rels:
            return sp.expand(num) == 0
        order = [t for t, _ in reversed(rels)]  # outer radicals first (lex)
        rem = sp.reduced(sp.expand(num), [r for _, r in rels], *order, order="lex")[1]
        return rem == 0
    except (ValueError, TypeError, sp.PolynomialError, sp.CoercionFailed):
        return False


@lru_cache(maxsize=65536)
def _sign_irrational(e: sp.Expr) -> int:
    """Sign of a non-rational number: exact in ``QQ(sqrt k)`` where it lies there,
    30-digit evaluation when clearly away from zero (an error bound far below the margin),
    exact simplification otherwise."""
    q = _quadratic_sign(e)
    if q is not None:
        return q
    try:
        v = sp.N(e, 30)
        if v.is_real and v.is_Number and abs(v) > sp.Float(10) ** -20:
            return 1 if v > 0 else -1
    except (TypeError, ValueError):
        pass
    if radical_zero(e):
        return 0
    e = sp.radsimp(sp.expand(e))
    if e.is_Rational:
        return int(sp.sign(e))
    v = sp.N(e, 60)
    if not v.is_real:
        raise ValueError(f"{e} is not a real number")
    if abs(v) > sp.Float(10) ** -45:
        return 1 if v > 0 else -1
    return 0 if e.equals(0) else (1 if sp.N(e, 200) > 0 else -1)
