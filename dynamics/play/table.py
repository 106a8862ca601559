"""Agent-based repeated play: any adaptive players (:mod:`dynamics.play.agents`) at one table.

``play_table(game, players, ...)`` seats the agents (``seating="fixed"``: agent i in seat i;
``"cyclic"``: the roles rotate every hand, agent i in seat ``(i + round) mod n``, as the
button moves at a real table; ``"random"``: a uniformly drawn seating every hand), deals by
the game's chance node (all deals by default; ``deals=12`` for Billingham's SKP
restriction), samples actions from the seated agents' current frequencies and lets every
seated agent observe the hand and update (numba kernel :mod:`dynamics.play._agent_kernel`).

Payoffs per agent: chips (``stacks``, zero-sum) and the ex-showdown payoff (chips minus
what the deal would have paid had everybody checked to showdown, Billingham's convention;
:func:`dynamics.play.tables.tree_tables`).  ``alliances`` (tuples of agent indices) get
their pooled payoffs (the sum of their members').

Randomness: one ``numpy.random.Generator`` from ``seed``, drawn in fixed blocks of
:data:`BLOCK` rounds, so the result does not depend on ``n_points``; same seed -> identical
result.
"""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import Any, Hashable, Sequence

import numpy as np
from numpy.typing import NDArray

from pokerdyn.games import GameError, get_game

from pokerdyn.dynamics.play import _agent_kernel as K
from pokerdyn.dynamics.play.agents import AdaptivePlayer, SeatSpec
from pokerdyn.dynamics.play.estimators import RATIO_KINDS, likelihood_table, ratio_estimators, ratio_weights
from pokerdyn.dynamics.play.observation import observation_model
from pokerdyn.dynamics.play.tables import gradient_terms, tree_tables
from pokerdyn.dynamics.summary import summary_repr

BLOCK = 1 << 15
SEATINGS = {"fixed": K.SEAT_FIXED, "cyclic": K.SEAT_CYCLIC, "random": K.SEAT_RANDOM}


@dataclass(frozen=True, eq=False)
class TableResult:
    """Outcome of :func:`play_table`.

    ``rows`` labels the (agent, slot) memories; ``frequencies[t, r, j]`` is row r's frequency
    of parameter ``names[j]`` at ``times[t]`` (NaN for parameters its seat does not own);
    ``payoffs[t, a]`` agent a's running mean ex-showdown payoff per round.
    """

    __repr__ = summary_repr  # short: arrays by shape and range (issue 35)

    rounds: int
    seconds: float
    agents: tuple[str, ...]
    names: tuple[str, ...]
    mean_payoffs: tuple[float, ...]  # ex-showdown, per round, per agent
    stacks: tuple[float, ...]  # net chips per agent after all rounds
    pooled: tuple[float, ...]  # mean ex-showdown payoff of each alliance
    alliances: tuple[tuple[int, ...], ...]
    rows: tuple[tuple[int, Hashable], ...]
    times: NDArray[np.int64]
    frequencies: NDArray[np.float64]
    estimates: NDArray[np.float64]  # final estimates per row (own parameters: own freq)
    payoffs: NDArray[np.float64]
    terminal_counts: NDArray[np.int64]
    options: dict[str, Any] = field(default_factory=dict)

    def stderr(self, members: Sequence[int] | None = None) -> NDArray[np.float64] | float:
        """Batch-means standard error of each agent's mean payoff (one batch per sample
        interval), or of the pooled mean of ``members``."""
        cum = self.payoffs * self.times[:, None]
        if members is not None:
            cum = cum[:, list(members)].sum(axis=1, keepdims=True)
        inc = np.diff(cum, axis=0, prepend=0.0) / np.diff(self.times, prepend=0)[:, None]
        se = inc.std(axis=0, ddof=1) / np.sqrt(inc.shape[0])
        return float(se[0]) if members is not None else se

    def final(self, agent: int, slot: Hashable) -> dict[str, float]:
        """The final own frequencies of ``agent`` in memory slot ``slot``."""
        r = self.rows.index((agent, slot))
        return {n: float(v) for n, v in zip(self.names, self.frequencies[-1, r])
                if not np.isnan(v)}


