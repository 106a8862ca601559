"""ODE model generation (Billingham sec. 4.1): the generated skp model is exactly eqs.
(21)-(23), payoff integrals are eqs. (24)-(26), and bad input is refused clearly."""
from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from scipy.integrate import trapezoid
from hypothesis import given, settings, strategies as st

from pokerdyn.games import GameError, get_game
from pokerdyn.dynamics import ode_model, ode_rhs, simulate_batch
from pokerdyn.dynamics import simulate_ode as simulate

P, k1, k2, k3 = sp.symbols("P k1 k2 k3", positive=True)
bJ, cK, dQ = sp.symbols("b_J c_K d_Q", real=True)


@pytest.fixture(scope="module")
def skp():
    return get_game("skp")


@pytest.fixture(scope="module")
def m9(skp):
    return ode_model(skp, {"P": 9})


def _with_P(expr):
    """Use the test's positive P in place of the game's P symbol."""
    return expr.subs({s: P for s in expr.free_symbols if s.name == "P"})


def test_skp_model_is_billingham_21_to_23(skp):
    xs, rhs, info = ode_rhs(skp, k=(k1, k2, k3))
    assert [x.name for x in xs] == ["b_J", "c_K", "d_Q"]
    # Billingham eqs. (21)-(23), typed from the paper
    paper = [k3 * bJ * (1 - bJ) * ((P - 5) / (P + 1) - dQ - cK + dQ * cK),
             k1 * cK * (1 - cK) * (bJ - 2 / P),
             k2 * dQ * (1 - dQ) * ((cK - 2) / (P + 1) + bJ * (1 - cK))]
    for got, want in zip(rhs, paper):
        assert sp.simplify(_with_P(got) - want) == 0
    # the 'paper' normalisation is 24/(P+1), 24/P, 24/(P+1) (gradient made monic)
    assert [sp.simplify(_with_P(s) - w) for s, w in
            zip(info["scale"], (24 / (P + 1), 24 / P, 24 / (P + 1)))] == [0, 0, 0]


def test_jacobians_are_derived_on_first_use():
    """The model is built without its Jacobians; the lazy ones are the exact derivatives,
    and their compiled forms agree with them at a random point."""
    fresh = ode_model(get_game("skp"), {"P": 9})
    assert "jacobian" not in fresh.__dict__ and "_jac" not in fresh.__dict__
    J = fresh.jacobian
    assert J == sp.Matrix(fresh.rhs).jacobian(fresh.symbols)
    y = np.array([0.3, 0.6, 0.2])
    at = dict(zip(fresh.symbols, map(sp.Rational, ("3/10", "3/5", "1/5"))))
    assert np.allclose(fresh.jac(0.0, y), np.array(J.subs(at), dtype=float), atol=1e-14)
    dpay = sp.Matrix(fresh.payoffs).jacobian(fresh.symbols).subs(at)
    assert np.allclose(fresh.payoff_gradient(y), np.array(dpay, dtype=float), atol=1e-14)


def test_raw_normalisation_is_plain_gradient(skp):
    _, rhs, _ = ode_rhs(skp, k=(k1, k2, k3), normalisation="raw")
    # Billingham (38): 24 E1 = c_K (P b_J - 2) - (P - 2) b_J, so dE1/dc_K = (P b_J - 2)/24
    assert sp.simplify(_with_P(rhs[1]) - k1 * cK * (1 - cK) * (P * bJ - 2) / 24) == 0


def test_custom_g_and_f(skp):
    x = sp.Symbol("x")
    _, rhs, _ = ode_rhs(skp, g=x**2 * (1 - x), f=sp.tanh, values={"P": 9})
    assert sp.simplify(rhs[1] - cK**2 * (1 - cK) * sp.tanh(bJ - sp.Rational(2, 9))) == 0
    m = ode_model(skp, {"P": 9}, g=lambda z: z * (1 - z), f=lambda z: 3 * z)
    base = ode_model(skp, {"P": 9})
    y = np.array([0.3, 0.2, 0.1])
    assert np.allclose(m.f(0, y), 3 * base.f(0, y), rtol=1e-14)


def test_payoff_integrals_are_billingham_24_to_26(m9):
    # integrands of Billingham eqs. (24)-(26) (identical to (38)-(40)), divided by 24
    Pv = 9
    printed = [(cK * (Pv * bJ - 2) - (Pv - 2) * bJ) / 24,
               (dQ * (cK - 2 + bJ * (1 - cK) * (Pv + 1)) + bJ * (cK + 3) - 2) / 24,
               (bJ * (Pv - 5 - (Pv + 1) * (dQ + (1 - dQ) * cK)) + 2 * cK + (2 - cK) * dQ + 2)
               / 24]
    for e, w in zip(m9.payoffs, printed):
        assert sp.expand(e - w) == 0
    tr = simulate(m9, [0.3, 0.2, 0.1], 60.0, t_eval=np.linspace(0, 60, 6001))
    f = sp.lambdify((bJ, cK, dQ), printed, "numpy")
    rates = np.array(f(*tr.states.T))
    quad = trapezoid(rates, tr.times, axis=1)
    assert np.allclose(tr.payoffs[-1], quad, rtol=0, atol=1e-7)
    assert tr.meta["payoffs"] == "cumulative"


