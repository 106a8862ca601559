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

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import sympy as sp
from sympy.polys.rings import PolyRing

from pokerdyn.games import Game, GameError
from pokerdyn.games.strategy import param_symbols, symbolic_strategy
from pokerdyn.games.tree import DECISION

from pokerdyn.solvers.symbolic import algebraic, float_filter, psplit
from pokerdyn.solvers.symbolic.casesearch import walk
from pokerdyn.solvers.symbolic.payoffs import symbolic_payoffs

MAX_PARAMETERS = 16


@dataclass(frozen=True)
class Condition:
    """The equilibrium condition of one named parameter: its owner and its gain ``g_x``."""

    name: str
    player: int
    symbol: sp.Symbol
    gradient: sp.Expr


@dataclass(frozen=True)
class Family:
    """A set of equilibria: closed-form values of every named parameter (in ``P`` and the
    ``free`` parameters), and affine constraints on the free parameters
    (``(expr, strict)``: ``expr > 0`` or ``expr >= 0``).  ``cases`` is the (a)/(b)/(c) case
    of each enumerated parameter; ``only_at`` holds polynomials in ``P`` that must vanish
    (a family of one critical value)."""

    strategy: tuple[tuple[str, sp.Expr], ...]
    free: tuple[str, ...]
    constraints: tuple[psplit.Constraint, ...]
    cases: str
    only_at: tuple[sp.Expr, ...] = ()
    pivots: tuple[sp.Expr, ...] = field(default=(), compare=False)

    def as_dict(self) -> dict[str, sp.Expr]:
        return dict(self.strategy)

    def free_symbols(self) -> list[sp.Symbol]:
        return [sp.Symbol(n, real=True) for n in self.free]


def pot_symbol(game: Game) -> sp.Symbol | None:
    """The game's pot parameter ``P`` (None if the game has none)."""
    return next((s for s in game.params if s.name == "P"), None)


def own_reach(game: Game, infoset: int) -> sp.Expr:
    """The owner's own probability of reaching ``infoset`` (product of the owner's action
    probabilities on the path; equal for all nodes of the set by perfect recall)."""
    probs = symbolic_strategy(game)
    owner = game.infosets[infoset].player
    node = int(next(n for n in range(game.n_nodes) if game.infoset[n] == infoset))
    out = sp.Integer(1)
    while game.parent[node] >= 0:
        par = int(game.parent[node])
        if game.kind[par] == DECISION and game.player[par] == owner:
            out *= probs[int(game.infoset[par])][int(game.edge[node])]
        node = par
    return out


def require_two_actions(game: Game) -> None:
    """GameError naming the first information set with more than two actions: the gains
    ``g_x`` (here and in :mod:`solvers.symbolic.supports.gains`) treat each named parameter
    as a probability in ``[0, 1]`` of its own, which is right only for two actions."""
    for I in game.infosets:
        if len(I.actions) > 2:
            raise GameError(f"information set {I.label!r} has {len(I.actions)} actions; "
                            "enumeration supports at most 2 actions per information set "
                            "(pokerdyn equilibria enumerates such games over behaviour "
                            "supports: solvers.symbolic.support_families)")


def conditions(game: Game, values: Mapping[str, Any] | None = None,
               fixed: Mapping[str, Any] | None = None) -> tuple[Condition, ...]:
    """The gain ``g_x`` of every named parameter not in ``fixed`` (``fixed`` values, e.g.
    from dominance elimination, are substituted; ``values`` sets game parameters)."""
    fixed = dict(fixed or {})
    if not game.named:
        raise GameError(f"game {game.name!r} has no named parameters to enumerate")
    require_two_actions(game)
    syms = param_symbols(game)
    sub = {syms[k]: sp.sympify(v) for k, v in fixed.items()}
    pays = [sp.expand(e.xreplace(sub)) for e in symbolic_payoffs(game, values)]
    out = []
    for prm in game.named:
        if prm.name in fixed:
            continue
        x, owner = syms[prm.name], game.owner(prm.name)
        g = sp.expand(sp.diff(pays[owner], x))
        reach = sp.expand(own_reach(game, game.infoset_index(prm.infoset)).xreplace(sub))
        if reach == 0:
            raise GameError(f"parameter {prm.name!r} is unreachable after fixing {fixed}")
        if reach != 1:
            q, r = sp.div(sp.Poly(g, *syms.values()), sp.Poly(reach, *syms.values()))
            g = q.as_expr() if r.is_zero else sp.cancel(g / reach)
        out.append(Condition(prm.name, owner, x, sp.expand(g)))
    if len(out) > MAX_PARAMETERS:
        raise GameError(f"game {game.name!r} has {len(out)} undominated named parameters; "
                        f"enumeration allows at most {MAX_PARAMETERS} (3^{MAX_PARAMETERS} cases)")
    return tuple(out)


def _case_leaves(conds: Sequence[Condition], p: sp.Symbol | None,
                 critical: dict | None = None, start: tuple | None = None
                 ) -> list[tuple[dict, str]]:
    """The case walk's leaves (:func:`solvers.symbolic.casesearch.walk.case_leaves`)."""
    return walk.case_leaves(conds, p, critical, start)


