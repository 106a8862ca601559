"""Supports solved with the pot ``P`` symbolic: one support (every parameter 0, 1 or mixed)
gives families whose values are rational in ``P`` and in their free parameters, valid on
exact intervals of the P axis.

The gains of every named parameter are computed once in the ring over QQ whose generators
are the parameters and ``P`` (:func:`pot_system`).  A support found at one pot (dominance
there and a learned limit's case string) becomes a case for *all* parameters: dominated
parameters keep their value as case (a) or (b), whose gain sign is now a constraint in ``P``
instead of a fact of that pot.  The indifference equations of the case (c) parameters are
solved over QQ(P) (:func:`solvers.symbolic.algebra.support_solve.solve_support` with ``p``); a branch that needs a
polynomial in ``P`` to vanish is a family of the roots of that polynomial only
(``Family.only_at``).

Where a family is valid: its constraints are rational in ``P`` and affine in the free
parameters; signs can change only at real roots of (i) the pure-P constraints' numerators and
denominators, (ii) the coefficients of the free parameters, (iii) the bound differences of
Fourier-Motzkin elimination of the free parameters (as :mod:`solvers.symbolic.axis.piecewise`
does for the case search), each root isolated exactly (:func:`solvers.symbolic.feasibility.pot_split.
positive_roots`).  Between consecutive critical values the family is present or absent as
a whole; presence is decided and certified at one rational sample pot by an exact rational
point with exact NashConv 0 in the full game (:func:`solvers.symbolic.model.sparse_gains.exact_nash_conv_at`).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping, Sequence

import numpy as np
import sympy as sp
from sympy.polys.rings import PolyRing

from pokerdyn.games import Game
from pokerdyn.games.strategy import param_symbols

from pokerdyn.solvers.symbolic.feasibility import pot_split
from pokerdyn.solvers.symbolic.model.conditions import Family, own_reach, pot_symbol
from pokerdyn.solvers.symbolic.model.nash_conv import payoffs_at
from pokerdyn.solvers.symbolic.model.sparse_gains import GainSystem, Gains, counterfactual_gains, exact_nash_conv_at, ring_payoffs
from pokerdyn.solvers.symbolic.families.geometry import Numeric, center, rational_point
from pokerdyn.solvers.symbolic.algebra.support_solve import SupportTimeout, deadline, solve_support

FM_SECONDS = 20.0  # Fourier-Motzkin of one family; past it only (i) and (ii) are used


@lru_cache(maxsize=4)
def pot_system(game: Game) -> GainSystem:
    """The payoffs of ``game`` as polynomials in its named parameters and ``P`` over QQ
    (``P`` the last generator)."""
    p = pot_symbol(game)
    syms = list(param_symbols(game).values())
    ring = PolyRing(syms + [p], sp.QQ)
    return GainSystem(game, p, ring, ring_payoffs(game, None, ring))


def at_pot(psys: GainSystem, pot: Any) -> GainSystem:
    """``psys`` with ``P`` set to the exact number ``pot`` (same ring, ``P`` constant)."""
    g = psys.ring.gens[-1]
    v = psys.ring.domain.convert(sp.Rational(pot))
    return GainSystem(psys.game, sp.Rational(pot), psys.ring,
                      tuple(f.subs(g, v) for f in psys.payoffs))


@lru_cache(maxsize=16)
def _conditions(psys: GainSystem, idle: frozenset) -> Gains:
    return counterfactual_gains(psys, {n: 0 for n in idle})


def idle_of(psys: GainSystem, fixed: Mapping[str, Any]) -> list[str]:
    """The parameters in ``fixed`` whose owner's own choices in ``fixed`` never reach them
    (any value is realization-equivalent: no condition)."""
    game = psys.game
    return [prm.name for prm in game.named if prm.name in fixed and not psys.fix(
        psys.element(own_reach(game, game.infoset_index(prm.infoset))), fixed)]


def full_case(names: Sequence[str], fixed: Mapping[str, Any], idle: Sequence[str],
              free: Sequence[str], case: str) -> str:
    """The case letter of every parameter but the ``idle`` ones (in ``names`` order): a
    dominated parameter's value as (a) or (b), the others from ``case`` (over ``free``)."""
    letter = dict(zip(free, case))
    return "".join(letter[n] if n in letter else "a" if fixed[n] == 1 else "b"
                   for n in names if n not in idle)


