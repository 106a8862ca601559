"""Exact parameter values: ``"15/2"``, ``"7.5"``, ``9`` or a sympy number -> sympy Rational,
checked against the game's domains (for exact payoffs, export and dominance at a fixed pot)."""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Mapping

import numpy as np
import sympy as sp

from pokerdyn.games.compiled import check_values
from pokerdyn.games.tree import Game, GameError


FLOAT_DENOMINATOR = 10**9


def rational_of_float(x: float) -> sp.Rational:
    """The one float -> exact rational rule of the package: the rational of denominator at
    most FLOAT_DENOMINATOR whose nearest float ``x`` is (3/95 from the builder's
    card-removal weights, 0.1 -> 1/10, 2.5 -> 5/2), else the shortest decimal that prints
    as ``x``.  ``x`` must be finite (ValueError else: a caller's NaN is its own error)."""
    x = float(x)
    if not math.isfinite(x):
        raise ValueError(f"{x} is not a finite number")
    f = Fraction(x).limit_denominator(FLOAT_DENOMINATOR)
    if float(f) == x:
        return sp.Rational(f.numerator, f.denominator)
    return sp.Rational(repr(x))


def exact_number(x: Any, what: str = "value") -> sp.Rational:
    """``x`` as an exact rational: strings like ``"15/2"`` or ``"7.5"``, ints, floats and
    sympy rationals; else GameError naming the value.  A float is
    :func:`rational_of_float` of it.  (Pots, which may be irrational such as
    ``(5+sqrt(73))/2``, are read by :func:`solvers.symbolic.model.pot_values.exact_pot`.)"""
    if isinstance(x, (float, np.floating)) and math.isfinite(x):
        return rational_of_float(x)
    if isinstance(x, sp.Basic):
        if x.is_Rational:
            return x
        if x.is_number and x.is_finite:
            return sp.nsimplify(x, rational=True)
    try:
        text = repr(float(x)) if isinstance(x, float) else str(x).strip()
        value = sp.Rational(text)
    except (TypeError, ValueError, SyntaxError, AttributeError):
        raise GameError(f"{what}={x!r} is not a number") from None
    return value


def exact_values(game: Game, values: Mapping[str, Any]) -> dict[str, sp.Rational]:
    """Every game parameter as an exact rational (``values`` or the game's defaults), checked
    against the domains like :func:`games.compiled.check_values`."""
    names = game.param_names
    exact = {k: exact_number(v, k) for k, v in values.items()}
    exact.update({k: exact_number(game.defaults[k], k) for k in names
                  if k not in exact and k in game.defaults})
    check_values(game, exact)
    return {k: exact[k] for k in names}


def exact_value(game: Game, expr: Any, subs: Mapping[str, sp.Rational]) -> sp.Rational:
    """A payoff or probability of ``game`` (number or sympy expression) at exact ``subs``."""
    if isinstance(expr, sp.Basic):
        v = expr.subs({s: subs[s.name] for s in game.params if s.name in subs})
        if not v.is_Rational:
            raise GameError(f"{expr} is not a rational number at {dict(subs)}")
        return v
    return exact_number(expr.item() if hasattr(expr, "item") else expr)


def domain_interval(game: Game, name: str = "P") -> sp.Interval:
    """The domain of game parameter ``name`` as an exact sympy Interval."""
    dom = game.domains.get(name)
    if dom is None:
        return sp.Interval(-sp.oo, sp.oo)
    lo = -sp.oo if dom.low == float("-inf") else rational_of_float(dom.low)
    hi = sp.oo if dom.high == float("inf") else rational_of_float(dom.high)
    return sp.Interval(lo, hi, dom.low_open, dom.high_open)


__all__ = ["domain_interval", "exact_number", "rational_of_float", "exact_value", "exact_values"]
