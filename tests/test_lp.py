"""Sequence form and the LP solver: published values and exact identities."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerdyn.games import GameError, compile_game, get_game
from pokerdyn.games.catalog.river import river
from pokerdyn.solvers import expected_payoffs, nash_conv
from pokerdyn.solvers.sequence.lp import solve_lp
from pokerdyn.solvers.sequence.form import sequence_form

KUHN = compile_game(get_game("kuhn"))
RIVER2 = compile_game(river(max_bets=2, bet_size=1.0))


def test_kuhn_value_is_minus_one_eighteenth():
    # Kuhn (1950); OpenSpiel's cfr_test: the value of 2-player Kuhn poker is -1/18.
    res = solve_lp(KUHN)
    assert res.value == pytest.approx(-1 / 18, abs=1e-9)
    assert nash_conv(KUHN, res.strategies) == pytest.approx(0, abs=1e-9)
    assert expected_payoffs(KUHN, res.strategies)[0] == pytest.approx(-1 / 18, abs=1e-9)


def test_lp_strategies_are_an_equilibrium_of_the_river_game():
    res = solve_lp(RIVER2)
    assert nash_conv(RIVER2, res.strategies) == pytest.approx(0, abs=1e-8)
    assert expected_payoffs(RIVER2, res.strategies)[0] == pytest.approx(res.value, abs=1e-9)


def _random_profile(cg, seed):
    rng = np.random.default_rng(seed)
    sigma = rng.random(cg.legal.shape) * cg.legal
    return sigma / sigma.sum(axis=1, keepdims=True)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), which=st.sampled_from(["kuhn", "river2"]))
def test_sequence_form_payoff_equals_expected_payoffs(seed, which):
    cg = KUHN if which == "kuhn" else RIVER2
    sf = sequence_form(cg)
    sigma = _random_profile(cg, seed)
    x, y = (sf.realization_plan(cg, sigma, p) for p in (0, 1))
    for p in (0, 1):
        assert sf.E[p] @ sf.realization_plan(cg, sigma, p) == pytest.approx(sf.e[p])
    ev = expected_payoffs(cg, sigma)
    assert x @ (sf.A[0] @ y) == pytest.approx(ev[0], abs=1e-12)
    assert x @ (sf.A[1] @ y) == pytest.approx(ev[1], abs=1e-12)
    # plans -> behaviour -> plans is the identity on reached sequences
    back = sf.behaviour(cg, (x, y))
    assert np.allclose(sf.realization_plan(cg, back, 0), x)


def test_lp_rejects_three_players():
    with pytest.raises(GameError, match="2-player zero-sum game; 'kuhn3' has 3 players"):
        solve_lp(compile_game(get_game("kuhn3")))


def test_lp_rejects_non_zero_sum():
    from pokerdyn.games import GameBuilder
    b = GameBuilder("nzs", 2)
    r = b.decision(0, "P1:|", ("x", "y"))
    b.terminal((1, 0), parent=r, via="x")
    b.terminal((0, 0), parent=r, via="y")
    with pytest.raises(GameError, match="zero-sum game; payoffs at terminal x sum to 1"):
        solve_lp(compile_game(b.build()))