def seatings(mode: str, n: int) -> list[tuple[int, ...]]:
    """The seating configurations of ``mode`` (``seating[s]`` = agent in seat s)."""
    if mode not in SEATINGS:
        raise GameError(f"unknown seating {mode!r}; allowed: {', '.join(SEATINGS)}")
    if mode == "fixed":
        return [tuple(range(n))]
    if mode == "cyclic":  # round c: agent i sits in seat (i + c) mod n
        return [tuple((s - c) % n for s in range(n)) for c in range(n)]
    return list(itertools.permutations(range(n)))


def _ratio_tables(game, nt: int, kinds_used: set[str]):
    """(e_start per seat, e_par, wn, wd) over all ratio kinds, estimators sorted by observer."""
    names = [p.name for p in game.named]
    n = game.n_players
    if not kinds_used:
        z = np.zeros((1, nt + 1, 0), dtype=np.int64)
        return np.zeros(n + 1, dtype=np.int64), np.zeros(0, dtype=np.int64), z, z.copy()
    sets = [sorted(ratio_estimators(game, kd), key=lambda e: e.observer) for kd in RATIO_KINDS]
    if len({tuple((e.observer, e.target) for e in family) for family in sets}) != 1:
        raise GameError(f"game {game.name!r}: the ratio estimator families differ in targets")
    ests = sets[0]
    wn = np.zeros((len(RATIO_KINDS), nt + 1, len(ests)), dtype=np.int64)
    wd = np.zeros_like(wn)
    for kd, family in enumerate(sets):
        for e, est in enumerate(family):
            wn[kd, :nt, e], wd[kd, :nt, e] = ratio_weights(est, game)
    obs = np.asarray([e.observer for e in ests])
    e_start = np.searchsorted(obs, np.arange(n + 1)).astype(np.int64)
    e_par = np.asarray([names.index(e.target) for e in ests], dtype=np.int64)
    return e_start, e_par, wn, wd


def _ml_tables(game, values, nt: int, used: bool):
    n = game.n_players
    m = len(game.named)
    if not used:
        return (np.zeros((n, nt + 1), dtype=np.int64), np.zeros((n, 1, 1)),
                np.zeros((n, 0), dtype=np.int64), 1)
    model = observation_model(game)
    tabs = [likelihood_table(game, p, values) for p in range(n)]
    mo = max(len(t.params) for t in tabs)
    ncls = max(t.coef.shape[0] for t in tabs)
    coef = np.zeros((n, ncls + 1, 2 ** mo))  # class ncls: the empty-window sentinel
    opp = np.full((n, mo), m, dtype=np.int64)  # padding: the constant column m, coef 0
    cls = np.full((n, nt + 1), ncls, dtype=np.int64)
    for p, t in enumerate(tabs):
        coef[p, :t.coef.shape[0], :t.coef.shape[1]] = t.coef
        opp[p, :len(t.params)] = t.params
        cls[p, :nt] = model.class_of[p]
    return cls, coef, opp, ncls + 1


