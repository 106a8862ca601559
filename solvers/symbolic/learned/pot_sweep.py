"""The equilibrium set of a game along a range of pots ``[A, B]``: supports proposed by
seeded CFR+ and FP runs at sample pots, each solved once with ``P`` symbolic
(:mod:`.pot_axis`), each family's exact P intervals certified, reported piecewise in P.

Sample pots: a grid of ``[A, B]``, then every rational end of a family's interval and a
rational inside every interval between consecutive ends that no run has visited, until
every interval has been visited (or ``max_pots``).  At each sample pot the pipeline of
:func:`.equilibrium_set.equilibrium_set` runs with the P-symbolic solver, so its families
there are the P-families evaluated at that pot and every run's distance to them is measured.

What is claimed: every family reported is exact and certified (exact NashConv 0 at a
rational point at a rational pot of every interval it is reported on).  The set is the union
of the families that the runs reach, not a proof that no other support holds an equilibrium
(the case search of :mod:`solvers.symbolic.axis.piecewise` proves that, up to 16 parameters).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Sequence

import sympy as sp
from tqdm import tqdm

from pokerdyn.games import Game, GameError

from pokerdyn.solvers.symbolic.feasibility import pot_split
from pokerdyn.solvers.symbolic.model.conditions import Family
from pokerdyn.solvers.symbolic.axis.family_records import record_constraint
from pokerdyn.solvers.symbolic.axis.piecewise import Solution
from pokerdyn.solvers.symbolic.learned.equilibrium_set import EquilibriumSet, equilibrium_set
from pokerdyn.solvers.symbolic.learned.pot_axis import Segment, at_value, certify_at, full_case, idle_of, payoffs_of, pot_system, segments, support_families

NOTE = ("the set is the union of the certified families that the seeded CFR+/FP runs reach, "
        "not a proof that no other equilibrium exists")


@dataclass(frozen=True)
class PotFamily:
    """A family with ``P`` symbolic, the certified pieces of ``[A, B]`` where it is valid,
    and its payoffs in closed form (in ``P`` and its free parameters)."""

    family: Family
    segments: tuple[Segment, ...]
    payoffs: tuple[sp.Expr, ...]
    p_symbolic: bool = True  # False: solved at one pot after the P-symbolic solve timed out


@dataclass(frozen=True)
class PotSweep:
    """Outcome of :func:`pot_sweep`: the families, the pieces of ``[low, high]`` (P set,
    indices of the families valid there, adjacent pieces with the same families joined),
    the equilibrium set found at each sample pot, and the time spent by stage."""

    game: str
    low: sp.Expr
    high: sp.Expr
    families: tuple[PotFamily, ...]
    pieces: tuple[tuple[sp.Set, tuple[int, ...]], ...]
    sets: tuple[EquilibriumSet, ...]
    seconds: dict = field(default_factory=dict)


def _key(f: Family) -> tuple:
    return (f.strategy, f.free, frozenset(f.constraints), f.only_at)


def pot_sweep(game: Game, low: Any, high: Any, grid: int = 5, seeds: int = 4, seed: int = 0,
              tol: float | None = 1e-5, workers: int | None = None, rounds: int = 1,
              max_pots: int = 16, progress: bool = True,
              methods: Sequence[str] = ("cfr+", "fp")) -> PotSweep:
    """Certified equilibrium families of ``game`` for ``low <= P <= high``, piecewise in P
    (see the module docstring); ``seeds`` runs of each method per sample pot, each stopped
    at NashConv ``tol``; ``rounds`` refinements of runs far from every family."""
    low, high = sp.Rational(low), sp.Rational(high)
    if not 0 < low <= high:
        raise GameError(f"pots {low}:{high}: the range must satisfy 0 < A <= B")
    if grid < 2:
        raise GameError(f"grid={grid} is outside the allowed range [2, inf)")
    clock = {"system": 0.0, "pots": 0.0, "segments": 0.0}
    t = time.perf_counter()
    psys = pot_system(game)
    p = psys.pot
    clock["system"] = time.perf_counter() - t
    found: dict[tuple, Family] = {}
    near: dict[tuple, dict] = {}  # family key -> {pot: [free-parameter values of limits]}
    pointwise: set[tuple] = set()  # families solved at one pot only (P-symbolic too slow)
    returned: list[Family] = []  # the P-symbolic families' values at the current pot

    def solver_at(pot):
        def solve(case, fixed, values):
            idle = idle_of(psys, fixed)
            full = full_case(psys.names, fixed, idle, _free(psys.names, fixed), case)
            # SupportTimeout (coupled blocks swell over QQ(P)) propagates: equilibrium_set
            # then solves the support at this pot only
            fams = support_families(psys, idle, full, {**values, "P": float(pot)})
            out = []
            for f in fams:
                k = _key(f)
                found.setdefault(k, f)
                near.setdefault(k, {}).setdefault(pot, []).append(
                    [values[n] for n in f.free])
                g = at_value(f, p, pot)
                if g is not None:
                    out.append(Family(g.strategy, g.free, g.constraints, case))
            returned.extend(out)
            return out
        return solve

    todo = list(dict.fromkeys(low + (high - low) * sp.Rational(k, grid - 1)
                              for k in range(grid)))
    done: list[sp.Expr] = []
    sets: list[EquilibriumSet] = []
    segs: dict[tuple, list[Segment]] = {}
    bar = tqdm(total=len(todo), desc="pots", disable=not progress, leave=False)
    while todo and len(done) < max_pots:
        pot = todo.pop(0)
        bar.set_postfix(P=str(pot), families=len(found), refresh=True)
        t = time.perf_counter()
        sets.append(equilibrium_set(game, pot, seeds=seeds, seed=seed, methods=methods,
                                    workers=workers, rounds=rounds, tol=tol,
                                    solver=solver_at(pot), curves=False))
        # curves=False: a curve of one pot is not followed in P, and its search (minutes per
        # skipped support) would dominate a sweep; `equilibria GAME --pot X` looks for them
        clock["pots"] += time.perf_counter() - t
        for c in sets[-1].families:  # solved at this pot only: a family of P = pot
            if not any(c.family is f for f in returned):
                f = c.family
                f = Family(f.strategy, f.free, f.constraints, f.cases, (p - pot,))
                found.setdefault(_key(f), f)
                pointwise.add(_key(f))
        returned.clear()
        done.append(pot)
        bar.update(1)
        if todo:
            continue
        t = time.perf_counter()
        for k, f in found.items():
            if k not in segs:
                segs[k] = segments(psys, f, low, high,
                                   {sp.Rational(v): ths for v, ths in near.get(k, {}).items()})
        clock["segments"] += time.perf_counter() - t
        todo = _unvisited(_ends(segs.values(), low, high), done)
        bar.total += len(todo)
    bar.close()
    t = time.perf_counter()
    segs = split_at_common_ends(psys, found, segs, low, high)
    clock["segments"] += time.perf_counter() - t
    keys = [k for k in found if segs.get(k)]
    fams = tuple(PotFamily(found[k], tuple(segs[k]), payoffs_of(psys, found[k]),
                           k not in pointwise) for k in keys)
    return PotSweep(game.name, low, high, fams, _pieces(fams, low, high), tuple(sets), clock)


def split_at_common_ends(psys, found: dict, segs: dict, low, high) -> dict:
    """Every family's open segments cut at the ends of all families' segments inside them,
    each part certified again at a rational pot inside it (parts that fail are dropped).

    A family's own critical values can miss an end (Fourier-Motzkin over several free
    parameters is cut off after ``FM_SECONDS``): kuhn3's families of (7/2, 3.898) were
    reported on (7/2, 4) from one certificate at 15/4, but fail at 39/10; the end
    (3 + sqrt 23)/2 was found by other families of the same sweep.  Adjacent certified parts
    are joined again where the family is valid at the end between them.  A family on an
    interval that ends at ``low`` or ``high`` is certified at that end too (it is a point of
    the range that no open segment covers)."""
    ends = _ends(segs.values(), low, high)
    poly = {sp.srepr(e): q for ss in segs.values() for s in ss
            for e, q in ((s.low, s.low_poly), (s.high, s.high_poly)) if q is not None}
    p = psys.pot
    out: dict = {}
    for k, ss in segs.items():
        new: list[Segment] = []
        for s in ss:
            inner = [e for e in ends if pot_split.sign(e - s.low) > 0 and pot_split.sign(s.high - e) > 0]
            if s.low == s.high or not inner:
                new.append(s)
                continue
            cuts = [s.low] + inner + [s.high]
            for a, b in zip(cuts, cuts[1:]):
                if pot_split.sign(s.sample - a) > 0 and pot_split.sign(b - s.sample) > 0:
                    v, q = s.sample, s.point
                else:
                    v = pot_split.rational_between(a, b)
                    q = certify_at(psys, found[k], v)
                if q is None:
                    continue
                if new and new[-1].high == a and at_value(found[k], p, a) is not None:
                    prev = new.pop()
                    new.append(Segment(prev.low, b, prev.low_poly, poly.get(sp.srepr(b)),
                                       prev.sample, prev.point))
                else:
                    new.append(Segment(a, b, poly.get(sp.srepr(a)), poly.get(sp.srepr(b)), v, q))
        for e in (low, high):  # the range's own ends: certified as points where valid
            if e.is_Rational and any(x.low != x.high and e in (x.low, x.high) for x in new) \
                    and not any(x.low == x.high == e for x in new) \
                    and (q := certify_at(psys, found[k], e)) is not None:
                new.append(Segment(e, e, None, None, e, q))
        out[k] = new
    return out


def _free(names, fixed) -> list[str]:
    return [n for n in names if n not in fixed]


def _ends(all_segs, low, high) -> list[sp.Expr]:
    pts = [low, high]
    for ss in all_segs:
        for s in ss:
            pts += [s.low, s.high]
    return pot_split.merge_points(pts)


def _unvisited(ends: Sequence[sp.Expr], done: Sequence[sp.Expr]) -> list[sp.Expr]:
    """Rational ends not yet sampled, and a rational in every interval between consecutive
    ends that holds no sampled pot."""
    out = [e for e in ends if e.is_Rational and all(e != d for d in done)]
    for a, b in zip(ends, ends[1:]):
        if not any(pot_split.sign(d - a) > 0 and pot_split.sign(b - d) > 0 for d in done):
            out.append(pot_split.rational_between(a, b))
    return out


def _pieces(fams: Sequence[PotFamily], low, high) -> tuple:
    """Points and open intervals of ``[low, high]`` with the families valid on each; adjacent
    pieces with the same families joined."""
    ends = _ends([f.segments for f in fams], low, high)
    raw: list[tuple[sp.Expr, sp.Expr, tuple]] = []
    for k, e in enumerate(ends):
        raw.append((e, e, tuple(i for i, f in enumerate(fams) if _covers(f.segments, e, e))))
        if k + 1 < len(ends):
            b = ends[k + 1]
            raw.append((e, b, tuple(i for i, f in enumerate(fams) if _covers(f.segments, e, b))))
    merged: list[list] = []  # [low, high, families, low closed, high closed]
    for a, b, idx in raw:
        if merged and merged[-1][2] == idx:
            merged[-1][1], merged[-1][4] = b, a == b
        else:
            merged.append([a, b, idx, a == b, a == b])
    return tuple((sp.FiniteSet(a) if a == b else sp.Interval(a, b, not lc, not hc), idx)
                 for a, b, idx, lc, hc in merged)


def _covers(ss: Sequence[Segment], a, b) -> bool:
    for s in ss:
        if s.low == s.high:
            if a == b and pot_split.sign(a - s.low) == 0:
                return True
            continue
        lo_ok = pot_split.sign(a - s.low) > 0 or (a != b and pot_split.sign(a - s.low) == 0)
        hi_ok = pot_split.sign(s.high - b) > 0 or (a != b and pot_split.sign(s.high - b) == 0)
        if lo_ok and hi_ok:
            return True
    return False


def display(pf: PotFamily) -> Solution:
    """A family in the case search's display form (strategy, free parameters, constraints
    as relationals, payoffs) for :func:`solvers.symbolic.axis.family_records.solution_record`."""
    f = pf.family
    cons = tuple(sp.Ge(sp.factor(e), 0) if not s else sp.Gt(sp.factor(e), 0)
                 for e, s in f.constraints if e.free_symbols & set(f.free_symbols()))
    strat = tuple((n, sp.factor(v)) for n, v in f.strategy)
    return Solution(strat, f.free, cons, pf.payoffs, tuple(f.constraints), ())


def sweep_records(res: PotSweep) -> dict:
    """JSON-ready record: ``families`` as ``pokerdyn equilibria skp --json`` prints them (one
    record per family and P set), plus each family's interval ends with the polynomials
    they are roots of, and the runs' distances at each sample pot."""
    from pokerdyn.solvers.symbolic.axis.family_records import solution_record, set_str

    fams = []
    for i, pf in enumerate(res.families):
        sol = display(pf)
        for s in pf.segments:
            rec = solution_record(s.as_set(), sol)
            rec["family"] = i
            rec["cases"] = pf.family.cases
            rec["only_at"] = [str(e) for e in pf.family.only_at]
            rec["p_symbolic"] = pf.p_symbolic
            rec["ends"] = {"low": str(s.low), "high": str(s.high),
                           "low_root_of": None if s.low_poly is None else str(s.low_poly),
                           "high_root_of": None if s.high_poly is None else str(s.high_poly)}
            rec["certified_at"] = {"P": str(s.sample),
                                   "point": {k: str(v) for k, v in s.point.items()}}
            fams.append(at_point(rec) if s.low == s.high else rec)
    pots = []
    for es in res.sets:
        ds = [d for d, _ in es.distances]
        pots.append({"pot": str(es.pot), "runs": len(es.runs),
                     "largest_distance": max(ds) if ds else None,
                     "nash_conv": [r.nash_conv for r in es.runs],
                     "skipped_supports": list(es.skipped), "seconds": es.seconds})
    return {"game": res.game, "pots": f"{res.low}:{res.high}", "method": "supports, P symbolic",
            "note": NOTE, "families": fams,
            "pieces": [{"p_set": set_str(s), "families": list(idx),
                        "sampled": [str(v) for v in _inside(s, [es.pot for es in res.sets])]}
                       for s, idx in res.pieces],
            "sample_pots": pots, "seconds": res.seconds}


