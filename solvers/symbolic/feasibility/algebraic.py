"""Exact signs of real algebraic numbers given as sympy expressions: rationals, numbers of
one quadratic field such as Billingham's P* = (5 + sqrt 73)/2 (exact arithmetic in
QQ(sqrt k)), and nested square roots (a zero certificate by reduction modulo the radicals'
relations); anything else by high-precision evaluation away from zero and exact
simplification near it.  Also exact feasibility of constraints in one free parameter with
coefficients in one ``QQ(sqrt k)`` (the families at ``P*``), by arithmetic in that field."""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence

import sympy as sp
from sympy.polys.densetools import dup_eval


def sign(expr: sp.Expr) -> int:
    """Exact sign (-1, 0, 1) of a real number given as a sympy expression (rationals and
    algebraic numbers such as ``5/2 + sqrt(73)/2``)."""
    e = sp.sympify(expr)
    if e.is_Rational:
        return (e.p > 0) - (e.p < 0)
    if e.has(sp.nan, sp.zoo):  # 0/0 or a pole reached a sign: a bug of the caller, which
        # must not read as bad input (a ValueError); ZeroDivisionError as 1/0 would raise
        raise ZeroDivisionError(f"sign of the undefined value {e} (0/0 or a pole)")
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


_W = sp.Dummy("w")


