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

from games import GameError
from dynamics.ode.model import ODEModel
from dynamics.trajectory import Trajectory

IMPLICIT = ("Radau", "BDF", "LSODA")
METHODS = ("RK45", "RK23", "DOP853", *IMPLICIT)  # solve_ivp's methods, by name


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
             check: bool = True) -> Trajectory:
    """Integrate ``model`` from ``y0`` over ``[0, t_end]`` (``t_end < 0``: backwards).

    Returns a :class:`Trajectory` whose ``payoffs`` are the cumulative expected payoffs;
    ``meta`` holds the solver result's ``t_events``/``y_events`` and the dense solution
    ``sol`` (when asked) of the augmented state (parameters then payoff integrals).
    """
    check_method(method)
    y = check_initial(model, y0) if check else np.asarray(y0, dtype=float)
    if y.shape != (model.n,):
        raise GameError(f"initial state has shape {y.shape}; simulate needs shape "
                        f"({model.n},), one value per parameter (simulate_batch takes many)")
    if not np.isfinite(t_end) or t_end == 0:
        raise GameError(f"t_end={t_end} must be finite and non-zero")
    fun, jac = _augmented(model)
    z0 = np.concatenate([y, np.zeros(model.n_players)])
    kw = {"jac": jac} if method in IMPLICIT else {}
    res = solve_ivp(fun, (0.0, float(t_end)), z0, method=method, t_eval=t_eval, rtol=rtol,
                    atol=atol, events=events, dense_output=dense_output, max_step=max_step,
                    **kw)
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
                   payoffs: bool = True) -> list[Trajectory]:
    """Integrate many initial conditions ``y0s`` (shape (m, n)) as one stacked system with
    the vectorised right-hand side.  One step size serves all m trajectories and the error
    norm is the RMS over all of them, so tolerances are per batch, not per trajectory
    (pass a tighter ``rtol`` for large batches)."""
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
    res = solve_ivp(fun, (0.0, float(t_end)), z0, method=method, t_eval=t_eval, rtol=rtol,
                    atol=atol)
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

