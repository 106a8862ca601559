"""Equilibrium families of a game with any number of actions per information set, exactly:
each behaviour support left by :func:`solvers.symbolic.casesearch.behaviour_supports.support_leaves`
solved as the polynomial system of its indifferences (Gambit's ``enumpoly``; McKelvey and
McLennan 1996, sec. 6).

For a support ``S_I`` of every information set ``I`` the unknowns are the named parameters
of the support's actions but one (the set's unnamed action when it is in the support, else
the first action of the support, which gets one minus the others), so that the
probabilities sum to one; actions outside the support get 0.  The equations say that every
action of ``S_I`` has the counterfactual value of that reference action; they are solved by
the two-action engine's exact triangular solver
(:func:`solvers.symbolic.algebra.triangular.solve_triangular`: rationals and algebraic numbers,
unsolved unknowns left free, so a positive-dimensional solution set is a family with free
parameters).  A solution is kept when every probability of the support is positive and no
action outside it has a higher counterfactual value; each equilibrium thus lies in the
family of exactly one support (its own).  :func:`solutions` reduces the families
(:func:`solvers.symbolic.families.reduction.reduce_families`: closures, containment) and puts them in the
display form of ``pokerdyn equilibria``.  Numeric game parameters only: a game with the pot
``P`` is enumerated at one exact pot.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import sympy as sp
from sympy.polys.domains import QQ
from sympy.polys.rings import PolyRing

from pokerdyn.games import Game, GameError
from pokerdyn.games.strategy import param_symbols

from pokerdyn.solvers.symbolic.algebra import algebraic_points, triangular
from pokerdyn.solvers.symbolic.feasibility import float_filter, pot_split
from pokerdyn.solvers.symbolic.casesearch.behaviour_supports import action_values, support_leaves
from pokerdyn.solvers.symbolic.model.conditions import Family, pot_symbol
from pokerdyn.solvers.symbolic.algebra.triangular import solve_triangular


def _named(game: Game) -> list[dict[int, sp.Symbol]]:
    """Per information set, action index -> the symbol of its named parameter."""
    syms = param_symbols(game)
    out: list[dict[int, sp.Symbol]] = [{} for _ in game.infosets]
    for prm in game.named:
        i = game.infoset_index(prm.infoset)
        out[i][game.infosets[i].actions.index(prm.action)] = syms[prm.name]
    return out


def _holds(e: sp.Expr, strict: bool) -> bool:
    s = pot_split.sign(e)
    return s > 0 or (s == 0 and not strict)


def support_families(game: Game, values: Mapping[str, Any] | None = None) -> list[Family]:
    """Every equilibrium family of ``game`` (game parameters such as ``P`` set exactly from
    ``values``), one or more per behaviour support that carries equilibria; ``cases`` holds
    the support (per information set the indices of its actions, sets separated by ``|``)."""
    values = dict(values or {})
    av = action_values(game, values)
    sup = support_leaves(game, av)
    named = _named(game)
    xs = [s for row in named for s in row.values()]
    R = PolyRing(list(av.ring.symbols) + xs, QQ)
    qgen = {str(s): g for s, g in zip(av.ring.symbols, R.gens)}
    xgen = {s: g for s, g in zip(xs, R.gens[len(av.ring.symbols):])}
    vals = [[[(tuple(k for k, e in enumerate(m) if e), c) for m, c in v.terms()]
             for v in row] for row in av.values]
    gens_q = [[g if g >= 0 else None for g in row] for row in av.gen]
    families = []
    for leaf in sup.leaves:
        families += _leaf_families(game, leaf, named, xgen, vals, gens_q, R)
    return families


def _leaf_families(game: Game, leaf: Sequence[tuple[int, ...]], named, xgen, vals, gens_q,
                   R) -> list[Family]:
    sub, strat, unknowns = [], {}, []
    refs: list[int] = []
    for i, S in enumerate(leaf):
        k = len(game.infosets[i].actions)
        refs.append(S[0])
        if k == 1:
            continue
        nm = named[i]
        implicit = next(a for a in range(k) if a not in nm)
        if len(S) == 1:
            for a in range(k):
                one = R.one if a == S[0] else R.zero
                sub.append((gens_q[i][a], one))
                if a in nm:
                    strat[nm[a]] = one
            continue
        ref = implicit if implicit in S else S[0]
        refs[-1] = ref
        others = [a for a in S if a != ref]
        rest = R.one - R.add(*[xgen[nm[a]] for a in others])
        for a in range(k):
            if a not in S:
                val = R.zero
            elif a == ref:
                val = rest
            else:
                val = xgen[nm[a]]
                unknowns.append(nm[a])
            sub.append((gens_q[i][a], val))
            if a in nm:
                strat[nm[a]] = val
    at = dict(sub)
    v = [[_substitute(terms, at, R) for terms in row] for row in vals]
    eqs, cons = [], []
    for i, S in enumerate(leaf):
        if len(S) > 1:
            ref = refs[i]
            eqs += [v[i][a] - v[i][ref] for a in S if a != ref]
            nm = named[i]
            cons += [((strat[nm[a]] if a in nm else
                       R.one - R.add(*[strat[s] for s in nm.values()])), True) for a in S]
        cons += [(v[i][refs[i]] - v[i][c], False)
                 for c in range(len(game.infosets[i].actions)) if c not in S]
    # conditions free of unknowns decide at once (most leaves die here, before any solve)
    if any(e.is_ground and e.LC < 0 for e, _ in cons if e) or \
            any(e.is_ground for e in eqs if e):
        return []
    name = "|".join("".join(map(str, S)) for S in leaf)
    if not unknowns:  # a pure profile: every condition is a rational number
        return [_family(game, {s: e.as_expr() for s, e in strat.items()}, (), (), name)]
    eqs = [e for e in eqs if e]
    polys = _polys(eqs, unknowns, xgen, R)
    if any(p.total_degree() > 1 for p in polys):
        # nonlinear (several players mixing): exact algebraic points from a lex basis where
        # it is in shape position (the triangular solver's radicals stall sympy there)
        points = algebraic_points.real_points(polys, unknowns)
        if points is not None:
            return [f for pt in points
                    if (f := _algebraic_family(game, pt, unknowns, strat, cons, name))]
    dropped = len(triangular.DROPPED)
    branches = solve_triangular(polys, unknowns, None)
    if len(triangular.DROPPED) > dropped:
        raise GameError(f"game {game.name!r}: the support {name} has solutions with radicals "
                        "in free parameters, which the enumeration cannot represent")
    out, exprs = [], None
    for sol, only, _ in branches:
        if only:  # pragma: no cover - P is numeric here
            continue
        free = [x for x in unknowns if x not in sol]
        if not free and all(v.is_Rational for v in sol.values()):
            # a rational point (the common case): every condition by exact ring arithmetic
            pt = [(xgen[x], QQ(int(v.p), int(v.q))) for x, v in sol.items()]
            if all(_ground(e.subs(pt)) == 0 for e in eqs) and \
                    all(_ground(e.subs(pt)) > 0 or (not s and _ground(e.subs(pt)) == 0)
                        for e, s in cons):
                out.append(_family(game, {x: R.domain.to_sympy(_ground(e.subs(pt)))
                                          for x, e in strat.items()}, (), (), name))
            continue
        if exprs is None:
            exprs = ([e.as_expr() for e in eqs], [(e.as_expr(), s) for e, s in cons],
                     {s: e.as_expr() for s, e in strat.items()})
        eqs_x, cons_x, strat_x = exprs
        c2: list[pot_split.Constraint] = []
        for e, s in cons_x:
            c2.append((e.xreplace(sol), s))
        for e in eqs_x:  # equations the solver did not use stay as constraints
            r = e.xreplace(sol)
            if r.free_symbols:
                r = sp.cancel(r)
            if r != 0:
                c2 += [(r, False), (-r, False)]
        c2 = [(sp.expand(e), s) for e, s in c2]
        if any(e.has(sp.zoo, sp.nan, sp.oo, sp.I) for e, _ in c2):
            continue  # a 'coefficient != 0' branch whose coefficient vanished
        try:
            if any(not e.free_symbols and not _holds(e, s) for e, s in c2):
                continue
        except ValueError:  # a non-real value
            continue
        c2 = [(e, s) for e, s in c2 if e.free_symbols]
        if free:
            try:
                if not float_filter.feasible(c2, free):
                    continue
            except ValueError as exc:
                raise GameError(f"game {game.name!r}: the family of support {name} has "
                                f"constraints that are not affine in its free parameters: "
                                f"{exc}") from None
        full = {s: sp.cancel(e.xreplace(sol)) if e.free_symbols else e
                for s, e in strat_x.items()}
        out.append(_family(game, full, tuple(x.name for x in free), tuple(c2), name))
    return out


def _algebraic_family(game: Game, pt, unknowns, strat, cons, name) -> Family | None:
    """The family (a point) of an algebraic solution, or None where a condition fails."""
    for e, strict in cons:
        sg = pt.sign(algebraic_points.at_point(e, pt, unknowns))
        if sg < 0 or (strict and sg == 0):
            return None
    return _family(game, {x: pt.value(algebraic_points.at_point(e, pt, unknowns))
                          for x, e in strat.items()}, (), (), name)


def _ground(e):
    """The value of a ring element without unknowns left."""
    return e.coeff(1) if e else e.ring.domain.zero


def _polys(eqs, unknowns, xgen, R) -> list[sp.Poly]:
    """Ring elements as sympy Polys in ``unknowns`` (the triangular solver takes them without
    parsing expressions)."""
    pos = {str(g): k for k, g in enumerate(R.symbols)}
    idx = [pos[str(x)] for x in unknowns]
    out = []
    for e in eqs:
        d = {tuple(m[i] for i in idx): c for m, c in e.terms()}
        out.append(sp.Poly.from_dict(d, *unknowns, domain=QQ))
    return out


def _substitute(terms: Sequence[tuple[tuple[int, ...], Any]], at: Mapping[int, Any], R):
    """A counterfactual value (its terms: action indices and coefficient) with every action
    probability replaced by its value at the leaf (0, 1 or an element of ``R``)."""
    out = R.zero
    for ks, c in terms:
        t = R(c)
        for k in ks:
            x = at[k]
            if not x:
                break
            if x != 1:
                t = t * x
        else:
            out += t
    return out


def _family(game: Game, strat: Mapping[sp.Symbol, sp.Expr], free: tuple[str, ...],
            cons: tuple, name: str) -> Family:
    syms = param_symbols(game)
    return Family(tuple((prm.name, sp.sympify(strat.get(syms[prm.name], syms[prm.name])))
                        for prm in game.named), free, cons, name)


def solutions(game: Game, values: Mapping[str, Any] | None = None) -> list:
    """The families of :func:`support_families`, reduced and in the display form of
    :mod:`solvers.symbolic.axis.piecewise` (:class:`~solvers.symbolic.axis.piecewise.Solution`).
    A game with the pot ``P`` needs its value in ``values``."""
    from pokerdyn.solvers.symbolic.axis.piecewise import _display
    from pokerdyn.solvers.symbolic.model.payoffs import symbolic_payoffs
    from pokerdyn.solvers.symbolic.families.reduction import reduce_families

    p = pot_symbol(game)
    values = dict(values or {})
    missing = [s.name for s in game.params if s.name not in values]
    if missing:
        raise GameError(f"game {game.name!r} has information sets of more than 2 actions: "
                        f"the enumeration over behaviour supports needs a value of "
                        f"{', '.join(missing)} (give --pot); the whole P axis is enumerated "
                        "only for games of two actions per information set")
    at = sp.sympify(values["P"]) if p is not None else None
    fams = reduce_families(game, support_families(game, values), at=at, p=p)
    pays = symbolic_payoffs(game)
    return [_display(f, pays, p, None, at=at) for f in fams]
