"""Fictitious play: every schedule and averaging rule converges on Kuhn poker; the two
averaging rules coincide where every own reach probability is 1; runs are deterministic."""
from __future__ import annotations

import numpy as np
import pytest
from conftest import compiled

from pokerdyn.games import GameError, strategy_from_params, uniform_strategy
from pokerdyn.solvers import fictitious_play, nash_conv
from pokerdyn.solvers._kernels import own_reach


@pytest.mark.parametrize("schedule, averaging, iterations, bound", [
    ("alternating", "reach", 5_000, 1e-3),
    ("alternating", "infoset", 5_000, 1e-3),
    # Robinson's simultaneous play cycles longer: NashConv 1.3e-3 after 1e5 iterations
    ("simultaneous", "reach", 30_000, 5e-3),
    ("simultaneous", "infoset", 30_000, 5e-3),
])
def test_fp_converges_on_kuhn(schedule, averaging, iterations, bound):
    cg = compiled("kuhn")
    res = fictitious_play(cg, iterations=iterations, schedule=schedule, averaging=averaging)
    h = res.history
    assert res.nash_conv < bound
    assert res.nash_conv == pytest.approx(nash_conv(cg, res.strategy), abs=1e-15)
    assert h[0, 1] > 0.1                       # far from equilibrium at the start ...
    assert h[-1, 1] < h[0, 1] / 50            # ... and much closer at the end
    assert np.all(np.diff(h[:, 0]) > 0) and np.all(np.diff(h[:, 2]) >= 0)


def test_fp_stops_at_tolerance():
    res = fictitious_play(compiled("kuhn"), iterations=100_000, tol=1e-2, schedule="alternating")
    assert res.converged and res.nash_conv <= 1e-2 and res.iterations < 100_000
    assert res.history[-1, 1] == res.nash_conv and res.history[-2, 1] > 1e-2


@pytest.mark.parametrize("name", ["skp", "kuhn3-third"])
def test_reach_and_infoset_averaging_coincide_where_own_reach_is_one(name):
    """In one-third street Kuhn every player acts at most once on any path, so the own
    reach of every information set is 1 and the reach-weighted mixing weight
    a x_br / ((1-a) x_sigma + a x_br) equals a."""
    cg = compiled(name, 9)
    sigma = uniform_strategy(cg)
    dec = cg.infoset >= 0
    for p in range(3):
        x = own_reach(cg.kind, cg.player, cg.parent, cg.edge, cg.infoset, sigma, p)
        assert np.all(x[dec & (cg.player == p)] == 1.0)
    for schedule in ("simultaneous", "alternating"):
        a = fictitious_play(cg, iterations=3_000, schedule=schedule, averaging="reach")
        b = fictitious_play(cg, iterations=3_000, schedule=schedule, averaging="infoset")
        np.testing.assert_allclose(a.strategy, b.strategy, rtol=0, atol=1e-12)
        np.testing.assert_allclose(a.history[:, :2], b.history[:, :2], rtol=0, atol=1e-12)


def test_averagings_differ_where_own_reach_varies():
    cg = compiled("kuhn")
    a = fictitious_play(cg, iterations=200, averaging="reach")
    b = fictitious_play(cg, iterations=200, averaging="infoset")
    assert np.abs(a.strategy - b.strategy).max() > 1e-3


def test_fp_is_deterministic_and_resumable_from_sigma0():
    cg = compiled("kuhn3")
    a = fictitious_play(cg, iterations=500)
    b = fictitious_play(cg, iterations=500)
    assert np.array_equal(a.strategy, b.strategy)
    start = strategy_from_params(compiled("skp", 9), {"b_J": 0.3, "c_K": 0.2, "d_Q": 0.6})
    c = fictitious_play(compiled("skp", 9), iterations=10, sigma0=start)
    assert not np.allclose(c.strategy, uniform_strategy(compiled("skp", 9)))


def test_fp_skp_reaches_published_equilibrium_region():
    cg = compiled("skp", 9)
    res = fictitious_play(cg, iterations=100_000, tol=1e-3)
    assert res.nash_conv < 1e-3


@pytest.mark.parametrize("kw, message", [
    ({"schedule": "random"}, r"schedule='random' not in"),
    ({"averaging": "mean"}, r"averaging='mean' not in"),
    ({"iterations": 0}, r"iterations=0 is outside the allowed range \[1, inf\)"),
    ({"tol": -1.0}, r"tol=-1.0 is outside the allowed range \(0, inf\)"),
])
def test_fp_rejects_bad_options(kw, message):
    with pytest.raises(GameError, match=message):
        fictitious_play(compiled("kuhn"), **kw)


@pytest.mark.parametrize("game, averaging", [("kuhn3", "infoset"), ("leduc", "reach")])
def test_regret_log_equals_regrets_and_leaves_play_unchanged(game, averaging):
    """``advance(..., regrets=r)``: row k is each player's regret of the profile before
    iteration k + 1 (its best-response value, from the responses the update computes, minus
    its expected payoff), equal to ``solvers.regrets`` of that profile; the profile is the
    same to the bit as without the log and as one iteration a call."""
    from pokerdyn.solvers import regrets
    from pokerdyn.solvers.learning.fictitious_play import FictitiousPlay

    cg = compiled(game)
    fp = FictitiousPlay(schedule="simultaneous", averaging=averaging)
    n = 40
    a = fp.init(cg, uniform_strategy(cg))
    want = []
    for t in range(n):
        want.append(regrets(cg, a))
        fp.advance(cg, a, t, 1)
    b = fp.init(cg, uniform_strategy(cg))
    log = np.full((n, cg.n_players), np.nan)
    fp.advance(cg, b, 0, n, regrets=log)
    assert np.array_equal(a, b)
    assert np.allclose(log, np.array(want), rtol=0, atol=1e-12)
    assert (log > -1e-12).all() and log[0].max() > 0.01  # regrets, and the uniform start's


def test_regret_log_needs_the_simultaneous_schedule_and_its_shape():
    from pokerdyn.solvers.learning.fictitious_play import FictitiousPlay

    cg = compiled("kuhn")
    sigma = uniform_strategy(cg)
    with pytest.raises(GameError, match="schedule='simultaneous'"):
        FictitiousPlay("alternating").advance(cg, sigma, 0, 3, regrets=np.empty((3, 2)))
    with pytest.raises(GameError, match=r"expected \(3, 2\) float64"):
        FictitiousPlay("simultaneous").advance(cg, sigma, 0, 3, regrets=np.empty((2, 2)))
