"""Exact NashConv of a named profile at a rational pot in Fractions
(:func:`solvers.exact_profile.exact_values`: one sequence-form pass per player), fast enough
to certify every family of a whole-axis result in a test: the symbolic
:func:`solvers.symbolic.model.nash_conv.exact_nash_conv` enumerates 2^k own vertices per player."""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping

import sympy as sp

from pokerdyn.games import Game, GameError
from pokerdyn.solvers.exact_profile import Quadratic, exact_values, quadratic_values


def _fraction(e: Any) -> Fraction:
    from pokerdyn.games.exact_values import rational_of_float

    r = rational_of_float(e) if isinstance(e, float) else sp.sympify(e)
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


def quadratic_number(v: Any, root: sp.Expr) -> Quadratic:
    """The exact number ``v`` (a sympy expression in the square root ``root = sqrt(d)``, ``d``
    a square-free integer) as a :class:`solvers.exact_profile.Quadratic`."""
    e = sp.expand(sp.radsimp(sp.sympify(v)))
    b = e.coeff(root)
    a = sp.expand(e - b * root)
    if not (a.is_Rational and b.is_Rational):
        raise GameError(f"value {v} is not in QQ({root})")
    return Quadratic(Fraction(int(a.p), int(a.q)), Fraction(int(b.p), int(b.q)),
                     int(root.base))


def quadratic_profile(game: Game, pot: Any, point: Mapping[str, Any]) -> tuple[list, list]:
    """Exact payoffs and best-response values (:class:`Quadratic`) of the profile ``point``
    (name -> exact value in QQ(sqrt d) for one square-free integer ``d``, e.g. a point of a
    curve of equilibria at a rational value of its parameter), computed in that field
    (:func:`solvers.exact_profile.quadratic_values`)."""
    vals = {k: sp.radsimp(sp.sympify(v)) for k, v in point.items()}
    roots = {a for v in vals.values() for a in v.atoms(sp.Pow)
             if a.exp == sp.S.Half and a.base.is_Integer}
    if len(roots) > 1:
        raise GameError(f"values in more than one quadratic field: {sorted(map(str, roots))}")
    root = roots.pop() if roots else sp.sqrt(2)
    by_label = {s.label: s for s in game.infosets}
    probs = {s.label: (1,) + (0,) * (len(s.actions) - 1) for s in game.infosets}
    for prm in game.named:
        v = quadratic_number(vals[prm.name], root)
        k = list(by_label[prm.infoset].actions).index(prm.action)
        probs[prm.infoset] = tuple(v if j == k else 1 - v for j in range(2))
    return quadratic_values(game, [probs[s.label] for s in game.infosets],
                            exact_payoffs(game, pot), int(root.base))


def nash_conv_quadratic(game: Game, pot: Any, point: Mapping[str, Any]) -> Quadratic:
    """Exact NashConv of the profile ``point`` (:func:`quadratic_profile`)."""
    values, best = quadratic_profile(game, pot, point)
    return sum((b - v for b, v in zip(best, values)), Quadratic(0, 0, values[0].d))
