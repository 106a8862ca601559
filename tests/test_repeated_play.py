"""Repeated play of SKP (Billingham section 4.2): update rules from the payoff gradient,
ex-showdown payoffs in the 12-deal convention, reproducibility and bad input."""
import json
import subprocess
import sys

import numpy as np
import pytest
import sympy as sp

from pokerdyn.dynamics.play.observation import observation_model
from pokerdyn.dynamics.play.tables import gradient_terms, payoff_gradients, tree_tables
from pokerdyn.dynamics.play.repeated import estimator_study, simulate
from pokerdyn.dynamics.skp_points import skp_point
from pokerdyn.games import GameError, get_game, param_symbols

G = get_game("skp")
S = param_symbols(G)
b, c, d = S["b_J"], S["c_K"], S["d_Q"]


def eq16(P):
    """Billingham (16): ex-showdown expectations at Solution 2."""
    return (-(P - 2) / (12 * P), -(P - 1) * (P - 2) / (12 * P * (P + 1)), (P - 2) / (6 * (P + 1)))


@pytest.mark.parametrize("P", [9, 7, sp.Rational(41, 3)])
def test_gradients_are_billingham_27_29(P):
    """The normalised payoff gradients are the brackets of Billingham (27)-(29)."""
    g = payoff_gradients(G, {"P": P})
    assert sp.expand(g["b_J"] - ((P - 5) / (P + 1) - d - c + d * c)) == 0  # (27)
    assert sp.expand(g["c_K"] - (b - sp.Rational(2) / P)) == 0  # (28)
    assert sp.expand(g["d_Q"] - ((c - 2) / (P + 1) + b * (1 - c))) == 0  # (29)


def test_gradient_terms_are_billingham_27_29_in_both_kernel_forms():
    """One gradient-terms function serves both kernels: its sparse monomials (agent kernel)
    and their fixed-shape ``c0 + c1 u + c2 w + c3 u w`` form (repeated-play kernel) both
    rebuild the brackets of Billingham (27)-(29) at P = 9."""
    terms = gradient_terms(G, {"P": 9})
    syms = [b, c, d, sp.Integer(1)]  # the padding variable m reads the constant 1
    P = sp.Integer(9)
    want = [(P - 5) / (P + 1) - d - c + d * c, b - 2 / P, (c - 2) / (P + 1) + b * (1 - c)]
    g_vars, g_coef = terms.multilinear(2)
    for j in range(3):
        sparse = sum(sp.nsimplify(terms.coef[q]) * sp.Mul(*[syms[v] for v in terms.vars[q]])
                     for q in range(terms.start[j], terms.start[j + 1]))
        u, w = syms[g_vars[j, 0]], syms[g_vars[j, 1]]
        dense = sum(sp.nsimplify(cf) * m for cf, m in zip(g_coef[j], (1, u, w, u * w)))
        assert sp.expand(sparse - want[j]) == 0 and sp.expand(dense - want[j]) == 0
    with pytest.raises(GameError, match="reads 2 parameters"):
        terms.multilinear(1)


def test_exshowdown_12_deals_is_twice_eq16_exactly():
    """Mean ex-showdown payoff over the 12 simulated deals at S2 = 2 x Billingham (16)."""
    P = sp.Integer(9)
    tabs = tree_tables(G, {"P": 9.0}, 12)
    om = observation_model(G)
    s2 = {b: 2 / P, c: (P - 5) / (P + 1), d: 0}
    deals = {int(om.outcomes[t].deal_index) for t in tabs.table.ravel()}
    assert len(deals) == 12 and all(om.deal_labels[i][2] in "AJ" for i in deals)
    for p in range(3):
        total = sum(o.prob.subs(s2) * sp.nsimplify(tabs.exshow[o.terminal, p])
                    for o in om.outcomes if o.deal_index in deals) / 12
        assert sp.nsimplify(total) == 2 * eq16(P)[p]


@pytest.mark.parametrize("deals,factor", [(12, 2), (24, 1)])
def test_mean_payoffs_at_S2_converge_to_twice_eq16(deals, factor):
    """k = 0, frequencies at S2, P = 9: the simulated mean ex-showdown payoffs are within 3
    standard errors (i.i.d. rounds) of twice Billingham (16) with the paper's 12 deals, and
    of (16) itself with all 24."""
    s2 = skp_point("S2", 9.0)
    n = 2_000_000
    r = simulate(pot=9.0, k=0.0, L=6, rounds=n, init=[s2["b_J"], s2["c_K"], s2["d_Q"]], seed=4,
                 n_points=1, deals=deals)
    tabs = tree_tables(G, {"P": 9.0}, 12)
    expected = np.array([float(v) * factor for v in eq16(sp.Integer(9))])
    # per-round variance of the ex-showdown payoff, from the exact terminal probabilities
    om = observation_model(G)
    sub = {b: s2["b_J"], c: s2["c_K"], d: s2["d_Q"]}
    dealt = {int(om.outcomes[t].deal_index) for t in tabs.table.ravel()}
    pr = np.array([float(o.prob.subs(sub)) / 12 if o.deal_index in dealt else 0.0
                   for o in om.outcomes]) * factor / 2  # 24 deals: the rest have exshow 0
    var = pr @ tabs.exshow ** 2 - (pr @ tabs.exshow) ** 2
    se = np.sqrt(var / n)
    assert np.all(np.abs(np.asarray(r.mean_payoffs) - expected) < 3 * se), \
        (r.mean_payoffs, expected, se)


