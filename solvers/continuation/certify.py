"""Exact NashConv of a continuation point: the frequencies and the pot rounded to rationals,
then every player's expected payoff and best-response value in ``fractions.Fraction``
arithmetic over the tree (:func:`solvers.exact_profile.integer_values`: Python integers over
common denominators).  The result is the exact NashConv *of the rounded point*: a bound on how
far that exact profile is from equilibrium, not a float estimate of it."""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Sequence

import sympy as sp

from pokerdyn.games import GameError

from pokerdyn.solvers.exact_profile import integer_values, rational

from pokerdyn.solvers.continuation.system import IndifferenceSystem

DENOMINATOR = 10**12  # rounding of the frequencies and the pot


def _exact(e, sub: dict) -> Fraction:
    if isinstance(e, sp.Basic):
        r = e.xreplace(sub)
        if not r.is_Rational:
            raise GameError(f"payoff {e} is not rational at {sub}")
        return Fraction(int(r.p), int(r.q))
    return rational(e)


def _exact_tables(system: IndifferenceSystem) -> tuple[list, list, int]:
    """The exact payoffs at parameter 0 and their slope, from the game's own (sympy)
    payoffs (the compiled floats are not exact enough to recover them), as integer
    numerators ``(a, b)`` over one common denominator ``d``: payoff ``(a + p b) / d``."""
    got = system.cg.cache.get("continuation_exact")
    if got is None:
        game, cg = system.game, system.cg
        base = {s: sp.Rational(str(rational(cg.values[s.name]))) for s in game.params}
        psym = next(s for s in game.params if s.name == system.param)
        rows = []
        for at in (0, 1):
            sub = {**base, psym: sp.Integer(at)}
            rows.append([[_exact(u, sub) for u in row] for row in game.payoffs])
        pay0 = rows[0]
        dpay = [[b - a for a, b in zip(r0, r1)] for r0, r1 in zip(*rows)]
        d = math.lcm(*(f.denominator for r in (*pay0, *dpay) for f in r))
        got = ([[f.numerator * (d // f.denominator) for f in r] for r in pay0],
               [[f.numerator * (d // f.denominator) for f in r] for r in dpay], d)
        cg.cache["continuation_exact"] = got
    return got


def round_point(x: Sequence[float], p: float, den: int = DENOMINATOR
                ) -> tuple[list[Fraction], Fraction]:
    """Frequencies clipped to [0, 1] and the pot, as Fractions of denominator ``den``."""
    fx = [Fraction(round(min(1.0, max(0.0, float(v))) * den), den) for v in x]
    return fx, Fraction(round(float(p) * den), den)


def exact_regrets(system: IndifferenceSystem, x: Sequence[Fraction], p: Fraction
                  ) -> list[Fraction]:
    """Each player's exact best-response gain at frequencies ``x`` and pot ``p``
    (solvers.exact_profile.integer_values on the exact payoffs at ``p``, everything over
    common denominators)."""
    game = system.game
    a0, b0, d = _exact_tables(system)
    pn, pd = p.numerator, p.denominator
    pays = [[u * pd + du * pn for u, du in zip(r0, r1)] for r0, r1 in zip(a0, b0)]
    den = math.lcm(*(v.denominator for v in x)) if len(x) else 1
    sig = [(den,) + (0,) * (len(s.actions) - 1) for s in game.infosets]
    for I, v in zip(system.sets, x):
        k = v.numerator * (den // v.denominator)
        sig[int(I)] = (den - k, k)
    values, best = integer_values(game, sig, den, pays, d * pd)
    return [b - v for b, v in zip(best, values)]


def certify(system: IndifferenceSystem, x: Sequence[float], p: float,
            den: int = DENOMINATOR) -> dict:
    """Exact NashConv of the point rounded to denominator ``den``: ``{"pot", "nash_conv"
    (a float of the exact value), "nash_conv_exact" (its fraction as a string)}``."""
    fx, fp = round_point(x, p, den)
    # a support passed at one pot ends where the next begins: the same rounded point
    memo = system.cg.cache.setdefault("continuation_certificates", {})
    key = (tuple(fx), fp)
    if key not in memo:
        nc = sum(exact_regrets(system, fx, fp), Fraction(0))
        if len(memo) > 4096:
            memo.clear()
        memo[key] = {"pot": float(fp), "nash_conv": float(nc), "nash_conv_exact": str(nc)}
    return dict(memo[key])


__all__ = ["certify", "exact_regrets", "round_point"]
