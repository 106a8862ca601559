"""Jam/fold equilibria of 2 to 6 seats over sampled deals, and the tournament's nested loop.

:func:`jamfold_equilibrium` builds :func:`games.tournament.sampled.sampled_jamfold_game` and
runs the paper's fictitious play (``fp``), Freund-Schapire multiplicative weights
(``hedge``) or CFR+ (``cfr+``, alias ``cfr``) on it; it reports push/call ranges as 13x13
grids, NashConv of the sampled game (payoff units) and the sampling standard error of the
equilibrium payoffs.

:func:`tournament_values` is the outer loop of Ganzfried & Sandholm (VI-FP; the survey's
nested loop): the value of every stack state of a small tournament starts at ICM; each
round solves the jam/fold hand of every state with payoffs equal to the current values of
the states the hand leads to, sets the state's value to the equilibrium payoff, and stops
when no value changes by more than ``delta``.
"""
from __future__ import annotations

import dataclasses
import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray
from tqdm.auto import tqdm

from pokerdyn.games.compiled import compile_game
from pokerdyn.games.errors import GameError
from pokerdyn.games.preflop.classes import class_index
from pokerdyn.games.tournament.icm import check_payouts, icm_batch
from pokerdyn.games.tournament.jamfold import jamfold_game, table
from pokerdyn.games.tournament.sampled import (SampledDeals, action_gains, deal_values,
                                               sample_deals, sampled_jamfold_game,
                                               standard_error)

# Methods of the jam/fold solvers, named as in the registry (pokerdyn.solvers.methods), where
# they run.  The CFR family here is CFR+ only (the 3-seat class model's range CFR+ has no
# vanilla variant), so ``cfr`` -- CFR+ in every jam/fold function and in ``pokerdyn pushfold``
# before the registry existed -- stays accepted as an alias of ``cfr+`` (scripts keep their
# results; a result records the name it was given).  The registry's vanilla ``cfr`` is not
# offered here.
METHODS = ("fp", "hedge", "cfr+", "cfr")
HEADS_UP_METHODS = ("fp", "hedge", "lp", "cfr+", "cfr")
METHOD_ALIASES = {"cfr": "cfr+"}


def registry_name(method: str) -> str:
    """The registry's name (:data:`pokerdyn.solvers.methods.METHODS`) of the jam/fold
    method ``method`` (:data:`METHOD_ALIASES`: ``cfr`` is CFR+ here)."""
    return METHOD_ALIASES.get(method, method)


def _solver(method: str):
    if method not in METHODS:
        raise GameError(f"method={method!r} is unknown; allowed: {', '.join(METHODS)}")
    from pokerdyn.solvers.methods import run_method
    name = registry_name(method)
    return lambda cg, **kw: run_method(name, cg, **kw)


def solve_heads_up(cg, method: str, iterations: int, progress: bool = False
                   ) -> tuple[NDArray[np.float64], float]:
    """The strategy and NashConv of the compiled heads-up jam/fold game ``cg`` by
    ``method`` (:data:`HEADS_UP_METHODS`; ``iterations`` for the iterative ones)."""
    if method not in HEADS_UP_METHODS:
        raise GameError(f"method={method!r} is unknown; allowed: {', '.join(HEADS_UP_METHODS)}")
    from pokerdyn.solvers.methods import run_method
    if method == "lp":
        res = run_method("lp", cg)
    else:
        res = run_method(registry_name(method), cg, iterations=iterations, progress=progress)
    return res.strategy, res.nash_conv