def play_table(game: str = "skp", players: Sequence[AdaptivePlayer] = (), pot: float = 9.0,
               rounds: int = 1_000_000, seating: str = "fixed", seed: int = 0,
               deals: int = 24, n_points: int = 200,
               alliances: Sequence[Sequence[int]] = (), ml_sweeps: int = 2) -> TableResult:
    """Repeated play of ``game`` by ``players`` (one per seat); see the module docstring."""
    g = get_game(game)
    n = g.n_players
    if len(players) != n:
        raise GameError(f"game {game!r} needs {n} players, got {len(players)}")
    if not isinstance(rounds, (int, np.integer)) or rounds < 1:
        raise GameError(f"rounds={rounds} is outside the allowed range [1, inf) (an integer)")
    for al in alliances:
        if not al or any(not 0 <= a < n for a in al):
            raise GameError(f"alliance {tuple(al)} must list agent indices in [0, {n - 1}]")
    values = {"P": float(pot)} if "P" in g.param_names else {}
    tabs = tree_tables(g, values, deals)
    names = tuple(p.name for p in g.named)
    m = len(names)
    owner = np.asarray([g.owner(nm) for nm in names], dtype=np.int64)
    configs = seatings(seating, n)
    rows: list[tuple[int, Hashable]] = []
    specs: list[SeatSpec] = []
    row_of = np.empty((len(configs), n), dtype=np.int64)
    for c, conf in enumerate(configs):
        for s, a in enumerate(conf):
            key = (a, players[a].slot(s, conf))
            if key not in rows:
                rows.append(key)
                specs.append(players[a].spec(g, key[1]))
            row_of[c, s] = rows.index(key)
    R = len(rows)
    freq = np.full((R, m), np.nan)
    for r, sp_ in enumerate(specs):
        for nm, v in sp_.init.items():
            freq[r, names.index(nm)] = float(v)
    table0 = np.array([freq[row_of[0, owner[j]], j] for j in range(m)])  # opening profile
    est = np.ones((R, m + 1))
    for r, sp_ in enumerate(specs):
        est[r, :m] = table0
        for nm, v in sp_.prior.items():
            est[r, names.index(nm)] = float(v)
        own = ~np.isnan(freq[r])
        est[r, :m][own] = freq[r][own]
    kinds = {sp_.estimator for sp_ in specs if sp_.rule != K.FIXED}  # fixed rows estimate nothing
    nt = tabs.payoffs.shape[0]
    e_start, e_par, wn, wd = _ratio_tables(g, nt, kinds & set(RATIO_KINDS))
    cls, coef, opp, ncls = _ml_tables(g, values, nt, "ml" in kinds)
    kind = np.asarray([-2 if s.rule == K.FIXED else -1 if s.estimator == "ml"
                       else RATIO_KINDS.index(s.estimator) for s in specs], dtype=np.int64)
    rule = np.asarray([s.rule for s in specs], dtype=np.int64)
    kk = np.asarray([s.k for s in specs])
    LL = np.asarray([s.L for s in specs], dtype=np.int64)
    size = 1 << int(LL.max()).bit_length()
    ring = np.full((R, size), nt, dtype=np.int64)
    n_obs = np.zeros(R, dtype=np.int64)
    n_upd = np.zeros(R, dtype=np.int64)
    num = np.zeros((R, len(e_par)), dtype=np.int64)
    den = np.zeros_like(num)
    counts = np.zeros((R, ncls), dtype=np.int64)
    terms = gradient_terms(g, values)
    agent_of_row = np.asarray([a for a, _ in rows], dtype=np.int64)
    pay = np.zeros(n)
    stack = np.zeros(n)
    hist = np.zeros(nt, dtype=np.int64)
    work = np.nan_to_num(freq, nan=0.0)  # rows never read parameters they do not own
    n_points = max(1, min(int(n_points), rounds))
    times = (rounds // n_points) * np.arange(1, n_points + 1, dtype=np.int64)
    times[-1] = rounds
    s_freq = np.empty((n_points, R, m))
    s_pay = np.empty((n_points, n))
    rng = np.random.default_rng(seed)
    ncol = tabs.slot_par.shape[1] + 2
    state = (SEATINGS[seating], row_of, tabs.slot_par, tabs.table,
             tabs.pact, owner, tabs.exshow, tabs.payoffs, rule, kk, LL, work, est, n_upd, ring,
             n_obs, e_start, e_par, kind, wn, wd, num, den, cls, coef, opp, ml_sweeps, counts,
             terms.start, terms.coef, terms.vars, agent_of_row, pay, stack, hist)
    t0 = time.perf_counter()
    done, sample = 0, 0
    while done < rounds:
        u = rng.random((min(BLOCK, rounds - done), ncol))
        pos = 0
        while pos < u.shape[0]:
            stop = min(u.shape[0], int(times[sample]) - done)
            K.play_chunk(done + pos, u[pos:stop], *state)
            pos = stop
            if done + pos == times[sample]:
                s_freq[sample] = np.where(np.isnan(freq), np.nan, work)
                s_pay[sample] = pay / times[sample]
                sample += 1
        done += u.shape[0]
    seconds = time.perf_counter() - t0
    mean = tuple(float(v) / rounds for v in pay)
    return TableResult(
        rounds=int(rounds), seconds=seconds, agents=tuple(p.name for p in players),
        names=names, mean_payoffs=mean, stacks=tuple(float(v) for v in stack),
        pooled=tuple(float(sum(pay[a] for a in al)) / rounds for al in alliances),
        alliances=tuple(tuple(int(a) for a in al) for al in alliances), rows=tuple(rows),
        times=times, frequencies=s_freq, estimates=est[:, :m].copy(), payoffs=s_pay,
        terminal_counts=hist,
        options=dict(game=game, pot=float(pot), seating=seating, deals=deals, seed=seed))


__all__ = ["BLOCK", "SEATINGS", "TableResult", "play_table", "seatings"]
