"""Dynamics of full-street simplified 3-player Kuhn poker (Billingham, arXiv 1707.01392,
sec. 4; issue 14): the ODE model on the frequencies iterated dominance leaves free, the
compiled tangent-flow kernel against scipy, Benettin's estimate at a rest point (it must
equal the largest real part of the Jacobian's eigenvalues), a periodic pot, a chaotic one,
profit rates and the stability of the equilibria."""
from __future__ import annotations

import json
from functools import lru_cache

import numpy as np
import pytest

from pokerdyn.games import GameError, get_game
from pokerdyn.dynamics import ode_model, simulate_ode
from pokerdyn.dynamics.chaos.classify import classify_run, correlation_dimension, section_clusters
from pokerdyn.dynamics.chaos.kernels import polynomial_system
from pokerdyn.dynamics.chaos.lyapunov import largest_lyapunov, random_starts, run_chaos
from pokerdyn.dynamics.chaos.rest_points import find_rest_points, polish
from pokerdyn.cli import main

GAME = "kuhn3-full-simplified"


@lru_cache(maxsize=None)
def model(pot: float):
    return ode_model(get_game(GAME), {"P": pot}, fixed="dominance")


def test_dominance_leaves_thirteen_frequencies():
    m = model(3.0)
    assert m.n == 13 and len(m.meta["fixed"]) == 23
    # J checks or folds by the rules; dominance also fixes that A always calls (round 1)
    assert m.meta["fixed"]["c2_A_b"] == 1 and m.meta["fixed"]["c1_Q_kkb"] == 0
    # no fixed parameter is left in the field, and the payoffs stay zero-sum
    assert not {s.name for e in m.rhs for s in e.free_symbols} - set(m.names)
    y = np.random.default_rng(0).uniform(0.1, 0.9, m.n)
    assert abs(m.payoff(y).sum()) < 1e-12


@pytest.mark.parametrize("fixed, match", [({"nope": 1}, "unknown parameter"),
                                          ({"c2_A_b": 2}, r"\[0, 1\]"),
                                          ("all", "dominance")])
def test_bad_fixed_is_one_clear_error(fixed, match):
    with pytest.raises(GameError, match=match):
        ode_model(get_game(GAME), {"P": 3.0}, fixed=fixed)


def test_kernel_matches_scipy_in_both_coordinates():
    m = model(4.0)
    ps = polynomial_system(m)
    y = np.random.default_rng(1).uniform(0.1, 0.9, m.n)
    np.testing.assert_allclose(ps.field(y), m.f(0, y), atol=1e-15)
    ref = simulate_ode(m, y, 20.0, t_eval=[0.0, 20.0], rtol=1e-12, atol=1e-14)
    for coords in ("x", "logit"):
        r = run_chaos(m, y, 20.0, dt_out=20.0, rtol=1e-11, atol=1e-13, coords=coords)
        np.testing.assert_allclose(r.trajectory.states[-1], ref.states[-1], atol=1e-8)
        np.testing.assert_allclose(r.trajectory.payoffs[-1], ref.payoffs[-1], atol=1e-8)


@lru_cache(maxsize=None)
def nash_point(pot: float):
    m = model(pot)
    pts = find_rest_points(get_game(GAME), m, n_starts=1, interior_starts=0)
    assert pts, "CFR+ found no equilibrium to polish"
    return pts[0]


def test_equilibrium_is_a_rest_point_and_not_asymptotically_stable():
    # Billingham: no equilibrium of the game is asymptotically stable under the ODE
    p = nash_point(4.0)
    assert p.nash and p.residual < 1e-12
    assert p.max_real > 1e-3 and not p.stable()
    # payoffs of a zero-sum game
    assert abs(p.payoffs.sum()) < 1e-12


def test_benettin_at_a_rest_point_is_the_largest_eigenvalue_real_part():
    p = nash_point(4.0)
    m = model(4.0)
    r = run_chaos(m, p.x, 1500.0, t_skip=300.0, coords="x", rtol=1e-11, atol=1e-13)
    assert np.max(np.abs(r.trajectory.states[-1] - p.x)) < 1e-12  # stays at rest
    assert r.exponent == pytest.approx(p.max_real, abs=2e-3)


def test_periodic_pot_returns_to_one_section_point():
    # P = 2.5: every seeded start settles on one cycle of period ~29.5
    m = model(2.5)
    r = run_chaos(m, random_starts(m, 1, seed=0)[0], 1500.0, 300.0,
                  section=("b3_Q", 0.5))
    c = classify_run(r)
    assert c.kind == "periodic" and c.clusters == 1
    assert c.period == pytest.approx(29.5, abs=0.3)
    assert abs(c.exponent) < 3e-3
    # profit rates of the zero-sum game sum to zero; players 1 and 2 lose alike
    assert abs(r.profit_rates.sum()) < 1e-9
    assert r.profit_rates[0] == pytest.approx(r.profit_rates[1], abs=1e-3)