@dataclass(frozen=True)
class JamfoldEquilibrium:
    """Result of :func:`jamfold_equilibrium`.

    ``ranges`` maps ``"P<seat> push [<history>]"`` / ``"P<seat> call [<history>]"`` to a
    13x13 grid (games.preflop.classes.GRID layout) of push/call probabilities, None for a
    class never dealt to that seat in the sample.  ``standard_error`` (N,) is the sampling
    standard error of ``expected_payoffs`` (independent deals).  ``undetermined`` is the
    fraction of information sets whose push/call-over-fold gain is within two standard
    errors of zero (the sample cannot tell the two actions apart there; mixed decisions of
    the equilibrium count too).

    With ``model="classes"`` (3 seats, :mod:`solvers.tournament.classes`) ``samples`` counts
    the 3-way Monte Carlo deals, ``nodes`` the public nodes, ``standard_error`` is the Monte
    Carlo standard deviation of the payoffs, ``undetermined`` the share of (decision, class)
    whose gain is within 2 standard deviations of 0, ``threshold_error`` the largest
    threshold displacement (big blinds) and ``equity_se`` the largest standard error of a
    3-way outcome probability."""

    ranges: dict
    strategy: NDArray[np.float64]
    nash_conv: float
    expected_payoffs: NDArray[np.float64]
    standard_error: NDArray[np.float64]
    method: str
    iterations: int
    samples: int
    seed: int
    nodes: int
    build_seconds: float
    solve_seconds: float
    history: NDArray[np.float64]
    undetermined: float
    model: str = "sampled"
    threshold_error: float | None = None
    equity_se: float | None = None


def ranges(game, sigma: NDArray[np.float64]) -> dict:
    """Push/call grids from the information-set labels ``P<seat>:<class>|<history>``."""
    out: dict = {}
    for I, info in enumerate(game.infosets):
        head, hist = info.label.split("|", 1)
        seat, cls = head.split(":")
        act = "call" if "c" in info.actions else "push"
        key = f"{seat} {act} [{hist}]"
        grid = out.setdefault(key, [[None] * 13 for _ in range(13)])
        r, c = divmod(class_index(cls), 13)
        grid[r][c] = round(float(sigma[I, info.actions.index(act[0])]), 6)
    return out


def jamfold_equilibrium(stacks: ArrayLike, blinds: Sequence[float] = (0.5, 1.0),
                        ante: float = 0.0, payouts: ArrayLike | None = None, button: int = 0,
                        method: str = "fp", samples: int = 20_000, seed: int = 0,
                        boards: int = 8, iterations: int = 1000, tol: float | None = None,
                        seconds: float | None = None, progress: bool = False,
                        deals: SampledDeals | None = None, model: str = "sampled",
                        max_displacement: float = 0.1,
                        triple_samples: int = 2000) -> JamfoldEquilibrium:
    """Jam/fold equilibrium over ``samples`` sampled deals (module docstring).

    Parameters
    ----------
    stacks : (N,) chips per seat, 2 <= N <= 6.
    payouts : ICM payouts; None for chip EV.
    method : ``fp`` | ``hedge`` | ``cfr+`` (``cfr``: its alias, :data:`METHOD_ALIASES`).
    samples, seed, boards : the deal sample, ``boards`` boards per deal (ignored when
        ``deals`` is given).
    iterations, tol, seconds : stopping rule of the solver (first reached).
    model : ``sampled`` (the game over sampled deals) or ``classes`` (3 seats: the 169-class
        game with exact deal probabilities and heads-up equities, CFR+ over ranges, 3-way
        Monte Carlo refined until no threshold moves by ``max_displacement`` big blinds,
        starting from ``triple_samples`` deals per class triple; ``iterations`` is the first
        CFR+ run; ``method``, ``samples``, ``boards``, ``tol``, ``seconds``, ``deals`` are
        unused).
    """
    if model == "classes":
        return _classes(stacks, blinds, ante, payouts, button, triple_samples, seed,
                        iterations, max_displacement, progress)
    if model != "sampled":
        raise GameError(f"model={model!r} is unknown; allowed: sampled, classes")
    run = _solver(method)
    n = np.asarray(stacks).size
    t0 = time.perf_counter()
    deals = sample_deals(n, samples, seed, boards) if deals is None else deals
    sj = sampled_jamfold_game(deals, stacks, blinds, ante, button, payouts)
    cg = compile_game(sj.game)
    t1 = time.perf_counter()
    res = run(cg, iterations=iterations, tol=tol, seconds=seconds, progress=progress)
    t2 = time.perf_counter()
    vals = deal_values(sj, res.strategy)
    gain, se = action_gains(sj, res.strategy)
    return JamfoldEquilibrium(ranges=ranges(sj.game, res.strategy), strategy=res.strategy,
                              nash_conv=float(res.nash_conv),
                              expected_payoffs=vals.mean(axis=0),
                              standard_error=standard_error(vals), method=method,
                              iterations=res.iterations, samples=deals.samples,
                              seed=deals.seed, nodes=int(sj.game.kind.size),
                              build_seconds=t1 - t0, solve_seconds=t2 - t1,
                              history=res.history,
                              undetermined=float(np.mean(np.abs(gain) < 2 * se)))