def support_families(psys: GainSystem, idle: Sequence[str], case: str,
                     near: Mapping[str, float] | None = None,
                     seconds: float | None = 20.0) -> list[Family]:
    """The families of one support (``case`` over every non-``idle`` parameter, idle ones
    0) with ``P`` symbolic; ``near`` (a learned limit, ``P`` included) picks among solution
    branches as in :func:`solvers.symbolic.algebra.support_solve.solve_support`."""
    gains = _conditions(psys, frozenset(idle))
    p = psys.pot
    with deadline(seconds):
        fams = solve_support(gains.conditions, case, {n: 0 for n in idle}, psys.names,
                             {**(near or {})}, p=p)
    return fams


def _pure_p(e: sp.Expr, p: sp.Symbol) -> bool:
    return bool(e.free_symbols) and not (e.free_symbols - {p})


def critical_polys(fam: Family, p: sp.Symbol, fm_seconds: float = FM_SECONDS
                   ) -> list[sp.Expr]:
    """The polynomials in ``P`` whose real roots can change ``fam``'s status: pure-P
    constraints, coefficients of the free parameters, Fourier-Motzkin bound differences
    (within ``fm_seconds``; signs of coefficients taken at sample points of the pieces),
    the ``only_at`` polynomials.  Each is returned as numerator and denominator factors."""
    xs = fam.free_symbols()
    exprs: list[sp.Expr] = list(fam.only_at)
    for e, _ in fam.constraints:
        if _pure_p(e, p):
            exprs.append(e)
            continue
        try:
            coeffs, rest = pot_split._affine(e, xs)
        except ValueError:
            continue
        exprs += [c for c in coeffs if p in c.free_symbols]
    if xs and fm_seconds:
        exprs += _fm_differences(fam, p, exprs, fm_seconds)
    out: list[sp.Expr] = []
    for e in exprs:
        num, den = sp.fraction(sp.together(e))
        for part in (num, den):
            part = sp.expand(part)
            if p in part.free_symbols and not (part.free_symbols - {p}):
                out += [f for f, _ in sp.factor_list(part)[1] if p in f.free_symbols]
    uniq: dict[str, sp.Expr] = {}
    for f in out:
        f = sp.Poly(f, p).monic().as_expr()
        uniq.setdefault(sp.srepr(f), f)
    return list(uniq.values())


def _fm_differences(fam: Family, p: sp.Symbol, known: Sequence[sp.Expr],
                    seconds: float) -> list[sp.Expr]:
    """Bound differences of Fourier-Motzkin elimination on each piece cut by ``known``."""
    xs = fam.free_symbols()
    pts = [r for e in known for r in pot_split.positive_roots(e, p)] if known else []
    derived: list = []
    try:
        with deadline(seconds):
            for pc in pot_split.pieces(pts):
                if pc.is_point:
                    continue
                d: list = []
                pot_split.eliminate(fam.constraints, xs,
                                 lambda c, s=pc.sample: pot_split.sign(c.xreplace({p: s})), d)
                derived += [x for x in d if _pure_p(x, p)]
    except (SupportTimeout, ValueError, TypeError):
        pass
    return derived


def roots_in(polys: Sequence[sp.Expr], p: sp.Symbol, low: sp.Expr, high: sp.Expr
             ) -> list[tuple[sp.Expr, sp.Expr]]:
    """(root, polynomial) for every exact real root of ``polys`` strictly inside (low, high)."""
    out = []
    for f in polys:
        for r in pot_split.positive_roots(f, p):
            if pot_split.sign(r - low) > 0 and pot_split.sign(high - r) > 0:
                out.append((r, f))
    return out


