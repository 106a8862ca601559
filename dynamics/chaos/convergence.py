"""Has a Benettin estimate converged?  Windowed exponents, batch means and a drift test.

Benettin's running estimate ``lambda(t) = S(t) / (t - t_0)`` (``S`` the summed log growth of
the renormalised tangent) averages everything since ``t_0``: a slow drift, such as a chaotic
transient ending on a regular orbit, shows in it only as a slow decline.  The windowed
exponents ``lambda_i = (S(t_{i+1}) - S(t_i)) / (t_{i+1} - t_i)`` over ``n_windows`` equal
windows show it at once.  Over the judged part (the last ``judge`` fraction of the windows):

* **estimate**: the mean of the windowed exponents; **stderr**: their standard deviation
  over sqrt(k), the batch-means standard error (Flyvbjerg and Petersen, J. Chem. Phys. 91
  (1989) 461), valid when a window is long against the correlation time of the local
  growth rates;
* **drift**: the change of the windowed exponent across the judged span, from a least-squares
  line through ``(t_i, lambda_i)``, with its standard error;
* **shift**: the mean of the windows before the judged part minus the judged mean, and
  ``shift_z``, that difference over its batch-means standard error (Geweke's comparison of
  the early and late parts of a chain; Geweke, in *Bayesian Statistics 4*, 1992): a slow
  decline shows here even when the judged part alone looks flat;
* **converged**: ``stderr <= rel_tol |estimate|``, ``|drift| <= 2 rel_tol |estimate|`` (a
  drift of more than twice the tolerated error over the judged span is a trend, whatever its
  significance) and ``|shift_z| <= z``; **positive**: converged and ``estimate > z stderr``;
* **transient_end**: the left end of the last run of windows (at least ``tail_min`` of
  them) whose exponent stays below ``floor`` up to the end of the run (a chaotic transient
  that settled on a regular orbit, whose exponent is 0), with the mean exponent before it;
  None otherwise.

Tested on the Lorenz system (largest exponent 0.9056, Sprott, *Chaos and Time-Series
Analysis*, 2003, table A.1) and on the limit cycle of the Hopf normal form (exponent 0).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from pokerdyn.games import GameError
from pokerdyn.dynamics.summary import summary_repr


def window_exponents(times: ArrayLike, logs: ArrayLike, t_count: float,
                     n_windows: int) -> tuple[NDArray[np.float64], NDArray[np.float64],
                                              NDArray[np.float64]]:
    """(left ends, right ends, exponents) of ``n_windows`` equal windows of the counted time
    ``[t_count, times[-1]]``; ``logs[k]`` is the summed log growth from ``t_count`` to
    ``times[k]`` (linearly interpolated between renormalisations)."""
    t = np.asarray(times, float)
    S = np.asarray(logs, float)
    if t.shape != S.shape or t.size < 2:
        raise GameError(f"times and logs need the same length >= 2, got {t.shape} and {S.shape}")
    if n_windows < 4:
        raise GameError(f"n_windows={n_windows} must be >= 4")
    edges = np.linspace(t_count, t[-1], n_windows + 1)
    Se = np.interp(edges, np.concatenate([[t_count], t]), np.concatenate([[0.0], S]))
    return edges[:-1], edges[1:], np.diff(Se) / np.diff(edges)


@dataclass(frozen=True)
class Convergence:
    """Verdict on one Benettin run (see the module docstring)."""

    __repr__ = summary_repr  # short: arrays by shape and range (issue 35)

    estimate: float
    stderr: float
    drift: float
    drift_err: float
    shift: float
    shift_z: float
    converged: bool
    positive: bool
    transient_end: float | None
    transient_exponent: float | None
    running: float
    window_left: NDArray[np.float64]
    window_right: NDArray[np.float64]
    window_exponents: NDArray[np.float64]
    judged: int

    @property
    def relative_error(self) -> float:
        return self.stderr / abs(self.estimate) if self.estimate else float("inf")

    def regular_phases(self, floor: float = 1e-3) -> list[tuple[float, float]]:
        """(start, end) of every maximal run of windows whose exponent is below ``floor``:
        the sticky (near-regular) phases of an intermittent orbit, or the regular tail
        after a transient."""
        below = np.append(self.window_exponents < floor, False)
        out, j = [], None
        for i, b in enumerate(below):
            if b and j is None:
                j = i
            elif not b and j is not None:
                out.append((float(self.window_left[j]), float(self.window_right[i - 1])))
                j = None
        return out

    def verdict(self) -> str:
        """``chaotic (converged)``; ``transient, then regular`` (windows above ``floor``,
        then below it to the end); ``regular`` (every window below ``floor``); else ``not
        converged``."""
        if self.positive:
            return "chaotic (converged)"
        if self.transient_end is not None:
            return "regular" if self.transient_exponent is None else "transient, then regular"
        return "not converged"

    def to_json(self) -> dict[str, Any]:
        return {"estimate": self.estimate, "stderr": self.stderr, "drift": self.drift,
                "drift_err": self.drift_err, "shift": self.shift, "shift_z": self.shift_z,
                "converged": self.converged,
                "positive": self.positive, "verdict": self.verdict(),
                "transient_end": self.transient_end,
                "transient_exponent": self.transient_exponent, "running": self.running,
                "judged_windows": self.judged,
                "regular_phases": self.regular_phases(),
                "windows": [[float(a), float(b), float(x)] for a, b, x in
                            zip(self.window_left, self.window_right, self.window_exponents)]}


def lyapunov_convergence(times: ArrayLike, logs: ArrayLike, t_count: float = 0.0,
                         n_windows: int = 20, judge: float = 0.5, rel_tol: float = 0.2,
                         z: float = 3.0, floor: float = 1e-3,
                         tail_min: int = 2) -> Convergence:
    """Windowed exponents, batch-means estimate, drift test and transient end of one run
    (``times``, ``logs``: see :func:`window_exponents`)."""
    if not 0.0 < judge <= 1.0:
        raise GameError(f"judge={judge} is outside the allowed range (0, 1]")
    if not rel_tol > 0:
        raise GameError(f"rel_tol={rel_tol} must be > 0")
    left, right, lam = window_exponents(times, logs, t_count, n_windows)
    k = max(3, int(round(judge * n_windows)))
    tm, lj = 0.5 * (left + right)[-k:], lam[-k:]
    est = float(lj.mean())
    se = float(lj.std(ddof=1) / np.sqrt(k))
    A = np.vstack([tm - tm.mean(), np.ones(k)]).T
    coef, *_ = np.linalg.lstsq(A, lj, rcond=None)
    span = right[-1] - left[-k]
    resid = lj - A @ coef
    s2 = float(resid @ resid) / max(k - 2, 1)
    slope_err = np.sqrt(s2 / float(((tm - tm.mean()) ** 2).sum()))
    drift, drift_err = float(coef[0] * span), float(slope_err * span)
    shift, shift_z = _shift(lam[:-k], est, se)
    converged = bool(se <= rel_tol * abs(est) and abs(drift) <= 2 * rel_tol * abs(est)
                     and abs(shift_z) <= z)
    positive = bool(converged and est > z * se)
    below = lam < floor
    t_end, lam_tr = None, None
    j = len(lam)
    while j > 0 and below[j - 1]:
        j -= 1
    if len(lam) - j >= tail_min:
        t_end = float(left[j])
        if j > 0:
            lam_tr = float(np.average(lam[:j], weights=(right - left)[:j]))
    total = float(np.asarray(logs, float)[-1] / (np.asarray(times, float)[-1] - t_count))
    return Convergence(est, se, drift, drift_err, shift, shift_z, converged, positive, t_end, lam_tr, total,
                       left, right, lam, k)


def _shift(early: NDArray[np.float64], est: float, se: float) -> tuple[float, float]:
    """(mean of the early windows - the judged mean, in units of their joint standard error);
    (0, 0) without early windows."""
    if early.size < 2:
        return 0.0, 0.0
    d = float(early.mean() - est)
    err = float(np.hypot(early.std(ddof=1) / np.sqrt(early.size), se))
    # windows equal up to rounding (a constant rate): their standard error is 0 and the
    # difference of means a few ulps, which is no shift (it was +-inf, "not converged")
    ulps = 16 * np.finfo(float).eps * max(abs(est), abs(float(early.mean())))
    if err <= ulps:
        return d, (0.0 if abs(d) <= ulps else float(np.sign(d) * np.inf))
    return d, d / err