def test_batch_matches_single(m9):
    rng = np.random.default_rng(1)
    Y = rng.uniform(0.05, 0.95, (5, 3))
    t = np.linspace(0, 50, 11)
    trs = simulate_batch(m9, Y, 50.0, t_eval=t, rtol=1e-11, atol=1e-13)
    for y0, tb in zip(Y, trs):
        ts = simulate(m9, y0, 50.0, t_eval=t, rtol=1e-11, atol=1e-13)
        assert np.allclose(tb.states, ts.states, atol=1e-8)
        assert np.allclose(tb.payoffs, ts.payoffs, atol=1e-8)


def test_kuhn_nash_equilibrium_is_rest_point():
    """Any Nash equilibrium is a rest point: interior frequencies are indifferent, the
    others sit on invariant faces.  Two-player Kuhn, alpha = 1/6 (Kuhn 1950)."""
    game = get_game("kuhn")
    xs, rhs, _ = ode_rhs(game)
    a = sp.Rational(1, 6)
    nash = {"b1_J": a, "c1_J": 0, "b1_Q": 0, "c1_Q": a + sp.Rational(1, 3), "b1_K": 3 * a,
            "c1_K": 1, "b2_J": sp.Rational(1, 3), "c2_J": 0, "b2_Q": 0,
            "c2_Q": sp.Rational(1, 3), "b2_K": 1, "c2_K": 1}
    sub = {x: nash[x.name] for x in xs}
    assert [sp.simplify(r.subs(sub)) for r in rhs] == [0] * len(rhs)


@settings(max_examples=25, deadline=None)
@given(st.fractions(min_value=5, max_value=30).filter(lambda p: p > 5),
       st.sampled_from([0, 1]), st.integers(0, 2),
       st.lists(st.fractions(0, 1), min_size=3, max_size=3))
def test_faces_are_invariant_and_S1_S2_rest(pot, v, i, pt):
    game = get_game("skp")
    xs, rhs, _ = ode_rhs(game, values={"P": sp.Rational(pot)})
    Pv = sp.Rational(pot)
    pt = [sp.Rational(q) for q in pt]
    pt[i] = v
    assert rhs[i].subs(dict(zip(xs, pt))) == 0          # face x_i = v is invariant
    S1 = (2 / (Pv + 1), 0, (Pv - 5) / (Pv + 1))          # Billingham (12)
    S2 = (2 / Pv, (Pv - 5) / (Pv + 1), 0)                # Billingham (13)
    for S in (S1, S2):
        assert [sp.simplify(r.subs(dict(zip(xs, S)))) for r in rhs] == [0, 0, 0]


def test_bad_input(skp, m9):
    with pytest.raises(GameError, match="rates must be > 0"):
        ode_model(skp, {"P": 9}, k=0)
    with pytest.raises(GameError, match="rates must be > 0"):
        ode_model(skp, {"P": 9}, k=(1, -2, 1))
    with pytest.raises(GameError, match="one value per player"):
        ode_model(skp, {"P": 9}, k=(1, 2))
    with pytest.raises(GameError, match=r"c_K=1.5 is outside the allowed range \[0, 1\]"):
        simulate(m9, [0.2, 1.5, 0.1], 10.0)
    with pytest.raises(GameError, match="needs values for P"):
        ode_model(skp)
    with pytest.raises(GameError, match="sympy"):
        ode_model(skp, {"P": 9}, g=lambda z: np.exp(z))
    with pytest.warns(UserWarning, match="not invariant"):
        ode_model(skp, {"P": 9}, g=lambda z: 1 + z * (1 - z))
    with pytest.warns(UserWarning, match="not non-decreasing"):
        ode_model(skp, {"P": 9}, f=lambda z: -z)


def test_trajectory_shape_checks():
    from pokerdyn.dynamics import Trajectory
    tr = Trajectory(np.arange(3.0), np.zeros((3, 2)), ("a", "b"), np.ones((3, 1)), {"k": 1})
    assert tr.final == {"a": 0.0, "b": 0.0} and len(tr) == 3
    with pytest.raises(ValueError, match="states must have shape"):
        Trajectory(np.arange(3.0), np.zeros((3, 3)), ("a", "b"))
    with pytest.raises(ValueError, match="payoffs must have shape"):
        Trajectory(np.arange(3.0), np.zeros((3, 2)), ("a", "b"), np.zeros((2, 1)))
    with pytest.raises(KeyError, match="unknown parameter"):
        tr.column("z")
