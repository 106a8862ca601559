"""The equilibrium set of a game at one pot from supports proposed by learning: iterated
dominance (exact, :mod:`.gains`), seeded CFR+ and FP runs (:mod:`.propose`), each limit's
support solved exactly (:mod:`.solve`), every family certified, every limit's distance to
the families measured.

Certificate of a family: (1) by construction every case (c) gain vanishes identically on it
or is kept as an equation, and the (a)/(b) signs and bounds are its exact constraints, which
(counterfactual gains, backward induction over each player's own tree) make every point an
equilibrium; (2) an exact rational point satisfies every constraint exactly and has exact
NashConv 0 in the full game (dominated actions included), and so do the exact rational
projections of the learned limits that satisfy the constraints.

The set found is the union of the certified families: complete for the supports the runs
reach, with no claim about supports no run comes near (the case search of
:mod:`solvers.symbolic.enumeration` makes that claim, up to 16 parameters).

Distances: a limit ``y`` is at max-norm distance ``min over the family of max_i |x_i - y_i|``
from a family, computed over its free parameters by SLSQP from ``y`` itself (a small smooth
program: the constraints are rational in the free parameters).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Sequence

import numpy as np
import sympy as sp
from scipy.optimize import minimize

from games import Game, compile_game

from solvers.symbolic.dominance import _reach
from solvers.symbolic.enumeration import Family
from solvers.symbolic.supports.gains import (counterfactual_gains, exact_nash_conv_at,
                                             float_evaluator, gain_system,
                                             iterated_dominance_at)
from solvers.symbolic.supports.propose import LearnedProfile, learned_profiles
from solvers.symbolic.supports.solve import solve_support

EPS_X, TOL_G = 1e-2, 1e-3
REACH_MIN = 1e-3  # dominated parameters at sets a limit reaches less often are not compared


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


class _Numeric:
    """Float callables of one family: its strategy and constraints in the free parameters."""

    def __init__(self, fam: Family, names: Sequence[str]):
        self.free = [sp.Symbol(n, real=True) for n in fam.free]
        self.names = list(names)
        self.exprs = [sp.sympify(v) for _, v in fam.strategy]
        self.f_x = sp.lambdify(self.free, self.exprs, "numpy")
        self.f_c = sp.lambdify(self.free, [e for e, _ in fam.constraints], "numpy")
        self.fam = fam

    def x(self, th) -> np.ndarray:
        return np.array(self.f_x(*th), dtype=float).reshape(-1)

    def cons(self, th) -> np.ndarray:
        return np.array(self.f_c(*th), dtype=float).reshape(-1) if self.fam.constraints \
            else np.zeros(0)


def distance(num: _Numeric, y: np.ndarray, mask: np.ndarray | None = None
             ) -> tuple[float, np.ndarray]:
    """(max-norm distance from ``y`` to the family over the parameters in ``mask`` (all by
    default), the nearest free-parameter values)."""
    keep = np.flatnonzero(np.ones(len(y), bool) if mask is None else mask)

    def gap(th):
        return num.x(th)[keep] - y[keep]

    k = len(num.free)
    if k == 0:
        ok = num.cons(()).min(initial=0.0) >= -1e-12
        return (float(np.abs(gap(())).max()) if ok else float("inf")), np.zeros(0)
    th0 = np.clip(y[[num.names.index(s.name) for s in num.free]], 0.0, 1.0)
    z0 = np.append(th0, float(np.abs(gap(th0)).max()))
    cons = [{"type": "ineq", "fun": lambda z: z[-1] - gap(z[:-1])},
            {"type": "ineq", "fun": lambda z: z[-1] + gap(z[:-1])}]
    if num.fam.constraints:
        cons.append({"type": "ineq", "fun": lambda z: num.cons(z[:-1])})
    with np.errstate(all="ignore"):
        res = minimize(lambda z: z[-1], z0, method="SLSQP", constraints=cons,
                       bounds=[(0.0, 1.0)] * k + [(0.0, None)],
                       options={"maxiter": 300, "ftol": 1e-12})
    th = res.x[:-1]
    viol = -min(0.0, num.cons(th).min(initial=0.0))
    if not np.isfinite(res.x).all() or viol > 1e-9:
        return float("inf"), th
    return float(np.abs(gap(th)).max()), th


def _rational_point(num: _Numeric, th: np.ndarray) -> dict | None:
    """An exact point of the family near ``th`` (simple rationals), or None."""
    for den in (12, 48, 240, 10**4, 10**6):
        q = {s: sp.Rational(Fraction(float(v)).limit_denominator(den)) for s, v in zip(num.free, th)}
        try:
            if all((e.xreplace(q) >= 0) == sp.true for e, _ in num.fam.constraints):
                return {n: sp.nsimplify(v).xreplace(q) if isinstance(v, sp.Basic) else v
                        for n, v in num.fam.strategy}
        except (TypeError, ZeroDivisionError):
            continue
    return None


def _center(num: _Numeric) -> np.ndarray:
    """A point of the family with the largest smallest slack (for a witness)."""
    k = len(num.free)
    z0 = np.append(np.full(k, 0.5), 0.0)
    cons = [{"type": "ineq", "fun": lambda z: num.cons(z[:-1]) - z[-1]}]
    with np.errstate(all="ignore"):
        res = minimize(lambda z: -z[-1], z0, method="SLSQP", constraints=cons,
                       bounds=[(0.0, 1.0)] * k + [(None, 1.0)], options={"maxiter": 300})
    return res.x[:-1]


def certify(sysm, fam: Family, candidates: Sequence[np.ndarray]) -> CertifiedFamily:
    """Exact points of ``fam`` (from the ``candidates`` free-parameter values and the
    family's centre) whose exact NashConv in the full game is 0."""
    num = _Numeric(fam, sysm.names)
    pts: list[dict] = []
    tries = list(candidates) + ([_center(num)] if num.free else [np.zeros(0)])
    for th in tries:
        q = _rational_point(num, np.asarray(th, float))
        if q is None or any(q == p for p in pts):
            continue
        if exact_nash_conv_at(sysm, q) == 0:
            pts.append(q)
    pays: tuple = ()
    if pts:
        pays = tuple(sp.nsimplify(str(_ground_payoff(sysm, pl, pts[0])))
                     for pl in range(sysm.game.n_players))
    return CertifiedFamily(fam, tuple(pts), pays)


def _ground_payoff(sysm, pl: int, point: dict):
    dom = sysm.ring.domain
    v = sysm.payoffs[pl].subs([(g, dom.convert(sp.Rational(point[n])))
                               for g, n in zip(sysm.ring.gens, sysm.names)])
    return v.coeff(1) if v else 0


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
                    mode: str = "strict", runs: Sequence[LearnedProfile] | None = None
                    ) -> EquilibriumSet:
    """Certified equilibrium families of ``game`` at the exact pot ``pot`` from ``seeds``
    seeded runs of each of ``methods`` (or the given ``runs``), with each run's distance to
    the nearest family."""
    clock = {}
    t = time.perf_counter()
    sysm = gain_system(game, pot)
    dom = iterated_dominance_at(game, pot, mode, system=sysm)
    gains = counterfactual_gains(sysm, dom.fixed)
    fixed = {**dom.fixed, **{n: 0 for n in gains.idle}}
    clock["dominance"] = time.perf_counter() - t
    t = time.perf_counter()
    if runs is None:
        cg = compile_game(game, {"P": pot} if any(s.name == "P" for s in game.params) else None)
        runs = learned_profiles(cg, seeds, seed, methods, iterations)
    clock["learning"] = time.perf_counter() - t
    t = time.perf_counter()
    names = sysm.names
    free_names = [c.name for c in gains.conditions]
    ev = float_evaluator(gains.elements, names)
    fams: list[Family] = []
    seen_case: set[str] = set()
    for r in runs:
        y = np.array([r.values[n] for n in names])
        yf = np.array([r.values[n] for n in free_names])
        for case in proposals(yf, ev(y)):
            if case in seen_case:
                continue
            seen_case.add(case)
            for fam in solve_support(gains.conditions, case, fixed, names, r.values):
                key = (fam.strategy, fam.free, frozenset(fam.constraints))
                if all((f.strategy, f.free, frozenset(f.constraints)) != key for f in fams):
                    fams.append(fam)
    clock["solve"] = time.perf_counter() - t
    t = time.perf_counter()
    nums = [_Numeric(f, names) for f in fams]
    reach = float_evaluator([sysm.element(r) for _, r in sorted(_reach(game).items())], names)
    where = [game.infoset_index(p.infoset) for p in game.named]
    table = np.full((len(runs), len(fams)), np.inf)
    near_pts: list[list] = [[] for _ in fams]
    for k, r in enumerate(runs):
        y = np.array([r.values[n] for n in names])
        rv = reach(y)
        mask = np.array([n not in dom.fixed or rv[I] >= REACH_MIN for n, I in zip(names, where)])
        for i, num in enumerate(nums):
            table[k, i], th = distance(num, y, mask)
            if table[k, i] < 0.05:
                near_pts[i].append(th)
    clock["distance"] = time.perf_counter() - t
    t = time.perf_counter()
    certified = [certify(sysm, f, near_pts[i][:4]) for i, f in enumerate(fams)]
    keep = [i for i, c in enumerate(certified) if c.certified]
    dists = [(float(table[k, keep].min()), int(np.argmin(table[k, keep]))) if keep
             else (float("inf"), -1) for k in range(len(runs))]
    clock["certify"] = time.perf_counter() - t
    return EquilibriumSet(game.name, pot, fixed, tuple(free_names),
                          tuple(certified[i] for i in keep), tuple(runs), tuple(dists), clock)
