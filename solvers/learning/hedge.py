"""Multiplicative weights (Freund & Schapire 1999) per information set, for N players, as
in Ganzfried's tournament paper (sec. 6.1).

Each player runs one instance of the Freund-Schapire rule at every information set:
``P_{t+1}(a) = P_t(a) beta_t^{M(a)} / Z_t(I)`` with ``M(a)`` the expected loss in [0, 1] of
action ``a`` at ``I`` against the profile of round ``t`` (all players update simultaneously):
``M(a) = (u_max - u(a)) / (u_max - u_min)`` with ``u_min, u_max`` the player's extreme payoffs
and ``u(a)`` the counterfactual action value divided by

* ``values="chance"`` (default): ``N(I)``, the probability that nature deals ``I`` (chance
  reach, all players' actions counted as 1).  This is the paper's decomposition
  ``M(P, Q) = sum_s N(s) sum_i W(i_s) M(i_s, Q)``; the weights ``N`` do not change over
  time, so the per-set regret bounds add up to a bound on the whole game's regret
  (counterfactual regret decomposition, Zinkevich et al. 2007, Theorem 3).
* ``values="conditional"``: the others' and chance's reach of ``I`` in round ``t`` (the
  value given that ``I`` is reached).  In the paper's jam/fold games the two coincide up to a
  constant; in general this reach changes over time and the guarantee is lost (on the
  two-bet river game NashConv rose from 0.023 to 0.060 between 10^4 and 10^5 rounds).

The schedule is the paper's ``beta = 1 / (1 + sqrt(2 ln n / T))`` with ``n`` the number of
actions at the set and ``T`` the current round (the any-time form of the fixed-horizon
choice).  Sets of probability 0 in a round keep their weights.  The output is the
own-reach-weighted average of the rounds' strategies (the average mixed strategy, which
converges in two-player zero-sum games).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit
from numpy.typing import NDArray

from pokerdyn.games import CompiledGame, GameError

from pokerdyn.solvers._kernels import reach_probs
from pokerdyn.solvers.learning._regret_kernels import RegretState, counterfactual_values, normalise_average
from pokerdyn.solvers.iterative import SolverResult, run_iterative

VALUES = ("chance", "conditional")


@njit(cache=True)
def _hedge_iterations(kind, player, parent, edge, infoset, chance_prob, terminal_index,
                      payoffs, legal, infoset_player, n_actions, u_min, u_max, sigma, logw,
                      avg, t0, n_iter, n_players, chance_reach, conditional):
    n_inf, amax = legal.shape
    cfv = np.zeros((n_inf, amax))
    cf_reach = np.zeros(n_inf)
    own = np.zeros(n_inf)
    for t in range(t0 + 1, t0 + n_iter + 1):
        for p in range(n_players):
            counterfactual_values(kind, player, parent, edge, infoset, chance_prob,
                                  terminal_index, payoffs, sigma, p, cfv, cf_reach, own)
            span = u_max[p] - u_min[p]
            for I in range(n_inf):
                if infoset_player[I] != p:
                    continue
                for a in range(amax):
                    avg[I, a] += own[I] * sigma[I, a]
                scale = cf_reach[I] if conditional else chance_reach[I]
                if cf_reach[I] <= 0.0 or scale <= 0.0 or n_actions[I] < 2 or span <= 0.0:
                    continue
                log_beta = -np.log1p(np.sqrt(2.0 * np.log(n_actions[I]) / t))
                for a in range(amax):
                    if legal[I, a]:
                        loss = (u_max[p] - cfv[I, a] / scale) / span
                        logw[I, a] += log_beta * loss
        # simultaneous: the new strategies of all players come from round t's profile
        for I in range(n_inf):
            top = -np.inf
            for a in range(amax):
                if legal[I, a] and logw[I, a] > top:
                    top = logw[I, a]
            total = 0.0
            for a in range(amax):
                if legal[I, a]:
                    logw[I, a] -= top  # keep weights bounded
                    total += np.exp(logw[I, a])
            for a in range(amax):
                sigma[I, a] = np.exp(logw[I, a]) / total if legal[I, a] else 0.0


def chance_reach(cg: CompiledGame) -> NDArray[np.float64]:
    """Per information set, the chance probability of its nodes (all players' actions
    counted as 1): Ganzfried's N(s), the probability that nature deals state s."""
    got = cg.cache.get("chance_reach")
    if got is None:
        reach = reach_probs(cg.kind, cg.player, cg.parent, cg.edge, cg.infoset,
                            cg.chance_prob, np.ones(cg.legal.shape), -1)
        dec = cg.infoset >= 0
        got = np.bincount(cg.infoset[dec], weights=reach[dec], minlength=cg.n_infosets)
        cg.cache["chance_reach"] = got
    return got


@dataclass
class Hedge:
    """Per-information-set multiplicative weights as an
    :class:`~solvers.iterative.IterativeMethod`."""

    values: str = "chance"
    name: str = "hedge"

    def __post_init__(self):
        if self.values not in VALUES:
            raise GameError(f"values={self.values!r} not in {VALUES}")

    def init(self, cg: CompiledGame, sigma0: NDArray[np.float64]) -> RegretState:
        with np.errstate(divide="ignore"):
            logw = np.where(cg.legal, np.log(sigma0), 0.0)
        return RegretState.start(sigma0, logw)

    def advance(self, cg: CompiledGame, state: RegretState, t0: int, n: int) -> None:
        _hedge_iterations(cg.kind, cg.player, cg.parent, cg.edge, cg.infoset, cg.chance_prob,
                          cg.terminal_index, cg.payoffs, cg.legal, cg.infoset_player,
                          cg.n_actions, cg.payoffs.min(axis=0), cg.payoffs.max(axis=0),
                          state.sigma, state.table, state.avg, t0, n, cg.n_players,
                          chance_reach(cg), self.values == "conditional")

    def average(self, cg: CompiledGame, state: RegretState) -> NDArray[np.float64]:
        return normalise_average(state.avg, cg.legal)


def hedge(cg: CompiledGame, iterations: int = 10_000, tol: float | None = None,
          sigma0: NDArray[np.float64] | None = None, seconds: float | None = None,
          progress: bool = False, values: str = "chance") -> SolverResult:
    """Run per-information-set multiplicative weights; see the module docstring.

    ``sigma0`` must give every action positive probability for it to be ever played.
    """
    return run_iterative(cg, Hedge(values), iterations=iterations, tol=tol, sigma0=sigma0,
                         seconds=seconds, progress=progress)


__all__ = ["Hedge", "hedge"]
