"""Exact NashConv of a named profile at a rational pot in Fractions
(:func:`solvers.exact_profile.exact_values`: one sequence-form pass per player), fast enough
to certify every family of a whole-axis result in a test: the symbolic
:func:`solvers.symbolic.nash_conv.exact_nash_conv` enumerates 2^k own vertices per player."""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping

import sympy as sp

from games import Game, GameError
from solvers.exact_profile import exact_values


def _fraction(e: Any) -> Fraction:
    r = sp.nsimplify(e) if isinstance(e, float) else sp.sympify(e)
    if not r.is_Rational:
        raise GameError(f"value {e} is not rational")
    return Fraction(int(r.p), int(r.q))


def exact_payoffs(game: Game, pot: Any) -> list[list[Fraction]]:
    """The terminal payoffs at the exact pot ``pot`` as Fractions."""
    sub = {s: sp.sympify(pot) for s in game.params if s.name == "P"}
    return [[_fraction(sp.sympify(u).xreplace(sub)) for u in row] for row in game.payoffs]


def nash_conv_fraction(game: Game, pot: Any, point: Mapping[str, Any],
                       payoffs: list | None = None) -> Fraction:
    """Exact NashConv of the profile ``point`` (name -> rational value of every named
    parameter; unnamed two-action sets play their first action)."""
    sig = {s.label: (Fraction(1),) + (Fraction(0),) * (len(s.actions) - 1)
           for s in game.infosets}
    by_label = {s.label: s for s in game.infosets}
    for prm in game.named:
        v = _fraction(point[prm.name])
        acts = list(by_label[prm.infoset].actions)
        k = acts.index(prm.action)
        sig[prm.infoset] = tuple(v if j == k else 1 - v for j in range(2))
    values, best = exact_values(game, sig, payoffs or exact_payoffs(game, pot))
    return sum((b - v for b, v in zip(best, values)), Fraction(0))
