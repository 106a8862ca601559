"""Invariant manifolds of equilibria and basins of attraction of invariant faces.

* :func:`manifold_paths`: integral paths in the stable (unstable) manifold of an
  equilibrium, integrated backwards (forwards) in time from points on a small circle or
  segment in the corresponding eigenspace (Billingham Fig. 8: the 2-D stable manifold of S3,
  which separates the basins of the attracting planes c_K = 0 and d_Q = 0).
* :func:`basin_map`: from a grid of initial frequencies, which invariant face each trajectory
  approaches.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from pokerdyn.games import GameError
from pokerdyn.dynamics.ode.equilibria import Equilibrium, face_values
from pokerdyn.dynamics.ode.model import ODEModel
from pokerdyn.dynamics.ode.solve import simulate, simulate_batch
from pokerdyn.dynamics.trajectory import Trajectory
from pokerdyn.dynamics.summary import summary_repr


def eigenspace_basis(eq: Equilibrium, which: str = "stable", tol: float = 1e-9
                     ) -> NDArray[np.float64]:
    """Real orthonormal basis (columns) of the stable or unstable eigenspace of ``eq``
    (complex pairs contribute their real and imaginary parts)."""
    lam, V = eq.eigenvalues, eq.eigenvectors
    scale = max(1.0, float(np.max(np.abs(lam))))
    sel = lam.real < -tol * scale if which == "stable" else lam.real > tol * scale
    if which not in ("stable", "unstable"):
        raise GameError(f"which={which!r}; use 'stable' or 'unstable'")
    cols = []
    for j in np.flatnonzero(sel):
        cols.append(V[:, j].real)
        if abs(lam[j].imag) > tol * scale:
            cols.append(V[:, j].imag)
    if not cols:
        return np.zeros((len(lam), 0))
    q, r = np.linalg.qr(np.array(cols).T)
    return q[:, np.abs(np.diag(r)) > 1e-12]


def manifold_paths(model: ODEModel, eq: Equilibrium, which: str = "stable",
                   n_paths: int = 1, radius: float = 1e-3, t_end: float = 600.0,
                   n_samples: int = 4000, rtol: float = 1e-10, atol: float = 1e-12
                   ) -> list[Trajectory]:
    """Integral paths in the ``which`` manifold of ``eq``: start at ``eq + radius * u`` for
    ``n_paths`` directions u spread over the eigenspace (circle in 2-D, both signs in 1-D)
    and integrate backwards (stable) or forwards (unstable) for ``t_end``.  Returned
    trajectories run in integration time (decreasing times for stable manifolds)."""
    B = eigenspace_basis(eq, which)
    if B.shape[1] == 0:
        raise GameError(f"equilibrium {eq.point} has no {which} eigenspace")
    x0 = eq.x
    if B.shape[1] == 1:
        dirs = [B[:, 0], -B[:, 0]][:max(1, n_paths)]
    else:
        ang = 2 * np.pi * np.arange(n_paths) / n_paths
        dirs = [np.cos(a) * B[:, 0] + np.sin(a) * B[:, 1] for a in ang]
    sign = -1.0 if which == "stable" else 1.0
    out = []
    for u in dirs:
        start = np.clip(x0 + radius * u, 0.0, 1.0)
        tr = simulate(model, start, sign * t_end, method="DOP853", rtol=rtol, atol=atol,
                      t_eval=np.linspace(0.0, sign * t_end, n_samples))
        out.append(Trajectory(tr.times, tr.states, tr.names, tr.payoffs,
                              {**tr.meta, "manifold": which, "equilibrium": eq.point}))
    return out


@dataclass(frozen=True)
class BasinMap:
    """Which invariant face (``faces[label]``) each initial point approaches; label -1:
    undecided by ``t_end``.  ``distance[i, f]`` is the largest distance from face f over the
    last ``tail`` fraction of trajectory i."""

    __repr__ = summary_repr  # short: arrays by shape and range (issue 35)

    points: NDArray[np.float64]
    labels: NDArray[np.int64]
    faces: tuple[str, ...]
    distance: NDArray[np.float64]
    meta: dict[str, Any] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        out = {f: int(np.sum(self.labels == i)) for i, f in enumerate(self.faces)}
        out["undecided"] = int(np.sum(self.labels < 0))
        return out


def grid_points(model: ODEModel, fixed: dict[str, float], axes: tuple[str, str],
                n: int, margin: float = 0.02) -> NDArray[np.float64]:
    """Initial points on an n x n grid over ``axes`` (in [margin, 1 - margin]) with the other
    coordinates at ``fixed``; row-major in (axes[1], axes[0])."""
    missing = [v for v in model.names if v not in fixed and v not in axes]
    if missing:
        raise GameError(f"grid: give values for {', '.join(missing)}")
    g = np.linspace(margin, 1 - margin, n)
    X, Y = np.meshgrid(g, g)
    pts = np.empty((n * n, model.n))
    for j, name in enumerate(model.names):
        pts[:, j] = (X.ravel() if name == axes[0] else Y.ravel() if name == axes[1]
                     else fixed[name])
    return pts


def basin_map(model: ODEModel, points: ArrayLike, t_end: float = 800.0,
              faces: Sequence[tuple[str, float]] | None = None, tail: float = 0.25,
              tol: float = 1e-2, rtol: float = 1e-7, atol: float = 1e-10,
              chunk: int = 512) -> BasinMap:
    """Classify each initial point by the invariant face its trajectory approaches.

    ``faces`` defaults to every invariant face x_i = v of the cube.  A trajectory is
    assigned to the face it stays closest to over the last ``tail`` of [0, t_end], if that
    distance is below ``tol``."""
    pts = np.atleast_2d(np.asarray(points, dtype=float))
    if faces is None:
        faces = [(x.name, float(v)) for x, vals in zip(model.symbols, face_values(model))
                 for v in vals]
    idx = [model.names.index(f) for f, _ in faces]
    val = np.array([v for _, v in faces])
    t_eval = np.linspace(0.0, t_end, 201)
    t_eval = t_eval[t_eval >= (1 - tail) * t_end]
    dist = np.empty((len(pts), len(faces)))
    for s in range(0, len(pts), chunk):
        trs = simulate_batch(model, pts[s:s + chunk], t_end, t_eval=t_eval, rtol=rtol,
                             atol=atol, payoffs=False)
        for k, tr in enumerate(trs):
            dist[s + k] = np.max(np.abs(tr.states[:, idx] - val), axis=0)
    best = np.argmin(dist, axis=1)
    labels = np.where(dist[np.arange(len(pts)), best] < tol, best, -1)
    return BasinMap(pts, labels, tuple(f"{f}={v:g}" for f, v in faces), dist,
                    {"t_end": t_end, "tail": tail, "tol": tol, "model": model.label()})