def split_square(poly: sp.Expr, u: sp.Symbol, w: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """``poly`` (a polynomial in ``u``) as ``a + b u`` modulo ``u^2 = w``."""
    a, b = sp.S.Zero, sp.S.Zero
    for (k,), c in sp.Poly(sp.expand(poly), u).terms():
        if k % 2:
            b += c * w ** ((k - 1) // 2)
        else:
            a += c * w ** (k // 2)
    return a, b


def _nested_sign(e: sp.Expr) -> int | None:
    """Exact sign of ``(n0 + n1 sqrt w) / (m0 + m1 sqrt w)`` with one outer radicand ``w``
    that is not rational (a family with ``sqrt(R(P))`` at an algebraic pot such as
    ``(3 + sqrt 97)/4``) and ``n0 .. m1``, ``w`` signed by :func:`sign`: ``a + b sqrt w``
    has the sign of ``a`` and ``b`` where they agree, else ``sign(a) sign(a^2 - b^2 w)``.
    None when ``e`` has another shape."""
    outer = {a for a in e.atoms(sp.Pow) if a.exp.is_Rational and a.exp.q == 2
             and not a.base.is_Rational}
    bases = {a.base for a in outer}
    if len(bases) != 1:
        return None
    (w,) = bases
    if any(a.exp.is_Rational and a.exp.q != 1 and a.exp.q != 2 for a in e.atoms(sp.Pow)):
        return None
    try:
        if sign(w) <= 0:
            return None
        sub = {a: w ** ((a.exp.p - 1) // 2) * _W for a in outer}
        num, den = sp.fraction(sp.together(e.xreplace(sub)))
        signs = []
        for part in (num, den):
            a, b = split_square(part, _W, w)
            sa, sb = sign(a), sign(b)
            signs.append(sa if sb == 0 or sa == sb else (
                sb if sa == 0 else sa * sign(sp.expand(a * a - b * b * w))))
    except (sp.PolynomialError, sp.CoercionFailed, ValueError, TypeError):
        return None
    if signs[1] == 0:
        raise ZeroDivisionError(f"{e} has a zero denominator")
    return signs[0] * signs[1]


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
    nested = _nested_sign(e)
    if nested is not None:
        return nested
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


# --- one free parameter over QQ(sqrt k) ------------------------------------------------
# Exact feasibility of constraints in one free parameter whose coefficients lie in one
# quadratic field ``QQ(sqrt k)``, such as the families at Billingham's critical pot
# ``P* = (5 + sqrt 73)/2``.
#
# Numerators and denominators become polynomials over ``QQ(sqrt k)`` and are factored there;
# the roots of their linear factors are field elements, and every sign is taken by field
# arithmetic (``a + b sqrt k`` has the sign of ``a`` and ``b`` where they agree, else
# ``sign(a) * sign(a^2 - k b^2)``).  Sympy's general path (``roots`` in nested radicals, then
# ``together``/``radsimp`` on each sign) took seconds per family there.  Where the shape
# differs (another radical, a factor of degree > 2, a quadratic factor with irrational real
# roots) the functions answer None and the caller's radical path decides.

_T = sp.Dummy("t")


def radicand(exprs: Sequence[sp.Expr]) -> sp.Rational | None:
    """The one rational ``k`` whose square root is the only radical in ``exprs`` (None if
    there is none or several)."""
    rads = {a for e in exprs for a in sp.sympify(e).atoms(sp.Pow)
            if a.exp.is_Rational and a.exp.q != 1}
    bases = {a.base for a in rads}
    if len(bases) != 1 or any(a.exp.q != 2 for a in rads):
        return None
    (k,) = bases
    return k if k.is_Rational and k > 0 else None


@lru_cache(maxsize=None)
def _field(k: sp.Rational) -> tuple:
    field = sp.QQ.algebraic_field(sp.sqrt(k))
    return field, field.from_sympy(sp.sqrt(k))


@lru_cache(maxsize=None)
def _rational_field(gens: tuple):
    """``QQ(gens)``, built once per tuple of symbols (building it costs milliseconds)."""
    return sp.field(list(gens), sp.QQ)[0]


def _lift(expr: sp.Expr, k: sp.Rational) -> sp.Expr:
    """``expr`` with ``sqrt(k)**(2m+1)`` written ``k**m t`` (a polynomial expression in t)."""
    rads = {a for a in expr.atoms(sp.Pow) if a.base == k and a.exp.is_Rational and a.exp.q == 2}
    return expr.xreplace({a: k ** ((a.exp.p - 1) // 2) * _T for a in rads})


def _fraction(expr: sp.Expr, x: sp.Symbol, k: sp.Rational) -> tuple:
    """Numerator and denominator of ``expr`` as polynomials in ``x`` and ``t = sqrt k``
    (rational-function arithmetic in ``QQ(x, t)``, much faster than ``together`` and
    ``expand`` on expressions)."""
    field = _rational_field((x, _T))
    f = field.from_expr(_lift(expr, k))
    return f.numer, f.denom


def fraction_terms(expr: sp.Expr, gens: Sequence[sp.Symbol]) -> tuple[dict, dict] | None:
    """Numerator and denominator of ``expr`` (rational in ``gens``, coefficients rational or
    in one ``QQ(sqrt k)``) as dicts ``exponents of gens -> sympy coefficient``, computed by
    rational-function arithmetic; None when ``expr`` has another shape."""
    expr = sp.sympify(expr)
    k = radicand([expr])
    try:
        field = _rational_field(tuple(gens) + (_T,))
        f = field.from_expr(_lift(expr, k) if k is not None else expr)
    except (ValueError, sp.PolynomialError, sp.CoercionFailed, NotImplementedError):
        return None
    root = sp.sqrt(k) if k is not None else sp.S.One
    out = []
    for poly in (f.numer, f.denom):
        terms: dict = {}
        for m, c in poly.terms():
            terms[m[:-1]] = terms.get(m[:-1], sp.S.Zero) + sp.QQ.to_sympy(c) * root ** m[-1]
        out.append(terms)
    return out[0], out[1]


def vanishes(expr: sp.Expr) -> bool:
    """True if the rational expression ``expr`` is identically 0 (exact, by rational-function
    arithmetic in its symbols); False when it is not or when it has another shape."""
    gens = sorted(expr.free_symbols, key=lambda s: s.name)
    try:
        if not gens:
            return expr == 0
        return not _rational_field(tuple(gens)).from_expr(expr)
    except (ValueError, sp.PolynomialError, sp.CoercionFailed, NotImplementedError):
        return False


def _field_poly(poly, x: sp.Symbol, k: sp.Rational) -> sp.Poly:
    """A polynomial in ``x`` and ``t`` as a Poly in ``x`` over ``QQ(sqrt k)`` (``t^2 = k``)."""
    field, gen = _field(k)
    terms: dict = {}
    for (i, j), c in poly.terms():
        part = field.convert(k ** (j // 2) * sp.QQ.to_sympy(c)) * (gen if j % 2 else field.one)
        terms[(i,)] = terms.get((i,), field.zero) + part
    return sp.Poly.from_dict(terms or {(0,): field.zero}, x, domain=field)


def element_sign(a, k: sp.Rational) -> int:
    """Exact sign of a field element ``a + b sqrt k``."""
    cs = a.to_list()
    b, c = (cs[0], cs[1]) if len(cs) == 2 else (0, cs[0] if cs else 0)
    sa, sb = (c > 0) - (c < 0), (b > 0) - (b < 0)
    if sb == 0 or sa == sb:
        return sa if sa else sb
    if sa == 0:
        return sb
    d = c * c - k.p * b * b / k.q
    return sa * ((d > 0) - (d < 0))


def _float(a, k: sp.Rational) -> float:
    cs = a.to_list()
    b, c = (cs[0], cs[1]) if len(cs) == 2 else (0, cs[0] if cs else 0)
    return float(c) + float(b) * float(k) ** 0.5


def _roots(poly: sp.Poly, k: sp.Rational) -> list | None:
    """Real roots of ``poly`` that lie in the field (None where a real root may lie
    outside it)."""
    out = []
    for fac, _ in poly.factor_list()[1]:
        cs = fac.rep.to_list()
        if len(cs) == 2:
            out.append(-cs[1] / cs[0])
        elif len(cs) == 3:  # irreducible over the field: real roots lie outside it
            a, b, c = cs
            if element_sign(b * b - 4 * a * c, k) >= 0:
                return None
        elif len(cs) > 3:
            return None
    return out


def _between(a, b, k: sp.Rational, field):
    """A simple rational strictly between field elements ``a < b``."""
    fa, fb = _float(a, k), _float(b, k)
    for den in (1, 2, 4, 8, 10, 16, 100, 1000, 10 ** 6, 10 ** 12):
        q = field.convert(sp.Rational(round((fa + fb) / 2 * den), den))
        if element_sign(q - a, k) > 0 and element_sign(b - q, k) > 0:
            return q
    return (a + b) / field.convert(2)


def univariate_point(cons: Sequence[tuple[sp.Expr, bool]], x: sp.Symbol):
    """``(found, point)``: an exact point satisfying the constraints ``e > 0`` / ``e >= 0``
    (rational in ``x``, coefficients in one ``QQ(sqrt k)``), ``(False, None)`` when there is
    none, or None when this module does not apply."""
    k = radicand([e for e, _ in cons])
    if k is None:
        return None
    field, _ = _field(k)
    fracs, roots = [], []
    try:
        for e, strict in cons:
            pn, pd = (_field_poly(part, x, k) for part in _fraction(e, x, k))
            fracs.append((pn.rep.to_list(), pd.rep.to_list(), strict))
            for poly in (pn, pd):
                if poly.degree() > 0:
                    rs = _roots(poly, k)
                    if rs is None:
                        return None
                    roots += rs
    except (sp.PolynomialError, sp.CoercionFailed, NotImplementedError):
        return None
    uniq: list = []
    for r in sorted(roots, key=lambda r: _float(r, k)):
        if not uniq or r != uniq[-1]:
            uniq.append(r)
    if uniq:
        cands = [field.convert(sp.floor(_float(uniq[0], k)) - 1),
                 field.convert(sp.floor(_float(uniq[-1], k)) + 1)]
        cands += [_between(a, b, k, field) for a, b in zip(uniq, uniq[1:])] + uniq
    else:
        cands = [field.zero]
    for v in cands:
        if _holds(fracs, v, k, field):
            return True, field.to_sympy(v)
    return False, None


def _holds(fracs, v, k: sp.Rational, field) -> bool:
    for n, d, strict in fracs:
        sd = element_sign(dup_eval(d, v, field), k)
        if sd == 0:
            return False
        s = element_sign(dup_eval(n, v, field), k) * sd
        if s < 0 or (s == 0 and strict):
            return False
    return True