def _classes(stacks, blinds, ante, payouts, button, samples, seed, iterations,
             max_displacement, progress) -> JamfoldEquilibrium:
    from pokerdyn.solvers.tournament.classes import class_jamfold_equilibrium, payoff_sd
    if np.asarray(stacks).size != 3:
        raise GameError(f"model='classes' solves 3 seats, not {np.asarray(stacks).size} "
                        "(use model='sampled')")
    eq = class_jamfold_equilibrium(stacks, blinds, ante, payouts, button, seed=seed,
                                   samples=samples,
                                   max_displacement=max_displacement,
                                   iterations=iterations, progress=progress)
    c = eq.certificate
    gains = np.concatenate([c.gain[v] for v in c.gain])
    sds = np.concatenate([c.sd[v] for v in c.gain])
    strategy = np.concatenate([eq.strategy[v] for v in sorted(eq.strategy)])
    return JamfoldEquilibrium(ranges=eq.ranges, strategy=strategy, nash_conv=eq.nash_conv,
                              expected_payoffs=eq.expected_payoffs,
                              standard_error=payoff_sd(eq), method="cfr",
                              iterations=eq.iterations, samples=eq.samples, seed=seed,
                              nodes=int(len(eq.strategy)), build_seconds=0.0,
                              solve_seconds=eq.seconds, history=eq.history,
                              undetermined=float(np.mean(np.abs(gains) < 2 * sds)),
                              model="classes", threshold_error=eq.max_displacement,
                              equity_se=eq.equity_se)


@dataclass(frozen=True)
class TournamentValues:
    """Result of :func:`tournament_values`: ``states`` (S, N) stack vectors (seat 0 on the
    button), ``values`` (S, N) their equity, ``icm`` (S, N) the ICM start, ``changes`` the
    largest value change of each round, ``nash_conv`` (S,) of the last round's hands."""

    states: NDArray[np.float64]
    values: NDArray[np.float64]
    icm: NDArray[np.float64]
    changes: NDArray[np.float64]
    nash_conv: NDArray[np.float64]
    converged: bool


def stack_states(total: float, unit: float, posts: NDArray[np.float64]) -> NDArray[np.float64]:
    """Stack vectors on the grid ``unit`` summing to ``total`` with each stack above its
    seat's post."""
    k = int(round(total / unit))
    if not np.isclose(k * unit, total) or k < 1:
        raise GameError(f"total={total:g} is not a positive multiple of unit={unit:g}")
    n = posts.size
    rows = [c for c in itertools.product(range(1, k + 1), repeat=n - 1) if sum(c) < k]
    st = np.array([list(c) + [k - sum(c)] for c in rows], dtype=np.float64) * unit
    st = st[(st > posts + 1e-12).all(axis=1)]
    if st.size == 0:
        raise GameError(f"no stack state of total {total:g} covers the blinds")
    return st


