"""The equilibrium set of a game at one pot from supports proposed by learning: iterated
dominance (exact, :mod:`solvers.symbolic.model.sparse_gains`), seeded CFR+ and FP runs (:mod:`.propose`), each limit's
support solved exactly (:mod:`solvers.symbolic.algebra.support_solve`), every family certified, every limit's distance to
the families measured.

Certificate of a family: (1) by construction every case (c) gain vanishes identically on it
or is kept as an equation, and the (a)/(b) signs and bounds are its exact constraints, which
(counterfactual gains, backward induction over each player's own tree) make every point an
equilibrium; (2) an exact rational point satisfies every constraint exactly and has exact
NashConv 0 in the full game (dominated actions included), and so do the exact rational
projections of the learned limits that satisfy the constraints.

The set found is the union of the certified families, reported as its maximal members
(a family whose sampled points all lie in another is dropped): complete for the supports the
runs reach, with no claim about supports no run comes near (the case search of
:mod:`solvers.symbolic.casesearch.case_enumeration` makes that claim, up to 16 parameters).

A support whose exact solution exceeds its budget is handed, at a rational pot, to
:func:`solvers.symbolic.algebra.curves.support_curves`: its block may hold a curve of equilibria
whose values are algebraic in one unknown (3-player Kuhn poker at P = 4), certified by an
exact NashConv 0 in a quadratic field; curves are reported beside the families.

Distances (:func:`solvers.symbolic.families.geometry.distance`): max norm over the parameters, leaving out the
dominated parameters at information sets the limit reaches with probability below
``REACH_MIN`` (an average strategy there is arbitrary, and so is Nash play).  A run farther
than ``target`` from every family is run again from the same start with ``propose.REFINE``
times the iterations (at most ``rounds`` times, :func:`.propose.refine`): slow drift along
nearly flat directions, not a missing family, is what keeps a limit away (3-player Kuhn:
NashConv 1e-5 with distance 2e-3).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
import sympy as sp

from pokerdyn.games import Game, GameError, compile_game

from pokerdyn.solvers.symbolic.algebra import surfaces
from pokerdyn.solvers.symbolic.algebra.curves import Curve, curve_record, support_curves
from pokerdyn.solvers.symbolic.model.dominance import _reach
from pokerdyn.solvers.symbolic.model.conditions import Family
from pokerdyn.solvers.symbolic.model.sparse_gains import exact_nash_conv_at, float_evaluator, gain_system, undominated
from pokerdyn.solvers.symbolic.families.geometry import Numeric, center, contained, distance, rational_point, sample
from pokerdyn.solvers.symbolic.learned.propose import ITERATIONS, LearnedProfile, learned_profiles, refine
from pokerdyn.solvers.symbolic.algebra.support_solve import SECONDS, SupportTimeout, deadline, solve_support

EPS_X, TOL_G = 1e-2, 1e-3
REACH_MIN = 1e-3  # dominated parameters at sets a limit reaches less often are not compared
FOLLOW = 6  # supports past the skipped ones searched for curves when following curve ends


@dataclass(frozen=True)
class CertifiedFamily:
    """A family with its certificate: exact rational points (name -> Fraction) inside it
    with exact NashConv 0, and the exact payoffs at the first one."""

    family: Family
    points: tuple[dict, ...]
    payoffs: tuple[sp.Expr, ...]

    @property
    def certified(self) -> bool:
        return bool(self.points)


@dataclass(frozen=True)
class EquilibriumSet:
    """Outcome of :func:`equilibrium_set`."""

    game: str
    pot: Any
    fixed: dict
    free: tuple[str, ...]
    families: tuple[CertifiedFamily, ...]
    runs: tuple[LearnedProfile, ...]
    distances: tuple[tuple[float, int], ...]  # per run: (distance, index of nearest family)
    seconds: dict = field(default_factory=dict)
    skipped: tuple[str, ...] = ()  # supports (case strings) not solved within their budget
    curves: tuple[Curve, ...] = ()  # certified curves of equilibria of the skipped supports
    curve_distances: tuple[float, ...] = ()  # per run: to the nearest curve (sampled)
    curve_notes: tuple[str, ...] = ()  # what the curve solver left undecided or unfollowed


def certify(sysm, fam: Family, candidates: Sequence[np.ndarray]) -> CertifiedFamily:
    """Exact points of ``fam`` (from the ``candidates`` free-parameter values and the
    family's centre) whose exact NashConv in the full game is 0."""
    num = Numeric(fam, sysm.names)
    pts: list[dict] = []
    tries = list(candidates) + ([center(num)] if num.free else [np.zeros(0)])
    for th in tries:
        q = rational_point(num, np.asarray(th, float))
        if q is None or any(q == p for p in pts):
            continue
        if exact_nash_conv_at(sysm, q) == 0:
            pts.append(q)
    pays: tuple = ()
    if pts:
        pays = tuple(_ground_payoff(sysm, pl, pts[0]) for pl in range(sysm.game.n_players))
    return CertifiedFamily(fam, tuple(pts), pays)


def _ground_payoff(sysm, pl: int, point: dict):
    dom = sysm.ring.domain
    v = sysm.payoffs[pl].subs([(g, dom.convert(sp.Rational(point[n])))
                               for g, n in zip(sysm.ring.gens, sysm.names)])
    return dom.to_sympy(v.coeff(1)) if v else sp.Integer(0)


def proposals(values: np.ndarray, gains: np.ndarray, eps: float = EPS_X, tol: float = TOL_G) -> list[str]:
    """Case strings for one limit: bounds read from the values (``x <= eps``: (b), ``x >= 1 -
    eps``: (a), when the gain does not contradict), and a second string with every bound
    whose gain is within ``tol`` of 0 read as (c)."""
    first, second = [], []
    for x, g in zip(values, gains):
        k = "a" if x >= 1 - eps and g >= -tol else "b" if x <= eps and g <= tol else "c"
        first.append(k)
        second.append("c" if k in "ab" and abs(g) <= tol else k)
    out = ["".join(first)]
    if second != first:
        out.append("".join(second))
    return out


def equilibrium_set(game: Game, pot: Any, seeds: int = 20, seed: int = 0,
                    iterations: dict | None = None, methods: Sequence[str] = ("cfr+", "fp"),
                    mode: str = "strict", runs: Sequence[LearnedProfile] | None = None,
                    target: float = 1e-3, rounds: int = 2, workers: int | None = 1,
                    tol: float | None = None, solver=None, curves: bool = True,
                    follow: int = FOLLOW) -> EquilibriumSet:
    """Certified equilibrium families of ``game`` at the exact pot ``pot`` from ``seeds``
    seeded runs of each of ``methods`` (or the given ``runs``), with each run's distance to
    the nearest family (runs farther than ``target`` refined, see the module docstring);
    ``workers``: processes for the runs (:func:`.propose.learned_profiles`); ``tol``: each
    run stops once its NashConv is at most ``tol``; ``solver(case, fixed, values)``: the
    families of one support at this pot (default :func:`solvers.symbolic.algebra.support_solve.solve_support` within
    ``SECONDS``; :func:`.pot_sweep.pot_sweep` solves with ``P`` symbolic instead, and falls
    back to the default where that raises :class:`solvers.symbolic.algebra.support_solve.SupportTimeout`); ``curves``: the
    supports skipped that way are handed to :func:`solvers.symbolic.algebra.curves.support_curves`
    (curves of equilibria algebraic in one parameter, at a rational pot), and the supports at
    the curves' ends are solved in turn, ``follow`` of them at most for curves
    (:func:`follow_curves`)."""
    clock: dict[str, float] = {}
    t = time.perf_counter()
    sysm = gain_system(game, pot)
    dom, gains, fixed = undominated(game, pot, mode, system=sysm)
    clock["dominance"] = time.perf_counter() - t
    names = sysm.names
    free_names = [c.name for c in gains.conditions]
    ev = float_evaluator(gains.elements, names)
    reach = float_evaluator([sysm.element(r) for _, r in sorted(_reach(game).items())], names)
    where = [game.infoset_index(p.infoset) for p in game.named]
    cg = compile_game(game, {"P": pot} if any(s.name == "P" for s in game.params) else None)
    its = {**ITERATIONS, **(iterations or {})}
    fams: list[Family] = []
    nums: list[Numeric] = []
    seen: set[str] = set()
    skipped: list[str] = []

    def solve_case(case: str, values) -> None:
        """The families of one support into ``fams``, or the support into ``skipped``."""
        seen.add(case)
        try:
            found = None
            if solver is not None:
                try:
                    found = solver(case, fixed, values)
                except SupportTimeout:  # it gave up: the solve at this pot
                    pass
            if found is None:
                with deadline(SECONDS):
                    found = solve_support(gains.conditions, case, fixed, names, values)
        except (SupportTimeout, sp.PolynomialError, ZeroDivisionError):
            skipped.append(case)  # too slow, or a fallback root the solver cannot carry
            return                # (a denominator in an unknown)
        for fam in found:
            key = (fam.strategy, fam.free, frozenset(fam.constraints))
            if all((f.strategy, f.free, frozenset(f.constraints)) != key for f in fams):
                fams.append(fam)
                nums.append(Numeric(fam, names))

    def propose(rs):
        for r in rs:
            y = np.array([r.values[n] for n in names])
            yf = np.array([r.values[n] for n in free_names])
            for case in proposals(yf, ev(y)):
                if case not in seen:
                    solve_case(case, r.values)

    def dist(r, i):
        y = np.array([r.values[n] for n in names])
        rv = reach(y)
        mask = np.array([n not in dom.fixed or rv[I] >= REACH_MIN for n, I in zip(names, where)])
        return distance(nums[i], y, mask)

    t = time.perf_counter()
    runs = list(runs) if runs is not None else learned_profiles(cg, seeds, seed, methods, its,
                                                                  workers=workers, tol=tol)
    clock["learning"] = time.perf_counter() - t
    t = time.perf_counter()
    propose(runs)
    clock["solve"] = time.perf_counter() - t
    for _ in range(rounds):
        t = time.perf_counter()
        far = [k for k, r in enumerate(runs)
               if min((dist(r, i)[0] for i in range(len(fams))), default=np.inf) > target]
        clock["distance"] = clock.get("distance", 0.0) + time.perf_counter() - t
        if not far:
            break
        t = time.perf_counter()
        runs = refine(cg, runs, far, seed, workers, tol)
        clock["learning"] += time.perf_counter() - t
        t = time.perf_counter()
        propose([runs[k] for k in far])
        clock["solve"] += time.perf_counter() - t
    found, notes, cdists = [], [], []
    if curves and skipped and pot is not None and sp.sympify(pot).is_Rational:
        t = time.perf_counter()
        found, notes = follow_curves(game, pot, gains.conditions, fixed, skipped, seen,
                                     solve_case, follow)
        clock["curves"] = time.perf_counter() - t
    t = time.perf_counter()
    table = np.full((len(runs), len(fams)), np.inf)
    near_pts: list[list] = [[] for _ in fams]
    for k, r in enumerate(runs):
        for i in range(len(fams)):
            table[k, i], th = dist(r, i)
            if table[k, i] < 0.05:
                near_pts[i].append(th)
    clock["distance"] = clock.get("distance", 0.0) + time.perf_counter() - t
    t = time.perf_counter()
    certified = [certify(sysm, f, near_pts[i][:4]) for i, f in enumerate(fams)]
    keep = maximal([i for i, c in enumerate(certified) if c.certified], nums,
                   np.random.default_rng(seed))
    dists = [(float(table[k, keep].min()), int(np.argmin(table[k, keep]))) if keep
             else (float("inf"), -1) for k in range(len(runs))]
    clock["certify"] = time.perf_counter() - t
    if found:
        pts = np.array([[pt.get(n, 0.0) for n in names] for c in found for pt in c.points()])
        for r in runs:
            y = np.array([r.values[n] for n in names])
            rv = reach(y)
            mask = np.array([n not in dom.fixed or rv[I] >= REACH_MIN
                             for n, I in zip(names, where)])
            cdists.append(float(np.abs(pts - y)[:, mask].max(axis=1).min()))
    return EquilibriumSet(game.name, pot, fixed, tuple(free_names),
                          tuple(certified[i] for i in keep), tuple(runs), tuple(dists), clock,
                          tuple(skipped), tuple(found), tuple(cdists), tuple(notes))


def follow_curves(game, pot, conds, fixed, skipped: list, seen: set, solve_case,
                  follow: int = FOLLOW) -> tuple[list[Curve], list[str]]:
    """Curves of every skipped support, then of the supports next to the curves' ends
    (:attr:`.curves.Curve.neighbours`, breadth first) and of the faces that hold a skipped
    support's components of dimension >= 2 (:func:`solvers.symbolic.algebra.surfaces.support_faces`, where the
    curve solver finds the dimension > 1): ``solve_case(case, None)`` solves a neighbour
    or face not in ``seen`` (adding it there) and appends it to ``skipped`` if the support
    solver gives up; those are searched for curves in turn, up to ``follow`` supports past
    the first skipped ones.  Returns the curves and notes."""
    queue, done, first = list(skipped), set(), len(skipped)
    found: list[Curve] = []
    notes: list[str] = []
    while queue:
        case = queue.pop(0)
        if case in done:
            continue
        if len(done) >= first + follow:
            notes.append(f"{case}: not searched for curves (follow={follow} reached)")
            continue
        done.add(case)
        cs, sk = support_curves(game, pot, conds, case, fixed)
        found += cs
        faces: list[str] = []
        if any(getattr(n, "surface", False) for n in sk):  # surfaces: excluded, or in
            # faces solved next (surfaces.screen)
            more, faces = surfaces.support_faces(conds, case)
            sk = [n for n in sk if not getattr(n, "surface", False)] + \
                [f"components of dimension >= 2: {n}" for n in more]
        notes += [f"{case}: {n}" for n in sk]
        for nbs in [faces] + [c.neighbours for c in cs]:
            for nb in nbs:
                if nb not in seen:
                    n_skipped = len(skipped)
                    solve_case(nb, None)
                    if len(skipped) > n_skipped:
                        queue.append(nb)
    return found, notes


def maximal(idx: Sequence[int], nums: Sequence[Numeric], rng: np.random.Generator,
            n: int = 8) -> list[int]:
    """The families (by index) not contained in another: larger ones first, each dropped
    when ``n`` sampled points of it lie in a family already kept."""
    order = sorted(idx, key=lambda i: -len(nums[i].free))
    kept: list[int] = []
    for i in order:
        pts = sample(nums[i], rng, n)
        if not any(contained(nums[i], nums[j], pts) for j in kept):
            kept.append(i)
    return sorted(kept)


SUPPORT_MAX_PARAMETERS = 64  # beyond this, or past symbolic payoffs' node limit: continuation


def check_size(game: Game) -> None:
    """GameError (pointing to continuation) for a game too large for exact families: more
    than ``SUPPORT_MAX_PARAMETERS`` named parameters or more nodes than symbolic payoffs
    take; or an information set with more than two actions (montyhal.efg)."""
    from pokerdyn.solvers.symbolic.model.conditions import require_two_actions
    from pokerdyn.solvers.symbolic.model.payoffs import MAX_SYMBOLIC_NODES

    require_two_actions(game)  # gains over a box: a third action's simplex is not one
    n, nodes = len(game.named), game.n_nodes
    if n > SUPPORT_MAX_PARAMETERS or nodes > MAX_SYMBOLIC_NODES:
        hint = (f"follow its branches with 'pokerdyn continuation {game.name} --pots A:B'"
                if any(s.name == "P" for s in game.params) else
                f"solve it approximately with 'pokerdyn solve {game.name}'")
        raise GameError(f"game {game.name!r} is too large to enumerate equilibria exactly "
                        f"({n} parameters, {nodes:,} nodes; at most {SUPPORT_MAX_PARAMETERS} "
                        f"and {MAX_SYMBOLIC_NODES:,}): {hint}")


def set_record(res: EquilibriumSet) -> dict:
    """JSON-ready record (every expression a sympy string)."""
    fams = []
    for c in res.families:
        f = c.family
        fams.append({"strategy": {k: str(v) for k, v in f.strategy}, "free": list(f.free),
                     "constraints": [f"{e} >= 0" for e, _ in f.constraints],
                     "cases": f.cases, "payoffs_at_witness": [str(p) for p in c.payoffs],
                     "certified_points": [{k: str(v) for k, v in q.items()} for q in c.points]})
    runs = [{"method": r.method, "seed": r.seed, "iterations": r.iterations,
             "nash_conv": r.nash_conv, "distance": d, "family": i}
            for r, (d, i) in zip(res.runs, res.distances)]
    for run, d in zip(runs, res.curve_distances):
        run["curve_distance"] = d
    return {"game": res.game, "pot": str(res.pot), "method": "supports",
            "dominance_fixed": {k: int(v) for k, v in res.fixed.items()}, "free": list(res.free),
            "families": fams, "runs": runs, "seconds": res.seconds,
            "skipped_supports": list(res.skipped),
            "curves": [curve_record(c) for c in res.curves], "curve_notes": list(res.curve_notes)}


def family_from_record(rec: dict) -> tuple[Family, list[dict]]:
    """A family and its certified points back from :func:`set_record`'s JSON (in the
    game's own symbols: parameter names as real symbols)."""
    local: dict[str, sp.Symbol] = {}

    def parse(text: str) -> sp.Expr:
        expr = sp.sympify(text, locals=local)
        for s in expr.free_symbols:
            local.setdefault(s.name, sp.Symbol(s.name, real=True))
        return sp.sympify(text, locals=local)

    strat = tuple((k, parse(v)) for k, v in rec["strategy"].items())
    cons = tuple((parse(c.rsplit(">=", 1)[0]), False) for c in rec["constraints"])
    pts = [{k: sp.Rational(v) for k, v in q.items()} for q in rec["certified_points"]]
    return Family(strat, tuple(rec["free"]), cons, rec["cases"]), pts