def _inside(s: sp.Set, pots) -> list:
    return [v for v in pots if s.contains(v) == sp.true]


def at_point(rec: dict) -> dict:
    """A record of a family of one pot with ``P`` set to that pot in its strategy,
    constraints and payoffs (strings in, strings out)."""
    p = sp.Symbol("P", positive=True)
    v = sp.sympify(rec["ends"]["low"])
    sub = lambda t: str(sp.factor(sp.sympify(t, locals={"P": p}).xreplace({p: v})))
    out = dict(rec)
    out["strategy"] = {k: sub(x) for k, x in rec["strategy"].items()}
    out["payoffs"] = [sub(x) for x in rec["payoffs"]]
    cons = [sp.S(sp.sympify(c, locals={"P": p})).xreplace({p: v}) for c in rec["constraints"]]
    out["constraints"] = [str(c) for c in cons if isinstance(c, sp.Rel)]
    return out


def family_from_sweep_record(rec: dict, game: Game) -> Family:
    """A family back from one of :func:`sweep_records`' ``families`` (in the game's own
    symbols; only the constraints with free parameters are recorded, the pure-P ones hold on
    the record's interval)."""
    local = {s.name: s for s in game.params}
    local.update({p.name: sp.Symbol(p.name, real=True) for p in game.named})

    def parse(text: str):
        return sp.sympify(text, locals=local)

    cons = [record_constraint(parse(c), c) for c in rec["constraints"]]
    return Family(tuple((k, parse(v)) for k, v in rec["strategy"].items()), tuple(rec["free"]),
                  tuple(c for c in cons if c is not None), rec["cases"], tuple(parse(e) for e in rec["only_at"]))


__all__ = ["PotFamily", "PotSweep", "pot_sweep", "sweep_records", "display", "NOTE",
           "family_from_sweep_record"]