def _ring(eqs: Sequence[sp.Expr], gens: Sequence[sp.Symbol]):
    """The polynomial ring over the coefficient field of ``eqs`` (QQ, QQ(P) or an algebraic
    extension such as QQ<sqrt(73)>) and the equations as its elements."""
    try:
        polys, opt = sp.parallel_poly_from_expr(eqs, *gens, field=True, extension=True)
    except sp.PolynomialError:
        polys, opt = sp.parallel_poly_from_expr(eqs, *gens, domain="EX")
    ring = PolyRing(list(gens), opt.domain)
    return ring, [ring.from_dict(pl.rep.to_dict()) for pl in polys]


def _split(f, i: int):
    """``f = f1 * x_i + f0`` (None if ``f`` has degree > 1 in ``x_i``)."""
    ring = f.ring
    f1, f0 = {}, {}
    for m, c in f.items():
        if m[i] > 1:
            return None
        target = f1 if m[i] == 1 else f0
        target[m[:i] + (0,) + m[i + 1:]] = c
    return ring.from_dict(f1), ring.from_dict(f0)


def _ground(f):
    return f.ring.domain.to_sympy(f.coeff(1)) if f else sp.S.Zero


def solve_triangular(eqs: Sequence[sp.Expr], unknowns: Sequence[sp.Symbol], p: sp.Symbol | None,
                     seen: list | None = None, nonzero=None):
    """All solution branches of polynomial equations ``eqs = 0`` in ``unknowns`` (``P``
    symbolic or substituted): list of ``(solution, only_at, pivots)``; unsolved unknowns stay
    free.  Works in a sparse polynomial ring over the coefficient field; a pivot whose
    coefficient involves other unknowns splits into 'coefficient = 0' and '!= 0' branches.
    ``nonzero`` (expression -> bool, e.g. clearly nonzero at a learned limit): pivots it
    accepts are preferred and their 'coefficient = 0' branch is not followed (only the
    branches through that point are wanted)."""
    gens = sorted(unknowns, key=lambda s: s.name)
    if not gens:
        only, dead = [], False
        for e in eqs:
            e = sp.expand(e)
            if e != 0 and (p is None or p not in e.free_symbols):
                dead = True
            elif e != 0:
                only.append(e)
        return [] if dead else [({}, tuple(only), ())]
    ring, polys = _ring(list(eqs), gens)
    out = []
    stack = [(polys, [], [], [])]
    while stack:
        cur, steps, only, piv = stack.pop()
        clean, dead = [], False
        for f in cur:
            if not f:
                continue
            if f.is_ground:
                v = _ground(f)
                if p is not None and p in v.free_symbols:
                    only.append(v)
                    continue
                dead = True
                break
            clean.append(f.monic())
        if dead:
            continue
        if not clean:
            out.append((_back_substitute(ring, steps, gens), tuple(only), tuple(piv)))
            continue
        best = None
        for k, f in enumerate(clean):
            for i in range(len(gens)):
                if f.degree(i) != 1:
                    continue
                f1, f0 = _split(f, i)
                if f1.is_ground:
                    rank = 0 if not _ground(f1).free_symbols else 1
                else:
                    rank = 2
                key = (rank - (nonzero is not None and rank == 2 and nonzero(f1.as_expr())),
                       len(f1), len(f0) + len(f))
                if best is None or key < best[0]:
                    best = (key, k, i, f1, f0)
            if best and best[0][0] == 0:
                break
        if best is None:
            _fallback(ring, clean, steps, only, piv, gens, p, out)
            continue
        (rank, _, _), k, i, f1, f0 = best
        others = clean[:k] + clean[k + 1:]
        rank = 2 if rank == 1 and not f1.is_ground else rank
        if rank == 2 and not (nonzero is not None and nonzero(f1.as_expr())):
            # the coefficient may vanish: branch
            stack.append((others + [f1, f0], list(steps), list(only), list(piv)))
        new = [_compose(o, i, -f0, f1) for o in others]
        new_piv = piv + ([_ground(f1) if rank == 1 else f1.as_expr()] if rank else [])
        if seen is not None and rank == 1:
            seen.append(_ground(f1))
        stack.append((new, steps + [(i, -f0, f1)], list(only), new_piv))
    return out


def _compose(f, i: int, num, den):
    """Numerator of ``f`` with ``x_i = num/den`` (``den`` ground: exact substitution)."""
    if den.is_ground:
        inv = den.ring.domain.quo(den.ring.domain.one, den.coeff(1))
        return f.compose(f.ring.gens[i], num.mul_ground(inv))
    ring = f.ring
    by_deg: dict[int, dict] = {}
    for m, c in f.items():
        by_deg.setdefault(m[i], {})[m[:i] + (0,) + m[i + 1:]] = c
    d = max(by_deg)
    pw = lambda f, k: f ** k if k else ring.one  # a zero numerator: 0**0 is 1 here
    return sum((ring.from_dict(part) * pw(num, k) * pw(den, d - k) for k, part in by_deg.items()),
               ring.zero)


