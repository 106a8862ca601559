"""Gains ``g_x`` compiled for the case search: a multilinear polynomial in the enumerated
parameters as a table ``{monomial bitmask: coefficient}``, each coefficient a polynomial in
the pot ``P`` (a tuple, lowest degree first).

With rational coefficients the tuple holds Python integers (the whole gain is scaled by a
positive common denominator, which keeps every sign); otherwise (an algebraic pot such as
``(5 + sqrt 73)/2`` substituted) it holds exact sympy numbers.  Substituting 0/1 values is
bit arithmetic, and the values at all vertices of the open parameters' box come from one
subset-sum transform, so the case search never touches a sympy expression in its inner loop.
"""
from __future__ import annotations

from fractions import Fraction
from math import lcm
from typing import Sequence

import sympy as sp

from pokerdyn.solvers.symbolic.feasibility import pot_split

Coeff = tuple  # polynomial in P, lowest degree first
Table = dict  # monomial bitmask -> Coeff


def _add(a: Coeff, b: Coeff) -> Coeff:
    if len(a) < len(b):
        a, b = b, a
    return tuple(x + y for x, y in zip(a, b)) + a[len(b):]


def compile_gain(expr: sp.Expr, syms: Sequence[sp.Symbol], p: sp.Symbol | None) -> tuple[Table, int]:
    """(table, dependency bitmask) of a gain multilinear in ``syms`` (bit i = ``syms[i]``)."""
    expr = sp.expand(expr)
    gens = [s for s in syms if s in expr.free_symbols]
    bits = [1 << list(syms).index(s) for s in gens]
    with_p = p is not None and p in expr.free_symbols
    allg = gens + ([p] if with_p else [])
    terms = sp.Poly(expr, *allg).terms() if allg else [((), expr)]
    raw: dict[int, dict[int, sp.Expr]] = {}
    for mon, c in terms:
        if any(e > 1 for e in mon[:len(gens)]):
            raise ValueError(f"gain {expr} is not multilinear")
        mask = sum(b for b, e in zip(bits, mon) if e)
        raw.setdefault(mask, {})[mon[-1] if with_p else 0] = sp.sympify(c)
    vals = [c for d in raw.values() for c in d.values()]
    if any(c.free_symbols for c in vals):
        raise ValueError(f"gain {expr} is not polynomial in P")
    if all(c.is_Rational for c in vals):
        den = lcm(*[int(c.q) for c in vals]) if vals else 1
        conv = (lambda c: int(Fraction(int(c.p), int(c.q)) * den))
        zero = 0
    else:
        conv, zero = (lambda c: c), sp.S.Zero
    table = {}
    for mask, d in raw.items():
        deg = max(d)
        table[mask] = tuple(conv(d[k]) if k in d else zero for k in range(deg + 1))
    dep = 0
    for m in table:
        dep |= m
    return table, dep


def restrict(table: Table, one: int, zero: int) -> Table:
    """The table with the parameters of bitmask ``one`` set to 1 and ``zero`` to 0."""
    out: Table = {}
    for m, c in table.items():
        if m & zero:
            continue
        k = m & ~one
        out[k] = _add(out[k], c) if k in out else c
    return {m: c for m, c in out.items() if any(c)}


def vertex_values(table: Table, rest: int) -> list[Coeff]:
    """Values of a restricted table at every 0/1 vertex of the parameters in ``rest``
    (subset sums: the value at vertex ``v`` adds the monomials inside ``v``)."""
    pos = [b for b in range(rest.bit_length()) if rest >> b & 1]
    k = len(pos)
    f: list[Coeff] = [()] * (1 << k)
    for m, c in table.items():
        idx = sum(1 << j for j, b in enumerate(pos) if m >> b & 1)
        f[idx] = _add(f[idx], c)
    for j in range(k):
        bit = 1 << j
        for s in range(1 << k):
            if s & bit:
                f[s] = _add(f[s], f[s ^ bit])
    return f


def as_expr(c: Coeff, p: sp.Symbol | None) -> sp.Expr:
    return sp.Add(*[sp.sympify(a) * (p ** k if k else 1) for k, a in enumerate(c)])


_SIGNS: dict = {}


def signs(c: Coeff, p: sp.Symbol | None) -> frozenset[int]:
    """Signs the coefficient polynomial takes for some ``P > 0`` (its value when ``p`` is
    None: the pot is substituted)."""
    key = (c, p)
    out = _SIGNS.get(key)
    if out is None:
        nz = [a for a in c[1:] if a != 0]
        if not nz:
            a = c[0] if c else 0
            out = frozenset({(a > 0) - (a < 0)} if isinstance(a, int) else {pot_split.sign(a)})
        elif p is None:
            raise ValueError("a coefficient depends on P but no pot symbol was given")
        else:
            out = _signs_over_axis(as_expr(c, p), p)
        _SIGNS[key] = out
    return out


def _signs_over_axis(expr: sp.Expr, p: sp.Symbol) -> frozenset[int]:
    out = set()
    for pc in pot_split.pieces(pot_split.positive_roots(expr, p)):
        try:
            out.add(pot_split.sign(expr.subs(p, pc.sample)))
        except (TypeError, ZeroDivisionError):  # a pole
            continue
    return frozenset(out)
