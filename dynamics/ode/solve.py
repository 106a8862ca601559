"""Integrating ODE models with scipy ``solve_ivp``: one trajectory, or many initial conditions
at once through the vectorised compiled right-hand side.

Trajectories carry the cumulative expected payoffs ``int_0^t E_p(x(s)) ds`` (Billingham
(24)-(26) for ``skp``), integrated as extra state components.
"""
from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.integrate import solve_ivp

from pokerdyn.games import GameError
from pokerdyn.dynamics.ode.model import ODEModel
from pokerdyn.dynamics.trajectory import Trajectory

IMPLICIT = ("Radau", "BDF", "LSODA")
METHODS = ("RK45", "RK23", "DOP853", *IMPLICIT)  # solve_ivp's methods, by name
# Right-hand-side evaluations one integration may use (about 1-2 minutes at the measured
# 60-200 us per evaluation of skp and kuhn3-third); runs that certainly need more are refused
# before they start (dynamics.budget.check_run_length).
MAX_NFEV = 1_000_000


class _OverBudget(Exception):
    """Raised by the counted right-hand side when the evaluation budget is spent."""

    def __init__(self, t: float):
        super().__init__(t)
        self.t = t


def _counted(fun, budget: int | None):
    """``fun`` that raises :class:`_OverBudget` on its ``budget + 1``-th call."""
    if budget is None:
        return fun
    calls = [0]

    def counted(t, z):
        calls[0] += 1
        if calls[0] > budget:
            raise _OverBudget(float(t))
        return fun(t, z)
    return counted


def _over_budget(model, exc: _OverBudget, t_end: float, budget: int) -> GameError:
    return GameError(f"the integration of {model.label()} stopped at t = {exc.t:.6g} of "
                     f"t_end = {float(t_end):g}: it used the allowed {budget:,} right-hand-side "
                     "evaluations (max_nfev); lower t_end or k")


def check_method(method: str) -> str:
    """``method`` if it names a solve_ivp method, else GameError naming the allowed ones."""
    if method not in METHODS:
        raise GameError(f"unknown ODE method {method!r}; allowed: {', '.join(METHODS)}")
    return method


def check_initial(model: ODEModel, y0: ArrayLike) -> NDArray[np.float64]:
    """Initial frequencies as floats in [0, 1], one per named parameter (else GameError)."""
    y = np.asarray(y0, dtype=float)
    if y.shape[-1:] != (model.n,):
        raise GameError(f"initial state needs {model.n} values ({', '.join(model.names)}), "
                        f"got shape {y.shape}")
    bad = ~np.isfinite(y) | (y < 0) | (y > 1)
    if bad.any():
        idx = np.argwhere(bad)[0]
        raise GameError(f"initial {model.names[idx[-1]]}={y[tuple(idx)]} is outside the "
                        "allowed range [0, 1]")
    return y


def _augmented(model: ODEModel):
    n, q = model.n, model.n_players

    def fun(t, z):
        y = z[:n]
        return np.concatenate([model._f(y), model._pay(y)])

    def jac(t, z):
        y = z[:n]
        J = np.zeros((n + q, n + q))
        J[:n, :n] = model._jac(y)
        J[n:, :n] = model._dpay(y)
        return J
    return fun, jac


