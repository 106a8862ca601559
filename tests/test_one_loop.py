"""One loop and one NashConv of each kind (issue 35, point 5).

* Every iterative method (fictitious play, hedge, the CFR family, the hold'em paper's
  fictitious play, fictitious play on a normal form, CFR+ over ranges) is driven by
  :func:`pokerdyn.solvers.iterative.iterate`: a profiler hook sees the loop start for each
  and sees every call of a step's ``advance`` come from the loop.
* The loop gives bit for bit what the methods' own loops gave before it: each result is
  compared with ``np.array_equal`` to a reference loop written out below (the removed
  loops, plainly) and to NashConv values recorded from the code before the change
  (``float.hex``; fictitious play and CFR use only + - * / and max, so they replay exactly).
* The float NashConv (:func:`pokerdyn.solvers.evaluation.nash_conv`) and the exact one
  (:func:`pokerdyn.solvers.exact_profile.nash_conv`) agree on random rational profiles, and
  the symbolic :func:`pokerdyn.solvers.symbolic.model.nash_conv.exact_nash_conv` (which hands
  rational points to the exact one) equals the vertex enumeration it used before.
"""
from __future__ import annotations

import sys
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings, strategies as st

from pokerdyn.games import compile_game, get_game
from pokerdyn.games.normal_form.tensor import normal_form
from pokerdyn.games.strategy import uniform_strategy
from pokerdyn.solvers import iterative
from pokerdyn.solvers.evaluation import max_regret, nash_conv, regrets
from pokerdyn.solvers.exact_profile import named_profile
from pokerdyn.solvers.exact_profile import nash_conv as exact_nash_conv
from pokerdyn.solvers.learning.cfr_plus import CFR, cfr
from pokerdyn.solvers.learning.fictitious_play import FictitiousPlay, fictitious_play
from pokerdyn.solvers.learning.hedge import hedge
from pokerdyn.solvers.learning.matrix_fp import matrix_fictitious_play
from pokerdyn.solvers.learning.paper_fp import paper_fictitious_play
from pokerdyn.solvers.ranges import average, nash_conv as range_nash_conv, range_cfr, reaches
from pokerdyn.solvers.ranges import _matched, action_values


@pytest.fixture(scope="module")
def kuhn():
    return compile_game(get_game("kuhn"))


@pytest.fixture(scope="module")
def skp9():
    return compile_game(get_game("skp"), P=9)


@pytest.fixture(scope="module")
def range_game():
    from pokerdyn.games.tournament.ranged import class_jamfold
    return class_jamfold([10, 10, 10]).game


def _loop_calls(fn):
    """Run ``fn``; return the names of the methods :func:`iterative.iterate` was started
    with, and the names of the functions that called a step's ``advance``."""
    loop = iterative.iterate.__code__
    started, callers = [], set()

    def hook(frame, event, arg):
        if event != "call":
            return
        if frame.f_code is loop:
            started.append(frame.f_locals["method"].name)
        elif frame.f_code.co_name == "advance" and "self" in frame.f_locals:
            callers.add(frame.f_back.f_code.co_name)

    old = sys.getprofile()
    sys.setprofile(hook)
    try:
        fn()
    finally:
        sys.setprofile(old)
    return started, callers


def test_every_iterative_method_runs_through_the_one_loop(kuhn, range_game):
    nf = normal_form(kuhn).payoffs
    runs = {
        "fp": lambda: fictitious_play(kuhn, iterations=20),
        "hedge": lambda: hedge(kuhn, iterations=20),
        "cfr+": lambda: cfr(kuhn, iterations=20),
        "cfr": lambda: cfr(kuhn, 20, None, False, False, False),
        "paper-fp": lambda: paper_fictitious_play(kuhn, 0.05, max_iterations=200),
        "matrix-fp": lambda: matrix_fictitious_play(nf, 1e-2, max_iterations=500),
        "cfr+ over ranges": lambda: range_cfr(range_game, iterations=2, check_every=1),
    }
    for name, run in runs.items():
        started, callers = _loop_calls(run)
        assert started == [name], (name, started)
        # a step is advanced by the loop only (the paper's step wraps fictitious play's)
        assert callers <= {"iterate", "advance"}, (name, callers)
    # the paper's FP with check_every > 1: a run every k iterations, then the replay
    started, _ = _loop_calls(lambda: paper_fictitious_play(kuhn, 0.05, 3000, check_every=7))
    assert started == ["paper-fp", "paper-fp"]