def test_chaotic_pot_has_a_positive_converging_exponent():
    m = model(6.0)
    r = run_chaos(m, random_starts(m, 1, seed=0)[0], 4000.0, 800.0)
    assert r.exponent > 5e-3
    assert r.spread() < 0.5 * r.exponent


def test_seeded_runs_replay_exactly():
    m = model(2.5)
    a = largest_lyapunov(m, 2, seed=3, t_end=200.0, t_skip=50.0)
    b = largest_lyapunov(m, 2, seed=3, t_end=200.0, t_skip=50.0)
    assert np.array_equal(a.exponents, b.exponents) and np.array_equal(a.starts, b.starts)


def test_section_classifiers_on_known_sets():
    rng = np.random.default_rng(0)
    three = np.repeat(rng.uniform(size=(3, 4)), 20, axis=0) + 1e-7
    assert section_clusters(three) == 3
    th = rng.uniform(0, 2 * np.pi, 600)
    circle = np.column_stack([np.cos(th), np.sin(th), np.zeros_like(th)])
    assert correlation_dimension(circle) == pytest.approx(1.0, abs=0.2)
    cloud = rng.uniform(size=(600, 3))
    assert correlation_dimension(cloud) > 2.3


def test_polish_rejects_a_point_that_is_not_at_rest():
    m = model(4.0)
    assert polish(m, np.full(m.n, 0.5), snap=0.6) is not None  # the centre vertex rounds
    assert polish(m, np.full(m.n, 0.5), snap=1e-3, tol=-1.0) is None