def tournament_values(total: float, payouts: ArrayLike, seats: int = 3,
                      blinds: Sequence[float] = (0.5, 1.0), unit: float | None = None,
                      delta: float = 1e-3, max_rounds: int = 50, method: str = "cfr",
                      iterations: int = 200, samples: int = 2000, seed: int = 0,
                      boards: int = 4, progress: bool = False) -> TournamentValues:
    """The nested loop of the module docstring on every state of :func:`stack_states`.

    The button is seat 0 of each state; after a hand it moves one seat on, so the state
    reached is the final stacks rotated left by one.  A final stack vector that is not a
    state (a player busted, a split pot off the grid, a stack not covering its next blind)
    is valued by ICM.  Values are updated in place (Gauss-Seidel): a state solved later in
    a round sees the new values of states solved earlier.  All hands share one deal sample
    (common random numbers), so the loop's changes are not sampling noise; but each inner
    solve stops at a NashConv of its own, so the changes level off near that size: choose
    ``delta`` above it (the paper's delta plays the same role against its epsilon).
    """
    run = _solver(method)
    pay = check_payouts(payouts, seats)
    unit = float(blinds[0]) if unit is None else float(unit)
    posts = table(np.full(seats, float(total)), blinds, 0.0, 0).posts
    states = stack_states(total, unit, posts)
    start = icm_batch(states, pay)
    V = {tuple(np.round(s / unit).astype(int)): start[i].copy() for i, s in enumerate(states)}

    def value(finals: NDArray[np.float64]) -> NDArray[np.float64]:
        out = icm_batch(finals, pay)
        for w, f in enumerate(finals):
            g = np.roll(f, -1) / unit                        # next hand: button one seat on
            key = tuple(np.round(g).astype(int))
            if np.allclose(g, key, atol=1e-9) and key in V:
                out[w] = np.roll(V[key], 1)
        return out

    deals = sample_deals(seats, samples, seed, boards)
    changes, ncs, conv = [], np.zeros(len(states)), False
    for _ in tqdm(range(max_rounds), desc="rounds", disable=not progress, leave=False):
        biggest = 0.0
        for i, s in enumerate(states):
            sj = sampled_jamfold_game(deals, s, blinds, 0.0, 0, value=value)
            res = run(compile_game(sj.game), iterations=iterations)
            key = tuple(np.round(s / unit).astype(int))
            new = value(s[None])[0] + res.expected_payoffs
            biggest = max(biggest, float(np.abs(new - V[key]).max()))
            V[key] = new
            ncs[i] = res.nash_conv
        changes.append(biggest)
        if biggest < delta:
            conv = True
            break
    vals = np.array([V[tuple(np.round(s / unit).astype(int))] for s in states])
    return TournamentValues(states=states, values=vals, icm=start,
                            changes=np.array(changes), nash_conv=ncs, converged=conv)


# One LP per stack of a chart (about 0.05 s each): ``force`` lifts MAX_CHART_STACKS, never
# MAX_CHART_STACKS_FORCED (the grid and two (stacks, 169) results: 2.7 KB a stack).
MAX_CHART_STACKS = 20_000
MAX_CHART_STACKS_FORCED = 200_000


def chart_stacks(top: float, step: float, floor: float, force: bool = False) -> NDArray:
    """The chart's stacks: the grid ``step, 2 step, ... <= top`` above ``floor`` (the big
    blind plus ante), counted before anything is allocated: GameError with the count and
    the limit when there are more than MAX_CHART_STACKS (MAX_CHART_STACKS_FORCED with
    ``force``), or none.  The quotients may overflow (1e308 / 1e-308)."""
    if top <= floor:
        raise GameError(f"max-stack={top:g} leaves no stack above the big blind plus ante "
                        f"({floor:g})")
    with np.errstate(over="ignore"):
        est, below = np.float64(top) / step, np.floor(np.float64(floor) / step)
    solved = est - below
    limit = MAX_CHART_STACKS_FORCED if force else MAX_CHART_STACKS
    # past 1e15 grid indices are not exact floats: that many stacks is refused either way
    if np.isfinite(est) and est > 1e15 and solved <= limit:
        raise GameError(f"step={step:g} is too small for stacks up to max-stack={top:g} "
                        f"({est:.3g} grid steps); allowed: steps of at least max-stack/1e15")
    if not np.isfinite(est) or solved > limit + 1e-6:
        count = "more than 1e308" if not np.isfinite(solved) else f"{solved:,.0f}" \
            if solved < 1e15 else f"{solved:.3g}"
        raise GameError(f"max-stack={top:g} with step={step:g} makes {count} chart stacks "
                        f"(one LP each); allowed: at most {limit:,}"
                        + ("" if force else f" (raise --step; --force allows up to "
                           f"{MAX_CHART_STACKS_FORCED:,})"))
    # the grid from just below the floor: k * step as in the full grid, without its start
    k = np.arange(max(1, int(below) - 1), int(np.floor(est + 1e-9)) + 1)
    grid = np.round(k * step, 10)
    grid = grid[grid > floor + 1e-12]
    if grid.size == 0:
        raise GameError(f"max-stack={top:g} leaves no stack above the big blind plus ante "
                        f"({floor:g})")
    return grid


