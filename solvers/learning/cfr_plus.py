"""Counterfactual regret minimisation for N-player games: CFR (Zinkevich, Johanson, Bowling
& Piccione 2007) and CFR+ (Tammelin 2014; Tammelin, Burch, Johanson & Bowling 2015) as flags
of one solver, as in OpenSpiel's ``CFRSolver`` / ``CFRPlusSolver``.

Each iteration ``t`` and each player ``p`` (in turn with ``alternating=True``, else all
against the same profile): counterfactual action values ``v(I, a)`` under the current
profile; the average strategy accumulates ``w_t * pi_p(I) * sigma(I, a)`` (``w_t = t`` with
``linear_averaging``, else 1); regrets ``R(I, a) += v(I, a) - sum_b sigma(I, b) v(I, b)``,
clipped at 0 with ``regret_matching_plus``; the new strategy is regret matching on ``R``.
``CFR+`` = all three flags on (OpenSpiel's CFRPlusSolver); plain CFR = all off.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit
from numpy.typing import NDArray

from pokerdyn.games import CompiledGame

from pokerdyn.solvers.learning._regret_kernels import (RegretState, cfv_into, normalise_average,
                                              regret_matching)
from pokerdyn.solvers._kernels import infoset_trees
from pokerdyn.solvers.iterative import SolverResult, run_iterative


@njit(cache=True)
def _update_player(cfv, own, sigma, regret, avg, legal, infoset_player, who, weight, plus):
    for I in range(legal.shape[0]):
        if infoset_player[I] != who:
            continue
        value = 0.0
        for a in range(legal.shape[1]):
            if legal[I, a]:
                value += sigma[I, a] * cfv[I, a]
                avg[I, a] += weight * own[I] * sigma[I, a]
        for a in range(legal.shape[1]):
            if legal[I, a]:
                regret[I, a] += cfv[I, a] - value
                if plus and regret[I, a] < 0.0:
                    regret[I, a] = 0.0


@njit(cache=True)
def _match_player(sigma, regret, legal, infoset_player, who):
    for I in range(legal.shape[0]):
        if infoset_player[I] == who:
            regret_matching(regret[I], legal[I], sigma[I])


@njit(cache=True)
def _cfr_iterations(kind, player, parent, edge, infoset, chance_prob, terminal_index, payoffs,
                    legal, infoset_player, iparents, topos, ms, sigma, regret, avg, t0, n_iter,
                    n_players, alternating, plus, linear):
    n_inf, amax = legal.shape
    # work buffers, allocated once: 16 bytes per node, the rest per information set
    reach = np.empty(kind.shape[0])
    v = np.empty(kind.shape[0])
    cfv = np.zeros((n_inf, amax))
    cf_reach = np.zeros(n_inf)
    own = np.zeros(n_inf)
    for t in range(t0 + 1, t0 + n_iter + 1):
        weight = float(t) if linear else 1.0
        for p in range(n_players):
            cfv_into(kind, player, parent, edge, infoset, chance_prob, terminal_index, payoffs,
                     sigma, p, cfv, cf_reach, own, reach, v, iparents[p], topos[p], ms[p])
            _update_player(cfv, own, sigma, regret, avg, legal, infoset_player, p, weight,
                           plus)
            if alternating:
                _match_player(sigma, regret, legal, infoset_player, p)
        if not alternating:
            for p in range(n_players):
                _match_player(sigma, regret, legal, infoset_player, p)


@dataclass
class CFR:
    """The CFR family as an :class:`~solvers.iterative.IterativeMethod` (flags as in
    OpenSpiel: CFR+ = ``regret_matching_plus``, ``alternating``, ``linear_averaging``)."""

    regret_matching_plus: bool = True
    alternating: bool = True
    linear_averaging: bool = True
    name: str = "cfr+"

    def init(self, cg: CompiledGame, sigma0: NDArray[np.float64]) -> RegretState:
        return RegretState.start(sigma0)

    def advance(self, cg: CompiledGame, state: RegretState, t0: int, n: int) -> None:
        _cfr_iterations(cg.kind, cg.player, cg.parent, cg.edge, cg.infoset, cg.chance_prob,
                        cg.terminal_index, cg.payoffs, cg.legal, cg.infoset_player,
                        *infoset_trees(cg), state.sigma, state.table, state.avg, t0, n, cg.n_players,
                        self.alternating, self.regret_matching_plus, self.linear_averaging)

    def average(self, cg: CompiledGame, state: RegretState) -> NDArray[np.float64]:
        return normalise_average(state.avg, cg.legal)


def cfr(cg: CompiledGame, iterations: int = 10_000, tol: float | None = None,
        regret_matching_plus: bool = True, alternating: bool = True,
        linear_averaging: bool = True, sigma0: NDArray[np.float64] | None = None,
        seconds: float | None = None, progress: bool = False) -> SolverResult:
    """Run CFR+ (default flags) or a CFR variant; see the module docstring.

    Returns a :class:`~solvers.iterative.SolverResult` whose ``strategy`` is the average
    profile and whose ``history`` rows are (iteration, NashConv, seconds).
    """
    plus = regret_matching_plus and alternating and linear_averaging
    plain = not (regret_matching_plus or alternating or linear_averaging)
    name = "cfr+" if plus else "cfr" if plain else "cfr-variant"
    method = CFR(regret_matching_plus, alternating, linear_averaging, name)
    res = run_iterative(cg, method, iterations=iterations, tol=tol, sigma0=sigma0,
                        seconds=seconds, progress=progress)
    opts = {"regret_matching_plus": regret_matching_plus, "alternating": alternating,
            "linear_averaging": linear_averaging}
    return SolverResult(**{**res.__dict__, "options": opts})


__all__ = ["CFR", "cfr"]
