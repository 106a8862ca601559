"""Equilibrium enumeration by case analysis on the payoff gradients (Billingham, appendix A).

Each named parameter ``x`` of player ``p`` (the probability of one action at a two-action
information set) has the coefficient ``g_x``: the derivative of ``E_p`` with respect to
``x``, divided by ``p``'s own probability of reaching the information set (the
counterfactual gain of the action; for games where every player acts at most once on a path,
as one-third street Kuhn poker, it is exactly ``dE_p/dx``).  Payoffs are multilinear, so
``g_x`` does not contain ``x``.  At an equilibrium every ``x`` satisfies one of

  (a) ``g_x > 0`` and ``x = 1``;  (b) ``g_x < 0`` and ``x = 0``;  (c) ``g_x = 0``, ``0 <= x <= 1``.

With counterfactual gains these conditions are sufficient as well as necessary (they say that
every information set plays a best reply to the continuation, which is backward induction
over the player's own tree); they select, among realization-equivalent profiles, the one that
also plays well at information sets that the player's own earlier choices avoid.

:func:`enumerate_families` walks the case combinations depth first, substituting forced
values and discarding a partial combination as soon as a fully determined gain has the wrong
sign (for a symbolic pot: the wrong sign for every ``P > 0``), then solves the equalities of
each surviving combination with a triangular solver that records every pivot (its roots in
``P`` are critical values of the P axis).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import sympy as sp

from pokerdyn.games import Game, GameError

from pokerdyn.solvers.symbolic.feasibility import algebraic, float_filter, pot_split
from pokerdyn.solvers.symbolic.casesearch import walk
from pokerdyn.solvers.symbolic.model.conditions import Condition, Family, conditions, pot_symbol
from pokerdyn.solvers.symbolic.algebra import algebraic_points, triangular
from pokerdyn.solvers.symbolic.algebra.triangular import solve_triangular


def _case_leaves(conds: Sequence[Condition], p: sp.Symbol | None,
                 critical: dict | None = None, start: tuple | None = None
                 ) -> list[tuple[dict, str]]:
    """The case walk's leaves (:func:`solvers.symbolic.casesearch.walk.case_leaves`)."""
    return walk.case_leaves(conds, p, critical, start)



