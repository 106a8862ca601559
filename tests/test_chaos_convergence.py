"""Convergence of Benettin's largest-Lyapunov estimate (dynamics.chaos.convergence): the
Lorenz system's exponent, a limit cycle's 0, a transient that ends on a regular orbit, a
drifting estimate that must not pass as converged."""
from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings, strategies as st

from pokerdyn.games import GameError, get_game
from pokerdyn.dynamics import ode_model
from pokerdyn.dynamics.chaos.convergence import lyapunov_convergence, window_exponents
from pokerdyn.dynamics.chaos.kernels import polynomial_field, tangent_log_growth
from pokerdyn.dynamics.chaos.lyapunov import random_starts, run_chaos

x, y, z = sp.symbols("x y z")


def test_lorenz_largest_exponent_converges_to_the_published_value():
    # Lorenz (sigma, rho, beta) = (10, 28, 8/3): largest exponent 0.9056 (Sprott, Chaos and
    # Time-Series Analysis, 2003, table A.1)
    ps = polynomial_field((x, y, z), (10 * (y - x), x * (28 - z) - y,
                                      x * y - sp.Rational(8, 3) * z))
    t, logs, t0 = tangent_log_growth(ps, [1.0, 1.0, 20.0], 500.0, t_skip=20.0)
    c = lyapunov_convergence(t, logs, t0, n_windows=20)
    assert c.estimate == pytest.approx(0.9056, rel=0.02)
    assert c.running == pytest.approx(0.9056, rel=0.02)
    assert c.converged and c.positive and c.verdict() == "chaotic (converged)"
    assert 0 < c.stderr < 0.05 and c.transient_end is None


def test_limit_cycle_exponent_is_zero():
    # Hopf normal form: the unit circle attracts; exponents 0 (along the flow) and -2
    ps = polynomial_field((x, y), (x - y - x * (x**2 + y**2), x + y - y * (x**2 + y**2)))
    t, logs, t0 = tangent_log_growth(ps, [0.3, 0.1], 200.0, t_skip=20.0)
    c = lyapunov_convergence(t, logs, t0, n_windows=20)
    assert abs(c.estimate) < 1e-6 and abs(c.running) < 1e-3
    assert not c.positive and c.verdict() == "regular"


def test_windows_average_back_to_the_running_estimate():
    # exact identity: the time-weighted mean of the windowed exponents is S(T) / (T - t0)
    rng = np.random.default_rng(0)
    t = np.cumsum(rng.uniform(0.5, 1.5, 400)) + 7.0
    logs = np.cumsum(rng.normal(0.01, 0.3, 400))
    left, right, lam = window_exponents(t, logs, 7.0, 10)
    assert np.sum(lam * (right - left)) / (right[-1] - left[0]) == pytest.approx(
        logs[-1] / (t[-1] - 7.0), rel=1e-12)


def test_a_chaotic_transient_ending_on_a_regular_orbit_is_told_apart():
    # growth 0.01 per unit time until t = 6000, none after: a transient of length 6000
    t = np.arange(1.0, 10001.0)
    logs = 0.01 * np.minimum(t, 6000.0)
    c = lyapunov_convergence(t, logs, 0.0, n_windows=20)
    assert c.transient_end == pytest.approx(6000.0)
    assert c.transient_exponent == pytest.approx(0.01)
    assert c.verdict() == "transient, then regular" and not c.positive
    assert c.regular_phases() == [(6000.0, 10000.0)]
    # its running estimate is still clearly positive: 0.006
    assert c.running == pytest.approx(0.006)


def test_a_drifting_estimate_is_not_converged():
    # local rate falling from 0.01 to 0.001 (as the P = 6 windows seemed to): the running
    # estimate stays positive and smooth, but the windows drift
    t = np.arange(1.0, 200001.0)
    rate = 0.01 - 0.009 * t / t[-1]
    c = lyapunov_convergence(t, np.cumsum(rate), 0.0, n_windows=20)
    assert c.running > 0.005 and c.drift < 0
    assert not c.converged and not c.positive and c.verdict() == "not converged"


@settings(max_examples=30, deadline=None)
@given(st.floats(1e-4, 1.0), st.floats(0.0, 100.0), st.integers(4, 40))
def test_constant_growth_is_converged_with_zero_error(rate, t0, n):
    t = np.linspace(t0 + 1.0, t0 + 1000.0, 500)
    c = lyapunov_convergence(t, rate * (t - t0), t0, n_windows=n)
    assert c.estimate == pytest.approx(rate, rel=1e-9)
    assert c.stderr < 1e-9 * rate and abs(c.drift) < 1e-8 * rate and c.positive


@pytest.mark.parametrize("kw, word", [({"n_windows": 2}, "n_windows"), ({"judge": 0.0}, "judge"),
                                      ({"rel_tol": 0.0}, "rel_tol")])
def test_bad_arguments_name_the_value(kw, word):
    t = np.arange(1.0, 100.0)
    with pytest.raises(GameError, match=word):
        lyapunov_convergence(t, 0.1 * t, 0.0, **kw)


def test_chaos_run_convergence_uses_its_own_counted_time():
    m = ode_model(get_game("kuhn3-full-simplified"), {"P": 6.0}, fixed="dominance")
    r = run_chaos(m, random_starts(m, 1, seed=0)[0], 3000.0, 500.0)
    c = r.convergence(n_windows=10)
    assert c.running == pytest.approx(r.exponent, rel=1e-12)
    assert c.window_left[0] == pytest.approx(r.meta["t_count"])
    assert len(c.window_exponents) == 10 and c.judged == 5


def test_a_step_down_before_the_judged_part_is_not_converged():
    # rate 0.01 for the first half, 0.004 after (flat, noisy): the judged half alone looks
    # converged, the comparison with the early windows (Geweke) does not
    rng = np.random.default_rng(1)
    t = np.arange(1.0, 100001.0)
    rate = np.where(t < 50000, 0.01, 0.004) + rng.normal(0, 0.05, t.size)
    c = lyapunov_convergence(t, np.cumsum(rate), 0.0, n_windows=20)
    assert c.estimate == pytest.approx(0.004, abs=5e-4) and abs(c.drift) < 2e-3
    assert c.shift == pytest.approx(0.006, abs=5e-4) and c.shift_z > 5
    assert not c.converged and c.verdict() == "not converged"
    assert c.regular_phases() == []


def test_constant_growth_with_rounding_level_differences_is_converged():
    # found by the property above in issue 33's third loaded run: every window has the
    # same exponent up to a few ulps, so the judged windows' standard error is exactly 0
    # and the early windows differ by ~1e-16; that is no shift (it gave z = inf, "not
    # converged")
    rate, t0, n = 0.021262303652865605, 73.59235998979756, 7
    t = np.linspace(t0 + 1.0, t0 + 1000.0, 500)
    c = lyapunov_convergence(t, rate * (t - t0), t0, n_windows=n)
    assert c.shift_z == 0.0 and c.converged and c.positive
