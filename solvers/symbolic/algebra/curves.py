"""Curves of equilibria at a fixed pot: one-parameter families whose values are algebraic,
not rational, in their parameter.

A support's indifference equations can have a one-dimensional solution set on which no
unknown is a rational function of another: 3-player Kuhn poker at ``P = 4`` has a support
whose 13 bilinear equations form one block with such a curve (README, issue 14).  Over the
rational numbers a Groebner basis of that block does not finish in minutes
(:mod:`solvers.symbolic.algebra.positive_dimensional`), and the triangular solver's pivots swell; over
the field ``QQ(u)`` of one unknown ``u`` it takes seconds: the block is zero-dimensional
there.

Method, for each unknown ``u`` of the block in turn (within ``seconds`` each):

1. a grevlex basis over ``QQ(u)``, then lex by FGLM; a basis ``(1)`` means ``u`` is constant
   on every solution, a positive-dimensional one that the set has dimension > 1 where ``u``
   varies (not handled here, counted in ``skipped``; :mod:`.surfaces` screens such
   components, :func:`solvers.symbolic.learned.equilibrium_set.follow_curves` calls it);
2. the lex basis solved back over ``QQ(u)`` (``algebra.groebner._back`` with ``u`` in the
   role of the pot): linear factors give rational functions of ``u``, one irreducible
   quadratic gives ``sqrt(R(u))`` (:mod:`solvers.symbolic.feasibility.radical`); every branch
   is checked exactly against the equations;
3. the parts of ``[0, 1]`` in ``u`` where the branch is an equilibrium (each value in
   ``[0, 1]``, the sign conditions of the pure frequencies of the support) between exact
   algebraic ends (the real roots of every constraint, ``pot_split.positive_roots``);
4. each part certified at a rational ``u`` inside it by an exact NashConv of 0 in the full
   game, computed in ``QQ(sqrt R(u))`` (``model.nash_conv_fraction.nash_conv_quadratic``).

A curve found with one ``u`` is found again with every other unknown that varies on it; a
branch whose points lie on a curve already found is dropped.  Components on which every
unknown is constant (points) are not looked for here; the block's other solvers find them.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

import numpy as np
import sympy as sp

from pokerdyn.games import Game
from pokerdyn.solvers.symbolic.feasibility import pot_split
from pokerdyn.solvers.symbolic.model.conditions import Condition
from pokerdyn.solvers.symbolic.algebra import exceptional_pots, groebner
from pokerdyn.solvers.symbolic.feasibility import radical
from pokerdyn.solvers.symbolic.model.nash_conv_fraction import quadratic_profile
from pokerdyn.solvers.symbolic.model.nash_conv import payoffs_at
from pokerdyn.solvers.symbolic.algebra import surfaces
from pokerdyn.solvers.symbolic.algebra.support_solve import SupportTimeout, blocks, case_equations, deadline

SECONDS = 60.0  # per unknown tried as the curve's parameter, per stage (basis, back-solve)
BUDGET = 120.0  # per block: unknowns not tried by then are reported
SAMPLES = 400  # points per part for distances and payoff ranges


@dataclass(frozen=True)
class Curve:
    """A curve of equilibria of one support at one pot: every case-(c) unknown of the
    support as an exact expression in the ``parameter`` ``u`` (and ``radicand``'s square
    root), an equilibrium for ``u`` in each of ``parts`` (closed intervals, exact ends), each
    part certified at ``certificates[i]`` (``u``, the exact NashConv 0 there, the players'
    exact payoffs there)."""

    case: str
    u: sp.Symbol
    values: tuple[tuple[str, sp.Expr], ...]
    radicand: sp.Expr | None
    parts: tuple[tuple[sp.Expr, sp.Expr], ...]
    certificates: tuple[dict, ...]
    others: tuple[tuple[str, sp.Expr], ...] = ()  # the support's pure and dominated values
    payoff_range: tuple[tuple[float, float], ...] = ()  # per player, over the sampled parts
    neighbours: tuple[str, ...] = ()  # the supports at the parts' ends (:func:`_neighbours`)

    @property
    def parameter(self) -> str:
        return self.u.name

    def points(self, n: int = SAMPLES) -> list[dict[str, float]]:
        """``n`` profiles (every named parameter -> float) along each part, ends included
        (the square root of a radicand rounded below 0 at an end read as 0)."""
        fs = [(k, sp.lambdify(self.u, v, "mpmath")) for k, v in self.values]
        rest = {k: float(v) for k, v in self.others}
        out = []
        for lo, hi in self.parts:
            for t in np.linspace(float(lo), float(hi), n):
                out.append({**rest, **{k: float(complex(f(t)).real) for k, f in fs}})
        return out


def sampled_payoffs(game: Game, pot: Any, curve: Curve, n: int = SAMPLES
                    ) -> tuple[list[dict[str, float]], np.ndarray]:
    """The curve's :meth:`Curve.points` and the players' payoffs there (floats)."""
    pays = payoffs_at(game, pot)
    syms = sorted({s for e in pays for s in e.free_symbols}, key=lambda s: s.name)
    fs = [sp.lambdify([syms], e) for e in pays]
    pts = curve.points(n)
    return pts, np.array([[f([pt.get(s.name, 0.0) for s in syms]) for f in fs] for pt in pts])


class Note(str):
    """A note on an unknown the curve solver skipped; ``surface`` is True where the reason is
    a component of dimension > 1 (:func:`solvers.symbolic.learned.equilibrium_set.follow_curves` screens those with
    :mod:`.surfaces`), so callers test the flag, not the text."""

    surface: bool

    def __new__(cls, text: str, surface: bool = False) -> "Note":
        note = super().__new__(cls, text)
        note.surface = surface
        return note


def branches(eqs: Sequence[sp.Expr], xs: Sequence[sp.Symbol], seconds: float = SECONDS,
             budget: float = BUDGET, only: Sequence[str] | None = None
             ) -> tuple[list[tuple[sp.Symbol, dict]], list[str]]:
    """The one-dimensional components of ``eqs = 0`` on which some unknown varies, as
    ``(u, {x: value in u})`` (steps 1 and 2 of the module docstring), and the unknowns not
    decided: basis not computed or not solved back within ``seconds`` (each), dimension
    > 1, or not tried within ``budget`` seconds in all (after the ordering).  The unknowns
    are tried in the order of the time their basis takes at one rational value of ``u``
    (:func:`_order`); ``only``: the names of the unknowns to try, in that order."""
    eqs = [sp.expand(e) for e in eqs]
    out: list[tuple[sp.Symbol, dict]] = []
    skipped: list[str] = []
    order = _order(eqs, xs) if only is None else [x for n in only for x in xs if x.name == n]
    t0 = time.process_time()
    for u in order:
        if time.process_time() - t0 > budget:
            skipped.append(f"{u}: not tried (budget of {budget:g} s spent)")
            continue
        vs = [x for x in xs if x != u]
        lex = surfaces.lex_basis(eqs, vs, (u,), seconds)
        if isinstance(lex, str):  # surfaces.UNIT, POSITIVE or TIMEOUT
            if lex == surfaces.POSITIVE:
                skipped.append(Note(f"{u}: dimension > 1", surface=True))
            elif lex != surfaces.UNIT:
                skipped.append(f"{u}: basis not computed in {seconds:g} s")
            continue
        try:
            with deadline(seconds):  # the back-substitution has its own budget
                found = groebner._back(list(lex.exprs), vs, {}, u)
        except SupportTimeout:
            skipped.append(f"{u}: basis not solved back in {seconds:g} s")
            continue
        for b in found:
            b = {**b, u: u}
            if all(radical.is_zero(sp.together(e.xreplace(b)), u) for e in eqs) and \
                    not any(_on(b, u, w, c) for w, c in out):
                out.append((u, b))
    return out, skipped


PROXY_SECONDS = 2.0


def _order(eqs: list, xs: Sequence[sp.Symbol]) -> list[sp.Symbol]:
    """The unknowns by the time a grevlex basis of the block takes with ``u = 3/7`` (a
    cheap proxy for the basis over ``QQ(u)``: 0.2 s against 10 s and more for the kuhn3
    blocks at P = 4); those not done in ``PROXY_SECONDS`` last."""
    cost = {}
    for u in xs:
        t = time.process_time()
        try:
            with deadline(PROXY_SECONDS):
                sp.groebner([e.xreplace({u: sp.Rational(3, 7)}) for e in eqs],
                            *[x for x in xs if x != u], order="grevlex")
            cost[u] = time.process_time() - t
        except SupportTimeout:
            cost[u] = float("inf")
    return sorted(xs, key=lambda u: cost[u])


def _on(b: dict, u: sp.Symbol, w: sp.Symbol, c: dict) -> bool:
    """The branch ``b`` (parameter ``u``) lies on the curve ``c`` (parameter ``w``): at three
    real points of ``b``, ``c`` at the same ``w`` has the same values (30 digits).  The
    points are sought on a grid of ``u`` in (0, 1): a branch with a square root can be real
    on a short interval only (kuhn3 at P = 4: x2_Q_k_b in [0.0346, 0.0375])."""
    ts = [sp.Rational(k, 7) for k in (1, 3, 5)] + [sp.Rational(2, 9)]
    root = radical.radical_of(b.values(), u)
    if root is not None:
        f = sp.lambdify(u, root.base)
        real = [k for k in range(1, GRID) if f(k / GRID) > 0]
        ts = [sp.Rational(real[i], GRID) for i in sorted({0, len(real) // 3, len(real) // 2,
                                                         2 * len(real) // 3, len(real) - 1})
              ] if real else []
    hits = 0
    for t in ts:
        pb = {x: sp.N(v.xreplace({u: t}), 30) for x, v in b.items()}
        if any(not v.is_real for v in pb.values()):
            continue
        if not any(_same(pb, {x: sp.N(v.xreplace({w: pb[w]}), 30) for x, v in br.items()})
                   for br in _conjugates(c, w)):
            return False
        hits += 1
        if hits == 3:
            return True
    return False


def _same(p: dict, q: dict) -> bool:
    return all(v.is_real and abs(v - p[x]) <= 1e-20 for x, v in q.items())


def _conjugates(c: dict, w: sp.Symbol) -> list[dict]:
    """The branch ``c`` and, if it has a square root in ``w``, its conjugate (the other
    branch of the same curve: a point of a branch found with another parameter can lie on
    either)."""
    root = radical.radical_of(c.values(), w)
    if root is None:
        return [c]
    return [c, {x: v.xreplace({root: -root}) for x, v in c.items()}]


def support_curves(game: Game, pot: Any, conds: Sequence[Condition], case: str,
                   fixed: Mapping[str, Any], seconds: float = SECONDS,
                   budget: float = BUDGET, only: Sequence[str] | None = None
                   ) -> tuple[list[Curve], list[str]]:
    """The certified curves of equilibria of the support ``case`` at the rational ``pot``
    (``conds``: the counterfactual gains after dominance, ``fixed``: the dominated
    parameters' values), from its one block with a curve, and what was skipped (``only``:
    the unknowns tried as the parameter, :func:`branches`)."""
    pot = sp.Rational(pot)
    pv, xs, eqs = case_equations(conds, case)
    out: list[Curve] = []
    skipped: list[str] = []
    parts_of = blocks(eqs, xs)
    for beqs, bxs in parts_of:
        if len(bxs) < 2:
            continue
        bxs = sorted(bxs, key=xs.index)  # the case's order: Buchberger's time depends on it
        found, skip = branches(beqs, bxs, seconds, budget, only)
        skipped += skip
        rest = [(e, x) for e, x in parts_of if set(x) != set(bxs)]
        if rest and found:
            skipped.append(f"{len(rest)} other blocks with the curve of {len(bxs)} unknowns: "
                           "not combined")
            continue
        for u, b in found:
            try:
                out += _curve(game, pot, conds, case, fixed, pv, u, b)
            except (NotImplementedError, ValueError, sp.PolynomialError) as err:
                # a branch with an irrational constant (sympy's EX domain) or a root it
                # cannot order: reported, not dropped silently
                skipped.append(f"{u}: a branch not decided ({type(err).__name__}: "
                               f"{str(err)[:80]})")
    return out, skipped


def _constraints(conds: Sequence[Condition], case: str, pv: dict, b: dict) -> list:
    cons = []
    for c, k in zip(conds, case):
        if k == "c":
            v = b[c.symbol]
            cons += [(v, False), (1 - v, False)]
        else:
            e = c.gradient.xreplace(pv).xreplace(b)
            cons.append((-e if k == "b" else e, False))
    return cons


def _curve(game, pot, conds, case, fixed, pv, u, b) -> list[Curve]:
    cons = [(sp.together(e), s) for e, s in _constraints(conds, case, pv, b)]
    if any(u not in e.free_symbols and pot_split.sign(e) < 0 for e, _ in cons):
        return []  # a constant out of range (kuhn3 at P = 4: x1_A_0_b = 2 on two branches
        # with sqrt 223, whose other constraints sympy cannot root-order)
    cons = [(e, s) for e, s in cons if u in e.free_symbols]
    points = [sp.S.Zero, sp.S.One]
    for e, _ in cons:
        points += [r for r in pot_split.positive_roots(e, u) if
                   pot_split.sign(r - 1) < 0]
    for den in {sp.denom(sp.together(v)) for v in b.values()}:
        points += [r for r in pot_split.positive_roots(den, u) if pot_split.sign(r - 1) < 0] \
            if u in den.free_symbols else []
    points = pot_split.merge_points(points)
    parts = []
    for lo, hi in zip(points, points[1:]):
        if exceptional_pots._holds_at(cons, [], u, pot_split.rational_between(lo, hi)):
            if parts and pot_split.sign(parts[-1][1] - lo) == 0:
                parts[-1] = (parts[-1][0], hi)
            else:
                parts.append((lo, hi))
    root = radical.radical_of(b.values(), u)
    certs, kept = [], []
    names = [p.name for p in game.named]
    base = {**{k: sp.Rational(v) for k, v in fixed.items()},
            **{s.name: v for s, v in pv.items()}}
    for lo, hi in parts:
        t = pot_split.rational_between(lo, hi)
        point = {**base, **{s.name: sp.radsimp(v.xreplace({u: t})) for s, v in b.items()}}
        point = {n: point.get(n, sp.S.Zero) for n in names}
        values, best = quadratic_profile(game, pot, point)  # NashConv and payoffs in one pass
        if any(b != v for b, v in zip(best, values)):  # best >= value: NashConv 0 iff equal
            continue
        certs.append({"parameter": t, "nash_conv": sp.S.Zero,
                      "payoffs": tuple(sp.Rational(v.a) + sp.Rational(v.b) * sp.sqrt(v.d)
                                       for v in values)})
        kept.append((lo, hi))
    if not kept:
        return []
    vals = tuple(sorted((s.name, v) for s, v in b.items()))
    others = tuple(sorted((k, v) for k, v in base.items() if k not in dict(vals)))
    curve = Curve(case, u, vals, None if root is None else root.base, tuple(kept), tuple(certs),
                  others)
    _, pay = sampled_payoffs(game, pot, curve)
    return [replace(curve, payoff_range=tuple((float(lo), float(hi))
                                              for lo, hi in zip(pay.min(0), pay.max(0))),
                    neighbours=_neighbours(conds, case, pv, u, b, kept))]


GRID = 1000  # points of (0, 1) where a branch is compared with the curves already found
TIGHT = 1e-25  # |value| at an end (40 digits) below which a bound or a gain is reached


def _neighbours(conds, case: str, pv: dict, u: sp.Symbol, b: dict, parts) -> tuple[str, ...]:
    """The supports next to the curve at the ends of its parts: where a mixed frequency
    reaches 0 or 1 it is made pure (``b`` or ``a``); where a pure frequency's gain reaches 0
    it is made mixed (``c``); one change at a time."""
    out: list[str] = []
    for end in {e for part in parts for e in part}:
        for i, (c, k) in enumerate(zip(conds, case)):
            if k == "c":
                v = sp.N(b[c.symbol].xreplace({u: end}), 40)
                flip = "b" if abs(v) < TIGHT else "a" if abs(1 - v) < TIGHT else None
            else:
                g = sp.N(c.gradient.xreplace(pv).xreplace(b).xreplace({u: end}), 40)
                flip = "c" if abs(g) < TIGHT else None
            if flip and (nb := case[:i] + flip + case[i + 1:]) not in out:
                out.append(nb)
    return tuple(sorted(out))


def curve_record(c: Curve) -> dict:
    """JSON-ready record of a curve (every expression a sympy string; floats beside the
    algebraic ends)."""
    rec = {"support": c.case, "parameter": c.parameter,
           "radicand": None if c.radicand is None else str(c.radicand),
           "values": {k: str(v) for k, v in c.values},
           "others": {k: str(v) for k, v in c.others},
           "parts": [[str(a), str(b)] for a, b in c.parts],
           "parts_float": [[float(a), float(b)] for a, b in c.parts],
           "payoff_range": [list(r) for r in c.payoff_range],
           "neighbours": list(c.neighbours),
           "certificates": [{"parameter": str(q["parameter"]), "nash_conv": "0",
                             "payoffs": [str(p) for p in q["payoffs"]],
                             "payoffs_float": [float(p) for p in q["payoffs"]]}
                            for q in c.certificates]}
    return rec
