"""Counterfactual values, best responses, NashConv and CFR+ for a public tree over private
classes (:class:`games.ranges.RangeGame`), by tensor contractions instead of a tree with one
node per deal.

For player ``p`` with class ``c`` at public node ``v`` the counterfactual value of a terminal
``t`` below is ``sum_{c_-p} deal[c] * payoff_t[c_seats, p] * prod_{q != p} reach_q(t, c_q)``:
one ``numpy.einsum`` over the K^N deal tensor per (terminal, player), contracting the other
players' reach vectors first (matrix products); a terminal whose payoff depends on every
player's class has ``deal * payoff[..., p]`` precomputed.  Values are backed up the public
tree (a sum over the actions at other players' nodes, whose reach is already in the terminal
values; the strategy's mixture, or the max for a best response, at p's nodes).  Everything
is exact for the game as given: NashConv is ``sum_p (BR_p - u_p)``.

CFR+ (Tammelin 2014; Tammelin et al. 2015): regret matching+ per (node, class), alternating
updates, the average strategy weighted by the iteration number times the player's own reach.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from pokerdyn.games.ranges import RangeGame
from pokerdyn.games.tree import TERMINAL

Strategy = dict  # decision node -> (K, A) probabilities
LETTERS = "abcdefgh"


def reaches(game: RangeGame, sigma: Strategy) -> list[NDArray[np.float64]]:
    """Each player's own reach of every public node: a list over nodes of (N, K) arrays."""
    N, K = game.n_players, game.n_classes
    out: list = [None] * game.kind.size
    for v in range(game.kind.size):
        if v == 0:
            out[v] = np.ones((N, K))
            continue
        par = int(game.parent[v])
        r = out[par].copy()
        r[game.actor[par]] *= sigma[par][:, game.edge[v]]
        out[v] = r
    return out


class _Contractions:
    """Contractions of one game: with 3 players every one is a matrix-vector product over
    a contiguous copy of the deal tensor with the output player's axis first (``deal *
    payoff[..., p]`` for a terminal whose payoff depends on all three classes), or over
    the copy with a folded player's axis first (reused within an iteration); other player
    counts use ``numpy.einsum``.  ``dtype`` float32 halves the memory traffic (CFR+'s
    iterations use it; values, best responses and NashConv use float64)."""

    def __init__(self, game: RangeGame, dtype=np.float64):
        self.game = game
        self.paths: dict = {}
        self.q: dict = {}
        self.dtype = dtype
        N = game.n_players
        self.layout = _layouts(game.deal, dtype) if N == 3 else None
        self.full = {int(t): [_first(game.deal * game.payoffs[t][..., p], p, dtype)
                              for p in range(N)]
                     for t in np.flatnonzero(game.kind == TERMINAL)
                     if N == 3 and tuple(game.seats[t]) == tuple(range(N))}

    def value(self, t: int, p: int, reach: NDArray[np.float64]) -> NDArray[np.float64]:
        """Counterfactual value (K,) of terminal ``t`` to player ``p`` given the others'
        reach ``reach`` (N, K) of ``t``."""
        g, N, K = self.game, self.game.n_players, self.game.n_classes
        others = [q for q in range(N) if q != p]
        seats = tuple(g.seats[t])
        if N == 3:
            reach = reach.astype(self.dtype, copy=False)
            x, y = reach[others[0]], reach[others[1]]
            if t in self.full:
                return self.full[t][p].reshape(K, -1) @ np.outer(x, y).ravel()
            u = g.payoffs[t][..., p].astype(self.dtype, copy=False)
            if p not in seats:                   # payoff over the others' classes only
                m = np.outer(x, y) * (u if len(seats) == 2 else
                                      u[:, None] if seats == (others[0],) else
                                      u[None, :] if seats == (others[1],) else u)
                return self.layout[p].reshape(K, -1) @ m.ravel()
            if len(seats) == 2:                  # p and one other: sum the third out first
                z = next(q for q in others if q not in seats)
                key = (z, reach[z].tobytes())
                if key not in self.q:
                    self.q[key] = (reach[z] @ self.layout[z].reshape(K, -1)).reshape(K, K)
                m = self.q[key] if p < seats[1 - seats.index(p)] else self.q[key].T
                y2 = reach[seats[1 - seats.index(p)]]
                uu = u if seats[0] == p else u.T
                return (m * uu) @ y2
        ops = [g.deal, g.payoffs[t][..., p]] + [reach[q] for q in others]
        subs = (LETTERS[:N] + "," + "".join(LETTERS[s] for s in seats) + ","
                + ",".join(LETTERS[q] for q in others) + "->" + LETTERS[p])
        key = (t, p)
        if key not in self.paths:
            self.paths[key] = np.einsum_path(subs, *ops, optimize="optimal")[0]
        return np.einsum(subs, *ops, optimize=self.paths[key])


