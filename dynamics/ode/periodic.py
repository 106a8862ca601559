"""Periodic orbits: detection and period by a Poincare section (solve_ivp event location),
Floquet multipliers from the variational equations, and the nested family of cycles around
a centre (Billingham Fig. 7).

The section is the hyperplane ``name = value`` crossed with ``dx_name/dt > 0``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.integrate import solve_ivp

from pokerdyn.games import GameError
from pokerdyn.dynamics.ode.model import ODEModel
from pokerdyn.dynamics.ode.solve import IMPLICIT, check_initial, simulate
from pokerdyn.dynamics.trajectory import Trajectory
from pokerdyn.dynamics.summary import summary_repr


@dataclass(frozen=True)
class Cycle:
    """A (nearly) closed orbit found on a Poincare section.

    ``period`` is the last return time; ``returns`` all return times; ``crossings`` the
    section points (rows); ``closure`` the distance between the last two crossings (0 for an
    exactly closed orbit); ``orbit`` one period of the orbit starting at the last crossing;
    ``multipliers`` the Floquet multipliers (eigenvalues of the monodromy matrix), if asked;
    ``meta["crossing_times"]`` the times of the crossings from ``y0`` (the orbit starts at the
    second-to-last).
    """

    __repr__ = summary_repr  # short: arrays by shape and range (issue 35)

    period: float
    returns: NDArray[np.float64]
    crossings: NDArray[np.float64]
    closure: float
    orbit: Trajectory
    multipliers: NDArray[np.complex128] | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def closed(self) -> bool:
        return bool(self.closure <= self.meta.get("closure_tol", 1e-6))


def section_event(model: ODEModel, name: str, value: float):
    """solve_ivp event: crossing ``name = value`` upwards."""
    if name not in model.names:
        raise GameError(f"section variable {name!r} is not one of {', '.join(model.names)}")
    i = model.names.index(name)

    def event(t, z):
        return z[i] - value
    event.direction = 1.0
    return event


def find_cycle(model: ODEModel, y0: ArrayLike, section: tuple[str, float],
               n_returns: int = 3, t_max: float = 2000.0, method: str = "DOP853",
               rtol: float = 1e-11, atol: float = 1e-13, floquet: bool = True,
               closure_tol: float = 1e-6, n_samples: int = 400) -> Cycle:
    """Integrate from ``y0`` until ``n_returns`` returns to the section (or ``t_max``), and
    report the period, the closure of the return map and (``floquet``) the multipliers of
    the last loop.  Raises GameError if fewer than two crossings occur (no cycle)."""
    y0 = check_initial(model, y0)
    ev = section_event(model, *section)
    ev.terminal = n_returns + 1
    tr = simulate(model, y0, t_max, method=method, rtol=rtol, atol=atol, events=[ev],
                  t_eval=[0.0])
    tc, yc = tr.meta["t_events"][0], tr.meta["y_events"][0][:, :model.n]
    if len(tc) < 2:
        raise GameError(f"no closed orbit found: {len(tc)} crossing(s) of "
                        f"{section[0]}={section[1]} before t={t_max}")
    returns = np.diff(tc)
    T = float(returns[-1])
    start = yc[-2]
    orbit = simulate(model, start, T, t_eval=np.linspace(0, T, n_samples), method=method,
                     rtol=rtol, atol=atol, check=False)
    mult = floquet_multipliers(model, start, T, method, rtol, atol) if floquet else None
    return Cycle(T, returns, yc, float(np.linalg.norm(yc[-1] - yc[-2])), orbit, mult,
                 {"section": section, "method": method, "rtol": rtol, "atol": atol,
                  "closure_tol": closure_tol, "crossing_times": np.asarray(tc, dtype=float)})


def monodromy(model: ODEModel, y0: ArrayLike, T: float, method: str = "DOP853",
              rtol: float = 1e-11, atol: float = 1e-13) -> NDArray[np.float64]:
    """Fundamental matrix Phi(T) of the variational equation dPhi/dt = J(x(t)) Phi."""
    n = model.n

    def fun(t, z):
        x, Phi = z[:n], z[n:].reshape(n, n)
        return np.concatenate([model._f(x), (model._jac(x) @ Phi).ravel()])

    z0 = np.concatenate([np.asarray(y0, float), np.eye(n).ravel()])
    res = solve_ivp(fun, (0.0, T), z0, method=method, rtol=rtol, atol=atol,
                    **({"jac": None} if method in IMPLICIT else {}))
    return res.y[n:, -1].reshape(n, n)


def floquet_multipliers(model: ODEModel, y0: ArrayLike, T: float, method: str = "DOP853",
                        rtol: float = 1e-11, atol: float = 1e-13) -> NDArray[np.complex128]:
    """Floquet multipliers of the cycle through ``y0`` with period ``T``, sorted by modulus
    (one is 1, along the flow)."""
    mu = np.linalg.eigvals(monodromy(model, y0, T, method, rtol, atol))
    return mu[np.argsort(-np.abs(mu))]


def cycle_family(model: ODEModel, centre: ArrayLike, direction: Sequence[float],
                 amplitudes: Sequence[float], section: tuple[str, float],
                 floquet: bool = False, **kw: Any) -> list[Cycle]:
    """Cycles through ``centre + a * direction`` for each amplitude ``a`` (the nested family
    around a centre; pick ``direction`` within its invariant plane)."""
    c = np.asarray(centre, float)
    d = np.asarray(direction, float)
    return [find_cycle(model, c + a * d, section, floquet=floquet, **kw) for a in amplitudes]
