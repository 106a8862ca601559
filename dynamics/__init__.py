"""Repeated-play dynamics of adaptive players: ODE, difference-equation and agent-based
models sharing one :class:`Trajectory` type, and parameter sweeps over them."""
from pokerdyn.dynamics.trajectory import Trajectory
from pokerdyn.dynamics.ode.model import ODEModel, ode_model, ode_rhs
from pokerdyn.dynamics.ode.solve import simulate as simulate_ode, simulate_batch
from pokerdyn.dynamics.ode.equilibria import Equilibrium, find_equilibria
from pokerdyn.dynamics.ode.first_integrals import FirstIntegral, find_first_integrals
from pokerdyn.dynamics.ode.periodic import Cycle, cycle_family, find_cycle, floquet_multipliers
from pokerdyn.dynamics.ode.manifolds import BasinMap, basin_map, grid_points, manifold_paths

__all__ = [
    "Trajectory",
    "ODEModel", "ode_model", "ode_rhs", "simulate_ode", "simulate_batch",
    "Equilibrium", "find_equilibria", "FirstIntegral", "find_first_integrals",
    "Cycle", "cycle_family", "find_cycle", "floquet_multipliers",
    "BasinMap", "basin_map", "grid_points", "manifold_paths",
]