def test_same_seed_bit_identical_and_seed_matters():
    kw = dict(pot=9.0, k=0.01, L=(6, 12, 24), rounds=300_000, n_points=50)
    r1 = simulate(seed=7, **kw)
    r2 = simulate(seed=np.random.SeedSequence(7), **kw)
    r3 = simulate(seed=8, **kw)
    for a in ("frequencies", "estimates", "stacks", "running_payoffs"):
        assert np.array_equal(getattr(r1, a), getattr(r2, a))
    assert r1.mean_payoffs == r2.mean_payoffs and r1.final == r2.final
    assert not np.array_equal(r1.frequencies, r3.frequencies)


def test_frequencies_stay_in_unit_cube_and_only_adaptive_players_move():
    """k_p = 0 freezes player p's frequency; clipping keeps every frequency in [0, 1]."""
    r = simulate(pot=9.0, k=(0.5, 0.0, 0.0), L=6, rounds=50_000, init=(0.3, 0.5, 0.4),
                 n_points=100)
    f = r.frequencies
    assert np.all((f >= 0) & (f <= 1))
    assert np.all(f[:, 0] == 0.3) and np.all(f[:, 2] == 0.4)  # b_J (P3), d_Q (P2) fixed
    assert len(np.unique(f[:, 1])) > 2  # c_K (P1) adapts
    assert r.times[-1] == 50_000 and r.stacks.shape == (100, 3)
    assert np.allclose(r.stacks.sum(axis=1), 0)  # chips are conserved


def test_result_json():
    r = simulate(rounds=10_000, n_points=10)
    js = r.to_json()
    assert set(js) == {"rounds", "seconds", "rounds_per_second", "mean_payoffs", "final"}
    assert set(js["final"]) == {"b_J", "c_K", "d_Q"} and len(js["mean_payoffs"]) == 3
    json.dumps(js)


@pytest.mark.parametrize("kw,match", [
    (dict(L=0), r"L=0 is outside the allowed range \[1"),
    (dict(L=(6, 6)), "1 or 3 values"),
    (dict(k=-0.1), r"k=-0.1 is outside the allowed range \[0"),
    (dict(init=(0.2, 1.5, 0.1)), r"1.5 is outside the allowed range \[0, 1\]"),
    (dict(init=(0.2, -0.5, 0.1)), r"-0.5 is outside the allowed range \[0"),
    (dict(deals=13), "deals=13 is not allowed"),
    (dict(estimator="best"), "unknown estimator"),
    (dict(rounds=0), "rounds=0"),
])
def test_bad_input(kw, match):
    with pytest.raises(GameError, match=match):
        simulate(**{"rounds": 1000, **kw})


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "pokerdyn", *args], capture_output=True,
                          text=True)


def test_cli_simulate_json_and_errors():
    out = _cli("simulate", "skp", "--pot", "9", "--k", "0.001", "--L", "6", "--rounds", "20000",
               "--json")
    assert out.returncode == 0, out.stderr
    js = json.loads(out.stdout)
    assert list(js) == ["rounds", "seconds", "rounds_per_second", "mean_payoffs", "final"]
    bad = _cli("simulate", "skp", "--L", "0")
    assert bad.returncode == 2 and "L=0" in bad.stderr and len(bad.stderr.splitlines()) == 1


@pytest.mark.parametrize("command", [("simulate", "skp", "--rounds", "20000"),
                                     ("estimators", "skp", "--L", "24", "--rounds", "20000",
                                      "--discard", "1000")])
def test_cli_estimator_corrected_and_unknown(command):
    """``--estimator corrected`` (Billingham (44), (45), (47), (46) with its denominator
    corrected) runs and differs from ``paper``; an unknown name is one stderr line naming it
    and the allowed ones, exit 2, nothing on stdout."""
    out = {e: _cli(*command, "--estimator", e, "--json") for e in ("corrected", "paper")}
    for e, o in out.items():
        assert o.returncode == 0, (e, o.stderr)
    js = {e: {k: v for k, v in json.loads(o.stdout).items() if "second" not in k}
          for e, o in out.items()}  # timings aside
    assert js["corrected"] != js["paper"]
    bad = _cli(*command, "--estimator", "binomial")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip().splitlines() == [
        "pokerdyn: error: unknown estimator 'binomial'; allowed: unbiased, paper, corrected, ml"]


