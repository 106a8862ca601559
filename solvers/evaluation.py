"""Exact numeric evaluation of behaviour profiles: expected payoffs, best responses,
NashConv and max regret (any number of players, perfect recall)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from games import CompiledGame, GameError
from games.strategy import check_strategy

from solvers import _kernels as K


def _arrays(cg: CompiledGame):
    return (cg.kind, cg.player, cg.parent, cg.edge, cg.infoset, cg.chance_prob)


def expected_payoffs(cg: CompiledGame, sigma: NDArray[np.float64]) -> NDArray[np.float64]:
    """Expected payoff of each player (net chips) under the behaviour profile ``sigma``."""
    return K.expected_payoffs(*_arrays(cg), cg.terminal_index, cg.payoffs,
                              np.ascontiguousarray(sigma, dtype=np.float64))


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
        mine = self.actions >= 0
        out[mine] = 0.0
        out[np.nonzero(mine)[0], self.actions[mine]] = 1.0
        return out


def best_response(cg: CompiledGame, sigma: NDArray[np.float64], player: int) -> BestResponse:
    """Exact pure best response of ``player`` (0-based) to the rest of ``sigma``."""
    if not 0 <= player < cg.n_players:
        raise GameError(f"player {player} outside [0, {cg.n_players - 1}]")
    value, actions, cf = K.best_response(*_arrays(cg), cg.terminal_index, cg.payoffs, cg.legal,
                                         np.ascontiguousarray(sigma, dtype=np.float64), player)
    return BestResponse(player, float(value), actions, cf)


def regrets(cg: CompiledGame, sigma: NDArray[np.float64]) -> NDArray[np.float64]:
    """Each player's gain from deviating to a best response (>= 0 up to rounding)."""
    return K.regrets(*_arrays(cg), cg.terminal_index, cg.payoffs, cg.legal,
                     np.ascontiguousarray(sigma, dtype=np.float64))


def nash_conv(cg: CompiledGame, sigma: NDArray[np.float64], check: bool = False) -> float:
    """Sum over players of the best-response gain; 0 exactly at a Nash equilibrium."""
    if check:
        check_strategy(cg, sigma)
    return float(regrets(cg, sigma).sum())


def max_regret(cg: CompiledGame, sigma: NDArray[np.float64]) -> float:
    """Largest best-response gain of any single player."""
    return float(regrets(cg, sigma).max())
