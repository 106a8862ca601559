"""First integrals on invariant planes where the flow is separable (Billingham section 4.1:
the planes c_K = 0 and d_Q = 0 of ``skp``).

On a plane where all coordinates but (x, y) sit on invariant faces, a separable field
``dx/dt = a(x) A(y)``, ``dy/dt = b(y) B(x)`` (Lotka-Volterra form) conserves

    H(x, y) = int B(x)/a(x) dx - int A(y)/b(y) dy,

since dH/dt = B A - A B = 0.  Where H has a strict extremum at an equilibrium (a centre),
its level sets, and hence the orbits, are closed curves around it; if the Hessian of H is
definite on the whole open square the plane is filled with nested periodic orbits.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import sympy as sp
from numpy.typing import NDArray

from pokerdyn.dynamics.ode.equilibria import face_values
from pokerdyn.dynamics.ode.model import ODEModel
from pokerdyn.dynamics.summary import summary_repr


@dataclass(frozen=True)
class FirstIntegral:
    """H(x, y) conserved on the invariant plane ``fixed`` (``{name: value}``), with
    ``variables = (x, y)``.  ``hessian_definite`` says whether H is strictly convex or
    concave at its stationary point ``centre`` (then the orbits nearby are closed)."""

    __repr__ = summary_repr  # short: arrays by shape and range (issue 35)

    fixed: dict[str, sp.Expr]
    variables: tuple[str, str]
    H: sp.Expr
    centre: dict[str, sp.Expr] | None = None
    hessian_definite: bool = False
    meta: dict[str, Any] = field(default_factory=dict)
    _H: Callable = field(default=None, repr=False, compare=False)

    @property
    def plane(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.fixed.items())

    def __call__(self, x: NDArray, y: NDArray) -> NDArray[np.float64]:
        """H at (x, y) (arrays broadcast)."""
        return np.asarray(self._H(x, y), dtype=float)

    def along(self, names: tuple[str, ...], states: NDArray) -> NDArray[np.float64]:
        """H along a trajectory's states (columns named by ``names``)."""
        i, j = (names.index(v) for v in self.variables)
        return self(states[:, i], states[:, j])

    def to_json(self) -> dict[str, Any]:
        return {"plane": self.plane, "variables": list(self.variables), "H": str(self.H),
                "centre": None if self.centre is None else
                {k: str(v) for k, v in self.centre.items()},
                "closed_orbits": bool(self.hessian_definite)}


def find_first_integrals(model: ODEModel, plane: dict[str, Any] | None = None
                         ) -> list[FirstIntegral]:
    """First integrals of every separable two-dimensional invariant plane of ``model``
    (all coordinates but two fixed at zeros of their g), or only of those containing
    ``plane`` (e.g. ``{"c_K": 0}``).  Planes where one of the two equations vanishes
    identically are skipped (there a coordinate itself is conserved)."""
    xs, n = model.symbols, model.n
    if n < 2:
        return []
    fixed_vals = face_values(model)
    out = []
    for i, j in itertools.combinations(range(n), 2):
        others = [m for m in range(n) if m not in (i, j)]
        for vals in itertools.product(*[fixed_vals[m] for m in others]):
            sub = {xs[m]: v for m, v in zip(others, vals)}
            if plane and any(sub.get(x, None) != v for x in xs for k, v in plane.items()
                             if x.name == k):
                continue
            fi = sp.factor(model.rhs[i].subs(sub))
            fj = sp.factor(model.rhs[j].subs(sub))
            H = _separable_integral(fi, fj, xs[i], xs[j])
            if H is None:
                continue
            out.append(_with_centre(model, sub, (xs[i], xs[j]), H, fi, fj))
    return out


def _split(expr: sp.Expr, x: sp.Symbol, y: sp.Symbol) -> tuple[sp.Expr, sp.Expr] | None:
    """expr = X(x) * Y(y), or None."""
    d = sp.separatevars(expr, symbols=[x, y], dict=True, force=True)
    if not d:
        return None
    return d[x], d["coeff"] * d[y]


def _separable_integral(fi, fj, x, y) -> sp.Expr | None:
    if fi == 0 or fj == 0:
        return None
    si, sj = _split(fi, x, y), _split(fj, x, y)
    if si is None or sj is None:
        return None
    (a, A), (B, b) = si, sj          # fi = a(x) A(y), fj = B(x) b(y)
    if (A.free_symbols - {y}) or (B.free_symbols - {x}) or not (A.has(y) or B.has(x)):
        return None
    H = _integrate(B / a, x) - _integrate(A / b, y)
    return sp.simplify(H)


def _integrate(expr: sp.Expr, x: sp.Symbol) -> sp.Expr:
    """Antiderivative on (0, 1), with log(x - 1) written as log(1 - x) (real there)."""
    F = sp.integrate(sp.apart(sp.cancel(expr), x), x)
    return F.replace(lambda e: isinstance(e, sp.log) and e.args[0].subs(x, sp.Rational(1, 2)).
                     is_negative, lambda e: sp.log(-e.args[0]))


def _with_centre(model, sub, xy, H, fi, fj) -> FirstIntegral:
    x, y = xy
    crit = sp.solve([sp.diff(H, x), sp.diff(H, y)], [x, y], dict=True)
    centre, definite = None, False
    for c in crit:
        if all(v.is_real and 0 < v < 1 for v in c.values()) and len(c) == 2:
            centre = {s.name: c[s] for s in (x, y)}
            hess = sp.hessian(H, (x, y)).subs(c)
            definite = bool(sp.simplify(hess.det()) > 0)
            break
    assert sp.simplify(sp.diff(H, x) * fi + sp.diff(H, y) * fj) == 0, "not conserved"
    return FirstIntegral({k.name: v for k, v in sub.items()}, (x.name, y.name), H, centre,
                         definite, _H=sp.lambdify((x, y), H, "numpy"))
