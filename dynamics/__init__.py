"""Repeated-play dynamics of adaptive players: ODE, difference-equation and agent-based
models sharing one :class:`Trajectory` type."""
from dynamics.trajectory import Trajectory

__all__ = ["Trajectory"]