def enumerate_families(game: Game, values: Mapping[str, Any] | None = None,
                       fixed: Mapping[str, Any] | None = None,
                       conds: Sequence[Condition] | None = None,
                       critical: dict | None = None,
                       leaves: Sequence[tuple[dict, str]] | None = None) -> list[Family]:
    """Every equilibrium family of ``game`` for symbolic ``P`` (``values`` absent) or at the
    exact parameter values ``values``; ``fixed`` parameters (dominance) are substituted.

    With a symbolic pot the families are generic: valid on the open P intervals where their
    constraints can hold (see :mod:`solvers.symbolic.axis.piecewise`); families with ``only_at`` exist only
    at roots of those polynomials.  With numeric values infeasible families are dropped.
    """
    fixed = {k: sp.sympify(v) for k, v in (fixed or {}).items()}
    conds = tuple(conds) if conds is not None else conditions(game, values, fixed)
    p = pot_symbol(game) if not (values and "P" in values) else None
    syms = {c.symbol: c for c in conds}
    families = []
    critical = {} if critical is None else critical
    if leaves is None:
        leaves = _case_leaves(conds, p, critical)
    for fx, case in leaves:
        cset = [c.symbol for c, k in zip(conds, case) if k == "c"]
        eqs = [c.gradient.xreplace(fx) for c, k in zip(conds, case) if k == "c"]
        if p is None:  # numeric: a nonlinear zero-dimensional leaf as algebraic points
            points = _algebraic_leaf(eqs, cset)
            if points is not None:
                families += [f for pt in points
                             if (f := _point_family(game, conds, case, fx, fixed, pt, cset))]
                continue
        seen: list = []
        dropped = len(triangular.DROPPED)
        branches = solve_triangular(eqs, cset, p, seen)
        if p is None and len(triangular.DROPPED) > dropped:
            # roots with radicals in other unknowns: never lost silently (g3.efg lost its
            # fully mixed equilibrium this way before _algebraic_leaf)
            raise GameError(f"game {game.name!r}: the case {case} has solutions with "
                            "radicals in free parameters, which the enumeration cannot "
                            "represent")
        if p is not None:  # where a pivot vanishes the leaf is solved again with P exact
            for c in set(seen):
                if not (c.free_symbols - {p}):
                    walk.add_task(critical, c, p, ("leaf", fx, case))
        for sol, only, piv in branches:
            if only:  # lives at isolated values of P: decided there
                for e in only:
                    walk.add_task(critical, e, p, ("leaf", fx, case))
                continue
            free = [x for x in cset if x not in sol]
            full = {**fx, **sol}
            cons: list[pot_split.Constraint] = []
            for c, k in zip(conds, case):
                g = c.gradient.xreplace(full)
                if k == "a":
                    cons.append((g, True))
                elif k == "b":
                    cons.append((-g, True))
                else:
                    v = full.get(c.symbol, c.symbol)
                    cons += [(v, False), (1 - v, False)]
                    # most residuals vanish: a fast exact zero test spares sp.cancel
                    res = (0 if algebraic.vanishes(g) else sp.cancel(g)) if g.free_symbols else g
                    if res != 0:  # an equation the solver did not use: keep it (g = 0)
                        cons += [(res, False), (-res, False)]
            cons = [(sp.expand(e), s) for e, s in cons]
            if any(e.has(sp.zoo, sp.nan, sp.oo, sp.I) for e, _ in cons):
                continue  # a 'coefficient != 0' branch whose coefficient vanished
            try:
                cons = [(e, s) for e, s in cons if e.free_symbols or not _always(e, s)]
            except ValueError:  # a non-real value
                continue
            if p is None:
                if any(not e.free_symbols for e, _ in cons):
                    continue  # a numeric constraint fails
                try:
                    if not float_filter.feasible(cons, free):
                        continue
                except ValueError as exc:
                    raise GameError(f"family of case {case} has constraints that are not affine "
                                    f"in its free parameters: {exc}") from None
            strat = {}
            for prm in game.named:
                x = sp.Symbol(prm.name, real=True)
                strat[prm.name] = full.get(x, fixed.get(prm.name, x))
            families.append(Family(tuple(strat.items()), tuple(x.name for x in free),
                                   tuple(cons), case, tuple(only), tuple(piv)))
    del syms
    return families


def _algebraic_leaf(eqs: Sequence[sp.Expr], cset: Sequence[sp.Symbol]) -> list | None:
    """The real points in the unit box of a leaf's equations when they are nonlinear with
    rational coefficients and zero-dimensional in shape position
    (:func:`solvers.symbolic.algebra.algebraic_points.real_points`: exact algebraic numbers,
    e.g. the fully mixed equilibrium of Gambit's ``g3.efg``, a root of a degree-9
    polynomial that the triangular solver's radicals cannot express); None otherwise (the
    triangular solver takes the leaf)."""
    if not cset or not eqs:
        return None
    try:
        polys = [sp.Poly(e, *cset, domain=sp.QQ) for e in eqs]
    except (sp.PolynomialError, sp.CoercionFailed, TypeError):
        return None
    polys = [q for q in polys if not q.is_zero]
    if not polys or all(q.total_degree() <= 1 for q in polys):
        return None
    return algebraic_points.real_points(polys, list(cset))


def _expr_at(e: sp.Expr, pt: Any, cset: Sequence[sp.Symbol]) -> sp.Poly:
    """A polynomial expression over QQ in ``cset`` as the polynomial in ``t`` it becomes at
    the algebraic point ``pt``."""
    q = sp.Poly(e, *cset, domain=sp.QQ)
    one = sp.Poly(1, algebraic_points._T, domain=sp.QQ)
    out = one * 0
    for m, c in q.terms():
        t = one * c
        for x, k in zip(cset, m):
            if k:
                t = t * pt.values[x] ** k
        out = out + t
    return out