# NashConv after 300 iterations, recorded from the code before the one loop (its own loop
# in each method; float.hex is exact)
RECORDED = {
    ("kuhn", "fp", "simultaneous", "reach"): "0x1.a5d8e0881468ep-6",
    ("kuhn", "fp", "alternating", "infoset"): "0x1.94d55c723d800p-8",
    ("kuhn", "cfr", True): "0x1.c6742b41faa80p-11",
    ("kuhn", "cfr", False): "0x1.bbabf9a2a3da8p-6",
    ("skp9", "cfr", True): "0x1.61d1f98092000p-15",
    ("skp9", "fp", "simultaneous", "reach"): "0x1.19751e8276db0p-7",
}


@pytest.mark.parametrize("key", sorted(RECORDED, key=str))
def test_nash_conv_replays_the_recorded_values(key, kuhn, skp9):
    cg = {"kuhn": kuhn, "skp9": skp9}[key[0]]
    if key[1] == "fp":
        res = fictitious_play(cg, iterations=300, schedule=key[2], averaging=key[3])
    else:
        res = cfr(cg, 300, None, key[2], key[2], key[2])
    assert res.iterations == 300
    assert res.nash_conv == float.fromhex(RECORDED[key])


def _reference_run(cg, method, iterations, growth=1.1):
    """The loop of run_iterative written out: NashConv of the average at the geometric
    checkpoints."""
    state = method.init(cg, uniform_strategy(cg))
    done, rows = 0, []
    for cp in iterative.checkpoints(iterations, growth):
        method.advance(cg, state, done, cp - done)
        done = cp
        rows.append((done, nash_conv(cg, method.average(cg, state), check=False)))
    return method.average(cg, state), np.array(rows)


@pytest.mark.parametrize("method", [FictitiousPlay("simultaneous", "reach"),
                                    FictitiousPlay("alternating", "infoset"),
                                    CFR(True, True, True), CFR(False, False, False)],
                         ids=["fp", "fp-alt", "cfr+", "cfr"])
def test_run_iterative_equals_its_loop_written_out(method, skp9):
    strategy, rows = _reference_run(skp9, method, 250)
    res = iterative.run_iterative(skp9, method, iterations=250)
    assert np.array_equal(res.strategy, strategy)
    assert np.array_equal(res.history[:, :2], rows)
    assert res.nash_conv == rows[-1, 1] and res.iterations == 250
    seen = []
    again = iterative.run_iterative(skp9, method, iterations=250,
                                    on_checkpoint=lambda t, v, s: seen.append((t, v)))
    assert np.array_equal(np.array(seen), rows) and np.array_equal(again.strategy, strategy)


def test_tol_stops_at_the_first_checkpoint_below_it(kuhn):
    _, rows = _reference_run(kuhn, CFR(), 5000)
    first = int(np.argmax(rows[:, 1] <= 1e-3))
    res = cfr(kuhn, iterations=5000, tol=1e-3)
    assert res.converged and res.iterations == rows[first, 0]
    assert np.array_equal(res.history[:, :2], rows[:first + 1])


def _reference_paper_fp(cg, epsilon, max_iterations, check_every, resume=None):
    """The paper's FP loop as it was written before the one loop."""
    fp = FictitiousPlay(schedule="simultaneous", averaging="infoset")
    t0, s0 = (0, uniform_strategy(cg)) if resume is None else resume
    sigma = fp.init(cg, s0)
    t, mr, k, log = t0, float("inf"), check_every, []
    saved = (t, sigma.copy())
    row = np.empty((1, cg.n_players))
    while t < max_iterations:
        if k == 1:
            fp.advance(cg, sigma, t, 1, regrets=row)
            mr = float(row.max())
            log.append((t, mr))
            t += 1
            if mr < epsilon:
                break
            continue
        if t % k == 0:
            mr = max_regret(cg, sigma, check=False)
            log.append((t, mr))
            if mr < epsilon:
                t, sigma = saved[0], saved[1].copy()
                k = 1
                continue
            saved = (t, sigma.copy())
        fp.advance(cg, sigma, t, 1)
        t += 1
    return sigma, t, mr, log


@pytest.mark.parametrize("epsilon, cap, k", [(0.05, 3000, 1), (0.05, 3000, 7), (0.01, 800, 25),
                                             (1e-9, 95, 10), (10.0, 50, 3), (0.02, 40, 1)])
