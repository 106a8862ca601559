"""Whether an exact point (values of some named parameters) lies in an equilibrium family
(:class:`solvers.symbolic.axis.piecewise.Solution`), for some value of its free parameters
within its constraints.

A family's formulas are quotients whose denominators are the pivots of the solver (Gambit's
``work2.efg``: ``x23 = (2 x21 - 3 x22 x24 + 2 x22) / (3 x21)`` with ``0 <= x21 <= 1``): where
a denominator vanishes the formulas say nothing, and the equilibria there are those of the
pivot's other branch, families of their own.  A point at such a pole is therefore not in the
family (the answer is False, never an undefined sign: ``nan`` or ``zoo`` reaching
:func:`solvers.symbolic.feasibility.algebraic.sign` is a ZeroDivisionError by design)."""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping

import sympy as sp

from pokerdyn.solvers.symbolic.feasibility import pot_split


def _exact(v: Any) -> sp.Expr:
    if isinstance(v, Fraction):
        return sp.Rational(v.numerator, v.denominator)
    return sp.sympify(v)


def _undefined(e: sp.Expr) -> bool:
    return bool(e.has(sp.nan, sp.zoo, sp.oo, -sp.oo))


def _holds(e: sp.Expr, strict: bool) -> bool:
    s = pot_split.sign(e)
    return s > 0 or (s == 0 and not strict)


def contains_point(sol: Any, point: Mapping[str, Any]) -> bool:
    """Is ``point`` (parameter name -> exact value: Fraction, int or sympy number; names
    the family does not fix are ignored) in the family ``sol`` for some value of its free
    parameters within its constraints (strict ones strict)?  A point where the family's
    formulas or constraints are undefined (a pole, 0/0) is not in it."""
    xs = [sp.Symbol(n, real=True) for n in sol.free]
    free = set(xs)
    eqs = []
    for name, expr in sol.strategy:
        if name not in point:
            continue
        e = sp.together(sp.sympify(expr) - _exact(point[name]))
        if not (e.free_symbols & free):
            if _undefined(e) or sp.simplify(e) != 0:
                return False
            continue
        eqs.append(sp.numer(e))
    solutions = [{}] if not eqs else sp.solve(eqs, xs, dict=True)
    for s in solutions:
        vals = [sp.sympify(v).xreplace(s) for _, v in sol.strategy]
        if any(_undefined(v) for v in vals):
            continue
        cons = [(sp.simplify(sp.sympify(e).xreplace(s)), strict) for e, strict in sol.raw]
        if any(_undefined(e) for e, _ in cons):
            continue  # a pole of the family's formulas: outside it
        left = sorted({x for e, _ in cons for x in e.free_symbols}, key=str)
        if not left:
            if all(_holds(e, strict) for e, strict in cons):
                return True
        elif pot_split.feasible(cons, left):
            return True
    return False


__all__ = ["contains_point"]
