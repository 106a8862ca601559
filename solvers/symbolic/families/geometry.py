"""Numerical geometry of an exact family (free parameters -> profile, constraints): the
max-norm distance of a profile to it, points inside it (for exact witnesses), and whether one
family lies inside another.

The distance of ``y`` to a family is ``min over the family of max_i |x_i - y_i|``: a small
smooth program over the free parameters (the constraints are rational in them), solved by
SLSQP from ``y`` itself.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Sequence

import numpy as np
import sympy as sp

from pokerdyn.solvers.symbolic.model.conditions import Family


class Numeric:
    """Float callables of one family: its strategy and constraints in the free parameters."""

    def __init__(self, fam: Family, names: Sequence[str]):
        self.free = [sp.Symbol(n, real=True) for n in fam.free]
        self.names = list(names)
        self.exprs = [sp.sympify(v) for _, v in fam.strategy]
        self.f_x = sp.lambdify(self.free, self.exprs, "numpy")
        self.f_c = sp.lambdify(self.free, [e for e, _ in fam.constraints], "numpy")
        self.fam = fam

    def x(self, th) -> np.ndarray:
        with np.errstate(all="ignore"):  # a pole of a rational constraint: inf, rejected
            return np.array(self.f_x(*th), dtype=float).reshape(-1)

    def cons(self, th) -> np.ndarray:
        if not self.fam.constraints:
            return np.zeros(0)
        with np.errstate(all="ignore"):
            return np.array(self.f_c(*th), dtype=float).reshape(-1)


def distance(num: Numeric, y: np.ndarray, mask: np.ndarray | None = None
             ) -> tuple[float, np.ndarray]:
    """(max-norm distance from ``y`` to the family over the parameters in ``mask`` (all by
    default), the nearest free-parameter values)."""
    from scipy.optimize import minimize  # scipy.optimize loads only here (0.5-1 s)
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


def rational_point(num: Numeric, th: np.ndarray) -> dict | None:
    """An exact point of the family near ``th`` (simple rationals), or None."""
    for den in (12, 48, 240, 10**4, 10**6):
        q = {s: sp.Rational(Fraction(float(v)).limit_denominator(den)) for s, v in zip(num.free, th)}
        try:
            if all((e.xreplace(q) >= 0) == sp.true for e, _ in num.fam.constraints):
                pt = {n: sp.sympify(v).xreplace(q) for n, v in num.fam.strategy}
                # a pole of the family's formulas (0/0 there) is no point of it
                if all(v.is_Rational and 0 <= v <= 1 for v in pt.values()):
                    return pt
        except (TypeError, ZeroDivisionError):
            continue
    return None


def center(num: Numeric) -> np.ndarray:
    """A point of the family with the largest smallest slack (for a witness)."""
    from scipy.optimize import minimize  # scipy.optimize loads only here (0.5-1 s)
    k = len(num.free)
    z0 = np.append(np.full(k, 0.5), 0.0)
    cons = [{"type": "ineq", "fun": lambda z: num.cons(z[:-1]) - z[-1]}]
    with np.errstate(all="ignore"):
        res = minimize(lambda z: -z[-1], z0, method="SLSQP", constraints=cons,
                       bounds=[(0.0, 1.0)] * k + [(None, 1.0)], options={"maxiter": 300})
    return res.x[:-1]



def sample(num: Numeric, rng: np.random.Generator, n: int) -> list[np.ndarray]:
    """Up to ``n`` points of the family: random points of the box and random vertices of it,
    each moved into the family (nearest feasible free-parameter values)."""
    from scipy.optimize import minimize  # scipy.optimize loads only here (0.5-1 s)
    k = len(num.free)
    if k == 0:
        return [np.zeros(0)]
    out = []
    for j in range(n):
        target = rng.random(k) if j % 2 else rng.integers(0, 2, k).astype(float)
        cons = [{"type": "ineq", "fun": lambda th: num.cons(th)}] if num.fam.constraints else []
        with np.errstate(all="ignore"):
            res = minimize(lambda th: float(((th - target) ** 2).sum()), target, method="SLSQP",
                           constraints=cons, bounds=[(0.0, 1.0)] * k, options={"maxiter": 200})
        if np.isfinite(res.x).all() and num.cons(res.x).min(initial=0.0) >= -1e-10:
            out.append(res.x)
    return out


def contained(inner: Numeric, outer: Numeric, points: Sequence[np.ndarray],
              tol: float = 1e-7) -> bool:
    """Whether the profiles of ``inner`` at ``points`` all lie in ``outer`` (within ``tol``)."""
    return all(distance(outer, inner.x(th))[0] <= tol for th in points)
