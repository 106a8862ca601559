"""The one protocol of pokerdyn's continuous-time dynamics: what the adaptive-play ODE
(:class:`~pokerdyn.dynamics.ode.model.ODEModel`, Billingham sec. 4.1) and the learning
dynamics in behaviour strategies (:class:`~pokerdyn.dynamics.learning.model.LearningModel`)
both offer, so that one integrator (:mod:`pokerdyn.dynamics.ode.solve`), one set of plots
and one budget check (:mod:`pokerdyn.dynamics.budget`) serve both.

The vector field follows :func:`scipy.integrate.solve_ivp`: ``f(t, y)`` and ``jac(t, y)``
take a state ``y`` of shape ``(n,)`` or a batch ``(n, m)``.  :class:`FieldMethods` is the
shared implementation of the four public, shape-checked methods: a model class supplies
the unchecked ``_f``, ``_jac``, ``_pay`` and ``_dpay`` (the integrators call those directly,
on states they built themselves) and inherits the checked ones.
"""
from __future__ import annotations

from typing import Any, Mapping, Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from pokerdyn.games import GameError


@runtime_checkable
class DynamicsModel(Protocol):
    """A compiled continuous-time dynamics on a game's strategy parameters.

    Attributes
    ----------
    game : the game's name.
    names : the state's components, in order (parameter names, or ``"P1:J|:b"``).
    n, n_players : the state's length and the number of players.
    values : the game-parameter values the model was built at (``{"P": 9}``).
    k : the adaptation rates (one per parameter or per player).
    meta : free-form facts of the model (normalisation, fixed parameters, ...).
    """

    @property
    def game(self) -> str: ...

    @property
    def names(self) -> tuple[str, ...]: ...

    @property
    def n(self) -> int: ...

    @property
    def n_players(self) -> int: ...

    @property
    def values(self) -> Mapping[str, Any]: ...

    @property
    def k(self) -> tuple[Any, ...]: ...

    @property
    def meta(self) -> dict[str, Any]: ...

    def label(self) -> str:
        """A short description for titles: game, parameter values, rates."""

    def f(self, t: float, y: NDArray[np.float64]) -> NDArray[np.float64]:
        """dy/dt at ``y`` (shape (n,) or (n, m))."""

    def jac(self, t: float, y: NDArray[np.float64]) -> NDArray[np.float64]:
        """d(dy/dt)/dy, shape (n, n) (or (n, n, m) for a batch)."""

    def payoff(self, y: NDArray[np.float64]) -> NDArray[np.float64]:
        """Each player's expected payoff at ``y``: (n_players,) or (n_players, m)."""

    def payoff_gradient(self, y: NDArray[np.float64]) -> NDArray[np.float64]:
        """dE_p/dy_i at ``y``: (n_players, n) (or with a batch axis)."""


#: the methods of :class:`DynamicsModel` (a conformance test checks every model has them
#: with these parameter names)
PROTOCOL_METHODS = ("label", "f", "jac", "payoff", "payoff_gradient")
PROTOCOL_ATTRIBUTES = ("game", "names", "n", "n_players", "values", "k", "meta")


def check_state(model: Any, y: Any, what: str = "state y") -> NDArray[np.float64]:
    """``y`` as a float array of shape ``(n,)`` or ``(n, m)`` (``n = model.n``: one value per
    ``model.names``), else GameError: the shape guard of the public ``f``/``jac``/``payoff``
    of every :class:`DynamicsModel` (O(1); values are not range-checked, an integrator may
    step slightly outside [0, 1])."""
    names = ", ".join(model.names[:8]) + (", ..." if model.n > 8 else "")
    try:
        arr = np.asarray(y, dtype=np.float64)
    except (TypeError, ValueError):
        raise GameError(f"{what} is not an array of numbers; it needs {model.n} values "
                        f"({names})") from None
    if arr.ndim not in (1, 2) or arr.shape[0] != model.n:
        raise GameError(f"{what} has shape {arr.shape}; the model needs shape ({model.n},) "
                        f"or ({model.n}, m): one value per {names}")
    return arr


class FieldMethods:
    """The checked public methods of a :class:`DynamicsModel`, from the unchecked ``_f``,
    ``_jac``, ``_pay`` and ``_dpay`` that the model class supplies (callables of ``y``)."""

    __slots__ = ()

    def f(self, t: float, y: NDArray[np.float64]) -> NDArray[np.float64]:
        """dy/dt at ``y`` (shape (n,) or (n, m))."""
        return self._f(check_state(self, y))  # type: ignore[attr-defined]

    def jac(self, t: float, y: NDArray[np.float64]) -> NDArray[np.float64]:
        """Jacobian d(dy/dt)/dy, shape (n, n) (or (n, n, m) for a batch)."""
        return self._jac(check_state(self, y))  # type: ignore[attr-defined]

    def payoff(self, y: NDArray[np.float64]) -> NDArray[np.float64]:
        """Expected payoff of each player at ``y``: shape (n_players,) or (n_players, m)."""
        return self._pay(check_state(self, y))  # type: ignore[attr-defined]

    def payoff_gradient(self, y: NDArray[np.float64]) -> NDArray[np.float64]:
        """d(payoff_p)/dy_i at ``y``: shape (n_players, n) (or with a batch axis)."""
        return self._dpay(check_state(self, y))  # type: ignore[attr-defined]


__all__ = ["DynamicsModel", "FieldMethods", "PROTOCOL_ATTRIBUTES", "PROTOCOL_METHODS",
           "check_state"]