def _first(a: NDArray[np.float64], p: int, dtype=np.float64) -> NDArray:
    return np.ascontiguousarray(np.moveaxis(a, p, 0), dtype=dtype)


_LAYOUTS: dict = {}
_CACHE: dict = {}


def _layouts(deal: NDArray[np.float64], dtype) -> list:
    """The deal tensor with each player's axis first (kept for the last deal tensor seen,
    per dtype)."""
    key = (id(deal), np.dtype(dtype).name)
    got = _LAYOUTS.get(key)
    if got is None or got[0] is not deal:
        for k in [k for k in _LAYOUTS if k[1] == key[1]]:
            del _LAYOUTS[k]
        got = _LAYOUTS[key] = (deal, [_first(deal, p, dtype) for p in range(deal.ndim)])
    return got[1]


def _contractions(game: RangeGame, dtype=np.float64) -> _Contractions:
    """The contractions of ``game`` (the last four (game, dtype) pairs seen are kept)."""
    key = (id(game), np.dtype(dtype).name)
    got = _CACHE.get(key)
    if got is None or got.game is not game:
        got = _Contractions(game, dtype)
        if len(_CACHE) >= 4:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = got
    return got


def action_values(game: RangeGame, sigma: Strategy, p: int, best: bool = False,
                  reach: list | None = None, fast: bool = False
                  ) -> tuple[dict, NDArray[np.float64]]:
    """Counterfactual action values of player ``p``: decision node of ``p`` -> (K, A), and
    the root value per class (K,) (its sum is p's expected payoff, or with ``best`` p's
    best-response value)."""
    con = _contractions(game, np.float32 if fast else np.float64)
    con.q.clear()
    reach = reaches(game, sigma) if reach is None else reach
    V = game.kind.size
    val: list = [None] * V
    q: dict = {}
    kids: list[list[int]] = [[] for _ in range(V)]
    for v in range(1, V):
        kids[int(game.parent[v])].append(v)
    for v in range(V - 1, -1, -1):
        if game.kind[v] == TERMINAL:
            val[v] = con.value(v, p, reach[v]).astype(np.float64)
            continue
        ch = sorted(kids[v], key=lambda c: game.edge[c])
        if game.actor[v] != p:
            val[v] = sum(val[c] for c in ch)
            continue
        a = np.stack([val[c] for c in ch], axis=1)
        q[v] = a
        val[v] = a.max(axis=1) if best else (a * sigma[v]).sum(axis=1)
    return q, val[0]


def nash_conv(game: RangeGame, sigma: Strategy) -> tuple[float, NDArray[np.float64],
                                                         NDArray[np.float64]]:
    """``(NashConv, expected payoffs (N,), best-response values (N,))`` of ``sigma``."""
    reach = reaches(game, sigma)
    u = np.array([action_values(game, sigma, p, reach=reach)[1].sum()
                  for p in range(game.n_players)])
    br = np.array([action_values(game, sigma, p, best=True, reach=reach)[1].sum()
                   for p in range(game.n_players)])
    return float((br - u).sum()), u, br


