"""All equilibria of a game with a pot ``P`` over an interval of P, from complete exact
enumerations at rational pots.

1. At a rational pot ``v`` every equilibrium is found (:func:`.at_pot.pot_families`): the
   compiled case walk with ``P = v`` leaves a few hundred supports; each is solved exactly,
   block by block, by Groebner bases over QQ (:mod:`solvers.symbolic.algebra.groebner`).  With ``workers`` the pots
   of a round are walked in forked processes and their leaves shared among them in chunks
   (:func:`.at_pot.enumerate_pots`), and the new supports of a round are solved with ``P``
   symbolic there too.
2. Each support found is solved again with ``P`` symbolic (Groebner bases over QQ(P)):
   its generic family, in closed form in ``P`` and free parameters.
3. The generic families go to :func:`solvers.symbolic.axis.piecewise.equilibrium_pieces`: the P
   axis is cut at every root of every constraint (exact algebraic endpoints), each piece
   keeps the families feasible on it, adjacent pieces with equal families merge.
4. Every open piece whose rational sample was not enumerated yet is enumerated there; a
   support found that no generic family explains is added and step 3 is repeated.
5. Every rational end of a piece in the range is enumerated too: at such a critical pot
   families exist that no generic family's limit gives (kuhn3-full-simplified at P = 3:
   families with up to four free parameters of which the limits of the pieces on either
   side are slices).  Their supports are re-solved there (``tasks`` of
   :func:`~solvers.symbolic.axis.piecewise.equilibrium_pieces`) and, like every support found,
   with ``P`` symbolic (step 2: a family may hold on an interval beside the end that the
   piece's sample missed; steps 3-5 repeat until nothing new is found).  Irrational ends
   are not enumerated (an exact enumeration needs a rational pot); the families there are
   the limits of the adjacent pieces' families and are listed as such.

What this proves: at every enumerated pot the set is complete, apart from what
``Sweep.undecided`` lists (the case walk is exhaustive and the Groebner bases exact); every
piece's families are exact equilibria on the whole piece (their constraints hold on it);
each open piece holds an enumerated pot whose complete set equals the piece's families, and
every rational end is enumerated.  What it does not prove: that no further support exists
only on a sub-interval of a piece that contains no enumerated pot
(:mod:`solvers.symbolic.certificates.completeness` checks that with ``P`` symbolic).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Sequence

import sympy as sp

from pokerdyn.games import Game

from pokerdyn.solvers.symbolic.feasibility import pot_split
from pokerdyn.solvers.symbolic.model.conditions import Condition, Family, conditions, pot_symbol
from pokerdyn.solvers.symbolic.axis import at_pot
from pokerdyn.solvers.symbolic.algebra import groebner
from pokerdyn.solvers.symbolic.feasibility import radical
from pokerdyn.solvers.symbolic.axis.at_pot import pot_families
from pokerdyn.solvers.symbolic.axis import forked_map
from pokerdyn.solvers.symbolic.axis.forked_map import forked_results
from pokerdyn.solvers.symbolic.algebra.groebner import solve_block
from pokerdyn.solvers.symbolic.axis.piecewise import Piece, equilibrium_pieces
from pokerdyn.solvers.symbolic.algebra.support_solve import pure_values, solve_support


def generic_family(game: Game, conds: Sequence[Condition], case: str,
                   fixed: Mapping[str, Any]) -> list[Family]:
    """The families of support ``case`` with ``P`` symbolic (closed form in ``P``, or in
    ``P`` and one ``sqrt(R(P))``: :func:`algebraic_family`)."""
    p = pot_symbol(game)
    names = [n.name for n in game.named]
    fams = solve_support(conds, case, fixed, names, solver=lambda e, x: solve_block(e, x, p))
    return [g for f in fams if (g := algebraic_family(f, p)) is not None]


def algebraic_family(fam: Family, p: sp.Symbol) -> Family | None:
    """``fam`` itself when it is rational in ``P``; with one ``sqrt(R(P))``: its values and
    constraints in the normal form ``a + b sqrt R`` (:mod:`solvers.symbolic.feasibility.radical`), the constraints that
    vanish identically dropped and ``R >= 0`` added (where the family is real); None (and
    the family recorded in ``groebner.SKIPPED``) with several roots."""
    exprs = [v for _, v in fam.strategy] + [e for e, _ in fam.constraints]
    try:
        root = radical.radical_of(exprs, p)
    except ValueError:
        groebner.SKIPPED.append(fam)
        return None
    if root is None:
        return fam
    strat = tuple((k, radical.normal(v, p)) for k, v in fam.strategy)
    cons = [(radical.normal(e, p), s) for e, s in fam.constraints]
    cons = [(e, s) for e, s in cons if e != 0] + [(root.base, False)]
    return replace(fam, strategy=strat, constraints=tuple(cons))


@dataclass
class Sweep:
    """The result: pieces of the P axis with their families, the pots enumerated (pot ->
    number of families there), the supports found and the time spent."""

    pieces: list[Piece]
    pots: dict = field(default_factory=dict)
    supports: list = field(default_factory=list)
    seconds: float = 0.0
    unresolved: dict = field(default_factory=dict)
    undecided: dict = field(default_factory=dict)
    extra: list = field(default_factory=list)  # supports given from outside (``extra``)


def sweep(game: Game, fixed: Mapping[str, Any], low: sp.Expr, high: sp.Expr,
          start: Sequence[sp.Expr] = (), rounds: int = 10,
          progress: Callable[[str], None] | None = None,
          done: dict | None = None, undecided: dict | None = None,
          ends: bool = True, workers: int = 1, extra: Sequence[str] = ()) -> Sweep:
    """Pieces of ``low <= P <= high`` (see the module docstring).  ``start``: pots to
    enumerate first; ``done``: pot -> supports of an earlier (resumed) run, updated in
    place; ``undecided``: pot -> [[support, reason]] of what an enumeration could not
    decide (:func:`pot_families`' ``unhandled``), updated in place; ``ends``: enumerate
    the rational ends of the pieces (step 5; off only to save time, then the sets at those
    pots are the limits of the pieces beside them and may be incomplete); ``workers``: the
    pots of a round enumerated in that many forked processes (the result does not depend
    on it); ``extra``: supports solved with ``P`` symbolic besides those the enumerations
    find (those of families the completeness proof, :mod:`solvers.symbolic.certificates.completeness`, found between the
    enumerated pots)."""
    t0 = time.perf_counter()
    conds = conditions(game, None, fixed)
    done = {} if done is None else done
    undecided = {} if undecided is None else undecided

    found: dict[str, list[Family]] = {}  # pot -> its families, enumerated in this run

    def enumerate_all(vs: Sequence[sp.Expr]) -> None:
        vs = [v for v in dict.fromkeys(vs) if str(v) not in done]
        for v, (fams, cases, un) in zip(vs, _enumerate(game, conds, fixed, vs, workers)):
            found[str(v)] = fams
            done[str(v)] = cases
            if un:
                undecided[str(v)] = un
            if progress:
                progress(str(v))

    supports: dict[str, list[Family]] = {}
    # a resumed run takes every pot enumerated before (else the supports found at earlier
    # samples were dropped: the samples are skipped as done, their supports never read)
    todo = [sp.Rational(x) for x in start] + [sp.Rational(k) for k in done
                                              if k not in {str(sp.Rational(x)) for x in start}]
    seen: set = set()
    pieces: list[Piece] = []
    for _ in range(rounds):
        new = False
        enumerate_all(todo)
        cases = [c for c in dict.fromkeys(extra) if c not in supports]
        for v in todo:
            seen.add(str(v))
            cases += [c for c in done[str(v)] if c not in supports and c not in cases]
        for case, fams in zip(cases, _generic(game, conds, cases, fixed, workers)):
            supports[case] = fams
            new = True
        if not new and pieces:
            break
        gen = [f for fs in supports.values() for f in fs]
        pieces = equilibrium_pieces(game, fixed, generic=gen)
        todo = [s for s in _samples(pieces, low, high) if str(s) not in seen]
        if ends:  # step 5; their supports are solved with P symbolic as well (a family
            # that holds on an interval beside the end but not at that piece's sample)
            todo += [v for v in sorted(_piece_ends(pieces), key=float)
                     if v.is_Rational and low <= v <= high and str(v) not in seen]
        if not todo:
            break
    else:  # the rounds ran out: say which pots still wanted enumerating
        for v in todo:
            undecided.setdefault(str(v), []).append(
                ("*", f"not enumerated: the sweep stopped after rounds={rounds}"))
    tasks = _point_tasks(pieces, conds, done, found)
    if tasks:  # enumerated critical values: their own supports re-solved there
        gen = [f for fs in supports.values() for f in fs]
        pieces = equilibrium_pieces(game, fixed, generic=gen, tasks=tasks)
    return Sweep(pieces, {k: len(v) for k, v in done.items()}, sorted(supports),
                 time.perf_counter() - t0, unresolved(pieces, supports, done),
                 {k: [list(u) for u in v] for k, v in undecided.items()},
                 sorted(set(extra)))


def _enumerate(game: Game, conds: Sequence[Condition], fixed: Mapping[str, Any],
               vs: Sequence[sp.Expr], workers: int):
    """:func:`.at_pot.summary` of each pot of ``vs``, in order: here one by one, or shared
    among ``workers`` forked processes leaf by leaf (:func:`.at_pot.enumerate_pots`)."""
    if workers > 1 and len(vs) and forked_map.can_fork():
        yield from at_pot.enumerate_pots(game, conds, fixed, vs, workers)
        return
    for v in vs:
        un: list = []
        odd: list = []
        fams = pot_families(game, conds, v, fixed, un, odd)
        yield at_pot.summary(fams, [i for i, f in enumerate(fams) if any(f is g for g in odd)], un)


def _generic(game: Game, conds: Sequence[Condition], cases: Sequence[str],
             fixed: Mapping[str, Any], workers: int) -> list:
    """:func:`generic_family` of each support, in order (shared among ``workers`` forked
    processes; the forms computed there come back as they are)."""
    global _GENERIC_JOB
    if workers < 2:
        return [generic_family(game, conds, c, fixed) for c in cases]
    _GENERIC_JOB = (game, conds, fixed)
    try:
        return forked_results(_generic_one, list(cases), min_items=2, workers=workers)
    finally:
        _GENERIC_JOB = None


_GENERIC_JOB = None  # (game, conds, fixed) of _generic, for its forks


def _generic_one(case: str) -> list:
    return generic_family(*_GENERIC_JOB[:2], case, _GENERIC_JOB[2])


def unresolved(pieces: Sequence[Piece], supports: Mapping[str, list], done: Mapping) -> dict:
    """Supports found at an enumerated pot that is not an end of a piece whose solve with
    ``P`` symbolic gave no family rational in ``P`` (e.g. a root of a quadratic in ``P``:
    the full-street family F10 on [(3+sqrt 97)/4, (3+sqrt 15)/2], README): support -> the
    pots where it was found.  The pieces do not hold these families; the caller says so."""
    ends = _piece_ends(pieces)
    out: dict = {}
    for key, cases in done.items():
        if sp.Rational(key) in ends:
            continue
        for case in cases:
            if not supports.get(case, [None]):
                out.setdefault(case, []).append(key)
    return {c: sorted(v, key=sp.Rational) for c, v in sorted(out.items())}


def _point_tasks(pieces: Sequence[Piece], conds: Sequence[Condition], done: dict,
                 found: Mapping[str, list] | None = None) -> dict:
    """The supports found at enumerated pots that are ends of pieces (critical values,
    where families may exist that no generic family's limit gives): the families found
    there in this run (``found``: pot -> families), else (a pot of a resumed run) its
    supports as leaves to re-solve there."""
    ends = _piece_ends(pieces)
    out: dict = {}
    for key, cases in done.items():
        v = sp.Rational(key)
        if v not in ends:
            continue
        if found and key in found:
            out[sp.srepr(v)] = (v, [("family", f) for f in found[key]])
            continue
        leaves = [("leaf", pure_values(conds, case), case) for case in cases]
        out[sp.srepr(v)] = (v, leaves)
    return out


def _piece_ends(pieces: Sequence[Piece]) -> set:
    """The finite ends of the pieces (the critical values of the axis)."""
    return {e for pc in pieces for e in (pc.p_set.inf, pc.p_set.sup) if e is not sp.oo}


def _samples(pieces: Sequence[Piece], low: sp.Expr, high: sp.Expr) -> list[sp.Expr]:
    """A rational pot inside every open piece that meets [low, high]."""
    out = []
    for pc in pieces:
        s = pc.p_set
        if not isinstance(s, sp.Interval):
            continue
        a, b = sp.Max(s.start, low), sp.Min(s.end, high)
        if b is not sp.oo and pot_split.sign(b - a) <= 0:
            continue
        out.append(pot_split.rational_between(a, b))
    return out


def sweep_record(game: Game, fixed: Mapping[str, Any], sw: Sweep, low: sp.Expr,
                 high: sp.Expr) -> dict:
    """The sweep as JSON-ready data: the pieces meeting ``[low, high]`` with their families
    (``family_records`` format plus ``support``: the a/b/c pattern of the certificate
    sample, and ``certificate``: a rational pot inside the piece, a point of the family
    there and its exact NashConv), the ranges where at least three families coexist (with
    each end's minimal polynomial), the enumerated pots and the time."""
    from pokerdyn.solvers.symbolic.axis.family_records import set_str, solution_record
    from pokerdyn.solvers.symbolic.model.nash_conv_fraction import exact_payoffs

    p = pot_symbol(game)
    names = [n.name for n in game.named if n.name not in fixed]
    pieces = []
    for pc in sw.pieces:
        s = pc.p_set
        if sp.Min(s.sup, high) is not sp.oo and \
                pot_split.sign(sp.Min(s.sup, high) - sp.Max(s.inf, low)) < 0:
            continue
        roots = {r for sol in pc.solutions for _, v in sol.strategy for r in radical.radicals(v, p)}
        at = s.inf if isinstance(s, sp.FiniteSet) else (
            square_pot(next(iter(roots)).base, p, sp.Max(s.inf, low), sp.Min(s.sup, high))
            if len(roots) == 1 else None) or pot_split.rational_between(
            sp.Max(s.inf, low), sp.Min(s.sup, high))
        exact = at.is_Rational
        pays = exact_payoffs(game, at) if exact else None
        fams = []
        for sol in pc.solutions:
            rec = solution_record(s, sol)
            smp = sol.sample(at, p)
            rec["support"] = "".join("b" if smp[n] == 0 else "a" if smp[n] == 1 else "c"
                                     for n in names)
            rec["certificate"] = _certificate(game, at, smp, pays, sol, p)
            fams.append(rec)
        pieces.append({"p_set": set_str(s), "families": fams})
    return {"game": game.name, "p_min": str(low), "p_max": str(high),
            "fixed": {k: str(v) for k, v in fixed.items()}, "free_names": names,
            "pots_enumerated": sw.pots, "supports": sw.supports, "extra_supports": sw.extra,
            "unresolved_supports": [{"support": c, "pots": v} for c, v in sw.unresolved.items()],
            "undecided": [{"pot": k, "support": c, "reason": why} for k, v in
                          sorted(sw.undecided.items(), key=lambda kv: sp.Rational(kv[0]))
                          for c, why in v],
            "coexistence": coexistence(sw.pieces, p), "seconds": round(sw.seconds, 1),
            "pieces": pieces}


def _certificate(game: Game, at: sp.Expr, smp: dict, pays: list | None, sol: Any,
                 p: sp.Symbol) -> dict:
    """Exact NashConv of the sample ``smp`` at the pot ``at`` in Fractions; for a family
    with ``sqrt(R(P))`` also ``method``: "rational" (``R(at)`` is a square, so the sample is
    rational) or "sympy" (exact arithmetic in ``QQ(sqrt R(at))``).  None at an algebraic
    pot."""
    from pokerdyn.solvers.symbolic.model.nash_conv_fraction import nash_conv_fraction
    from pokerdyn.solvers.symbolic.model.nash_conv import exact_nash_conv

    out: dict = {"pot": str(at), "sample": {k: str(v) for k, v in smp.items()},
                 "nash_conv": None}
    algebraic = any(radical.radicals(v, p) for _, v in sol.strategy)
    if at.is_Rational and all(sp.sympify(v).is_Rational for v in smp.values()):
        out["nash_conv"] = str(nash_conv_fraction(game, at, smp, pays))
        if algebraic:
            out["method"] = "rational"
    elif at.is_Rational:
        out["nash_conv"], out["method"] = str(exact_nash_conv(game, at, smp)), "sympy"
    return out


def square_pot(base: sp.Expr, p: sp.Symbol, low: sp.Expr, high: sp.Expr,
               max_den: int = 400) -> sp.Rational | None:
    """The rational ``v`` of least denominator (at most ``max_den``) strictly inside
    ``(low, high)`` with ``base(v)`` the square of a rational: there a family with
    ``sqrt(base)`` is rational and its NashConv is computed in Fractions."""
    from fractions import Fraction
    from math import ceil, floor, isqrt

    coeffs = [Fraction(int(c.p), int(c.q)) for c in sp.Poly(base, p).all_coeffs()]
    fa, fb = float(low), float(high) if high is not sp.oo else float(low) + 1
    for q in range(1, max_den + 1):
        for n in range(floor(fa * q), ceil(fb * q) + 1):
            v = Fraction(n, q)
            if not fa < v < fb or v.denominator != q:
                continue
            w = Fraction(0)
            for c in coeffs:
                w = w * v + c
            if w >= 0 and isqrt(w.numerator) ** 2 == w.numerator and \
                    isqrt(w.denominator) ** 2 == w.denominator:
                r = sp.Rational(n, q)
                if pot_split.sign(r - low) > 0 and pot_split.sign(high - r) > 0:
                    return r
    return None


def coexistence(pieces: Sequence[Piece], p: sp.Symbol, count: int = 3) -> list[dict]:
    """Maximal runs of adjacent pieces with at least ``count`` families: the set of P, the
    number of families, and each end with its minimal polynomial over QQ."""
    runs: list[list] = []
    for pc in pieces:
        n = len(pc.solutions)
        if n < count:
            continue
        s = pc.p_set
        if runs and pot_split.sign(runs[-1][0].sup - s.inf) == 0:
            runs[-1][0] = sp.Union(runs[-1][0], s)
            runs[-1][1] = min(runs[-1][1], n)
        else:
            runs.append([s, n])
    out = []
    for s, n in runs:
        ends = [e for e in (s.inf, s.sup) if e is not sp.oo]
        out.append({"p_set": str(s), "count": n,
                    "ends": [{"value": str(e), "float": float(e),
                              "minimal_polynomial": str(sp.minimal_polynomial(e, p))}
                             for e in ends]})
    return out