def test_paper_fp_equals_its_loop_written_out(kuhn, epsilon, cap, k):
    sigma, t, mr, log = _reference_paper_fp(kuhn, epsilon, cap, k)
    got = []
    res = paper_fictitious_play(kuhn, epsilon, cap, k, log=lambda *a: got.append(a))
    assert np.array_equal(res.strategy, sigma) and res.iterations == t
    assert res.max_regret == mr and got == log
    assert np.array_equal(res.regrets, regrets(kuhn, sigma))
    if k == 25:
        assert t == 647  # the window replayed: the Java's stop, not a multiple of 25


@pytest.mark.parametrize("k", [1, 5, 10])
def test_paper_fp_resumes_as_its_loop(skp9, k):
    start = paper_fictitious_play(skp9, 1e-9, max_iterations=13)
    sigma, t, mr, log = _reference_paper_fp(skp9, 0.012, 400, k, (13, start.strategy))
    got = []
    res = paper_fictitious_play(skp9, 0.012, 400, k, log=lambda *a: got.append(a),
                                resume=(13, start.strategy))
    assert np.array_equal(res.strategy, sigma) and (res.iterations, res.max_regret) == (t, mr)
    assert got == log


def _reference_matrix_fp(U, epsilon, max_iterations, check_every):
    A, B = U[..., 0], U[..., 1]
    x, y = np.full(A.shape[0], 1.0 / A.shape[0]), np.full(A.shape[1], 1.0 / A.shape[1])
    t = 0
    while t < max_iterations:
        ay, bx = A @ y, x @ B
        if t % check_every == 0 and max(ay.max() - x @ ay, bx.max() - bx @ y) <= epsilon:
            break
        t += 1
        x *= t / (t + 1.0)
        x[int(np.argmax(ay))] += 1.0 / (t + 1)
        y *= t / (t + 1.0)
        y[int(np.argmax(bx))] += 1.0 / (t + 1)
    return x, y, t


@pytest.mark.parametrize("epsilon, cap, k", [(1e-3, 100_000, 100), (1e-2, 5000, 1),
                                             (1e-9, 777, 50), (10.0, 10, 3)])
def test_matrix_fp_equals_its_loop_written_out(kuhn, epsilon, cap, k):
    for U in (normal_form(kuhn).payoffs, np.random.default_rng(7).normal(size=(6, 9, 2))):
        x, y, t = _reference_matrix_fp(U, epsilon, cap, k)
        res = matrix_fictitious_play(U, epsilon, cap, k)
        assert np.array_equal(res.mixed[0], x) and np.array_equal(res.mixed[1], y)
        assert res.iterations == t


def test_range_cfr_equals_its_loop_written_out(range_game):
    g = range_game
    K = g.n_classes
    regret = {int(v): np.zeros((K, len(g.actions[v]))) for v in g.decisions}
    total = {v: z.copy() for v, z in regret.items()}
    rows = []
    for t in range(1, 7):  # CFR+ over ranges, as range_cfr's own loop ran it
        for p in range(g.n_players):
            sigma = {v: _matched(r) for v, r in regret.items()}
            reach = reaches(g, sigma)
            q, _ = action_values(g, sigma, p, reach=reach, fast=True)
            for v, a in q.items():
                ev = (a * sigma[v]).sum(axis=1, keepdims=True)
                regret[v] = np.maximum(regret[v] + a - ev, 0.0)
                total[v] += t * reach[v][p][:, None] * sigma[v]
        if t % 4 == 0 or t == 6:
            rows.append((t, range_nash_conv(g, {v: _matched(s) for v, s in total.items()})[0]))
    res = range_cfr(g, iterations=6, check_every=4)
    assert res.iterations == 6 and np.array_equal(res.history[:, [0, 2]], np.array(rows))
    for v in regret:
        assert np.array_equal(res.state.regret[v], regret[v])
        assert np.array_equal(res.strategy[v], _matched(total[v]))
    assert res.nash_conv == rows[-1][1]
    more = range_cfr(g, iterations=2, check_every=5, state=res.state)  # resumes at t = 7
    assert more.iterations == 8 and more.history[:, 0].tolist() == [4, 6, 8]
    assert average(more.state).keys() == res.strategy.keys()


