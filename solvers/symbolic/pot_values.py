"""Exact pot values from user input: ``"19/2"``, ``"2.5"`` (= 5/2), ``"(5+sqrt(73))/2"``
(Billingham's P*), numbers; one clear error for anything that is not a positive real."""
from __future__ import annotations

from typing import Any

import sympy as sp

from games import GameError
from solvers.symbolic import algebraic


_CHARS = set("0123456789.eE+-*/() ")


def exact_pot(pot: Any) -> sp.Expr:
    """An exact positive real pot from a number or a string (``"19/2"``, ``"2.5"`` = 5/2,
    ``"(5+sqrt(73))/2"``); GameError naming the value and the allowed range otherwise (not
    a number, NaN, infinite, complex, or not > 0)."""
    rng = "the allowed range (0, inf)"
    shown = pot.strip() if isinstance(pot, str) else pot
    if isinstance(pot, str):
        # numbers, + - * / ** ( ) and sqrt only: sympify evaluates what it is given, and
        # reads forms such as 0x10 that are no pot anyone means
        if not set(shown.replace("sqrt", "")) <= _CHARS and \
                shown.lower().lstrip("+-") not in ("nan", "inf", "infinity"):
            raise GameError(f"pot={shown!r} is not a number; {rng} holds reals and exact "
                            "expressions such as 19/2 or (5+sqrt(73))/2")
        try:
            v = sp.sympify(shown, rational=True, locals={"sqrt": sp.sqrt})
        except (sp.SympifyError, SyntaxError, TypeError, ValueError, AttributeError):
            v = None
        special = shown.lower().lstrip("+-") in ("nan", "inf", "infinity")
        if special:  # sympify reads these as symbols; float() reads them as non-finite
            v = sp.nan
        elif not isinstance(v, sp.Expr) or v.free_symbols:
            raise GameError(f"pot={shown!r} is not a number; {rng} holds reals and exact "
                            "expressions such as 19/2 or (5+sqrt(73))/2")
    elif isinstance(pot, float):
        v = sp.nan if pot != pot else sp.oo if pot == float("inf") else -sp.oo \
            if pot == float("-inf") else sp.nsimplify(repr(pot), rational=True)
    else:
        v = sp.sympify(pot)
    if not v.is_number or v.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
        raise GameError(f"pot={shown} is outside {rng}")
    if v.is_real is False or (v.is_real is None and abs(sp.N(sp.im(v), 30)) > 1e-25):
        raise GameError(f"pot={shown} is not real; {rng} holds reals only")
    if v.is_real is None:
        v = sp.re(v)
    if algebraic.sign(v) <= 0:
        raise GameError(f"pot={shown} is outside {rng}")
    return v
