"""Rest points of an ODE model found numerically, for models too large for the exact 3^n
face search of :mod:`dynamics.ode.equilibria`, and their stability along the pot axis.

With ``dx_i/dt = g(x_i) h_i(x)`` and ``g(x) = x(1 - x)``, a rest point has every coordinate
at a face (0 or 1) or zeroing its reduced field ``h_i``.  Every vertex of the cube is a rest
point, so the list is restricted to the meaningful ones:

* **Nash rest points** (the game's equilibria): ``h_i = 0`` off the faces, ``h_i <= 0`` at 0
  and ``h_i >= 0`` at 1.  Proposed by seeded CFR+ runs (different random starts reach
  different equilibria) or given by the caller (exact families evaluated at a pot), then
  polished: coordinates within ``snap`` of a face are put on it and the others solved
  from ``h = 0`` by least squares.
* **time averages** of long runs (``averages``): the time average of a bounded orbit of
  these dynamics lies near a rest point whose payoffs are the orbit's profit rates
  (Billingham's observation); polished like the CFR+ limits, this finds equilibria that
  CFR+ does not reach (P = 5 of the full-street simplified game);
* **interior rest points** (``h = 0`` with every coordinate in (0, 1)), by least squares
  from seeded random starts.

A rest point that is not Nash has some face coordinate with the wrong sign of ``h_i``: its
transverse eigenvalue ``g'(v) h_i = (1 - 2v) h_i`` is positive, so it is unstable; only
Nash rest points can be asymptotically stable.  Stability is read from the eigenvalues of
the full Jacobian: asymptotically stable iff every real part is < -tol (a zero real part,
e.g. along a continuum of equilibria, rules asymptotic stability out for an isolated
direction of rest points and leaves it undecided otherwise; it is reported as centre).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import sympy as sp
from numpy.typing import NDArray
from scipy.optimize import least_squares

from pokerdyn.games import Game, GameError, compile_game
from pokerdyn.games.strategy import params_from_strategy
from pokerdyn.dynamics.ode.model import ODEModel, compile_exprs, ode_model
from pokerdyn.dynamics.summary import summary_repr


@dataclass(frozen=True)
class RestPoint:
    """A rest point: coordinates, residual of the field, Jacobian eigenvalues, whether it
    is a Nash equilibrium of the game (sign conditions at the faces), the payoffs there and
    where it came from."""

    __repr__ = summary_repr  # short: arrays by shape and range (issue 35)

    point: dict[str, float]
    residual: float
    eigenvalues: NDArray[np.complex128]
    nash: bool
    payoffs: NDArray[np.float64]
    source: str = ""
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def x(self) -> NDArray[np.float64]:
        return np.array(list(self.point.values()))

    @property
    def max_real(self) -> float:
        return float(np.max(self.eigenvalues.real))

    def stable(self, tol: float = 1e-7) -> bool:
        """Asymptotically stable (every eigenvalue has real part < -tol)."""
        return bool(self.max_real < -tol)

    def kind(self, tol: float = 1e-7) -> str:
        re = self.eigenvalues.real
        u, s = int((re > tol).sum()), int((re < -tol).sum())
        c = len(re) - u - s
        return f"{u} unstable, {c} centre, {s} stable"

    def to_json(self) -> dict[str, Any]:
        return {"point": self.point, "residual": self.residual, "nash": self.nash,
                "payoffs": self.payoffs.tolist(), "source": self.source,
                "max_real_eigenvalue": self.max_real, "stable": self.stable(),
                "kind": self.kind(),
                "eigenvalues": [[float(z.real), float(z.imag)] for z in self.eigenvalues]}


def reduced_field(model: ODEModel) -> tuple[Callable, Callable]:
    """Compiled ``h(x)`` (the field divided by g) and its Jacobian."""
    cached = model.meta.get("_reduced")
    if cached is None:
        h = [sp.cancel(r / g) if g != 0 else r for r, g in zip(model.rhs, model.g)]
        if any(sp.denom(sp.together(e)).free_symbols for e in h):
            raise GameError("rest-point search needs g to divide the field (default g)")
        J = sp.Matrix(h).jacobian(model.symbols)
        cached = (compile_exprs(model.symbols, h),
                  compile_exprs(model.symbols, list(J), (model.n, model.n)))
        model.meta["_reduced"] = cached
    return cached


def polish(model: ODEModel, profile: Mapping[str, float] | NDArray[np.float64],
           snap: float = 1e-3, tol: float = 1e-9, source: str = "") -> RestPoint | None:
    """The rest point near ``profile`` (a dict by name, extra names ignored, or an array in
    model order): coordinates within ``snap`` of 0 or 1 are put there, the others solved
    from ``h = 0``.  None if the residual stays above ``tol``."""
    x = np.array([float(profile[n]) for n in model.names]) if isinstance(profile, Mapping) \
        else np.asarray(profile, float).copy()
    x = np.clip(x, 0.0, 1.0)
    face = (x < snap) | (x > 1 - snap)
    x[face] = np.round(x[face])
    h, dh = reduced_field(model)
    free = np.flatnonzero(~face)
    if free.size:
        def res(z):
            y = x.copy()
            y[free] = z
            return h(y)[free]

        def jac(z):
            y = x.copy()
            y[free] = z
            return dh(y)[np.ix_(free, free)]
        sol = least_squares(res, x[free], jac=jac, bounds=(0.0, 1.0), xtol=1e-15,
                            ftol=1e-15, gtol=1e-15, method="trf")
        x[free] = sol.x
    hv = h(x)
    resid = float(np.max(np.abs(hv[~face]))) if free.size else 0.0
    if resid > tol:
        return None
    return rest_point(model, x, source, hv=hv, face=face)


def rest_point(model: ODEModel, x: NDArray[np.float64], source: str = "",
               hv: NDArray | None = None, face: NDArray | None = None,
               sign_tol: float = 1e-9) -> RestPoint:
    """Eigenvalues, Nash sign conditions and payoffs at the rest point ``x``."""
    h, _ = reduced_field(model)
    hv = h(x) if hv is None else hv
    face = ((x == 0.0) | (x == 1.0)) if face is None else face
    nash = bool(np.all(np.where(face & (x == 0.0), hv <= sign_tol, True)) and
                np.all(np.where(face & (x == 1.0), hv >= -sign_tol, True)))
    lam = np.linalg.eigvals(model.jac(0.0, x))
    resid = float(np.max(np.abs(model.f(0.0, x))))
    return RestPoint(dict(zip(model.names, map(float, x))), resid,
                     lam[np.argsort(-lam.real)], nash, model.payoff(x), source)


def nash_profiles(game: Game, values: Mapping[str, Any], n_starts: int = 6, seed: int = 0,
                  iterations: int = 3000) -> list[dict[str, float]]:
    """Named-parameter profiles of CFR+ runs from ``n_starts`` seeded random profiles."""
    from pokerdyn.solvers.learning.cfr_plus import cfr

    cg = compile_game(game, {k: float(v) for k, v in values.items()})
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n_starts):
        s0 = rng.uniform(0.05, 1.0, cg.legal.shape) * cg.legal
        s0 /= s0.sum(axis=1, keepdims=True)
        res = cfr(cg, iterations=iterations, sigma0=s0)
        out.append(params_from_strategy(cg, res.strategy))
    return out


def interior_rest_points(model: ODEModel, n_starts: int = 20, seed: int = 0,
                         tol: float = 1e-9) -> list[RestPoint]:
    """Rest points with every coordinate in (0, 1), by least squares on ``h = 0`` from
    seeded random starts."""
    h, dh = reduced_field(model)
    rng = np.random.default_rng(seed)
    out = []
    for x0 in rng.uniform(0.05, 0.95, (n_starts, model.n)):
        sol = least_squares(lambda z: h(z), x0, jac=lambda z: dh(z), bounds=(0.0, 1.0),
                            xtol=1e-15, ftol=1e-15, gtol=1e-15)
        if np.max(np.abs(h(sol.x))) < tol and np.all((sol.x > 1e-6) & (sol.x < 1 - 1e-6)):
            out.append(rest_point(model, sol.x, "interior search"))
    return out


def _polish_any(model: ODEModel, profile, source: str,
                snaps: Sequence[float] = (1e-3, 1e-2, 3e-2)) -> RestPoint | None:
    """:func:`polish` with growing snap distances (CFR+ approaches 0 and 1 slowly); the
    first Nash rest point found, else the first rest point."""
    first = None
    for snap in snaps:
        p = polish(model, profile, snap=snap, source=source)
        if p is not None and p.nash:
            return p
        first = first or p
    return first


def dedupe(points: Sequence[RestPoint], tol: float = 1e-6) -> list[RestPoint]:
    """Distinct rest points (max-norm distance > tol), sorted by coordinates."""
    out: list[RestPoint] = []
    for p in points:
        if all(np.max(np.abs(p.x - q.x)) > tol for q in out):
            out.append(p)
    return sorted(out, key=lambda p: tuple(p.x))


def find_rest_points(game: Game, model: ODEModel,
                     profiles: Sequence[Mapping[str, float]] | None = None,
                     n_starts: int = 6, seed: int = 0, interior_starts: int = 10,
                     iterations: int = 3000,
                     averages: Sequence[NDArray[np.float64]] = ()) -> list[RestPoint]:
    """Nash rest points from ``profiles`` (if given) and from seeded CFR+ runs
    (``n_starts``; 0 for none), rest points near the time ``averages`` of runs (Nash or
    not), plus interior rest points; distinct, polished."""
    found = [_polish_any(model, p, "given") for p in (profiles or [])]
    found += [_polish_any(model, a, "time average", snaps=(1e-2, 3e-2, 6e-2))
              for a in averages]
    if n_starts:
        found += [_polish_any(model, p, "cfr+") for p in
                  nash_profiles(game, model.values, n_starts, seed, iterations)]
    found += interior_rest_points(model, interior_starts, seed) if interior_starts else []
    return dedupe([p for p in found if p is not None])


@dataclass(frozen=True)
class PotRestPoints:
    """The rest points of the model at one pot."""

    __repr__ = summary_repr  # short: arrays by shape and range (issue 35)

    pot: float
    points: tuple[RestPoint, ...]

    @property
    def any_stable(self) -> bool:
        return any(p.stable() for p in self.points)

    def to_json(self) -> dict[str, Any]:
        return {"pot": self.pot, "any_stable": self.any_stable,
                "rest_points": [p.to_json() for p in self.points]}


def rest_points_along_pot(game: Game, pots: Sequence[float],
                          profiles: Mapping[float, Sequence[Mapping[str, float]]] | None = None,
                          n_starts: int = 6, seed: int = 0, interior_starts: int = 10,
                          progress: Callable[[int], Any] | None = None,
                          **model_kw: Any) -> list[PotRestPoints]:
    """Rest points and eigenvalues at every pot of ``pots`` (the model runs on the
    parameters iterated dominance leaves free at that pot).  ``profiles[pot]``: equilibrium
    profiles to include (e.g. the exact families evaluated there)."""
    out = []
    for k, pot in enumerate(pots):
        model = ode_model(game, {"P": pot}, fixed="dominance", **model_kw)
        pts = find_rest_points(game, model, (profiles or {}).get(pot), n_starts, seed,
                               interior_starts)
        out.append(PotRestPoints(float(pot), tuple(pts)))
        if progress is not None:
            progress(k)
    return out
