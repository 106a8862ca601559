"""Equilibrium of a two-player zero-sum game by the sequence-form linear program
(Koller, Megiddo & von Stengel 1996; see the LP survey, sec. on the sequence form), solved by
scipy's HiGHS.

Player 1's program: maximise ``e2^T q`` over plans ``x`` and free ``q`` subject to
``E1 x = e1``, ``x >= 0`` and ``F^T q <= A^T x`` (``A`` player 1's sequence-form payoff, ``F``
player 2's constraints): the dual of player 2's best response to ``x``, so the optimum is the
game value.  Player 2's program is the same with the roles swapped and payoff ``-A^T``.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sps
from numpy.typing import NDArray

from games import CompiledGame, GameError

from solvers.evaluation import expected_payoffs, nash_conv
from solvers.iterative import SolverResult
from solvers.sequence.form import SequenceForm, sequence_form


@dataclass(frozen=True)
class LPResult:
    """``value``: player 1's expected payoff at equilibrium; ``strategies``: the behaviour
    profile of both players' optimal plans; ``plans``: the realization plans; ``seconds``:
    wall-clock time of building and solving both programs."""

    value: float
    strategies: NDArray[np.float64]
    plans: tuple[NDArray[np.float64], NDArray[np.float64]]
    seconds: float


def check_two_player_zero_sum(cg: CompiledGame, atol: float = 1e-9) -> None:
    """GameError unless ``cg`` has 2 players and payoffs summing to 0 at every terminal."""
    if cg.n_players != 2:
        raise GameError(f"the LP solver needs a 2-player zero-sum game; {cg.name!r} has "
                        f"{cg.n_players} players (use fp, hedge or cfr+)")
    sums = cg.payoffs.sum(axis=1)
    scale = 1.0 + np.abs(cg.payoffs).max(initial=0.0)
    bad = np.nonzero(np.abs(sums) > atol * scale)[0]
    if bad.size:
        t = int(bad[0])
        node = int(np.nonzero(cg.terminal_index == t)[0][0])
        raise GameError(f"the LP solver needs a zero-sum game; payoffs at terminal "
                        f"{'/'.join(cg.game.history(node))} sum to {sums[t]:g}, allowed 0")


def _max_min(A: sps.csr_matrix, E, e, F, f) -> tuple[float, NDArray[np.float64]]:
    """max over plans x (E x = e, x >= 0) of min over plans y (F y = f) of x^T A y."""
    from scipy.optimize import linprog  # heavy import, only when an LP is solved
    nx, mq = A.shape[0], F.shape[0]
    c = np.concatenate([np.zeros(nx), -f])
    A_ub = sps.hstack([-A.T, F.T], format="csr")
    A_eq = sps.hstack([E, sps.csr_matrix((E.shape[0], mq))], format="csr")
    bounds = [(0, None)] * nx + [(None, None)] * mq
    res = linprog(c, A_ub=A_ub, b_ub=np.zeros(A.shape[1]), A_eq=A_eq, b_eq=e, bounds=bounds,
                  method="highs")
    if res.status != 0:
        raise GameError(f"the sequence-form LP failed: {res.message}")
    return -float(res.fun), np.asarray(res.x[:nx])


def _power_of_two_scale(A: sps.csr_matrix, low: float = 2.0 ** -16,
                        high: float = 2.0 ** 16) -> float:
    """1, or the power of two bringing the largest ``|A|`` into [1/2, 1) when it lies outside
    [low, high]: HiGHS's tolerances are absolute (1e-7) and it refuses entries beyond 1e15
    as a model error, so payoffs of 1e100 or 1e-100 (games.compiled allows up to
    MAX_ABS_PAYOFF) are solved on the scaled matrix; a power of two scales exactly."""
    top = float(np.abs(A.data).max(initial=0.0))
    if top == 0.0 or low <= top <= high:
        return 1.0
    return float(2.0 ** (math.frexp(top)[1]))


def solve_lp(cg: CompiledGame) -> LPResult:
    """Game value and equilibrium behaviour strategies of a 2-player zero-sum game."""
    start = time.perf_counter()
    check_two_player_zero_sum(cg)
    sf: SequenceForm = sequence_form(cg)
    A = sf.A[0]
    scale = _power_of_two_scale(A)
    if scale != 1.0:
        A = A * (1.0 / scale)
    v1, x = _max_min(A, sf.E[0], sf.e[0], sf.E[1], sf.e[1])
    v1 *= scale
    _, y = _max_min((-A.T).tocsr(), sf.E[1], sf.e[1], sf.E[0], sf.e[0])
    sigma = sf.behaviour(cg, (x, y))
    return LPResult(value=v1, strategies=sigma, plans=(x, y),
                    seconds=time.perf_counter() - start)


def lp_solver_result(cg: CompiledGame, res: LPResult) -> SolverResult:
    """The LP solution in the iterative solvers' result type (one "iteration"; NashConv
    measured), so that the CLI and comparisons treat every method alike."""
    nc = nash_conv(cg, res.strategies)
    return SolverResult(method="lp", strategy=res.strategies, iterations=1, seconds=res.seconds,
                        nash_conv=nc, expected_payoffs=expected_payoffs(cg, res.strategies),
                        history=np.array([[1.0, nc, res.seconds]]), converged=True,
                        options={"value": res.value})


__all__ = ["LPResult", "check_two_player_zero_sum", "lp_solver_result", "solve_lp"]