def simulate(model: ODEModel, y0: ArrayLike, t_end: float, t_eval: ArrayLike | None = None,
             method: str = "DOP853", rtol: float = 1e-9, atol: float = 1e-12,
             events: Any = None, dense_output: bool = False, max_step: float = np.inf,
             check: bool = True, max_nfev: int | None = MAX_NFEV) -> Trajectory:
    """Integrate ``model`` from ``y0`` over ``[0, t_end]`` (``t_end < 0``: backwards).

    Returns a :class:`Trajectory` whose ``payoffs`` are the cumulative expected payoffs;
    ``meta`` holds the solver result's ``t_events``/``y_events`` and the dense solution
    ``sol`` (when asked) of the augmented state (parameters then payoff integrals).
    ``max_nfev``: the budget of right-hand-side evaluations (None: none); a run that
    certainly needs more is refused before it starts (dynamics.budget), one that spends it
    stops with GameError.
    """
    check_method(method)
    y = check_initial(model, y0) if check else np.asarray(y0, dtype=float)
    if y.shape != (model.n,):
        raise GameError(f"initial state has shape {y.shape}; simulate needs shape "
                        f"({model.n},), one value per parameter (simulate_batch takes many)")
    if not np.isfinite(t_end) or t_end == 0:
        raise GameError(f"t_end={t_end} must be finite and non-zero")
    if max_nfev is not None:
        from pokerdyn.dynamics.budget import check_run_length
        check_run_length(model, t_end, max_nfev, y0=y)
    fun, jac = _augmented(model)
    z0 = np.concatenate([y, np.zeros(model.n_players)])
    kw = {"jac": jac} if method in IMPLICIT else {}
    try:
        res = solve_ivp(_counted(fun, max_nfev), (0.0, float(t_end)), z0, method=method,
                        t_eval=t_eval, rtol=rtol, atol=atol, events=events,
                        dense_output=dense_output, max_step=max_step, **kw)
    except _OverBudget as exc:
        raise _over_budget(model, exc, t_end, max_nfev) from None
    if res.status < 0:
        raise RuntimeError(f"integration failed: {res.message}")
    meta = {"model": model.label(), "game": model.game, "values": dict(model.values),
            "k": [float(k) for k in model.k], "method": method, "rtol": rtol, "atol": atol,
            "payoffs": "cumulative", "nfev": int(res.nfev)}
    if events is not None:
        meta["t_events"], meta["y_events"] = res.t_events, res.y_events
    if dense_output:
        meta["sol"] = res.sol
    return Trajectory(res.t, res.y[:model.n].T, model.names, res.y[model.n:].T, meta)


def simulate_batch(model: ODEModel, y0s: ArrayLike, t_end: float,
                   t_eval: ArrayLike | None = None, method: str = "DOP853",
                   rtol: float = 1e-8, atol: float = 1e-10,
                   payoffs: bool = True, max_nfev: int | None = MAX_NFEV) -> list[Trajectory]:
    """Integrate many initial conditions ``y0s`` (shape (m, n)) as one stacked system with
    the vectorised right-hand side.  One step size serves all m trajectories and the error
    norm is the RMS over all of them, so tolerances are per batch, not per trajectory
    (pass a tighter ``rtol`` for large batches).  ``max_nfev``: as in :func:`simulate`."""
    Y0 = check_initial(model, np.atleast_2d(y0s))
    if Y0.ndim != 2:
        raise GameError(f"initial states have shape {Y0.shape}; simulate_batch needs shape "
                        f"(m, {model.n}), one row per initial state")
    m, n = Y0.shape
    q = model.n_players if payoffs else 0
    if t_eval is None:
        t_eval = np.linspace(0.0, t_end, 501)

    def fun(t, z):
        Z = z.reshape(n + q, m)
        out = np.empty_like(Z)
        out[:n] = model._f(Z[:n])
        if q:
            out[n:] = model._pay(Z[:n])
        return out.ravel()

    z0 = np.concatenate([Y0.T, np.zeros((q, m))]).ravel()
    if max_nfev is not None:
        from pokerdyn.dynamics.budget import check_run_length
        check_run_length(model, t_end, max_nfev)
    try:
        res = solve_ivp(_counted(fun, max_nfev), (0.0, float(t_end)), z0, method=method,
                        t_eval=t_eval, rtol=rtol, atol=atol)
    except _OverBudget as exc:
        raise _over_budget(model, exc, t_end, max_nfev) from None
    if res.status < 0:
        raise RuntimeError(f"integration failed: {res.message}")
    Z = res.y.reshape(n + q, m, -1)
    meta = {"model": model.label(), "game": model.game, "values": dict(model.values),
            "k": [float(k) for k in model.k], "method": method, "rtol": rtol, "atol": atol,
            "payoffs": "cumulative", "batch": m}
    return [Trajectory(res.t, Z[:n, j].T, model.names, Z[n:, j].T if q else None, dict(meta))
            for j in range(m)]


def payoff_rates(model: ODEModel, traj: Trajectory) -> NDArray[np.float64]:
    """Instantaneous expected payoffs E_p(x(t)) along ``traj``, shape (n_times, n_players)."""
    return model.payoff(traj.states.T).T