@dataclass
class CFRState:
    """Regrets, strategy sums and iteration count of a CFR+ run (to continue it, possibly on
    a game with the same tree and new payoffs)."""
    regret: dict
    total: dict
    t: int = 0
    history: list = field(default_factory=list)


def _matched(r: NDArray[np.float64]) -> NDArray[np.float64]:
    s = r.sum(axis=1, keepdims=True)
    return np.where(s > 0, r / np.where(s > 0, s, 1), 1.0 / r.shape[1])


@dataclass(frozen=True)
class RangeResult:
    """Average strategy (node -> (K, A)), its exact NashConv and expected payoffs, the
    iterations run, the NashConv checkpoints ``history`` (iteration, seconds, NashConv) and
    the state to continue from."""
    strategy: Strategy
    nash_conv: float
    expected_payoffs: NDArray[np.float64]
    iterations: int
    history: NDArray[np.float64]
    state: CFRState


def average(state: CFRState) -> Strategy:
    return {v: _matched(s) for v, s in state.total.items()}


@dataclass
class RangeCFRPlus:
    """One CFR+ iteration over ranges (regret matching+, alternating updates, averages
    weighted by ``t`` times the own reach) as :func:`solvers.iterative.iterate` drives it;
    the state is a :class:`CFRState`.  ``fast``: contract in float32."""

    fast: bool = True
    name: str = "cfr+ over ranges"

    def advance(self, game: RangeGame, state: CFRState, t0: int, n: int) -> None:
        for _ in range(n):
            state.t += 1
            for p in range(game.n_players):
                sigma = {v: _matched(r) for v, r in state.regret.items()}
                reach = reaches(game, sigma)
                q, _ = action_values(game, sigma, p, reach=reach, fast=self.fast)
                for v, a in q.items():
                    ev = (a * sigma[v]).sum(axis=1, keepdims=True)
                    state.regret[v] = np.maximum(state.regret[v] + a - ev, 0.0)
                    state.total[v] += state.t * reach[v][p][:, None] * sigma[v]


def range_cfr(game: RangeGame, iterations: int = 1000, tol: float | None = None,
              seconds: float | None = None, state: CFRState | None = None,
              check_every: int = 50, progress: bool = False,
              fast: bool = True) -> RangeResult:
    """CFR+ on ``game`` for ``iterations`` (or until NashConv <= ``tol`` at a checkpoint
    every ``check_every`` iterations, or ``seconds`` of wall clock, read after every
    iteration); continues ``state`` when given.  ``fast``: the iterations contract in
    float32 (regrets, averages and every NashConv stay float64).  The loop is
    :func:`solvers.iterative.iterate`'s."""
    from pokerdyn.solvers.iterative import iterate  # here: numba only when a run starts

    K = game.n_classes
    if state is None:
        zeros = {int(v): np.zeros((K, len(game.actions[v]))) for v in game.decisions}
        state = CFRState(regret={v: z.copy() for v, z in zeros.items()},
                         total={v: z.copy() for v, z in zeros.items()})
    t0 = state.t
    at = [t0 + i for i in range(check_every, iterations, check_every)] + \
        ([t0 + iterations] if iterations > 0 else [])
    run = iterate(game, RangeCFRPlus(fast), state, start=t0, iterations=max(iterations, 0),
                  at=at, measure=lambda g, st: nash_conv(g, average(st))[0],
                  stop=None if tol is None else (lambda nc: nc <= tol), seconds=seconds,
                  chunk=1, progress=progress, label="nash_conv")
    state.history.extend((int(t), sec, nc) for t, nc, sec in run.history.tolist())
    sigma = average(state)
    nc, u, _ = nash_conv(game, sigma)
    return RangeResult(strategy=sigma, nash_conv=nc, expected_payoffs=u,
                       iterations=state.t, history=np.array(state.history), state=state)


__all__ = ["CFRState", "RangeCFRPlus", "RangeResult", "action_values", "average", "nash_conv", "range_cfr",
           "reaches"]
