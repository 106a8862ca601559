"""Telling periodic, quasi-periodic and chaotic runs apart, and comparing their profit rates
with the equilibria's payoffs.

* Poincare section (hyperplane ``x_i = c`` crossed upward): a periodic orbit returns to
  finitely many points (clusters), a quasi-periodic one fills a closed curve (correlation
  dimension about 1), a chaotic one scatters (dimension above 1); the correlation dimension
  is the slope of log C(r) against log r, C(r) the fraction of pairs closer than r
  (Grassberger and Procaccia, Phys. Rev. Lett. 50 (1983) 346).
* Largest Lyapunov exponent: chaotic when the estimate is positive, well above its spread
  over the last quarter of the run and above ``lam_min``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
from numpy.typing import NDArray

from pokerdyn.dynamics.chaos.lyapunov import ChaosRun
from pokerdyn.dynamics.chaos.rest_points import RestPoint
from pokerdyn.dynamics.summary import summary_repr


def section_clusters(points: NDArray[np.float64], tol: float = 1e-4) -> int:
    """Number of clusters of section points (greedy, max-norm distance ``tol``)."""
    reps: list[NDArray] = []
    for p in points:
        if all(np.max(np.abs(p - r)) > tol for r in reps):
            reps.append(p)
            if len(reps) > 50:
                break
    return len(reps)


def correlation_dimension(points: NDArray[np.float64], max_points: int = 1500) -> float:
    """Grassberger-Procaccia slope of log C(r) vs log r between the 5% and 30% quantiles
    of the pair distances (nan for fewer than 20 points)."""
    P = np.asarray(points, float)[:max_points]
    if len(P) < 20:
        return float("nan")
    d = np.sqrt(((P[:, None, :] - P[None, :, :]) ** 2).sum(-1))[np.triu_indices(len(P), 1)]
    d = d[d > 0]
    r = np.quantile(d, np.geomspace(0.01, 0.3, 12))
    C = np.array([np.mean(d < x) for x in r])
    ok = C > 0
    if ok.sum() < 3:
        return float("nan")
    return float(np.polyfit(np.log(r[ok]), np.log(C[ok]), 1)[0])


@dataclass(frozen=True)
class RunClass:
    """The verdict on one run, with the numbers behind it."""

    __repr__ = summary_repr  # short: arrays by shape and range (issue 35)

    kind: str               # periodic, quasi-periodic, chaotic, converging, irregular
    exponent: float
    spread: float
    n_crossings: int
    clusters: int
    dimension: float
    period: float | None
    meta: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "lyapunov": self.exponent, "lyapunov_spread": self.spread,
                "crossings": self.n_crossings, "section_clusters": self.clusters,
                "correlation_dimension": self.dimension, "period": self.period}


def classify_run(run: ChaosRun, t_from: float | None = None, cluster_tol: float = 1e-4,
                 lam_min: float = 5e-3) -> RunClass:
    """Classify ``run`` from its section crossings after ``t_from`` (default: its
    ``t_skip``) and its Lyapunov estimate (see the module docstring).  ``period``: the mean
    return time times the number of clusters, for a periodic run."""
    t0 = run.meta["t_skip"] if t_from is None else t_from
    sel = run.crossing_times >= t0
    pts, times = run.crossings[sel], run.crossing_times[sel]
    lam, spr = run.exponent, run.spread()
    n = len(pts)
    clusters = section_clusters(pts, cluster_tol) if n else 0
    dim = correlation_dimension(pts)
    period = None
    if lam > lam_min and lam > 5 * spr:
        kind = "chaotic"
    elif n < 3:
        kind = "converging"
    elif clusters <= max(1, n // 4) and clusters <= 50:
        kind = "periodic"
        period = float(np.mean(np.diff(times)) * clusters)
    elif np.isfinite(dim) and dim < 1.3:
        kind = "quasi-periodic"
    else:
        kind = "irregular"
    return RunClass(kind, lam, spr, n, clusters, dim, period)


def profit_match(rates: NDArray[np.float64], points: Sequence[RestPoint],
                 nash_only: bool = True) -> tuple[int | None, float]:
    """Index of the (Nash, unless ``nash_only=False``) rest point whose payoffs are closest
    (max-norm) to the profit rates, and that distance (None, inf without one)."""
    best, dist = None, float("inf")
    for k, p in enumerate(points):
        if nash_only and not p.nash:
            continue
        d = float(np.max(np.abs(np.asarray(rates) - p.payoffs)))
        if d < dist:
            best, dist = k, d
    return best, dist


def time_average(run: ChaosRun, t_from: float | None = None) -> NDArray[np.float64]:
    """Mean state of ``run`` over the samples after ``t_from`` (default its ``t_skip``)."""
    tr = run.trajectory
    t0 = run.meta["t_skip"] if t_from is None else t_from
    return tr.states[tr.times >= t0].mean(axis=0)


def auto_section(run: ChaosRun, t_from: float = 0.0) -> tuple[str, float]:
    """A section through the bulk of ``run``: the frequency that varies most after
    ``t_from`` among those whose mean stays in [0.05, 0.95] (frequencies drifting to a face
    would not be crossed), at its mean value."""
    tr = run.trajectory
    s = tr.states[tr.times >= t_from]
    mean = s.mean(axis=0)
    score = np.where((mean > 0.05) & (mean < 0.95), s.std(axis=0), -1.0)
    j = int(np.argmax(score))
    return tr.names[j], float(np.clip(s[:, j].mean(), 0.02, 0.98))