def test_the_time_budget_measures_and_stops(kuhn):
    res = cfr(kuhn, iterations=10**9, seconds=0.05)
    assert not res.converged and res.iterations < 10**9
    assert res.history[-1, 0] == res.iterations  # the run ends measured
    run = iterative.iterate(kuhn, CFR(), CFR().init(kuhn, uniform_strategy(kuhn)),
                            iterations=10**9, at=[10**9], seconds=0.05, chunk=10,
                            measure=lambda g, s: 0.0)
    assert run.out_of_time and run.iterations % 10 == 0 and run.history.shape == (1, 3)


# ---- one float NashConv, one exact ------------------------------------------------------

def _rational_point(game, draw) -> dict[str, sp.Rational]:
    """Every named parameter's exact value: per information set, the named actions' shares
    of a random split of 1 (the unnamed action gets the rest)."""
    point = {}
    for s in game.infosets:
        names = [p for p in game.named if p.infoset == s.label]
        w = [draw(st.integers(0, 6)) for _ in range(len(names) + 1)]
        w[0] += 1
        for p, wi in zip(names, w[1:]):
            point[p.name] = sp.Rational(wi, sum(w))
    return point


GAMES = {"kuhn": ({}, None), "skp": ({"P": 9}, 9), "kuhn3-third": ({"P": 9}, 9)}


@settings(max_examples=25, deadline=None)
@given(data=st.data(), name=st.sampled_from(sorted(GAMES)))
def test_float_and_exact_nash_conv_agree(data, name):
    from pokerdyn.games.strategy import strategy_from_params
    from pokerdyn.solvers.symbolic.model.nash_conv_fraction import exact_payoffs

    game = get_game(name)
    values, pot = GAMES[name]
    cg = compile_game(game, **values)
    point = _rational_point(game, data.draw)
    exact = exact_nash_conv(game, named_profile(game, point), exact_payoffs(game, pot))
    sigma = strategy_from_params(cg, {k: float(v) for k, v in point.items()})
    assert exact >= 0
    assert nash_conv(cg, sigma) == pytest.approx(float(exact), abs=1e-12)


@settings(max_examples=10, deadline=None)
@given(data=st.data(), name=st.sampled_from(["kuhn", "skp"]))
def test_symbolic_exact_nash_conv_equals_the_vertex_enumeration(data, name):
    from pokerdyn.solvers.symbolic.model.nash_conv import exact_nash_conv, nash_conv_with, payoffs_at

    game = get_game(name)
    pot = GAMES[name][1]
    point = _rational_point(game, data.draw)
    got = exact_nash_conv(game, pot, point)
    assert got == nash_conv_with(game, payoffs_at(game, pot), point)
    assert isinstance(got, sp.Rational)


def test_both_nash_convs_are_zero_at_kuhns_equilibrium():
    """Kuhn (1950) with alpha = 0 (the profile of test_exact_profile): exact NashConv 0,
    float NashConv 0 to rounding; with player 2 bluffing J 2/3 instead of 1/3, both give
    the same positive gain."""
    game = get_game("kuhn")
    cg = compile_game(game)
    R = Fraction
    second = {"P1:J|": 0, "P1:Q|": 0, "P1:K|": 0, "P1:J|kb": 0, "P1:Q|kb": R(1, 3),
              "P1:K|kb": 1, "P2:J|k": R(1, 3), "P2:Q|k": 0, "P2:K|k": 1, "P2:J|b": 0,
              "P2:Q|b": R(1, 3), "P2:K|b": 1}
    for bluff, zero in ((R(1, 3), True), (R(2, 3), False)):
        sig = {k: (1 - R(v), R(v)) for k, v in {**second, "P2:J|k": bluff}.items()}
        exact = exact_nash_conv(game, sig)
        arr = np.array([[float(x) for x in sig[s.label]] for s in game.infosets])
        assert (exact == 0) == zero and exact >= 0
        assert nash_conv(cg, arr) == pytest.approx(float(exact), abs=1e-15)


def test_named_profile_refuses_bad_points():
    from pokerdyn.games import GameError
    game = get_game("kuhn")
    point = {p.name: Fraction(1, 2) for p in game.named}
    with pytest.raises(GameError, match="not an exact rational"):
        named_profile(game, {**point, "b1_J": 0.5})
    with pytest.raises(GameError, match="no value of"):
        named_profile(game, {k: v for k, v in point.items() if k != "b1_J"})
    with pytest.raises(GameError, match="not a named parameter"):
        named_profile(game, {**point, "zz": 1})