def _point_family(game: Game, conds: Sequence[Condition], case: str, fx: Mapping,
                  fixed: Mapping[str, Any], pt: Any, cset: Sequence[sp.Symbol]
                  ) -> Family | None:
    """The family (one point) of an algebraic solution of a leaf, or None where a case
    (a) or (b) sign fails there (every value exact: :class:`algebraic_points.Point`)."""
    for c, k in zip(conds, case):
        if k == "c":
            continue
        s = pt.sign(_expr_at(c.gradient.xreplace(fx), pt, cset))
        if (k == "a" and s <= 0) or (k == "b" and s >= 0):
            return None
    strat = {}
    for prm in game.named:
        x = sp.Symbol(prm.name, real=True)
        if x in pt.values:
            strat[prm.name] = pt.value(pt.values[x])
        else:
            strat[prm.name] = fx.get(x, fixed.get(prm.name, x))
    return Family(tuple(strat.items()), (), (), case)


def _always(e: sp.Expr, strict: bool) -> bool:
    if e.free_symbols:
        return False
    s = pot_split.sign(e)
    return s > 0 or (s == 0 and not strict)


def families_at_point(game: Game, generic: Sequence[Family], value: sp.Expr, tasks: Sequence,
                      fixed: Mapping[str, Any] | None = None) -> list[Family]:
    """The families at one exact critical value of ``P``: the generic families substituted
    (where their formulas stay finite and their constraints hold) plus the branches and leaves
    recorded for this value (``tasks``), resumed with ``P`` exact; a task
    ``("family", fam)`` is a family already solved at this value (by
    :func:`solvers.symbolic.axis.at_pot.pot_families`), taken as it is."""
    p = pot_symbol(game)
    key = (id(game), tuple(sorted((fixed or {}).items())))
    if key not in _CONDS:
        _CONDS[key] = conditions(game, None, fixed)
    conds = tuple(Condition(c.name, c.player, c.symbol, sp.expand(c.gradient.xreplace({p: value})))
                  for c in _CONDS[key])
    fv = float(sp.N(value, 20))
    leaves: list = []
    solved = [t[1] for t in tasks if t[0] == "family"]
    for t in tasks:
        if t[0] == "family":
            continue
        if t[0] == "leaf":
            leaves.append((t[1], t[2]))
        else:
            leaves += _case_leaves(conds, None, {}, start=(t[1], t[2], t[3]))
    uniq = {(tuple(sorted((k.name, v) for k, v in fx.items())), case): (fx, case)
            for fx, case in leaves}
    out = enumerate_families(game, {"P": value}, fixed, conds, {}, list(uniq.values())) \
        if uniq else []
    out += solved
    for fam in generic:
        if (fam, value) not in _AT_VALUE:
            _AT_VALUE[fam, value] = _generic_at(fam, p, value, fv)
        if _AT_VALUE[fam, value] is not None:
            out.append(_AT_VALUE[fam, value])
    return out


def _generic_at(fam: Family, p: sp.Symbol, value: sp.Expr, fv: float) -> Family | None:
    """A generic family at the exact critical value ``value`` (``fv`` its float): its
    formulas substituted, or None where they are not finite or its constraints fail."""
    sub = {p: value}
    if float_filter.pot_only_fails(fam.constraints, p, fv):
        return None
    st, q = float_filter.status(fam.constraints, fam.free_symbols(), p, fv)
    if st == "infeasible":
        return None
    witnessed = st == "witness" and float_filter.confirm(
        fam.constraints, fam.free_symbols()[0], q, p, value)
    cons = [(sp.expand(e.xreplace(sub)), s) for e, s in fam.constraints]
    if any(e.has(sp.zoo, sp.nan, sp.oo) for e, _ in cons):
        return None
    try:
        if any(not _always(e, s) for e, s in cons if not e.free_symbols):
            return None
        cons = [(e, s) for e, s in cons if e.free_symbols]
        if not witnessed and not float_filter.feasible(cons, fam.free_symbols()):
            return None
    except ValueError:
        return None
    strat = tuple((k, sp.radsimp(sp.cancel(v.xreplace(sub)))) for k, v in fam.strategy)
    return Family(strat, fam.free, tuple(cons), fam.cases)


_AT_VALUE: dict = {}  # (generic family, exact value) -> the family there or None
_CONDS: dict = {}