def _hu_games(model, stacks, blinds, ante):
    """The heads-up game at every stack of ``stacks``: ``(g0, sb_set, bb_set, games)``,
    ``games`` an iterator of the compiled games, one per stack, on the tree of ``g0``.

    The chip payoffs of the heads-up game are affine in the effective stack S (folds cost
    the posts; a showdown is worth (2 e - 1) S), so the game is built at two stacks, checked
    at a third, and each stack gets the interpolated payoffs on the same tree."""
    s0, s1 = float(stacks[0]), float(stacks[-1]) if len(stacks) > 1 else float(stacks[0]) + 1
    g0, g1 = (jamfold_game(model, [s, s], blinds, ante) for s in (s0, s1))
    slope = (g1.payoffs - g0.payoffs) / (s1 - s0)
    mid = (s0 + s1) / 2
    if not np.allclose(jamfold_game(model, [mid, mid], blinds, ante).payoffs,
                       g0.payoffs + slope * (mid - s0), atol=1e-9):
        raise AssertionError("heads-up jam/fold payoffs are not affine in the stack")
    cg0 = compile_game(g0)
    sb_set = [g0.infoset_index(f"P1:{n}|") for n in model.names]
    bb_set = [g0.infoset_index(f"P2:{n}|p") for n in model.names]
    games = (dataclasses.replace(cg0, payoffs=g0.payoffs + slope * (float(s) - s0), cache={})
             for s in stacks)
    return g0, sb_set, bb_set, games


def hu_chart(model, stacks, blinds, ante: float = 0.0, progress: bool = False):
    """SB push and BB call probabilities (len(stacks), K) of the heads-up chip-EV LP
    equilibrium at each effective stack (one LP per stack, see :func:`_hu_games`)."""
    from pokerdyn.solvers.sequence.lp import solve_lp

    _, sb_set, bb_set, games = _hu_games(model, stacks, blinds, ante)
    K = len(model.names)
    push, call = np.empty((len(stacks), K)), np.empty((len(stacks), K))
    for k, cg in enumerate(tqdm(games, total=len(stacks), desc="stacks",
                                disable=not progress, leave=False)):
        sigma = solve_lp(cg).strategies
        push[k] = sigma[sb_set, 1]
        call[k] = sigma[bb_set, 1]
    return push, call


# |margin| (big blinds) up to which a choice counts as indifferent against the other
# player's LP strategy (the LP's margins of mixed hands are about 1e-15); above it the choice
# is forced by the sign of its margin (hu_chart_faces)
FACE_MARGIN = 1e-6
# a face range [low, high] is *optional* when wider than this (the ranges come from LPs in
# the indifferent hands only, scaled to unit rows: their error is about HiGHS's feasibility
# tolerance, 1e-7)
OPTIONAL_WIDTH = 1e-6
# the other player's LP probability counts as 0 (1) below (above 1 minus) this
PURE = 1e-9