def _back_substitute(ring, steps, gens, init: dict | None = None) -> dict:
    if init:
        out = dict(init)
        for i, num, den in reversed(steps):
            out[gens[i]] = sp.cancel((num.as_expr() / den.as_expr()).xreplace(out))
        return out
    vals: dict = {}
    for i, num, den in reversed(steps):
        if den.is_ground:
            inv = ring.domain.quo(ring.domain.one, den.coeff(1))
            v = num.mul_ground(inv)
            for j, w in vals.items():
                if isinstance(w, type(v)):
                    v = v.compose(ring.gens[j], w)
            vals[i] = v
        else:  # a fraction in other unknowns: expression land
            vals[i] = num.as_expr() / den.as_expr()
    out = {}
    for i, v in vals.items():
        e = v.as_expr() if not isinstance(v, sp.Expr) else v
        out[gens[i]] = e
    # fractions may still contain later-solved unknowns
    for _ in range(len(out)):
        out = {k: (sp.cancel(v.xreplace(out)) if v.free_symbols & out.keys() else v)
               for k, v in out.items()}
    return out


def _fallback(ring, clean, steps, only, piv, gens, p, out) -> None:
    """No equation is linear in an unknown: solve the first one for an unknown with sympy and
    recurse on the rest.  With a symbolic pot, irrational branches (roots with radicals in
    ``P``) are dropped and recorded in ``DROPPED``: they are solved exactly at a fixed pot
    (``enumerate_families`` with ``values``, where the radical is a number);
    tests/test_enumeration_at_pot.py checks at a pot inside every piece of the axis that
    they add no equilibrium to the whole-axis result."""
    f = clean[0]
    i = next(j for j in range(len(gens)) if f.degree(j) > 0)
    x = gens[i]
    if p is not None and f.degree(i) == 2:
        # quadratic over QQ(P, ...): its roots are free of radicals iff the discriminant is
        # a square; decide that by factoring instead of calling sp.solve (seconds per call)
        a, b, c = sp.Poly(f.as_expr(), x).all_coeffs()
        disc = sp.cancel(b * b - 4 * a * c)
        num, den = sp.fraction(disc)  # a square in QQ(P, ...) iff num * den is a square
        coeff, facs = sp.factor_list(sp.expand(num * den))
        if not (coeff.is_Rational and coeff >= 0 and sp.sqrt(coeff).is_Rational
                and all(m % 2 == 0 for _, m in facs)):
            DROPPED.extend((-b + s * sp.sqrt(disc)) / (2 * a) for s in (-1, 1))
            return
    for root in sp.solve(f.as_expr(), x):
        rad = [a for a in root.atoms(sp.Pow) if a.exp.is_Rational and a.exp.q != 1]
        if (p is not None and rad) or any(a.free_symbols - {p} for a in rad):
            DROPPED.append(root)  # a radical in P or in other unknowns: not an affine family
            continue
        # numerators: a root rational in other unknowns leaves rational equations
        rest = [sp.expand(sp.numer(sp.together(g.as_expr().xreplace({x: root}))))
                for g in clean[1:]]
        others = [g for g in gens if g != x]
        for sol2, only2, piv2 in solve_triangular(rest, others, p):
            init = {**sol2, x: sp.cancel(root.xreplace(sol2))}
            out.append((_back_substitute(ring, steps, gens, init), tuple(only) + only2,
                        tuple(piv) + piv2))


DROPPED: list = []


def enumerate_families(game: Game, values: Mapping[str, Any] | None = None,
                       fixed: Mapping[str, Any] | None = None,
                       conds: Sequence[Condition] | None = None,
                       critical: dict | None = None,
                       leaves: Sequence[tuple[dict, str]] | None = None) -> list[Family]:
    """Every equilibrium family of ``game`` for symbolic ``P`` (``values`` absent) or at the
    exact parameter values ``values``; ``fixed`` parameters (dominance) are substituted.

    With a symbolic pot the families are generic: valid on the open P intervals where their
    constraints can hold (see :mod:`solvers.symbolic.piecewise`); families with ``only_at`` exist only
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
        seen: list = []
        branches = solve_triangular(eqs, cset, p, seen)
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
            cons: list[psplit.Constraint] = []
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


def _always(e: sp.Expr, strict: bool) -> bool:
    if e.free_symbols:
        return False
    s = psplit.sign(e)
    return s > 0 or (s == 0 and not strict)


def families_at_point(game: Game, generic: Sequence[Family], value: sp.Expr, tasks: Sequence,
                      fixed: Mapping[str, Any] | None = None) -> list[Family]:
    """The families at one exact critical value of ``P``: the generic families substituted
    (where their formulas stay finite and their constraints hold) plus the branches and leaves
    recorded for this value (``tasks``), resumed with ``P`` exact; a task
    ``("family", fam)`` is a family already solved at this value (by
    :func:`solvers.symbolic.fullaxis.atpot.pot_families`), taken as it is."""
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