def test_cli_lyapunov_json(capsys):
    rc = main(["lyapunov", GAME, "--pot", "2.5", "--starts", "1", "--t-end", "300",
               "--section", "b3_Q=0.5", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and len(out["free"]) == 13
    assert out["runs"][0]["section"] == ["b3_Q", 0.5]
    assert abs(sum(out["runs"][0]["profit_rates"])) < 1e-9


@pytest.mark.parametrize("argv, word", [
    (["--pot", "2.5", "--section", "x9=0.5"], "section"),
    (["--pot", "2.5", "--section", "b3_Q=1.5"], "section"),
    (["--pot", "-1"], "pot"),
    (["--pot", "2.5", "--t-end", "0"], "t-end"),
    (["--pot", "2.5", "--starts", "0"], "starts"),
])
def test_cli_lyapunov_bad_input_is_one_line(capsys, argv, word):
    try:
        rc = main(["lyapunov", GAME, "--t-end", "10", *argv])
    except SystemExit as e:
        rc = e.code
    err = capsys.readouterr().err.strip()
    assert rc == 2 and "\n" not in err and word in err


def test_figure_renders_quick(tmp_path):
    from pokerdyn.figures.frontier.full_street_dynamics import main as figure

    res = figure(tmp_path, seed=0, quick=True)
    assert all(f.exists() for f in res.files)
    periodic, irregular = res.numbers["P = 2.5"], res.numbers["P = 6"]
    assert periodic["kinds"] == ["periodic"] and periodic["section clusters"] == [1]
    assert irregular["section clusters"][0] > 10 and irregular["lyapunov"][0] > 0
    # the committed long runs (benchmarks/full_street_long_runs.py): P = 3, start 0 has a
    # converged positive exponent over t = 3e5; P = 6, start 1 is regular
    long = res.numbers["long runs"]
    verdict, lam, err = long["P = 3 start 0 t = 300000 rtol 1e-09 tau 1"]
    assert verdict == "chaotic (converged)" and lam > 10 * err > 0
    assert long["P = 6 start 1 t = 500000 rtol 1e-09 tau 1"][0] == "regular"


def test_periodic_orbit_closes_with_neutral_floquet_multipliers():
    # P = 2.5: after the transient the orbit closes (period 29.49) inside the face where
    # six frequencies are interior; six multipliers on the unit circle (the flow and the
    # neighbouring cycles of the family), the others inside it
    from pokerdyn.dynamics import find_cycle

    m = model(2.5)
    x = run_chaos(m, random_starts(m, 1, seed=0)[0], 2000.0).meta["final"]
    c = find_cycle(m, x, ("b3_Q", 0.5), n_returns=1, rtol=1e-10, atol=1e-12)
    assert c.closure < 1e-9 and c.period == pytest.approx(29.4869, abs=1e-3)
    mod = np.abs(c.multipliers)
    assert np.sum(np.abs(mod - 1) < 1e-4) == 6 and np.all(mod[6:] < 0.1)


def test_time_average_finds_the_equilibrium_the_run_earns():
    # P = 5, seed-0 start 0: the run earns (-0.04398, -0.00693, 0.05091), which is not the
    # CFR+ equilibrium (-0.04398, -0.00231, 0.04630); its time average polishes to a second
    # Nash rest point with those payoffs (Billingham: profit rates match an equilibrium)
    from pokerdyn.dynamics.chaos.classify import profit_match, time_average

    m = model(5.0)
    r = run_chaos(m, random_starts(m, 3, seed=0)[0], 3000.0, 600.0)
    pts = find_rest_points(get_game(GAME), m, n_starts=0, interior_starts=0,
                           averages=[time_average(r)])
    j, d = profit_match(r.profit_rates, pts)
    assert j is not None and d < 1e-3
    p = pts[j]
    assert p.nash and p.residual < 1e-12 and not p.stable()
    np.testing.assert_allclose(p.payoffs, [-0.04398, -0.00694, 0.05093], atol=1e-5)


def test_given_profiles_per_pot_are_polished_and_kept():
    # the exact families of the enumeration enter as profiles per pot (names of fixed
    # parameters are ignored); the CFR+ limit at P = 8 stands in for one here
    from pokerdyn.dynamics.chaos.rest_points import nash_profiles, rest_points_along_pot

    g = get_game(GAME)
    prof = nash_profiles(g, {"P": 8.0}, n_starts=1, iterations=3000)[0]
    (at8,) = rest_points_along_pot(g, [8.0], {8.0: [prof]}, n_starts=0, interior_starts=0)
    assert at8.pot == 8.0 and not at8.any_stable
    (p,) = at8.points
    assert p.source == "given" and p.nash
    # Billingham: centre eigenvalues (real part 0), none unstable
    assert abs(p.max_real) < 1e-9 and p.kind().startswith("0 unstable")


@pytest.mark.parametrize("pot", [3.0, 6.0])
def test_flow_preserves_volume_in_logit_coordinates(pot):
    # dx_i/dt = x_i(1 - x_i) h_i(x) with h_i a payoff gradient, multilinear in the
    # frequencies, so h_i does not depend on x_i: in u = logit(x) the field du/dt = h has
    # divergence sum_i dh_i/du_i = 0 (Liouville), so no interior attractor exists
    import sympy as sp

    m = model(pot)
    h = [sp.cancel(r / g) for r, g in zip(m.rhs, m.g)]
    assert all(sp.expand(sp.diff(e, x)) == 0 for e, x in zip(h, m.symbols))


def test_rest_point_eigenvalues_split_into_faces_and_a_traceless_block():
    # at a rest point the Jacobian's face rows are diagonal, (1 - 2v) h_i, and the block of
    # the interior coordinates has trace 0: its eigenvalues sum to 0, so an equilibrium
    # with an interior coordinate has max Re >= 0 and is never asymptotically stable
    from pokerdyn.dynamics.chaos.rest_points import reduced_field

    p = nash_point(4.0)
    m = model(4.0)
    J = m.jac(0.0, p.x)
    face = (p.x == 0.0) | (p.x == 1.0)
    inner = np.ix_(~face, ~face)
    assert face.any() and (~face).any()
    assert abs(np.trace(J[inner])) < 1e-12
    lam = np.linalg.eigvals(J[inner])
    assert abs(lam.sum()) < 1e-10 and lam.real.max() >= -1e-12
    hv = reduced_field(m)[0](p.x)
    np.testing.assert_allclose(np.diag(J)[face], ((1 - 2 * p.x) * hv)[face], atol=1e-14)
    np.testing.assert_allclose(J[np.ix_(face, ~face)], 0.0, atol=1e-14)


def test_p4_runs_earn_the_payoffs_of_an_exact_equilibrium_family():
    # P = 4, seed-0 start 0: the run earns (-0.05, 0, 0.05); its time average polishes to a
    # rest point just outside an exact equilibrium family (b1_Q's gain +8e-4 there), whose
    # support, solved exactly, is a certified family with payoffs (-1/20, 0, 1/20) and free
    # c3_K_bf, c2_K_b (CFR+ finds only the isolated equilibrium (-31/600, 1/200, 7/150))
    import sympy as sp

    from pokerdyn.dynamics.chaos.classify import time_average
    from pokerdyn.solvers.symbolic.learned.equilibrium_set import equilibrium_set
    from pokerdyn.solvers.symbolic.learned.propose import LearnedProfile

    m = model(4.0)
    r = run_chaos(m, random_starts(m, 3, seed=0)[0], 6000.0, 1200.0)
    np.testing.assert_allclose(r.profit_rates, [-0.05, 0.0, 0.05], atol=5e-4)
    (p,) = find_rest_points(get_game(GAME), m, n_starts=0, interior_starts=0,
                            averages=[time_average(r)])
    assert not p.nash
    fixed = {k: float(v) for k, v in m.meta["fixed"].items()}
    res = equilibrium_set(get_game(GAME), sp.Integer(4), rounds=0,
                          runs=[LearnedProfile("ode", 0, {**fixed, **p.point}, 0.0, 0)])
    (fam,) = res.families
    assert fam.payoffs == (sp.Rational(-1, 20), 0, sp.Rational(1, 20))
    assert set(fam.family.free) == {"c3_K_bf", "c2_K_b"} and res.distances[0][0] < 1e-3
