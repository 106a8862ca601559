"""Largest Lyapunov exponent of an ODE model by Benettin's method, with its convergence.

One long run of :func:`dynamics.chaos.kernels.integrate_kernel` integrates the state and one
tangent vector of the variational equation, renormalising the tangent every ``tau``; the
running estimate ``lambda(t) = (sum of log norms) / (t - t_0)`` is returned at every
renormalisation, so its convergence can be judged: the final value, and its spread (max -
min) over the last ``tail`` fraction of the run.  Several starts give the spread between
starts.  The same run yields Poincare-section crossings and the mean profit rates.

Benettin, Galgani, Giorgilli and Strelcyn, Meccanica 15 (1980) 9-30; for a rest point the
estimate tends to the largest real part of the Jacobian's eigenvalues, for a periodic orbit
to 0 (tests/test_chaos.py checks both).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from pokerdyn.games import GameError
from pokerdyn.dynamics.chaos.convergence import Convergence, lyapunov_convergence
from pokerdyn.dynamics.chaos.kernels import MAX_STEPS, check_finished, integrate_kernel, polynomial_system
from pokerdyn.dynamics.ode.model import ODEModel
from pokerdyn.dynamics.ode.solve import check_initial
from pokerdyn.dynamics.trajectory import Trajectory
from pokerdyn.dynamics.summary import summary_repr


@dataclass(frozen=True)
class ChaosRun:
    """One long run: sampled trajectory (payoffs cumulative), the Lyapunov running estimate
    (``lyap_times``, ``lyap_running``), Poincare crossings (times, points) of ``section``
    and the mean profit rate of each player after ``t_skip``."""

    __repr__ = summary_repr  # short: arrays by shape and range (issue 35)

    trajectory: Trajectory
    lyap_times: NDArray[np.float64]
    lyap_running: NDArray[np.float64]
    section: tuple[str, float] | None
    crossing_times: NDArray[np.float64]
    crossings: NDArray[np.float64]
    profit_rates: NDArray[np.float64]
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def exponent(self) -> float:
        """The final running estimate of the largest Lyapunov exponent."""
        return float(self.lyap_running[-1]) if self.lyap_running.size else float("nan")

    def spread(self, tail: float = 0.25) -> float:
        """max - min of the running estimate over the last ``tail`` fraction of the run."""
        if not self.lyap_running.size:
            return float("nan")
        t = self.lyap_times
        sel = t >= t[-1] - tail * (t[-1] - self.meta["t_count"])
        r = self.lyap_running[sel]
        return float(r.max() - r.min())

    def convergence(self, **kw: Any) -> Convergence:
        """Windowed exponents, batch-means estimate +- standard error, drift test and
        transient end (:func:`dynamics.chaos.convergence.lyapunov_convergence`)."""
        t0 = self.meta["t_count"]
        return lyapunov_convergence(self.lyap_times, self.lyap_running * (self.lyap_times - t0),
                                    t0, **kw)


def check_section(model: ODEModel, section: tuple[str, float] | None) -> tuple[int, float]:
    """(index, value) of a section ``(name, value)``; (-1, 0) for none."""
    if section is None:
        return -1, 0.0
    name, value = section
    if name not in model.names:
        raise GameError(f"section variable {name!r} is not one of {', '.join(model.names)}")
    v = float(value)
    if not (np.isfinite(v) and 0.0 < v < 1.0):
        raise GameError(f"section value {name}={value} is outside the allowed range (0, 1)")
    return model.names.index(name), v


def run_chaos(model: ODEModel, y0: ArrayLike, t_end: float, t_skip: float = 0.0,
              tau: float = 1.0, section: tuple[str, float] | None = None,
              dt_out: float = 1.0, rtol: float = 1e-9, atol: float = 1e-12,
              max_crossings: int = 100_000, v0: ArrayLike | None = None,
              coords: str = "logit", max_steps: int = MAX_STEPS) -> ChaosRun:
    """Integrate ``model`` from ``y0`` to ``t_end`` with the tangent flow (see the module
    docstring).  ``t_skip``: transient before the exponent is counted (the tangent aligns
    meanwhile).  ``v0``: initial tangent (default: all ones, normalised).  ``coords``:
    ``"logit"`` (u = log(x/(1-x)), default; needs g = x(1-x) and 0 < y0 < 1, see
    :mod:`dynamics.chaos.kernels`) or ``"x"``.  ``max_steps``: the step budget; a run that
    certainly needs more, or whose samples would not fit in memory, is refused before it
    starts (dynamics.budget), one that spends it stops with GameError."""
    y = check_initial(model, y0)
    if coords not in ("logit", "x"):
        raise GameError(f"coords={coords!r} is not one of logit, x")
    for name, v, lo in (("t_end", t_end, 0.0), ("tau", tau, 0.0), ("dt_out", dt_out, 0.0)):
        if not (np.isfinite(v) and v > lo):
            raise GameError(f"{name}={v} must be finite and > 0")
    if not (np.isfinite(t_skip) and 0.0 <= t_skip < t_end):
        raise GameError(f"t_skip={t_skip} is outside the allowed range [0, t_end={t_end})")
    ps = polynomial_system(model)
    logit = coords == "logit"
    if logit and not ps.logit:
        raise GameError("logit coordinates need g(x) = x(1 - x); use coords='x'")
    if logit and np.any((y <= 0) | (y >= 1)):
        raise GameError("logit coordinates need every initial frequency strictly inside "
                        "(0, 1); use coords='x' for a start on a face")
    i, c = check_section(model, section)
    v = np.ones(model.n) if v0 is None else np.asarray(v0, float)
    if v.shape != (model.n,) or not np.all(np.isfinite(v)) or not np.any(v):
        raise GameError(f"initial tangent needs {model.n} finite values, not all 0")
    if not (isinstance(max_crossings, (int, np.integer)) and 0 <= max_crossings <= 10**7):
        raise GameError(f"max_crossings={max_crossings} is outside the allowed range "
                        "[0, 10000000]")
    _check_resources(model, y, t_end, t_skip, tau, dt_out, int(max_crossings), int(max_steps))
    out = integrate_kernel(y, v, float(t_end), float(t_skip), float(tau), rtol, atol, i, c,
                           int(max_crossings), float(dt_out), logit,
                           *((ps.h_row, ps.h_coef, ps.h_var, ps.h_exp) if logit else
                             (ps.f_row, ps.f_coef, ps.f_var, ps.f_exp)),
                           ps.p_row, ps.p_coef, ps.p_var, ps.p_exp, int(max_steps))
    check_finished(out, t_end, max_steps, f"the Lyapunov run of {model.label()}")
    samples, st, rt, rl, ct, cp, xf, vf, steps, t_count, _ = out
    n = model.n
    traj = Trajectory(st, samples[:, :n], model.names, samples[:, n:],
                      {"model": model.label(), "game": model.game,
                       "values": dict(model.values), "method": f"DOP54 (numba, {coords})",
                       "rtol": rtol, "atol": atol, "payoffs": "cumulative"})
    running = rl / (rt - t_count) if rt.size else rl
    rates = _rates_after(traj, t_skip)
    return ChaosRun(traj, rt, running, section, ct, cp, rates,
                    {"t_end": t_end, "t_skip": t_skip, "tau": tau, "t_count": float(t_count),
                     "steps": int(steps), "final_tangent": vf, "final": xf})


def _check_resources(model: ODEModel, y, t_end: float, t_skip: float, tau: float,
                     dt_out: float, max_crossings: int, max_steps: int) -> None:
    """Refuse a run whose arrays (samples every ``dt_out``, one renormalisation record per
    ``tau`` but at most one per step, crossings; twice: the result copies them) do not fit
    in memory, or whose steps certainly exceed ``max_steps`` (dynamics.budget)."""
    from pokerdyn.dynamics.budget import STEPS_PER_UNIT, check_memory, check_run_length

    if not (isinstance(max_steps, (int, np.integer)) and max_steps >= 1):
        raise GameError(f"max_steps={max_steps} is outside the allowed range [1, inf)")
    n, q = model.n, model.n_players
    records = min((t_end - t_skip) / tau, max_steps) + 2
    need = 2 * 8 * ((t_end / dt_out + 1) * (n + q + 1) + 2 * records + max_crossings * (n + 1))
    check_memory(need, f"the Lyapunov run to t_end={t_end:g} (samples every dt_out={dt_out:g}, "
                 f"renormalised every tau={tau:g})")
    check_run_length(model, t_end, max_steps, unit="integration steps", y0=y,
                     per_unit=STEPS_PER_UNIT)


def _rates_after(traj: Trajectory, t_skip: float) -> NDArray[np.float64]:
    """Mean expected payoff per unit time over [t_skip, end], from the cumulative
    payoffs interpolated at t_skip."""
    t, P = traj.times, traj.payoffs
    if t[-1] <= t_skip:
        return P[-1] / t[-1]
    at = np.array([np.interp(t_skip, t, P[:, j]) for j in range(P.shape[1])])
    return (P[-1] - at) / (t[-1] - t_skip)


@dataclass(frozen=True)
class LyapunovEstimate:
    """Largest-Lyapunov estimates from several starts: per start the final value and the
    spread of its running estimate over the last quarter; ``mean``, ``std`` between
    starts."""

    __repr__ = summary_repr  # short: arrays by shape and range (issue 35)

    starts: NDArray[np.float64]
    exponents: NDArray[np.float64]
    spreads: NDArray[np.float64]
    runs: tuple[ChaosRun, ...]

    @property
    def mean(self) -> float:
        return float(np.mean(self.exponents))

    @property
    def std(self) -> float:
        return float(np.std(self.exponents))

    def convergence(self, **kw: Any) -> tuple[Convergence, ...]:
        """:meth:`ChaosRun.convergence` of every start."""
        return tuple(r.convergence(**kw) for r in self.runs)

    def to_json(self) -> dict[str, Any]:
        return {"mean": self.mean, "std": self.std, "exponents": self.exponents.tolist(),
                "spreads_last_quarter": self.spreads.tolist(),
                "convergence": [r.convergence().to_json() if r.lyap_times.size >= 2 else None
                                for r in self.runs]}


def random_starts(model: ODEModel, n_starts: int, seed: int = 0, low: float = 0.1,
                  high: float = 0.9) -> NDArray[np.float64]:
    """``n_starts`` uniform initial points in [low, high]^n from ``seed``."""
    if n_starts < 1:
        raise GameError(f"n_starts={n_starts} must be >= 1")
    return np.random.default_rng(seed).uniform(low, high, (n_starts, model.n))


def largest_lyapunov(model: ODEModel, starts: ArrayLike | int = 4, seed: int = 0,
                     t_end: float = 5000.0, t_skip: float = 500.0, tau: float = 1.0,
                     section: tuple[str, float] | None = None, dt_out: float = 1.0,
                     progress: Callable[[int], Any] | None = None,
                     **kw: Any) -> LyapunovEstimate:
    """Benettin estimates from several initial points (``starts`` rows, or a number of
    seeded random starts).  ``progress(i)`` is called after each start."""
    Y = random_starts(model, starts, seed) if isinstance(starts, (int, np.integer)) else \
        np.atleast_2d(np.asarray(starts, float))
    runs = []
    for k, y in enumerate(Y):
        runs.append(run_chaos(model, y, t_end, t_skip, tau, section, dt_out, **kw))
        if progress is not None:
            progress(k)
    return LyapunovEstimate(Y, np.array([r.exponent for r in runs]),
                            np.array([r.spread() for r in runs]), tuple(runs))


def summarise_runs(runs: Sequence[ChaosRun]) -> dict[str, Any]:
    """Exponent, spread and profit rates of each run (JSON-ready)."""
    return {"exponents": [r.exponent for r in runs], "spreads": [r.spread() for r in runs],
            "profit_rates": [r.profit_rates.tolist() for r in runs]}
