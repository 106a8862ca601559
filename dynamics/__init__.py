"""Repeated-play dynamics of adaptive players: ODE, difference-equation and agent-based
models sharing one :class:`Trajectory` type, and parameter sweeps over them.

The names below are imported on first use (PEP 562): ``import pokerdyn.dynamics.sweep...``
does not load the ODE machinery, and the package's own parts never import it back."""
from __future__ import annotations

import importlib

_EXPORTS: dict[str, str] = {
    "Trajectory": "pokerdyn.dynamics.trajectory",
    **dict.fromkeys(["ODEModel", "ode_model", "ode_rhs"], "pokerdyn.dynamics.ode.model"),
    "simulate_batch": "pokerdyn.dynamics.ode.solve",
    **dict.fromkeys(["Equilibrium", "find_equilibria"], "pokerdyn.dynamics.ode.equilibria"),
    **dict.fromkeys(["FirstIntegral", "find_first_integrals"],
                    "pokerdyn.dynamics.ode.first_integrals"),
    **dict.fromkeys(["Cycle", "cycle_family", "find_cycle", "floquet_multipliers"],
                    "pokerdyn.dynamics.ode.periodic"),
    **dict.fromkeys(["BasinMap", "basin_map", "grid_points", "manifold_paths"],
                    "pokerdyn.dynamics.ode.manifolds"),
}
_RENAMED = {"simulate_ode": ("pokerdyn.dynamics.ode.solve", "simulate")}
__all__ = sorted([*_EXPORTS, *_RENAMED])


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    if name in _RENAMED:
        module, attr = _RENAMED[name]
        return getattr(importlib.import_module(module), attr)
    raise AttributeError(f"module 'pokerdyn.dynamics' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
