"""Equilibrium families for every pot size at once: the P axis split exactly into open
intervals and critical values (Billingham sec. 2: P = 2, 5 and P* = (5 + sqrt 73)/2 for
one-third street Kuhn poker), each with its families, expected payoffs in closed form, and
adjacent pieces with the same families merged.

Critical values are the positive real roots of every polynomial in ``P`` met on the way:
pure-P equalities and pivots of the case solver, the coefficients of the free parameters in
the constraints, and the bound differences formed by Fourier-Motzkin elimination on each
interval.  On an open interval between consecutive critical values every such sign is
constant, so the families there are decided at one rational sample point; each critical
value is re-enumerated with ``P`` substituted exactly.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping, Sequence

import sympy as sp

from pokerdyn.games import Game, GameError

from pokerdyn.solvers.symbolic.feasibility import float_filter, pot_split
from pokerdyn.solvers.symbolic.axis import critical_values
from pokerdyn.solvers.symbolic.feasibility import radical
from pokerdyn.solvers.symbolic.axis.forked_map import forked_results
from pokerdyn.solvers.symbolic.model.conditions import Family, pot_symbol
from pokerdyn.solvers.symbolic.casesearch.case_enumeration import enumerate_families, families_at_point
from pokerdyn.solvers.symbolic.model.payoffs import symbolic_payoffs
from pokerdyn.solvers.symbolic.model.pot_values import exact_pot
from pokerdyn.solvers.symbolic.families.reduction import reduce_families


@dataclass(frozen=True)
class Solution:
    """A family on one piece of the P axis, in display form: factored strategy, free
    parameters, their non-redundant constraints (sympy relationals) and closed-form payoffs.
    ``intervals`` holds ``(name, low, high, low_open, high_open)`` for each free parameter
    whose constraints are bounds on it alone (the form ``low <= x <= high``)."""

    strategy: tuple[tuple[str, sp.Expr], ...]
    free: tuple[str, ...]
    constraints: tuple[sp.Basic, ...]
    payoffs: tuple[sp.Expr, ...]
    raw: tuple[pot_split.Constraint, ...]
    intervals: tuple[tuple[str, sp.Expr, sp.Expr, bool, bool], ...] = ()

    def as_dict(self) -> dict[str, sp.Expr]:
        return dict(self.strategy)

    def sample(self, pot: Any = None, p: sp.Symbol | None = None) -> dict[str, sp.Expr]:
        """An exact point of the family (free parameters inside their constraints) at the
        pot ``pot`` (needed when the piece is an interval)."""
        v = pot if isinstance(pot, sp.Basic) else exact_pot(pot) if pot is not None else None
        sub = {p: v} if p is not None and v is not None else {}  # a float 2.5 is 5/2
        cons = [(sp.expand(e.xreplace(sub)), s) for e, s in self.raw]
        xs = [sp.Symbol(n, real=True) for n in self.free]
        pt = pot_split.interior_point(cons, xs)
        return {k: sp.radsimp(v.xreplace(sub).xreplace(pt)) for k, v in self.strategy}


@dataclass(frozen=True)
class Piece:
    """Families on a set of pot sizes (an Interval or a single point)."""

    p_set: sp.Set
    solutions: tuple[Solution, ...]


def _feasible_on(fam: Family, p: sp.Symbol, sample: sp.Expr) -> bool:
    if float_filter.clearly_infeasible(fam.constraints, fam.free_symbols(), p, float(sample)):
        return False
    cons = [(sp.expand(e.xreplace({p: sample})), s) for e, s in fam.constraints]
    return float_filter.feasible(cons, fam.free_symbols())


def _display(fam: Family, pays: Sequence[sp.Expr], p: sp.Symbol | None, sample: sp.Expr | None,
             at: sp.Expr | None = None) -> Solution:
    """Factored strategy, payoffs, and the constraints that are not implied by the others
    (redundancy decided exactly at ``sample``); ``at`` substitutes an exact pot value."""
    sub = {p: at} if at is not None and p is not None else {}
    xs = fam.free_symbols()
    cons = [(sp.expand(e.xreplace(sub)), s) for e, s in fam.constraints]
    test = (lambda e: e.xreplace({p: sample})) if (p is not None and sample is not None) else (lambda e: e)
    cons = [(e, s) for e, s in cons if e.free_symbols & set(xs)]
    keep = list(cons)
    if not pot_split.is_affine(cons, xs):  # each one: 1/(28x) - 3/28 and 31/28 - 1/(28x) sum
        cons = []  # to an affine 1 (cent6.efg lost its box constraints as 'redundant')
    for c in list(cons):
        others = [d for d in keep if d is not c]
        neg = (-c[0], not c[1])  # the negation of c
        if not pot_split.feasible([(sp.expand(test(e)), s) for e, s in others + [neg]], xs):
            keep = others
    # a constraint sympy decides on its own (x**2 + 1 >= 0 for real x) says nothing
    pairs = [(c, r) for c in keep if (r := _relational(c[0], c[1], xs)) is not sp.true]
    keep = [c for c, _ in pairs]
    rels = tuple(r for _, r in pairs)
    strat = {k: _nice(v.xreplace(sub)) for k, v in fam.strategy}
    allsub = {sp.Symbol(k, real=True): v for k, v in strat.items()}
    payoffs = tuple(_nice(sp.expand(E.xreplace(sub)).xreplace(allsub)) for E in pays)
    return Solution(tuple(strat.items()), fam.free, rels, payoffs, tuple(keep),
                    _intervals(rels, xs))


def _intervals(rels: Sequence[sp.Basic], xs: Sequence[sp.Symbol]) -> tuple:
    """``(name, low, high, low_open, high_open)`` per free parameter bounded on both sides
    by relations on it alone, when every relation is such a bound."""
    if not all(isinstance(r, sp.core.relational.Relational) and isinstance(r.lhs, sp.Symbol)
               and r.lhs in xs and not (r.rhs.free_symbols & set(xs)) for r in rels):
        return ()
    out = []
    for x in xs:
        lo = [r for r in rels if r.lhs == x and isinstance(r, (sp.Gt, sp.Ge))]
        hi = [r for r in rels if r.lhs == x and isinstance(r, (sp.Lt, sp.Le))]
        if len(lo) != 1 or len(hi) != 1:
            return ()
        out.append((x.name, lo[0].rhs, hi[0].rhs, isinstance(lo[0], sp.Gt), isinstance(hi[0], sp.Lt)))
    return tuple(out)


@lru_cache(maxsize=4096)
def _nice(e: sp.Expr) -> sp.Expr:
    if e.has(sp.CRootOf):  # an algebraic point (a root of degree > 2): reduced exactly
        from pokerdyn.solvers.symbolic.algebra.algebraic_points import reduce_root
        r = reduce_root(e)
        if r is not None:
            return r
    pots = {s for a in e.atoms(sp.Pow) if a.exp.is_Rational and a.exp.q == 2
            for s in a.base.free_symbols if s.name == "P"}
    if len(pots) == 1:  # a square root of a polynomial in P: a + b sqrt(R), a, b factored
        return radical.normal(e, next(iter(pots)), sp.factor)
    e = sp.cancel(sp.together(e))
    irrational = any(a.exp.is_Rational and a.exp.q != 1 for a in e.atoms(sp.Pow))
    return sp.radsimp(e) if irrational else sp.factor(e)


def _relational(e: sp.Expr, strict: bool, xs: Sequence[sp.Symbol]) -> sp.Basic:
    """``e > 0`` as ``x > bound`` / ``x < bound`` when ``e`` has one free parameter."""
    present = [x for x in xs if e.coeff(x, 1) != 0]
    if len(present) == 1:
        x = present[0]
        c = e.coeff(x, 1)
        bound = _nice(-(e - c * x) / c)
        s = pot_split.sign(c) if c.is_number else None
        if s is not None:
            if s > 0:
                return sp.Gt(x, bound) if strict else sp.Ge(x, bound)
            return sp.Lt(x, bound) if strict else sp.Le(x, bound)
    coeffs = [e.coeff(x, 1) for x in present]
    if present and all(c.is_number for c in coeffs):
        # several parameters with numeric coefficients: 'b_J + b_Q <= 2/3'
        lead = coeffs[0]
        lhs = sp.expand(sum(c * x for c, x in zip(coeffs, present)) / abs(lead))
        bound = _nice(-(e - sum(c * x for c, x in zip(coeffs, present))) / abs(lead))
        if lead > 0:
            return sp.Gt(lhs, bound) if strict else sp.Ge(lhs, bound)
        return sp.Lt(-lhs, -bound) if strict else sp.Le(-lhs, -bound)
    e = _nice(e)
    return sp.Gt(e, 0) if strict else sp.Ge(e, 0)


def clear_caches() -> None:
    """Forget every result kept across calls (tests that compare two computations)."""
    from pokerdyn.solvers.symbolic.casesearch import case_enumeration

    critical_values.clear()
    for c in (_CACHE, _PIECES, _PREFILTER, _AT, _KEYS, case_enumeration._AT_VALUE):
        c.clear()


_PIECES: dict = {}  # _piece_key -> display solutions of that piece
_PREFILTER: dict = {}  # (family, pot, kind) -> excluded in floating point by a clear margin


def _canon(e: sp.Expr) -> str:
    """A canonical string of an exact expression (radicals rationalized, then cancelled)."""
    e = sp.sympify(e)
    if any(a.exp.is_Rational and a.exp.q != 1 for a in e.atoms(sp.Pow)):
        e = sp.expand(sp.radsimp(e))
    return sp.srepr(sp.cancel(e))


def _canon_rel(c: sp.Basic) -> tuple:
    if isinstance(c.lhs, sp.Symbol) and not (c.rhs.free_symbols - {sp.Symbol("P")}):
        return (c.lhs.name, type(c).__name__, _canon(c.rhs))
    e = sp.expand(c.lhs - c.rhs)
    xs = sorted(e.free_symbols, key=lambda s: s.name)
    lead = next((e.coeff(x, 1) for x in xs if e.coeff(x, 1).is_number and e.coeff(x, 1) != 0), 1)
    return ("", type(c).__name__, _canon(e / abs(lead)))


def _key(sol: Solution) -> tuple:
    if sol not in _KEYS:
        _KEYS[sol] = (tuple((k, _canon(v)) for k, v in sol.strategy),
                      frozenset(_canon_rel(c) for c in sol.constraints))
    return _KEYS[sol]


_KEYS: dict = {}  # Solution -> its canonical key (the merge compares each several times)


_CACHE: dict[tuple, list[Piece]] = {}


def equilibrium_pieces(game: Game, fixed: Mapping[str, Any] | None = None,
                       merge: bool = True, reduce: bool = True,
                       generic: Sequence[Family] | None = None,
                       tasks: dict | None = None) -> list[Piece]:
    """All equilibrium families of ``game`` over the whole P axis (cached per process);
    ``reduce`` (default) replaces each piece's families by the smallest equivalent list
    (:func:`solvers.symbolic.families.reduction.reduce_families`), ``merge`` joins adjacent pieces.
    ``generic``: the generic families, found elsewhere (:mod:`solvers.symbolic.axis`),
    instead of the case search's; ``tasks`` (root key -> (value, [("leaf", fixed, case)]))
    are the leaves re-solved at those exact values (the case search records its own)."""
    key = (id(game), game.name, tuple(sorted((fixed or {}).items())), merge, reduce,
           None if generic is None else tuple(generic), None if tasks is None else
           tuple(sorted(tasks)))
    if key in _CACHE:
        return _CACHE[key]
    p = pot_symbol(game)
    pays = symbolic_payoffs(game)
    if p is None:
        fams = enumerate_families(game, fixed=fixed)
        fams = reduce_families(game, fams) if reduce else fams
        out = [Piece(sp.S.Reals, tuple(_display(f, pays, None, None) for f in fams))]
        _CACHE[key] = out
        return out
    from pokerdyn.games.exact_values import domain_interval

    low = domain_interval(game, "P").inf
    low = sp.S.Zero if low is sp.S.NegativeInfinity else low
    if low != 0:
        raise GameError("the P axis must start at 0 (domain (0, oo))")
    critical: dict = dict(tasks or {})
    gen = list(generic) if generic is not None else \
        enumerate_families(game, fixed=fixed, critical=critical)
    roots = {r for r, _ in critical.values()} | critical_values.critical_roots(gen, p)
    points = critical_values.refine(gen, p, set(pot_split.merge_points(roots)))
    global _JOB
    _JOB = (game, gen, critical, fixed, pays, p, reduce)
    try:
        out = _map_pieces(pot_split.pieces(points))
    finally:
        _JOB = None
    pieces = _merge(out, p, game if reduce else None) if merge else [Piece(pc.as_set(), tuple(s)) for pc, s in out]
    _CACHE[key] = pieces
    return pieces


_JOB = None  # the enumeration that _piece works on (set around _map_pieces; inherited by forks)
PARALLEL_MIN_PIECES = 3  # fewer items than this stay in this process


def _piece_key(pc: pot_split.Piece) -> tuple:
    """What :func:`_piece`'s result depends on: the game, the piece's sample (its exact pot
    for a point), the families not excluded there by a clear floating-point margin (the
    first test :func:`_piece` applies; they are the families it is given) and, at a point,
    the tasks recorded there."""
    game, gen, critical, fixed, pays, p, reduce = _JOB
    base = (id(game), game.name, tuple(sorted((fixed or {}).items())), reduce)
    # the floats the two tests themselves use
    fv = float(sp.N(pc.sample, 20)) if pc.is_point else float(pc.sample)
    if pc.is_point:
        fams = tuple(f for f in gen if not _excluded(f, p, pc.sample, fv, "point"))
        tasks = tuple(repr(t) if t[0] != "family" else t for r, ts in critical.values()
                      if pot_split.sign(r - pc.low) == 0 for t in ts)
        return base + ("point", pc.low, fams, tasks)
    return base + ("interval", pc.sample, tuple(f for f in gen
                                                if not _excluded(f, p, pc.sample, fv, "open")))


def _excluded(fam: Family, p: sp.Symbol, v: sp.Expr, fv: float, kind: str) -> bool:
    """The floating-point pre-test of a family at the pot ``v`` (``fv`` its float):
    :func:`case_enumeration.families_at_point`'s at a point, :func:`_feasible_on`'s inside an
    interval (each drops only families that fail by a clear margin)."""
    key = (fam, v, kind)
    if key not in _PREFILTER:
        _PREFILTER[key] = float_filter.pot_only_fails(fam.constraints, p, fv) \
            if kind == "point" else \
            float_filter.clearly_infeasible(fam.constraints, fam.free_symbols(), p, fv)
    return _PREFILTER[key]


def _piece(item: tuple) -> tuple:
    """One piece of the P axis with its reduced families in display form (``item``: the
    piece and its :func:`_piece_key`, whose families are those to test there)."""
    pc, key = item
    game, _, critical, fixed, pays, p, reduce = _JOB
    if pc.is_point:
        tasks = [t for r, ts in critical.values() if pot_split.sign(r - pc.low) == 0 for t in ts]
        fams = families_at_point(game, key[-2], pc.low, tasks, fixed)
        fams = reduce_families(game, fams, at=pc.low) if reduce else fams
        return pc, [_display(f, pays, p, None, at=pc.low) for f in fams]
    fams = [f for f in key[-1] if _feasible_on(f, p, pc.sample)]
    fams = reduce_families(game, fams, p=p, sample=pc.sample) if reduce else fams
    return pc, [_display(f, pays, p, pc.sample) for f in fams]


def _map_pieces(pcs: list) -> list:
    """:func:`_piece` of every piece, in order; a piece computed by an earlier call of this
    process with the same :func:`_piece_key` is taken from there (the rounds of a
    whole-axis sweep share most of their pieces).  The pieces are independent exact
    computations, so on a machine with several cores a long axis is shared among forked
    processes (which inherit the enumeration and sympy's caches; each piece's result is
    the same wherever it is computed).  Serial where fork is unavailable or fails."""
    keys = [_piece_key(pc) for pc in pcs]
    todo = list({k: (pc, k) for pc, k in zip(pcs, keys) if k not in _PIECES}.values())
    for (_, k), (_, sols) in zip(todo, forked_results(_piece, todo,
                                                      min_items=PARALLEL_MIN_PIECES)):
        _PIECES[k] = sols
    return [(pc, _PIECES[k]) for pc, k in zip(pcs, keys)]


def _at(sols: Sequence[Solution], p: sp.Symbol, v: sp.Expr, game: Game | None) -> set:
    """Keys of interval solutions evaluated at the endpoint ``v`` (reduced there when
    ``game`` is given)."""
    # _merge asks for the same run at the same end point more than once
    key = (id(game), tuple(sols), p, v)
    if key not in _AT:
        fams = []
        for s in sols:
            fam = Family(s.strategy, s.free, s.raw, "")
            cons = [(sp.expand(e.xreplace({p: v})), st) for e, st in s.raw]
            if float_filter.feasible(cons, fam.free_symbols()):
                fams.append(fam)
        if game is not None:
            fams = reduce_families(game, fams, at=v, p=p)
        _AT[key] = frozenset(_key(_display(fam, (), p, None, at=v)) for fam in fams)
    return _AT[key]


_AT: dict = {}


def _merge(out: list, p: sp.Symbol, game: Game | None) -> list[Piece]:
    """Join interval - point - interval runs whose families agree."""
    groups: list[list] = []  # each: [low, high, low_open, high_open, sols]
    i = 0
    while i < len(out):
        pc, sols = out[i]
        if groups and not pc.is_point:
            g = groups[-1]
            prev_pc, prev_sols = out[i - 1]
            same = ({_key(s) for s in sols} == {_key(s) for s in g[4]}
                    and prev_pc.is_point and g[3] is False
                    and {_key(s) for s in prev_sols} == _at(sols, p, prev_pc.low, game))
            if same:
                g[1], g[3] = pc.high, True
                i += 1
                continue
        if pc.is_point:
            if groups and groups[-1][3] and not groups[-1][1] is sp.oo and \
                    _at(groups[-1][4], p, pc.low, game) == {_key(s) for s in sols}:
                groups[-1][1], groups[-1][3] = pc.low, False
                i += 1
                continue
            groups.append([pc.low, pc.low, False, False, sols])
        elif groups and groups[-1][0] == groups[-1][1] and groups[-1][0] == pc.low and \
                _at(sols, p, pc.low, game) == {_key(s) for s in groups[-1][4]}:
            groups[-1][1:] = [pc.high, False, True, sols]
        else:
            groups.append([pc.low, pc.high, True, True, sols])
        i += 1
    pieces = []
    for low, high, lo_open, hi_open, sols in groups:
        s = sp.FiniteSet(low) if low == high and not lo_open else sp.Interval(low, high, lo_open, hi_open)
        pieces.append(Piece(s, tuple(sols)))
    return pieces


def families_at_pot(game: Game, pot: Any, fixed: Mapping[str, Any] | None = None) -> list[Family]:
    """The raw equilibrium families of ``game`` at one exact pot: the case enumeration run
    with ``P`` substituted (no P axis is computed).  ``pot`` is exact (a float is read as
    the rational it prints as, 2.5 -> 5/2); GameError when it is not a positive real."""
    v = exact_pot(pot)
    if pot_symbol(game) is None:
        raise GameError(f"game {game.name!r} has no pot parameter P")
    return enumerate_families(game, {"P": v}, fixed)


def solutions_at(game: Game, pot: Any, fixed: Mapping[str, Any] | None = None) -> list[Solution]:
    """The families at one exact pot value, in display form (enumerated at that pot only;
    equal as a set of equilibria to the piece of :func:`equilibrium_pieces` holding it)."""
    p, v = pot_symbol(game), exact_pot(pot)
    fams = reduce_families(game, families_at_pot(game, v, fixed), at=v, p=p)
    pays = symbolic_payoffs(game)
    return [_display(f, pays, p, None, at=v) for f in fams]


def solutions_at_from_axis(game: Game, pot: Any, fixed: Mapping[str, Any] | None = None
                           ) -> list[Solution]:
    """The families at one exact pot read from the whole-axis result (the former path of
    :func:`solutions_at`; kept as the reference that tests and benchmarks compare with)."""
    p = pot_symbol(game)
    v = exact_pot(pot)
    for pc in equilibrium_pieces(game, fixed):
        if pc.p_set.contains(v) is sp.true:
            if isinstance(pc.p_set, sp.FiniteSet):
                return list(pc.solutions)
            fams = []
            for s in pc.solutions:
                fam = Family(s.strategy, s.free, s.raw, "")
                cons = [(sp.expand(e.xreplace({p: v})), st) for e, st in s.raw]
                if pot_split.feasible(cons, fam.free_symbols()):
                    fams.append(fam)
            fams = reduce_families(game, fams, at=v, p=p)
            return [_display(f, symbolic_payoffs(game), p, None, at=v) for f in fams]
    raise GameError(f"pot P={pot} is outside the game's P axis")
