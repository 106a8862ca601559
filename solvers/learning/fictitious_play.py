"""Fictitious play for N-player extensive-form games.

Each iteration every player computes an exact pure best response to the current average
profile and mixes it into their own average with weight ``1/(t+1)`` (the starting profile
counts as the first sample).

* ``schedule="simultaneous"`` (Robinson): all best responses answer the same profile.
  ``schedule="alternating"`` (Brown): players update in turn, each answering the profile
  already updated by the players before them.
* ``averaging="infoset"``: per-information-set averaging of the best responses, as in the
  river-game (Papadopoulos sec. 3) and tournament (Ganzfried) papers.
  ``averaging="reach"``: reach-weighted averaging, realization-equivalent to averaging the
  mixed strategies (extensive-form FP, Heinrich, Lanctot & Silver 2015, Theorem 7):
  ``sigma(I) += a x_br(I) (br(I) - sigma(I)) / ((1 - a) x_sigma(I) + a x_br(I))``
  with ``x`` the player's own reach probability of ``I``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit
from numpy.typing import NDArray

from pokerdyn.games import CompiledGame, GameError

from pokerdyn.solvers import _kernels as K
from pokerdyn.solvers.iterative import SolverResult, run_iterative

SCHEDULES = ("simultaneous", "alternating")
AVERAGINGS = ("infoset", "reach")


@njit(cache=True)
def _mix(legal, infoset_player, iparent, topo, m, sigma, br, who, alpha, reach_weighted):
    """Mix player ``who``'s pure best response ``br`` into ``sigma`` with weight alpha."""
    n_inf, amax = legal.shape
    if reach_weighted:
        xs = np.zeros(n_inf)
        K.own_reach_sets(sigma, iparent, topo, m, amax, xs)
        brs = np.zeros((n_inf, amax))
        for I in range(n_inf):
            if br[I] >= 0:
                brs[I, br[I]] = 1.0
        xb = np.zeros(n_inf)
        K.own_reach_sets(brs, iparent, topo, m, amax, xb)
    for I in range(n_inf):
        if infoset_player[I] != who or br[I] < 0:
            continue
        if reach_weighted:
            a_s = (1.0 - alpha) * xs[I]
            a_b = alpha * xb[I]
            den = a_s + a_b
            if den <= 0.0:
                continue
            w = a_b / den
        else:
            w = alpha
        for a in range(amax):
            target = 1.0 if a == br[I] else 0.0
            sigma[I, a] += w * (target - sigma[I, a])


@njit(cache=True)
def _fp_iterations(kind, player, parent, edge, infoset, chance_prob, terminal_index, payoffs,
                   legal, infoset_player, iparents, topos, ms, sigma, t0, n_iter, n_players,
                   simultaneous, reach_weighted, log, scale):
    """``n_iter`` iterations from ``t0``; with ``log`` of ``n_iter`` rows (simultaneous
    schedule), row ``k`` receives each player's regret of the profile that iteration
    ``t0 + k + 1`` answers: her best response's value, computed for the update anyway,
    minus her expected payoff.  ``scale``: the payoff scale of the best responses' tie
    tolerance (solvers._kernels.payoff_scale)."""
    logging = log.shape[0] > 0
    ev = np.zeros(n_players)
    for t in range(t0 + 1, t0 + n_iter + 1):
        alpha = 1.0 / (t + 1.0)
        if simultaneous:
            brs = np.empty((n_players, legal.shape[0]), dtype=np.int64)
            if logging:
                ev = K.expected_payoffs(kind, player, parent, edge, infoset, chance_prob,
                                        terminal_index, payoffs, sigma)
            for p in range(n_players):
                v, b, _ = K.best_response(kind, player, parent, edge, infoset, chance_prob,
                                          terminal_index, payoffs, legal, sigma, p, scale)
                if logging:
                    log[t - t0 - 1, p] = v - ev[p]
                # element by element: a row assignment ``brs[p] = b`` compiles numba's
                # shape-mismatch error formatting (about 2 s of the first call, issue 11)
                for I in range(b.shape[0]):
                    brs[p, I] = b[I]
            for p in range(n_players):
                _mix(legal, infoset_player, iparents[p], topos[p], ms[p], sigma, brs[p], p,
                     alpha, reach_weighted)
        else:
            for p in range(n_players):
                _, b, _ = K.best_response(kind, player, parent, edge, infoset, chance_prob,
                                          terminal_index, payoffs, legal, sigma, p, scale)
                _mix(legal, infoset_player, iparents[p], topos[p], ms[p], sigma, b, p, alpha,
                     reach_weighted)


@dataclass
class FictitiousPlay:
    """Fictitious play as an :class:`~solvers.iterative.IterativeMethod`."""

    schedule: str = "simultaneous"
    averaging: str = "reach"
    name: str = "fp"

    def __post_init__(self):
        if self.schedule not in SCHEDULES:
            raise GameError(f"schedule={self.schedule!r} not in {SCHEDULES}")
        if self.averaging not in AVERAGINGS:
            raise GameError(f"averaging={self.averaging!r} not in {AVERAGINGS}")

    def init(self, cg: CompiledGame, sigma0: NDArray[np.float64]) -> NDArray[np.float64]:
        return np.ascontiguousarray(sigma0, dtype=np.float64).copy()

    def advance(self, cg: CompiledGame, sigma: NDArray[np.float64], t0: int, n: int,
                regrets: NDArray[np.float64] | None = None) -> None:
        """``n`` iterations from ``t0``.  ``regrets`` (simultaneous schedule; shape ``(n,
        n_players)``): filled with each player's regret of the profile before each
        iteration, from the best responses the iteration computes anyway (a regret log
        at the cost of one expected-payoff pass an iteration)."""
        iparents, topos, ms = K.infoset_trees(cg)
        if regrets is None:
            log = np.empty((0, cg.n_players))
        else:
            if self.schedule != "simultaneous":
                raise GameError("a regret log needs schedule='simultaneous' (the alternating "
                                "schedule's players answer different profiles)")
            if regrets.shape != (n, cg.n_players) or regrets.dtype != np.float64:
                raise GameError(f"regrets has shape {regrets.shape} and dtype "
                                f"{regrets.dtype}; expected ({n}, {cg.n_players}) float64")
            log = regrets
        _fp_iterations(cg.kind, cg.player, cg.parent, cg.edge, cg.infoset, cg.chance_prob,
                       cg.terminal_index, cg.payoffs, cg.legal, cg.infoset_player,
                       iparents, topos, ms, sigma, t0, n, cg.n_players,
                       self.schedule == "simultaneous", self.averaging == "reach", log,
                       K.game_payoff_scale(cg))

    def average(self, cg: CompiledGame, sigma: NDArray[np.float64]) -> NDArray[np.float64]:
        return sigma


def fictitious_play(cg: CompiledGame, iterations: int = 10_000, tol: float | None = None,
                    schedule: str = "simultaneous", averaging: str = "reach",
                    sigma0: NDArray[np.float64] | None = None, seconds: float | None = None,
                    progress: bool = False) -> SolverResult:
    """Run fictitious play; see the module docstring for ``schedule`` and ``averaging``.

    Returns a :class:`~solvers.iterative.SolverResult` whose ``strategy`` is the average
    profile and whose ``history`` rows are (iteration, NashConv, seconds).
    """
    method = FictitiousPlay(schedule, averaging)
    res = run_iterative(cg, method, iterations=iterations, tol=tol, sigma0=sigma0,
                        seconds=seconds, progress=progress)
    return SolverResult(**{**res.__dict__, "options": {"schedule": schedule,
                                                       "averaging": averaging}})