def one_level_face(cg, player: int, sigma: NDArray[np.float64], free: Sequence[int]
                   ) -> list[tuple[float, float]]:
    """Range ``(low, high)`` of the probability of action 1 at each information set in
    ``free`` over all optimal strategies of ``player``, in a two-player zero-sum game where
    each player moves once (every set's parent sequence is the empty one: the heads-up
    jam/fold game), given an equilibrium ``sigma`` at which ``player`` is indifferent at
    the sets ``free`` and strictly prefers one action everywhere else.

    The optimal strategies are those ``x`` with ``(x, y*)`` an equilibrium for the fixed
    optimal ``y*`` of ``sigma`` (zero-sum equilibria form a product).  ``x`` is a best
    response to ``y*`` exactly when it keeps the strict choices and moves only at ``free``;
    ``y*`` is a best response to ``x`` when each of the other player's sets keeps a
    non-negative gain of action 1 over action 0 where ``y*`` plays action 1, a
    non-positive one where it plays action 0.  The gains are linear in ``x`` (rows of the
    sequence-form payoff matrix), so each end of a range is a small LP in ``len(free)``
    variables, rows scaled to unit size."""
    from scipy.optimize import linprog

    from pokerdyn.solvers.sequence.form import sequence_form

    sf = sequence_form(cg)
    other = 1 - player
    if (sf.parent_seq != 0).any():
        raise GameError("one_level_face needs a game where each player moves once")
    # M: rows the other player's sequences, columns player's: the other's payoff
    M = (sf.A[0] if other == 0 else sf.A[1].T).tocsr()
    x = sf.realization_plan(cg, sigma, player)
    sets = np.flatnonzero(cg.infoset_player == other)
    one, zero = sf.seq[sets, 1], sf.seq[sets, 0]
    G = (M[one] - M[zero]).tocsc()                 # the other's gain of action 1, per set
    free = list(free)
    cols = [(sf.seq[I, 1], sf.seq[I, 0]) for I in free]
    for a1, a0 in cols:                            # x with the free sets at action 0
        x[a0], x[a1] = x[a0] + x[a1], 0.0
    base = G @ x
    D = np.column_stack([(G[:, [a1]] - G[:, [a0]]).toarray().ravel() for a1, a0 in cols])
    y1 = sigma[sets, 1]
    scale = np.maximum(np.abs(D).max(axis=1), np.abs(base)) + 1e-300
    D, base = D / scale[:, None], base / scale
    ge, le = y1 > PURE, y1 < 1 - PURE              # gain >= 0 where it plays 1, <= 0 where 0
    A_ub = np.vstack([-D[ge], D[le]])
    b_ub = np.concatenate([base[ge], -base[le]]) + 1e-12
    out = []
    for k in range(len(free)):
        ends = []
        for sign in (1.0, -1.0):
            c = np.zeros(len(free))
            c[k] = sign
            r = linprog(c, A_ub=A_ub, b_ub=b_ub, bounds=[(0, 1)] * len(free),
                        method="highs")
            if r.status != 0:
                raise AssertionError(f"the face of {cg.infoset_labels[free[k]]!r}: "
                                     f"{r.message}")
            ends.append(float(r.x[k]))
        out.append((ends[0], ends[1]))
    return out


@dataclass(frozen=True)
class HuChart:
    """Result of :func:`hu_chart_faces`, arrays (len(stacks), K) in the class order of the
    hand model.

    ``push``/``call``: the LP's probabilities; ``push_margin``/``call_margin``: EV(push) -
    EV(fold) of the small blind's hand, EV(call) - EV(fold) of the big blind's hand facing a
    push, in big blinds, against the other player's LP strategy; ``push_low``/``push_high``
    (``call_low``/``call_high``): the range of the probability over *all* optimal
    strategies of its player (the optimal face).  A choice is *forced* where the range is
    [1, 1], *excluded* where it is [0, 0], *optional* where it is wider than
    OPTIONAL_WIDTH, and uniquely mixed otherwise (:meth:`optional`).  ``face_cells``:
    how many choices needed the face LPs."""

    stacks: NDArray[np.float64]
    push: NDArray[np.float64]
    call: NDArray[np.float64]
    push_margin: NDArray[np.float64]
    call_margin: NDArray[np.float64]
    push_low: NDArray[np.float64]
    push_high: NDArray[np.float64]
    call_low: NDArray[np.float64]
    call_high: NDArray[np.float64]
    face_cells: int

    def optional(self, which: str) -> NDArray[np.bool_]:
        """(len(stacks), K): where pushing (``which="push"``) or calling is optional."""
        lo, hi = (self.push_low, self.push_high) if which == "push" else \
            (self.call_low, self.call_high)
        return hi - lo > OPTIONAL_WIDTH