def at_value(fam: Family, p: sp.Symbol, value: sp.Expr) -> Family | None:
    """``fam`` with ``P = value`` substituted (None if it has no members there: an
    ``only_at`` polynomial does not vanish, a pure-P constraint fails, or a pole)."""
    sub = {p: value}
    if any(pot_split.sign(sp.sympify(e).xreplace(sub)) != 0 for e in fam.only_at):
        return None
    cons = []
    for e, s in fam.constraints:
        try:
            v = sp.cancel(e.xreplace(sub))
        except ZeroDivisionError:
            return None
        if v.has(sp.zoo, sp.nan, sp.oo):
            return None
        if not v.free_symbols:
            sg = pot_split.sign(v)
            if sg < 0 or (sg == 0 and s):
                return None
            continue
        cons.append((v, s))
    strat = []
    for n, v in fam.strategy:
        w = sp.cancel(sp.sympify(v).xreplace(sub))
        if w.has(sp.zoo, sp.nan, sp.oo):
            return None
        strat.append((n, w))
    return Family(tuple(strat), fam.free, tuple(cons), fam.cases)


def certify_at(psys: GainSystem, fam: Family, value: sp.Expr,
               near: Sequence[np.ndarray] = ()) -> dict | None:
    """An exact rational point of ``fam`` at the rational pot ``value`` whose exact NashConv
    in the full game is 0 (tried at the ``near`` free-parameter values, then at the
    family's centre), or None."""
    f = at_value(fam, psys.pot, value)
    if f is None:
        return None
    num = Numeric(f, psys.names)
    sysv = at_pot(psys, value)
    for th in list(near) + [center(num) if num.free else np.zeros(0)]:
        q = rational_point(num, np.asarray(th, float))
        if q is not None and exact_nash_conv_at(sysv, q) == 0:
            return q
    return None


def payoffs_of(psys: GainSystem, fam: Family) -> tuple[sp.Expr, ...]:
    """Closed-form payoffs of the family in ``P`` and its free parameters."""
    syms = param_symbols(psys.game)
    pays = payoffs_at(psys.game, None)
    sub = {syms[n]: sp.sympify(v) for n, v in fam.strategy}
    return tuple(sp.factor(sp.cancel(E.xreplace(sub))) for E in pays)


@dataclass(frozen=True)
class Segment:
    """Where one family is valid: the open interval ``(low, high)`` (``low == high``: the
    single pot ``low``), the polynomials whose roots the ends are (None at the scan's own
    ends), and the certified point at its sample pot."""

    low: sp.Expr
    high: sp.Expr
    low_poly: sp.Expr | None
    high_poly: sp.Expr | None
    sample: sp.Expr
    point: dict

    def as_set(self) -> sp.Set:
        return sp.FiniteSet(self.low) if self.low == self.high else \
            sp.Interval.open(self.low, self.high)


def segments(psys: GainSystem, fam: Family, low: sp.Expr, high: sp.Expr,
             near: Mapping[sp.Expr, Sequence[np.ndarray]] | None = None) -> list[Segment]:
    """The certified pieces of ``[low, high]`` on which ``fam`` is valid: open intervals
    between consecutive critical values (adjacent valid intervals joined when the value
    between them is valid too), and isolated critical values (``only_at`` families)."""
    p = psys.pot
    polys = critical_polys(fam, p)
    cuts = roots_in(polys, p, low, high)
    if fam.only_at:
        out = []
        for r, f in cuts:
            if r.is_Rational and (q := certify_at(psys, fam, r)) is not None:
                out.append(Segment(r, r, f, f, r, q))
        for r in ([low] if low == high else [low, high]):
            if all(pot_split.sign(sp.sympify(e).xreplace({p: r})) == 0 for e in fam.only_at) \
                    and (q := certify_at(psys, fam, r)) is not None:
                out.append(Segment(r, r, None, None, r, q))
        return out
    pts = pot_split.merge_points([r for r, _ in cuts])
    poly_of = {sp.srepr(r): f for r, f in cuts}
    ends = [low] + pts + [high]
    out: list[Segment] = []
    for a, b in zip(ends, ends[1:]):
        s = pot_split.rational_between(a, b)
        cand = [th for v, ths in (near or {}).items()
                if pot_split.sign(v - a) > 0 and pot_split.sign(b - v) > 0 for th in ths]
        q = certify_at(psys, fam, s, cand[:2])
        if q is None:
            continue
        lp = poly_of.get(sp.srepr(a))
        if out and out[-1].high == a and at_value(fam, p, a) is not None:
            prev = out.pop()
            out.append(Segment(prev.low, b, prev.low_poly, poly_of.get(sp.srepr(b)),
                               prev.sample, prev.point))
        else:
            out.append(Segment(a, b, lp, poly_of.get(sp.srepr(b)), s, q))
    return out
