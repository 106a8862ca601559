"""Exact numeric evaluation of behaviour profiles: expected payoffs, best responses,
NashConv and max regret (any number of players, perfect recall)."""
from __future__ import annotations

import operator
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from pokerdyn.games import CompiledGame, GameError
from pokerdyn.games.strategy import check_strategy

from pokerdyn.solvers import _kernels as K


def _arrays(cg: CompiledGame):
    return (cg.kind, cg.player, cg.parent, cg.edge, cg.infoset, cg.chance_prob)


def _sigma(cg: CompiledGame, sigma: NDArray[np.float64], check: bool) -> NDArray[np.float64]:
    """``sigma`` for the kernels: checked in full (games.strategy.check_strategy) or, with
    ``check=False`` (internal callers with their own iterates, in loops), its shape only,
    which is what keeps the kernels inside their arrays."""
    return check_strategy(cg, sigma, what="sigma", full=check)


def expected_payoffs(cg: CompiledGame, sigma: NDArray[np.float64],
                     check: bool = True) -> NDArray[np.float64]:
    """Expected payoff of each player (net chips) under the behaviour profile ``sigma``.

    ``check``: validate ``sigma`` (GameError unless it is a profile of ``cg``, see
    games.strategy.check_strategy); ``False`` checks its shape only (for loops over
    profiles the caller made).  The same holds for every function of this module."""
    return K.expected_payoffs(*_arrays(cg), cg.terminal_index, cg.payoffs,
                              _sigma(cg, sigma, check))


@dataclass(frozen=True)
class BestResponse:
    """A pure best response of ``player``.

    ``value``: the player's expected payoff when best-responding; ``actions``: chosen
    action index per information set (-1 where the set belongs to another player);
    ``action_values``: counterfactual action values per information set.
    """

    player: int
    value: float
    actions: NDArray[np.int64]
    action_values: NDArray[np.float64]

    def apply(self, sigma: NDArray[np.float64]) -> NDArray[np.float64]:
        """``sigma`` with this player's rows replaced by the pure best response."""
        out = np.array(sigma, dtype=np.float64)
        if out.ndim != 2 or out.shape[0] != self.actions.shape[0]:
            raise GameError(f"sigma shape {out.shape} is not allowed: the best response has "
                            f"{self.actions.shape[0]} information sets (rows)")
        mine = self.actions >= 0
        out[mine] = 0.0
        out[np.nonzero(mine)[0], self.actions[mine]] = 1.0
        return out


def check_player(cg: CompiledGame, player: int) -> int:
    """``player`` as an int if it is a 0-based player index of ``cg``, else GameError."""
    try:
        p = operator.index(player)
    except TypeError:
        p = None
    if p is None or not 0 <= p < cg.n_players:
        raise GameError(f"player={player!r} is outside the allowed range "
                        f"[0, {cg.n_players - 1}] (a 0-based player index of {cg.name!r})")
    return p


def best_response(cg: CompiledGame, sigma: NDArray[np.float64], player: int,
                  check: bool = True) -> BestResponse:
    """Exact pure best response of ``player`` (0-based) to the rest of ``sigma``."""
    player = check_player(cg, player)
    value, actions, cf = K.best_response(*_arrays(cg), cg.terminal_index, cg.payoffs, cg.legal,
                                         _sigma(cg, sigma, check), player,
                                         K.game_payoff_scale(cg))
    return BestResponse(player, float(value), actions, cf)


def regrets(cg: CompiledGame, sigma: NDArray[np.float64],
            check: bool = True) -> NDArray[np.float64]:
    """Each player's gain from deviating to a best response (>= 0 up to rounding)."""
    return K.regrets(*_arrays(cg), cg.terminal_index, cg.payoffs, cg.legal,
                     _sigma(cg, sigma, check), K.game_payoff_scale(cg))


def nash_conv(cg: CompiledGame, sigma: NDArray[np.float64], check: bool = True) -> float:
    """Sum over players of the best-response gain; 0 exactly at a Nash equilibrium."""
    return float(regrets(cg, sigma, check).sum())


def max_regret(cg: CompiledGame, sigma: NDArray[np.float64], check: bool = True) -> float:
    """Largest best-response gain of any single player."""
    return float(regrets(cg, sigma, check).max())