def test_estimator_study_seed_sequence_not_consumed():
    ss = np.random.SeedSequence(11)
    a = estimator_study(L=(24,), rounds=20_000, discard=1_000, seed=ss)
    b = estimator_study(L=(24,), rounds=20_000, discard=1_000, seed=ss)
    assert np.array_equal(a.mean, b.mean) and ss.n_children_spawned == 0


def test_cli_estimators_bad_point():
    bad = _cli("estimators", "skp", "--pot", "6", "--at", "S3", "--rounds", "1000")
    assert bad.returncode == 2 and "S3" in bad.stderr and "P*" in bad.stderr


def test_cli_estimators_json():
    out = _cli("estimators", "skp", "--at", "S3", "--L", "24,48", "--rounds", "60000",
               "--discard", "1000", "--json")
    assert out.returncode == 0, out.stderr
    js = json.loads(out.stdout)
    assert js["L"] == [24, 48] and abs(js["estimators"]["c_K@P3"]["truth"] - 2 / 11) < 1e-12


from hypothesis import given, settings, strategies as st  # noqa: E402

from pokerdyn.games import compile_game  # noqa: E402
from pokerdyn.dynamics.play.tables import checkdown_payoffs  # noqa: E402
from pokerdyn.solvers.symbolic.model.payoffs import symbolic_payoffs

_PROBS = None


def _terminal_probs():
    global _PROBS
    if _PROBS is None:
        om = observation_model(G)
        _PROBS = [sp.lambdify((b, c, d), o.prob) for o in om.outcomes]
    return _PROBS


@settings(max_examples=25, deadline=None)
@given(st.floats(0, 1), st.floats(0, 1), st.floats(0, 1))
def test_exshowdown_expectation_matches_symbolic_payoffs(bv, cv, dv):
    """Over all 24 deals the expected ex-showdown payoff equals E_p of the tree (checking
    down is worth 0 on average: Billingham's convention); over the 12 simulated deals it is
    exactly twice that (the other 12 are checked down, ex-showdown 0)."""
    tabs24 = tree_tables(G, {"P": 9.0}, 24)
    om = observation_model(G)
    pr = np.array([f(bv, cv, dv) for f in _terminal_probs()], dtype=float) / 24
    exact = [float(e.subs({b: bv, c: cv, d: dv})) for e in symbolic_payoffs(G, {"P": 9})]
    np.testing.assert_allclose(pr @ tabs24.exshow, exact, atol=1e-12)
    twelve = np.array([om.deal_labels[o.deal_index][2] in "AJ" for o in om.outcomes])
    # the other 12 deals contribute 0, so the 12-deal mean (weights 1/12) is 2 x E_p
    np.testing.assert_allclose((pr * twelve) @ tabs24.exshow, pr @ tabs24.exshow, atol=1e-12)


def test_checkdown_payoffs_from_the_tree():
    """Check-down: the best card takes the three stakes of P/3 (also where SKP forces a bet:
    Player 3 with A), every deal sums to zero."""
    cd = checkdown_payoffs(compile_game(G, P=9))
    om = observation_model(G)
    for i, deal in enumerate(om.deal_labels):
        win = max(range(3), key=lambda q: "JQKA".index(deal[q]))
        assert cd[i, win] == pytest.approx(6.0)
        assert cd[i].sum() == pytest.approx(0.0)


def test_zero_information_windows_keep_the_previous_estimate():
    """L = 1, k = 0: Player 1's estimate of b_J is 1 after a seen J-bet, 0 after a J check
    and otherwise unchanged (starting from the prior = the initial frequency); estimates
    are not clipped (the binomial c_K estimators are 2 N_s / n, in [0, 2])."""
    r = simulate(pot=9.0, k=0.0, L=1, rounds=400, n_points=400, init=(0.3, 0.4, 0.5), seed=3)
    b1 = r.estimates[:, r.estimate_names.index("b_J@P1")]
    assert set(np.unique(b1)) <= {0.0, 0.3, 1.0} and b1[0] in (0.0, 0.3, 1.0)
    first = np.nonzero(b1 != 0.3)[0][0]
    assert np.all(b1[:first] == 0.3) and len(np.unique(b1[first:])) == 2
    c2 = r.estimates[:, r.estimate_names.index("c_K@P2")]
    assert set(np.unique(c2)) <= {0.0, 0.4, 2.0}