def hu_chart_faces(model, stacks, blinds, ante: float = 0.0,
                   progress: bool = False) -> HuChart:
    """:func:`hu_chart` with every choice's margin and its range over the optimal face.

    The margins are the owner's conditional action values (:func:`solvers.qre.core.
    action_values`: EV given the hand, and for the big blind given the push) against the
    LP's strategy of the other player, divided by the big blind.

    A choice with ``|margin| > FACE_MARGIN`` is forced by the sign of its margin, exactly:
    in a zero-sum game every optimal strategy ``x`` of a player is a best response to
    *every* optimal strategy ``y*`` of the other (``v = min_y x A y <= x A y* <= max_x' x'
    A y* = v``), so ``x`` puts probability 0 on an action that loses against ``y*`` at a
    set ``x`` reaches: a strict margin against the one ``y*`` the LP returned excludes the
    worse action from the whole face.  (Every small-blind hand is dealt with positive
    probability, and a big-blind hand facing a push is reached whenever the small blind
    pushes a hand it does not block.)  A choice with margin 0 against ``y*`` may still be
    forced (a uniquely mixed hand is indifferent), so the indifferent choices (one or two a
    stack) get :func:`one_level_face`, small LPs in those choices only.  (The general
    optimal-face LPs, :func:`solvers.sequence.face.optimal_face_ranges`, give the same
    ranges widened by their value slack: up to 0.035 near a breakpoint, where the value
    hardly changes along the face; and they cost about 1 s a stack.)
    """
    from pokerdyn.solvers.qre.core import action_values
    from pokerdyn.solvers.sequence.lp import solve_lp

    _, sb_set, bb_set, games = _hu_games(model, stacks, blinds, ante)
    n, K = len(stacks), len(model.names)
    out = {k: np.empty((n, K)) for k in ("push", "call", "push_margin", "call_margin",
                                          "push_low", "push_high", "call_low", "call_high")}
    cells_done = 0
    for k, cg in enumerate(tqdm(games, total=n, desc="stacks", disable=not progress,
                                leave=False)):
        res = solve_lp(cg)
        v = action_values(cg, res.strategies)
        todo = []
        for key, sets in (("push", sb_set), ("call", bb_set)):
            m = (v[sets, 1] - v[sets, 0]) / float(blinds[1])
            out[key][k] = res.strategies[sets, 1]
            out[f"{key}_margin"][k] = m
            out[f"{key}_low"][k] = np.where(m > FACE_MARGIN, 1.0, 0.0)
            out[f"{key}_high"][k] = np.where(m >= -FACE_MARGIN, 1.0, 0.0)
            todo += [(key, i, sets[i]) for i in np.flatnonzero(np.abs(m) <= FACE_MARGIN)]
        for key, player in (("push", 0), ("call", 1)):
            cells = [(i, I) for k2, i, I in todo if k2 == key]
            if cells:
                ranges = one_level_face(cg, player, res.strategies, [I for _, I in cells])
                for (i, _), (lo, hi) in zip(cells, ranges):
                    out[f"{key}_low"][k, i], out[f"{key}_high"][k, i] = lo, hi
            cells_done += len(todo)
    return HuChart(stacks=np.asarray(stacks, dtype=np.float64), face_cells=cells_done, **out)


__all__ = ["FACE_MARGIN", "HuChart", "JamfoldEquilibrium", "METHODS", "OPTIONAL_WIDTH",
           "PURE", "TournamentValues", "hu_chart", "hu_chart_faces", "one_level_face",
           "jamfold_equilibrium", "ranges", "stack_states", "tournament_values"]
