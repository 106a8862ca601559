"""Repeated play of a game by adaptive players (Billingham section 4.2, Appendix D).

Each round deals cards by the game's chance node (``deals=12``: Billingham's restriction to
the deals that are not always checked down, i.e. Player 3 holds A or J in SKP; ``deals=24``:
all), samples every action from the current frequencies, records what each player observes
(:mod:`dynamics.play.observation`), updates every player's sliding-window estimates of the
opponents' frequencies (:mod:`dynamics.play.estimators`) and moves each frequency by
``k_p`` times the normalised payoff gradient at the owner's estimates, clipped to [0, 1]
(Billingham (27)-(29); :func:`dynamics.play.tables.payoff_gradients`).

Payoffs are reported in the paper's *ex-showdown* convention: chips won minus what the
deal would have paid had everybody checked to showdown.  With ``deals=12`` the per-round mean
is twice the 24-deal expectation (the 12 omitted deals are checked down, worth 0
ex-showdown), e.g. twice Billingham (16) at S2.

Estimates start at the initial frequencies (a player's prior) and keep their previous value
while the window holds no information.  Same seed -> bit-identical result.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
from numpy.typing import NDArray
from tqdm.auto import tqdm

from pokerdyn.games import GameError, get_game
from pokerdyn.games.errors import shown

from pokerdyn.dynamics.budget import K_MAX
from pokerdyn.dynamics.play import _play_kernel
from pokerdyn.dynamics.play.estimators import (check_estimator, likelihood_table, ratio_estimators,
                                     ratio_weights)
from pokerdyn.dynamics.play.observation import observation_model
from pokerdyn.dynamics.play.tables import gradient_terms, tree_tables
from pokerdyn.dynamics.skp_points import skp_point
from pokerdyn.dynamics.summary import summary_repr


@dataclass(frozen=True, eq=False)
class SimulationResult:
    """Outcome of :func:`simulate`.

    ``times`` are round counts at the samples; ``frequencies`` (n_points, n_params) the
    named parameters (``names``); ``estimates`` (n_points, n_estimates) the tracked estimates
    (``estimate_names``, e.g. ``"b_J@P1"`` = Player 1's estimate of b_J); ``stacks``
    (n_points, n_players) the net chips won so far; ``running_payoffs`` the mean ex-showdown
    payoff per round so far; ``mean_payoffs`` its final value; ``seconds`` the kernel's run
    time; ``terminal_counts`` (n_terminals,) the hands that ended at each terminal (rows of
    the compiled game's payoffs).
    """

    __repr__ = summary_repr  # short: arrays by shape and range (issue 35)

    rounds: int
    seconds: float
    rounds_per_second: float
    mean_payoffs: tuple[float, ...]
    final: dict[str, float]
    times: NDArray[np.int64]
    frequencies: NDArray[np.float64]
    estimates: NDArray[np.float64]
    stacks: NDArray[np.float64]
    running_payoffs: NDArray[np.float64]
    names: tuple[str, ...]
    estimate_names: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    terminal_counts: NDArray[np.int64] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"rounds": self.rounds, "seconds": self.seconds,
                "rounds_per_second": self.rounds_per_second,
                "mean_payoffs": [float(x) for x in self.mean_payoffs], "final": dict(self.final)}

    def trajectory(self):
        """The frequencies as the shared :class:`dynamics.trajectory.Trajectory` (payoffs:
        running mean ex-showdown payoffs)."""
        from pokerdyn.dynamics.trajectory import Trajectory  # shared type (issue 4)
        return Trajectory(self.times.astype(float), self.frequencies, self.names,
                          payoffs=self.running_payoffs, meta={**self.options, "payoffs": "mean"})


# longest window, 10^8 hands (the papers' estimators use L <= 384): a larger L is refused at
# once (issue 33: `simulate --L 1e9` tried to allocate 7.45 GiB); the packed running sums
# hold L * weight < 2^31 (dynamics.play._play_kernel)
MAX_L = 10**8


def _per_player(value: Any, what: str, n: int, cast, low: float,
                high: float = math.inf) -> np.ndarray:
    vals = list(value) if isinstance(value, (list, tuple, np.ndarray)) else [value] * n
    if len(vals) != n:
        raise GameError(f"{what} needs 1 or {n} values, got {len(vals)}")
    out = []
    top = "inf)" if math.isinf(high) else f"{high:g}]"
    rng = f"[{low:g}, {top}" + (" (an integer)" if cast is int else "")
    for v in vals:
        try:
            x = cast(v)
            exact = cast is not int or float(v) == x
        except (TypeError, ValueError):
            raise GameError(f"{what}={shown(v, quote=True)} is not a number; allowed: "
                            f"{rng}") from None
        except OverflowError:  # an int beyond float (whose repr alone may fail), inf to int
            desc = shown(v) if isinstance(v, float) else "an integer beyond the float range"
            raise GameError(f"{what} ({desc}) is outside the allowed range {rng}") from None
        if not np.isfinite(x) or x < low or x > high or not exact:
            raise GameError(f"{what}={shown(v)} is outside the allowed range {rng}")
        out.append(x)
    return np.asarray(out, dtype=np.float64 if cast is float else np.int64)


def _initial(game, pot: float, init) -> np.ndarray:
    names = [p.name for p in game.named]
    if init is None:
        if game.name == "skp":  # the paper starts near S3 (Figs. 11-12)
            try:
                s3 = skp_point("S3", pot)
                return np.clip([s3[n] + 0.01 for n in names], 0.0, 1.0)
            except GameError:
                pass
        return np.full(len(names), 0.5)
    vals = list(init.values()) if isinstance(init, dict) else list(init)
    if isinstance(init, dict) and set(init) != set(names):
        raise GameError(f"init needs the parameters {', '.join(names)}, got {', '.join(init)}")
    if len(vals) != len(names):
        raise GameError(f"init needs {len(names)} frequencies ({', '.join(names)}), got "
                        f"{len(vals)}")
    x = _per_player(vals, "initial frequency", len(vals), float, 0.0)
    if (x > 1).any():
        bad = x[x > 1][0]
        raise GameError(f"initial frequency {bad} is outside the allowed range [0, 1]")
    if isinstance(init, dict):
        x = np.asarray([float(init[n]) for n in names])
    return x


def _seed_state(seed) -> np.ndarray:
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    st = ss.generate_state(4, np.uint64)
    if not st.any():  # xoshiro's one forbidden state
        st[0] = np.uint64(1)
    return st


def _estimator_arrays(game, values, estimator: str, n_players: int, L: np.ndarray,
                      x: np.ndarray):
    """Kernel arrays of the chosen estimator family, the initial estimate vector V, and
    ``slot[(observer, parameter index)]`` -> position of that estimate in V (tracked pairs
    in insertion order)."""
    names = [p.name for p in game.named]
    m = len(names)
    model = observation_model(game)
    nt = len(model.outcomes)
    if estimator == "ml":
        tabs = [likelihood_table(game, p, values) for p in range(n_players)]
        if len({len(t.params) for t in tabs}) != 1:
            raise GameError("estimator='ml' needs every player to face the same number of "
                            "opponents' parameters")
        ncls = max(t.coef.shape[0] for t in tabs)
        coef = np.zeros((n_players, ncls + 1, tabs[0].coef.shape[1]))
        cls = np.full((n_players, nt + 1), ncls, dtype=np.int64)
        for p, t in enumerate(tabs):
            coef[p, :t.coef.shape[0]] = t.coef
            cls[p, :nt] = model.class_of[p]
        opp = np.asarray([t.params for t in tabs], dtype=np.int64)
        V = np.tile(np.append(x, 1.0), n_players)
        slot = {(p, int(j)): p * (m + 1) + int(j) for p in range(n_players) for j in opp[p]}
        const = {p: p * (m + 1) + m for p in range(n_players)}
        e = np.zeros(0, dtype=np.int64)
        return (e, np.zeros((nt + 1, 0), dtype=np.int64), np.zeros(1), True, cls, coef,
                opp), V, slot, const
    ests = ratio_estimators(game, estimator)
    keys, cols, u_obs, slot = {}, [], [], {}
    for e in ests:  # one running sum per distinct (weights, window length)
        wn, wd = ratio_weights(e, game)
        key = (wn.tobytes(), wd.tobytes(), int(L[e.observer]))
        if key not in keys:
            keys[key] = len(cols)
            cols.append((wn, wd, names.index(e.target)))
            u_obs.append(e.observer)
        slot[(e.observer, names.index(e.target))] = keys[key]
    n_u = len(cols)
    w = np.zeros((nt + 1, n_u), dtype=np.int64)  # row nt: the empty-window sentinel
    V = np.ones(n_u + 1)
    for u, (wn, wd, j) in enumerate(cols):
        w[:nt, u] = (wd << 32) | wn  # packed: den in the high half, num in the low half
        V[u] = x[j]
    max_den = max(int(L[o]) * int(cols[u][1].max()) for u, o in enumerate(u_obs))
    if max(int(L[o]) * int(max(cols[u][0].max(), cols[u][1].max()))
           for u, o in enumerate(u_obs)) >= 2 ** 31:
        raise GameError("window too long for the packed running sums (L * weight >= 2^31)")
    inv = np.zeros(max_den + 1)
    inv[1:] = 1.0 / np.arange(1, max_den + 1)
    dummy = (np.zeros((n_players, nt + 1), dtype=np.int64), np.zeros((n_players, 1, 1)),
             np.zeros((n_players, 0), dtype=np.int64))
    return ((np.asarray(u_obs, dtype=np.int64), w, inv, False, *dummy), V, slot,
            dict.fromkeys(range(n_players), n_u))


def _gradient_sources(g_vars, owner, slot, const, names) -> np.ndarray:
    """Positions in V of the estimates each gradient reads: ``g_vars`` (m, VARS) from
    :meth:`GradientTerms.multilinear`, the variable m (constant 1) -> the owner's 1.0 slot."""
    m = g_vars.shape[0]
    src = np.empty_like(g_vars)
    for (j, c), v in np.ndenumerate(g_vars):
        o = int(owner[j])
        if v == m:
            src[j, c] = const[o]
        elif (o, int(v)) in slot:
            src[j, c] = slot[(o, int(v))]
        else:
            raise GameError(f"player {o + 1} needs an estimate of {names[v]} to update "
                            f"{names[j]}, and the estimator provides none")
    return src


_WARM = {"done": False}


def memory_estimate(game: str = "skp", pot: float = 9.0, L: int | Sequence[int] = 6,
                    rounds: int = 10_000_000, n_points: int = 1000, deals: int = 12,
                    estimator: str = "unbiased") -> int:
    """Bytes a :func:`simulate` run allocates (an upper estimate): the ring buffer of the
    windows (a power of two above the longest window, in int64), the ratio estimators'
    reciprocal table (window x largest denominator weight, float64), the samples (frequencies,
    estimates, terminal counts and the stacks and running payoffs derived from them).  A
    window longer than the run counts as the run's length (:func:`simulate` runs it so:
    no hand ever leaves it)."""
    g = get_game(game)
    check_estimator(estimator)
    values = {"P": float(pot)} if "P" in g.param_names else {}
    nt = tree_tables(g, values, deals, n_slots=_play_kernel.SLOTS).payoffs.shape[0]
    Ls = L if isinstance(L, (list, tuple, np.ndarray)) else [L]
    lmax = min(max(int(v) for v in Ls), int(rounds))
    wmax = 0
    if estimator != "ml":
        wmax = max(int(ratio_weights(e, g)[1].max()) for e in ratio_estimators(g, estimator))
    m, n = len(g.named), g.n_players
    pts = max(1, min(int(n_points), int(rounds)))
    ring = 1 << max(lmax, 1).bit_length()  # the smallest power of two above lmax
    return 8 * (ring + lmax * wmax + 1 + pts * (m + n * m + 2 * nt + 2 * n + 1))


def _check_memory(game_name: str, pot: float, LL, rounds: int, n_points: int, deals: int,
                  estimator: str) -> None:
    from pokerdyn.dynamics.budget import check_memory

    need = memory_estimate(game_name, pot, [int(v) for v in LL], rounds, n_points, deals,
                           estimator)
    check_memory(need, f"repeated play of {game_name} with L={int(max(LL))} over {rounds} "
                 f"rounds and {n_points} samples")


def _run(game_name: str, pot: float, k, L, rounds: int, init, seed, deals: int,
         n_points: int, estimator: str, stats_from: int = -1, n_batches: int = 1,
         ml_sweeps: int = 2):
    game = get_game(game_name)
    check_estimator(estimator)
    n = game.n_players
    if isinstance(rounds, float) and rounds.is_integer():
        rounds = int(rounds)
    if not isinstance(rounds, (int, np.integer)) or rounds < 1:
        raise GameError(f"rounds={rounds} is outside the allowed range [1, inf) (an integer)")
    rounds = int(rounds)
    values = {"P": float(pot)} if "P" in game.param_names else {}
    tabs = tree_tables(game, values, deals, n_slots=_play_kernel.SLOTS)
    kk = _per_player(k, "k", n, float, 0.0, K_MAX)
    LL = _per_player(L, "L", n, int, 1, MAX_L)
    # a window longer than the run never drops a hand: it runs as one of the run's length
    # (the same estimates; the ring buffer and reciprocal table stay the run's size)
    LW = np.minimum(LL, rounds)
    x = _initial(game, pot, init)
    names = tuple(p.name for p in game.named)
    owner = np.asarray([game.owner(nm) for nm in names], dtype=np.int64)
    g_vars, g_coef = gradient_terms(game, values).multilinear(_play_kernel.VARS)
    _check_memory(game_name, pot, LL, rounds, max(1, min(int(n_points), rounds)), deals,
                  estimator)
    est_args, V, slot, const = _estimator_arrays(game, values, estimator, n, LW, x)
    g_src = _gradient_sources(g_vars, owner, slot, const, names)
    pairs = list(slot)
    tr_idx = np.asarray([slot[pr] for pr in pairs], dtype=np.int64)
    n_points = max(1, min(int(n_points), rounds))
    stride = rounds // n_points
    sample_at = stride * np.arange(1, n_points + 1, dtype=np.int64)
    nt = tabs.payoffs.shape[0]
    s_x = np.zeros((n_points, len(x)))
    s_est = np.zeros((n_points, len(pairs)))
    s_hist = np.zeros((n_points, nt), dtype=np.int64)
    hist = np.zeros(nt, dtype=np.int64)
    stats_from = rounds if stats_from < 0 else stats_from
    batch_len = max(1, (rounds - stats_from) // n_batches)
    bsum = np.zeros((len(pairs), n_batches))
    ssum = np.zeros(len(pairs))
    ssq = np.zeros(len(pairs))
    head = (tabs.slot_par, tabs.table, tabs.pact)
    mid = (owner, kk, LW, g_src, g_coef, *est_args, ml_sweeps)
    if not _WARM["done"]:  # load / compile the kernel outside the timed call
        _play_kernel.play(1, _seed_state(0), *head, x.copy(), *mid, V.copy(), tr_idx,
                          sample_at[:0], s_x, s_est, s_hist, hist.copy(), 1, 1, bsum.copy(),
                          ssum.copy(), ssq.copy())
        _WARM["done"] = True
    t0 = time.perf_counter()
    _play_kernel.play(rounds, _seed_state(seed), *head, x, *mid, V, tr_idx,
                      sample_at, s_x, s_est, s_hist, hist, stats_from, batch_len, bsum, ssum,
                      ssq)
    seconds = time.perf_counter() - t0
    pair_names = tuple(f"{names[j]}@P{p + 1}" for p, j in pairs)
    stats = (ssum, ssq, bsum, rounds - stats_from, batch_len)
    return (game, tabs, names, pair_names, x, hist, sample_at, s_x, s_est, s_hist, seconds,
            stats, dict(game=game_name, pot=float(pot), k=kk.tolist(), L=LL.tolist(),
                        deals=deals, estimator=estimator))


def simulate(game: str = "skp", pot: float = 9.0, k: float | Sequence[float] = 0.001,
             L: int | Sequence[int] = 6, rounds: int = 10_000_000,
             init: Sequence[float] | None = None, seed: int | np.random.SeedSequence = 0,
             deals: int = 12, n_points: int = 1000,
             estimator: str = "unbiased") -> SimulationResult:
    """Repeated play of ``game`` by adaptive players (Billingham (27)-(29), Appendix D).

    Parameters
    ----------
    k, L : adaptation rate (>= 0) and window length (>= 1), one value or one per player.
    init : initial frequencies (order of ``game.named``: b_J, c_K, d_Q for SKP); default
        for SKP: S3 + 0.01 in every coordinate (the paper starts near S3), else 0.5.
    seed : int or SeedSequence; the same seed gives a bit-identical result.
    deals : 12 (SKP: Player 3 holds A or J, as in the paper) or 24 (all deals).
    estimator : "unbiased" (default: binomial forms of (44)-(47)), "paper" (printed
        (44)-(47)), "corrected" (printed, with the denominator of (46) made unbiased) or
        "ml" (maximum likelihood).
    """
    (g, tabs, names, pair_names, x, hist, times, s_x, s_est, s_hist, seconds, _, opts) = \
        _run(game, pot, k, L, rounds, init, seed, deals, n_points, estimator)
    stacks = s_hist @ tabs.payoffs
    running = (s_hist @ tabs.exshow) / times[:, None]
    mean = tuple(float(v) for v in (hist @ tabs.exshow) / rounds)
    return SimulationResult(
        rounds=int(rounds), seconds=seconds, rounds_per_second=rounds / max(seconds, 1e-12),
        mean_payoffs=mean, final={n: float(v) for n, v in zip(names, x)}, times=times,
        frequencies=s_x, estimates=s_est, stacks=stacks, running_payoffs=running, names=names,
        estimate_names=pair_names, options=opts, terminal_counts=hist.copy())


@dataclass(frozen=True)
class EstimatorStudy:
    """Mean, standard deviation and batch-means standard error of every estimate, per L
    (rows) and estimate (columns, ``names``), with frequencies held at ``at``."""

    __repr__ = summary_repr  # short: arrays by shape and range (issue 35)

    L: tuple[int, ...]
    names: tuple[str, ...]
    truth: tuple[float, ...]
    mean: NDArray[np.float64]
    std: NDArray[np.float64]
    stderr: NDArray[np.float64]
    rounds: int
    discard: int
    seconds: float
    at: dict[str, float]
    estimator: str

    def to_json(self) -> dict[str, Any]:
        return {"L": list(self.L), "at": self.at, "estimator": self.estimator,
                "rounds": self.rounds, "discard": self.discard, "seconds": self.seconds,
                "estimators": {n: {"truth": self.truth[j],
                                   "mean": self.mean[:, j].tolist(),
                                   "std": self.std[:, j].tolist(),
                                   "stderr": self.stderr[:, j].tolist()}
                               for j, n in enumerate(self.names)}}


def estimator_study(pot: float = 9.0, at: str | Sequence[float] = "S3",
                    L: Sequence[int] = (6, 12, 24, 48, 96, 192, 384),
                    rounds: int = 11_000_000, seed: int | np.random.SeedSequence = 0,
                    discard: int = 1_000_000, estimator: str = "unbiased", deals: int = 12,
                    game: str = "skp", n_batches: int = 50,
                    progress: bool = False) -> EstimatorStudy:
    """Billingham Appendix D / Figs. 16-17: frequencies fixed at ``at`` (k = 0), each
    estimate's mean and standard deviation over the rounds after the first ``discard``.
    One run per L, seeds spawned from ``seed``.  ``stderr`` uses ``n_batches`` batch means
    (the sliding window makes successive estimates strongly correlated)."""
    check_estimator(estimator)
    at_vals = skp_point(at, pot) if isinstance(at, str) else list(at)
    if isinstance(at_vals, dict):
        at_vals = [at_vals[n] for n in ("b_J", "c_K", "d_Q")]
    if not 0 <= discard < rounds:
        raise GameError(f"discard={discard} is outside the allowed range [0, rounds={rounds})")
    Lin = list(L)
    if not Lin:
        raise GameError("L needs at least one window length")
    Ls = [int(v) for v in _per_player(Lin, "L", len(Lin), int, 1, MAX_L)]
    # the longest window before the first run (it would fail after the others ran; each
    # run checks its rounds)
    _check_memory(game, pot, [max(Ls)], int(min(rounds, 2**62)), 1, deals, estimator)
    root = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    # the children spawn() would give, without mutating the caller's SeedSequence
    seeds = [np.random.SeedSequence(root.entropy, spawn_key=(*root.spawn_key, i),
                                    pool_size=root.pool_size) for i in range(len(Ls))]
    means, stds, ses, secs = [], [], [], 0.0
    for Lv, ss in tqdm(list(zip(Ls, seeds)), desc="estimator study", unit="L",
                       disable=not progress):
        out = _run(game, pot, 0.0, Lv, rounds, at_vals, ss, deals, 1, estimator,
                   stats_from=discard, n_batches=n_batches)
        names, secs_i, (ssum, ssq, bsum, nstat, blen) = out[3], out[10], out[11]
        secs += secs_i
        mean = ssum / nstat
        means.append(mean)
        stds.append(np.sqrt(np.maximum(ssq / nstat - mean ** 2, 0.0)))
        bm = bsum[:, :-1] / blen  # the last batch may hold the remainder
        ses.append(bm.std(axis=1, ddof=1) / np.sqrt(bm.shape[1]))
    gm = get_game(game)
    pnames = [p.name for p in gm.named]
    truth = tuple(float(at_vals[pnames.index(n.split("@")[0])]) for n in names)
    return EstimatorStudy(tuple(Ls), names, truth, np.array(means), np.array(stds),
                          np.array(ses), int(rounds), int(discard), secs,
                          dict(zip(pnames, map(float, at_vals))), estimator)


__all__ = ["EstimatorStudy", "SimulationResult", "estimator_study", "simulate"]
