"""Evaluation and CFR on the public-tree form (:class:`games.public.form.PublicGame`).

Profiles are arrays ``(pg.n_rows, pg.max_actions)``: one row per (decision public node,
private state of its actor); :func:`games.public.form.to_history` and ``from_history``
convert to and from the history tree's ``(n_infosets, max_actions)``.  The functions mirror
:mod:`solvers.evaluation` (``expected_payoffs``, ``best_response``, ``regrets``,
``nash_conv``) and :func:`solvers.learning.cfr_plus.cfr` (the same flags, the same updates
row by row, so the iterates equal the history tree's up to rounding).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from pokerdyn.games.errors import GameError
from pokerdyn.games.public.form import PublicGame
from pokerdyn.solvers.iterative import SolverResult, checkpoints, iterate
from pokerdyn.solvers.learning._regret_kernels import RegretState, normalise_average
from pokerdyn.solvers.learning.cfr_plus import CFR, CFRState, variant_options
from pokerdyn.solvers.public import _kernels as PK


def _tree(pg: PublicGame) -> tuple:
    return (pg.kind, pg.parent, pg.edge, pg.actor, pg.child_start, pg.children, pg.priv_n,
            pg.priv_off, pg.up, pg.row_off, pg.legal)


def _payoffs(pg: PublicGame) -> tuple:
    return (pg.jstart, pg.jlen, pg.jx, pg.jw, pg.tab, pg.scale, pg.offset, pg.tstart,
            pg.tdata, pg.doff, pg.toff, pg.dense)


def payoff_scale(pg: PublicGame) -> float:
    """Largest payoff magnitude (the best response's tie tolerance unit)."""
    got = pg.cache.get("payoff_scale")
    if got is None:
        t = float(np.abs(pg.tdata).max(initial=0.0)) * float(np.abs(pg.scale).max(initial=0.0))
        got = pg.cache["payoff_scale"] = t + float(np.abs(pg.offset).max(initial=0.0))
    return got


def check_profile(pg: PublicGame, sigma: NDArray[np.float64]) -> NDArray[np.float64]:
    """``sigma`` as a contiguous float64 ``(n_rows, max_actions)`` array, else GameError."""
    s = np.ascontiguousarray(sigma, dtype=np.float64)
    if s.shape != pg.legal.shape:
        raise GameError(f"sigma shape {s.shape} is not allowed: {pg.name} has "
                        f"{pg.legal.shape} public rows and actions")
    return s


def regrets_and_values(pg: PublicGame, sigma: NDArray[np.float64]) -> NDArray[np.float64]:
    """Per player ``(best-response value, expected payoff)``, shape ``(n_players, 2)``."""
    return PK.regrets(*_tree(pg)[:10], pg.legal, *_payoffs(pg), check_profile(pg, sigma),
                      payoff_scale(pg))


def expected_payoffs(pg: PublicGame, sigma: NDArray[np.float64]) -> NDArray[np.float64]:
    """Expected payoff of each player under ``sigma``."""
    return regrets_and_values(pg, sigma)[:, 1].copy()


def regrets(pg: PublicGame, sigma: NDArray[np.float64]) -> NDArray[np.float64]:
    """Each player's best-response gain."""
    rv = regrets_and_values(pg, sigma)
    return rv[:, 0] - rv[:, 1]


def nash_conv(pg: PublicGame, sigma: NDArray[np.float64]) -> float:
    """Sum over players of the best-response gain (exact, N players)."""
    return float(regrets(pg, sigma).sum())


def counterfactual_values(pg: PublicGame, sigma: NDArray[np.float64], player: int
                          ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """``(cfv, own, values)`` of ``player`` under ``sigma``: counterfactual action values
    ``(n_rows, max_actions)`` and own reach ``(n_rows,)`` of her rows (others 0), and her
    counterfactual value of every private state at every public node (flat, entries
    ``pg.priv_off[v, player] + x``; the history tree's ``sum over h in (v, x) of
    pi_{-player}(h) u_player(h)``)."""
    if not isinstance(player, (int, np.integer)) or not 0 <= player < pg.n_players:
        raise GameError(f"player={player!r} is outside [0, {pg.n_players - 1}]")
    return PK.counterfactual_values(*_tree(pg)[:10], pg.legal, *_payoffs(pg),
                                    check_profile(pg, sigma), int(player))


@dataclass(frozen=True)
class PublicBestResponse:
    """``value``; ``actions`` per row (-1 for other players' rows); ``action_values``."""

    player: int
    value: float
    actions: NDArray[np.int64]
    action_values: NDArray[np.float64]


def best_response(pg: PublicGame, sigma: NDArray[np.float64], player: int
                  ) -> PublicBestResponse:
    """Exact pure best response of ``player`` (0-based) to ``sigma``."""
    if not isinstance(player, (int, np.integer)) or not 0 <= player < pg.n_players:
        raise GameError(f"player={player!r} is outside [0, {pg.n_players - 1}]")
    value, br, cfv = PK.best_response(*_tree(pg)[:10], pg.legal, *_payoffs(pg),
                                      check_profile(pg, sigma), int(player), payoff_scale(pg))
    br[pg.row_player != player] = -1
    return PublicBestResponse(int(player), float(value), br, cfv)


@dataclass
class PublicCFR(CFR):
    """The CFR family on the public tree: the options of
    :class:`pokerdyn.solvers.learning.cfr_plus.CFR` (flags, discount and averaging exponents,
    predictive, storage) and its row-by-row update; only the counterfactual values come from
    the range vectors."""

    def init(self, pg: PublicGame, sigma0: NDArray[np.float64]) -> CFRState:
        return super().init(pg, check_profile(pg, sigma0))

    def advance(self, pg: PublicGame, state: RegretState, t0: int, n: int) -> None:
        regret, q, qscale, last, quant = self.kernel_state(state)
        PK.cfr_iterations(*_tree(pg)[:10], pg.legal, pg.row_player, *_payoffs(pg), state.sigma,
                          regret, q, qscale, last, state.avg, t0, n, *self.options(), quant)

    def average(self, pg: PublicGame, state: RegretState) -> NDArray[np.float64]:
        return normalise_average(state.avg.astype(np.float64, copy=False), pg.legal)


def cfr(pg: PublicGame, iterations: int = 10_000, tol: float | None = None,
        regret_matching_plus: bool = True, alternating: bool = True,
        linear_averaging: bool = True, sigma0: NDArray[np.float64] | None = None,
        seconds: float | None = None, progress: bool = False,
        growth: float = 1.1, *, method: CFR | None = None) -> SolverResult:
    """CFR+ (default flags), a CFR variant given by its flags, or the configured ``method``
    (:func:`pokerdyn.solvers.learning.cfr_plus.variant`) on the public tree; NashConv of the
    average measured at geometric checkpoints.  ``strategy`` of the result: public rows."""
    import time
    from dataclasses import fields

    if not isinstance(iterations, (int, np.integer)) or iterations < 1:
        raise GameError(f"iterations={iterations!r} is outside the allowed range [1, inf)")
    if method is None:
        method = CFR.from_flags(regret_matching_plus, alternating, linear_averaging)
    public = PublicCFR(**{f.name: getattr(method, f.name) for f in fields(CFR)})
    state = public.init(pg, pg.uniform() if sigma0 is None else sigma0)
    start = time.perf_counter()
    run = iterate(pg, public, state, iterations=int(iterations),
                  at=checkpoints(int(iterations), growth),
                  measure=lambda g, st: nash_conv(g, public.average(g, st)),
                  stop=None if tol is None else (lambda nc: nc <= tol), seconds=seconds,
                  progress=progress, label="nash_conv")
    avg = public.average(pg, state)
    return SolverResult(method=public.name, strategy=avg, iterations=run.iterations,
                        seconds=time.perf_counter() - start, nash_conv=run.value,
                        expected_payoffs=expected_payoffs(pg, avg), history=run.history,
                        converged=run.converged,
                        options={**variant_options(public), "engine": "public"})


__all__ = ["PublicBestResponse", "PublicCFR", "best_response", "cfr", "counterfactual_values",
           "expected_payoffs",
           "nash_conv", "regrets", "regrets_and_values"]
