"""Fictitious play, multiplicative weights (hedge) and CFR+ against the LP value; CFR+
against OpenSpiel's published behaviour; seeded-free determinism."""
import numpy as np
import pytest

from pokerdyn.games import compile_game, get_game
from pokerdyn.games.catalog.river import river
from pokerdyn.solvers import cfr, fictitious_play, hedge, nash_conv, solve_lp
from pokerdyn.solvers.learning.hedge import Hedge

RIVER = compile_game(river())  # R1 vs R1, one bet of 0.5: Papadopoulos Table 1, -0.010


@pytest.fixture(scope="module")
def lp_value():
    return solve_lp(RIVER).value


@pytest.mark.parametrize("run, iterations", [
    (lambda cg, n: fictitious_play(cg, iterations=n), 20_000),
    (lambda cg, n: hedge(cg, iterations=n), 40_000),
    (lambda cg, n: cfr(cg, iterations=n), 2_000),
])
def test_iterative_methods_reach_the_lp_value(run, iterations, lp_value):
    res = run(RIVER, iterations)
    assert res.expected_payoffs[0] == pytest.approx(lp_value, abs=1e-3)
    assert res.expected_payoffs[0] == pytest.approx(-0.010, abs=2e-3)  # Table 1, R1/R1


def test_cfr_plus_on_kuhn3_matches_openspiel():
    # OpenSpiel 2.0.2 CFRPlusSolver on 3-player Kuhn: NashConv 7.9e-7 after 10^4 iterations
    # (the reference run); same algorithm, so the same NashConv at equal iterations.
    res = cfr(compile_game(get_game("kuhn3")), iterations=10_000)
    assert res.nash_conv < 1e-6
    assert res.nash_conv == pytest.approx(7.9e-7, rel=0.05)


def test_cfr_plus_kuhn_value():
    res = cfr(compile_game(get_game("kuhn")), iterations=3_000)
    assert res.expected_payoffs[0] == pytest.approx(-1 / 18, abs=1e-5)  # Kuhn 1950


def test_plain_cfr_converges_more_slowly_than_cfr_plus():
    cg = compile_game(get_game("kuhn"))
    plain = cfr(cg, iterations=1_000, regret_matching_plus=False, alternating=False,
                linear_averaging=False)
    plus = cfr(cg, iterations=1_000)
    # issue 37 added the variant's other parameters to the options
    assert plain.options == {"regret_matching_plus": False, "alternating": False,
                             "linear_averaging": False, "gamma": 0.0, "predictive": False,
                             "alpha": None, "beta": None, "storage": "float64"}
    assert plus.nash_conv < plain.nash_conv < 0.05


def test_hedge_first_step_is_freund_schapire():
    # One round from uniform at a two-action set: P(a) ∝ beta^loss(a) with
    # beta = 1/(1 + sqrt(2 ln 2 / 1)) (Ganzfried sec. 6.1, n = 2, T = 1).
    cg = compile_game(get_game("kuhn"))
    m = Hedge()
    state = m.init(cg, cg.legal / 2.0)
    m.advance(cg, state, 0, 1)
    from pokerdyn.solvers.learning.hedge import chance_reach
    from pokerdyn.solvers.learning._regret_kernels import counterfactual_values
    cfv, cfr_, own = np.zeros(cg.legal.shape), np.zeros(cg.n_infosets), np.zeros(cg.n_infosets)
    counterfactual_values(cg.kind, cg.player, cg.parent, cg.edge, cg.infoset, cg.chance_prob,
                          cg.terminal_index, cg.payoffs, cg.legal / 2.0, 0, cfv, cfr_, own)
    I = cg.game.infoset_index("P1:K|")
    lo, hi = cg.payoffs[:, 0].min(), cg.payoffs[:, 0].max()
    loss = (hi - cfv[I] / chance_reach(cg)[I]) / (hi - lo)
    beta = 1 / (1 + np.sqrt(2 * np.log(2)))
    expected = beta ** loss / (beta ** loss).sum()
    assert np.allclose(state.sigma[I], expected)


def test_average_profiles_are_valid_and_runs_replay():
    a = cfr(RIVER, iterations=300).strategy
    b = cfr(RIVER, iterations=300).strategy
    assert np.array_equal(a, b)
    assert np.allclose(a.sum(axis=1), 1)
    assert nash_conv(RIVER, a) >= 0


def test_hedge_values_option():
    from pokerdyn.games import GameError
    cg = compile_game(get_game("kuhn"))
    a = hedge(cg, iterations=2_000, values="conditional")
    b = hedge(cg, iterations=2_000, values="chance")
    assert a.nash_conv < 0.2 and b.nash_conv < 0.2 and a.nash_conv != b.nash_conv
    with pytest.raises(GameError, match="values='reach' not in"):
        hedge(cg, iterations=10, values="reach")
