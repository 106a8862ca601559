"""Learning dynamics on compiled games (dynamics.learning): analytic Jacobians, the rest
points of logit dynamics are the logit QRE (both directions), the reach-weighted replicator
is Billingham's gradient dynamics (18) with raw normalisation, and the Hopf point of
Jordan's (1993) matching pennies at lambda = 2."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from pokerdyn.games import GameError, compile_game, get_game
from pokerdyn.dynamics.learning import (branch_stability, learning_model, rest_point,
                               tangent_eigenvalues)
from pokerdyn.dynamics.ode.model import ode_model
from pokerdyn.figures.qre.stability import jordan_game
from pokerdyn.games.catalog.synthetic import layered_game
from pokerdyn.solvers.qre import qre_profiles

CASES = [("kuhn", {}), ("skp", {"P": 9.0}), ("kuhn3-third", {"P": 9.0})]
RULES = [("logit", 3.0, "conditional"), ("smoothed-br", 3.0, "conditional"),
         ("replicator", None, "conditional"), ("replicator", None, "reach")]


def _random_profile(cg, rng):
    s = rng.dirichlet(np.ones(cg.max_actions), cg.n_infosets) * cg.legal + 1e-3 * cg.legal
    return s / s.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("rule,lam,weighting", RULES)
@pytest.mark.parametrize("name,vals", CASES[:2])
def test_jacobian_is_the_derivative_of_the_field(name, vals, rule, lam, weighting):
    cg = compile_game(get_game(name), vals)
    m = learning_model(cg, rule, lam, weighting=weighting)
    y = m.state(_random_profile(cg, np.random.default_rng(3)))
    h = 1e-6
    num = np.array([(m.f(0, y + h * e) - m.f(0, y - h * e)) / (2 * h) for e in np.eye(m.n)]).T
    assert np.abs(m.jac(0, y) - num).max() < 1e-7


@pytest.mark.parametrize("name,vals", CASES)
def test_qre_profiles_are_rest_points_of_logit_and_smoothed_br(name, vals):
    cg = compile_game(get_game(name), vals)
    lams = [0.5, 3.0, 20.0]
    for lam, sigma in zip(lams, qre_profiles(cg, lams)):
        for rule in ("logit", "smoothed-br"):
            m = learning_model(cg, rule, lam)
            assert np.abs(m.f(0, m.state(sigma))).max() < 1e-10


@pytest.mark.parametrize("name,vals", CASES[:2])
def test_rest_points_from_random_starts_are_the_branch_qre(name, vals):
    # the principal branch is the unique QRE at these precisions (no fold on the branch)
    cg = compile_game(get_game(name), vals)
    lams = [1.0, 5.0]
    rng = np.random.default_rng(11)
    for lam, sigma in zip(lams, qre_profiles(cg, lams)):
        m = learning_model(cg, "logit", lam)
        for _ in range(2):
            y = rest_point(m, m.state(_random_profile(cg, rng)), t_end=60.0)
            assert np.abs(y - m.state(sigma)).max() < 1e-10
            assert np.all(tangent_eigenvalues(m, y).real < 0)


@settings(max_examples=6, deadline=None)
@given(rounds=st.integers(1, 2), players=st.integers(2, 3), actions=st.integers(2, 3),
       seed=st.integers(0, 10_000))
def test_random_games_fields_are_tangent_and_qre_are_rest_points(rounds, players, actions,
                                                                 seed):
    """On random games from the core: every field keeps each set's sum (the simplices are
    invariant), the analytic Jacobian is the derivative, and the QRE is a rest point."""
    cg = compile_game(layered_game(rounds, players, actions, 2, seed=seed))
    rng = np.random.default_rng(seed)
    lam = 4.0
    sigma = qre_profiles(cg, [lam])[0]
    for rule, lm, w in RULES:
        m = learning_model(cg, rule, lm if lm is None else lam, weighting=w)
        y = m.state(_random_profile(cg, rng))
        assert np.abs(m.profile(m.f(0, y)).sum(axis=1)).max() < 1e-12
        e = rng.standard_normal(m.n) * 1e-6
        fd = (m.f(0, y + e) - m.f(0, y - e)) / 2
        assert np.abs(m.jac(0, y) @ e - fd).max() < 1e-9 * max(1.0, np.abs(m.jac(0, y)).max())
        if rule != "replicator":
            assert np.abs(m.f(0, m.state(sigma))).max() < 1e-10


def test_smoothed_br_differs_from_logit_only_where_a_player_moves_twice():
    rng = np.random.default_rng(5)
    skp = compile_game(get_game("skp"), {"P": 9.0})      # every player moves once
    y = learning_model(skp, "logit", 2.0).state(_random_profile(skp, rng))
    assert np.abs(learning_model(skp, "logit", 2.0).f(0, y)
                  - learning_model(skp, "smoothed-br", 2.0).f(0, y)).max() < 1e-15
    kuhn = compile_game(get_game("kuhn"))                 # player 1 moves again after k, b
    y = learning_model(kuhn, "logit", 2.0).state(_random_profile(kuhn, rng))
    assert np.abs(learning_model(kuhn, "logit", 2.0).f(0, y)
                  - learning_model(kuhn, "smoothed-br", 2.0).f(0, y)).max() > 1e-3


def test_reach_replicator_is_billingham_gradient_dynamics_raw():
    """Billingham (18) with g = x(1 - x), f = identity, s_x = 1 on SKP's three two-action
    sets: dx/dt = x(1 - x) dE_p/dx, the replicator with reach-weighted values."""
    game = get_game("skp")
    cg = compile_game(game, {"P": 9.0})
    rep = learning_model(cg, "replicator", weighting="reach")
    ode = ode_model(game, {"P": 9}, normalisation="raw")
    rng = np.random.default_rng(2)
    for _ in range(5):
        x = rng.random(3)
        sigma = cg.legal.astype(float)
        for name, val in zip(ode.names, x):
            p = next(q for q in game.named if q.name == name)
            I = game.infoset_index(p.infoset)
            a = game.infosets[I].actions.index(p.action)
            sigma[I] = 0.0
            sigma[I, a], sigma[I, 1 - a] = val, 1.0 - val
        F = rep.profile(rep.f(0, rep.state(sigma)))
        got = [F[game.infoset_index(p.infoset),
                 game.infosets[game.infoset_index(p.infoset)].actions.index(p.action)]
               for p in game.named]
        assert np.allclose(got, ode.f(0, x), atol=1e-12)


def test_jordan_pennies_hopf_at_lambda_2():
    """J = -1 + lam C at the uniform QRE, C^3 = -1: Re(lam e^{i pi/3}) = 1 at lam = 2."""
    st = branch_stability(compile_game(jordan_game()), max_lambda=20.0)
    assert len(st.crossings) == 1
    c = st.crossings[0]
    assert c["kind"] == "hopf" and c["direction"] == "loses stability"
    assert abs(c["lambda"] - 2.0) < 1e-8
    assert abs(c["imag"] - 2.0 * np.sin(np.pi / 3)) < 0.5      # |Im| = lam sin(pi/3) there
    kuhn = branch_stability(compile_game(get_game("kuhn")), max_lambda=100.0)
    assert kuhn.crossings == () and kuhn.stable.all()


def test_jordan_pennies_settles_below_and_cycles_beyond_the_hopf_point():
    """Integrated by dynamics.ode.solve.simulate, as the adaptive-play ODE models are."""
    from pokerdyn.dynamics.ode.solve import simulate
    cg = compile_game(jordan_game())
    amp = {}
    for lam in (1.5, 4.0):
        m = learning_model(cg, "logit", lam)
        y0 = m.uniform() + np.array([0.05, -0.05, 0.0, 0.0, 0.0, 0.0])
        tr = simulate(m, y0, 80.0, t_eval=np.linspace(60.0, 80.0, 201), rtol=1e-8, atol=1e-10)
        amp[lam] = float(np.abs(tr.states - 0.5).max())
        assert np.allclose(tr.states[:, 0::2] + tr.states[:, 1::2], 1.0, atol=1e-8)
    assert amp[1.5] < 1e-3 and amp[4.0] > 0.1


def test_bad_input():
    cg = compile_game(get_game("kuhn"))
    with pytest.raises(GameError, match="lambda"):
        learning_model(cg, "logit", 0.0)
    with pytest.raises(GameError, match="unknown learning rule"):
        learning_model(cg, "fictitious")
    with pytest.raises(GameError, match="k="):
        learning_model(cg, "logit", 1.0, k=-1)


def test_figure_qre_stability_quick(tmp_path):
    from pokerdyn.figures.qre.stability import main
    res = main(tmp_path, seed=0, quick=True)
    assert all(p.exists() for p in res.files)
    assert abs(res.numbers["jordan-pennies_crossings"][0] - 2.0) < 1e-8
    assert res.numbers["kuhn_crossings"] == [] and res.numbers["kuhn_max_leading_real"] < 0


def test_payoff_gradient_and_implicit_integration_by_dynamics_ode_solve():
    from pokerdyn.dynamics.ode.solve import simulate
    cg = compile_game(get_game("kuhn"))
    m = learning_model(cg, "logit", 3.0)
    y = m.state(_random_profile(cg, np.random.default_rng(8)))
    h = 1e-6
    num = np.array([(m.payoff(y + h * e) - m.payoff(y - h * e)) / (2 * h)
                    for e in np.eye(m.n)]).T
    assert np.abs(m.payoff_gradient(y) - num).max() < 1e-8
    tr = simulate(m, y, 40.0, method="Radau")            # uses jac and payoff_gradient
    assert np.abs(tr.states[-1] - m.state(qre_profiles(cg, [3.0])[0])).max() < 1e-6
    assert np.allclose(tr.payoffs[-1].sum(), 0.0, atol=1e-9)     # zero-sum, integrated
