"""Agent logit QRE (solvers.qre): the fixed point on every branch point, the Jacobian of the
kernels against central differences, the limits against the published equilibria, and the
CLI's bad input.  The fixed-point identity is McKelvey and Palfrey (1998) eq. (4.1) in
agent form: sigma[I, a] = exp(lam v[I, a]) / sum_b exp(lam v[I, b])."""
from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from pokerdyn.games import GameError, compile_game, get_game
from pokerdyn.games.catalog.synthetic import layered_game
from pokerdyn.games.strategy import params_from_strategy
from pokerdyn.solvers.evaluation import expected_payoffs
from pokerdyn.solvers.qre import (BranchSystem, branch_limit, check_lambda, fixed_point_residual,
                         qre_branch, qre_profiles)
from pokerdyn.solvers.qre.selection import limit_at_pot

CASES = [("kuhn", {}), ("kuhn3", {}), ("skp", {"P": 9}), ("kuhn3-third", {"P": 4}),
         ("kuhn3-third", {"P": 6}), ("kuhn3-third", {"P": 9}), ("river", {})]


def _branch(name, values, tol=1e-6):
    cg = compile_game(get_game(name), values)
    return cg, qre_branch(cg, tol=tol)


@pytest.mark.parametrize("name,values", CASES)
def test_every_branch_point_is_a_logit_fixed_point(name, values):
    cg, br = _branch(name, values)
    assert br.nash_conv[-1] < 1e-6 and br.lambdas[0] == 0.0
    res = np.array([fixed_point_residual(cg, s, lam, lg)
                    for s, lam, lg in zip(br.profiles, br.lambdas, br.logs)])
    # every point, far out included (kuhn3 to lambda 3e5: the refinement of solvers.qre.
    # refine holds the abandoned actions' log-probabilities and solves the live ones)
    assert res.max() < 1e-10
    assert np.all(np.diff(br.lambdas) > 0) or name == "kuhn3"


@pytest.mark.parametrize("name,values", CASES[:3])
def test_branch_jacobian_matches_central_differences(name, values):
    cg = compile_game(get_game(name), values)
    rng = np.random.default_rng(1)
    sig = np.where(cg.legal, rng.random(cg.legal.shape) + 0.1, 0.0)
    sig /= sig.sum(axis=1, keepdims=True)
    S = BranchSystem(cg)
    y = np.append(np.log(sig.ravel()[S.idx]), 2.5)
    _, J = S.jacobian(y)
    num = np.empty_like(J)
    for k in range(y.size):
        e = np.zeros_like(y)
        e[k] = 1e-6
        num[:, k] = (S.residual(y + e) - S.residual(y - e)) / 2e-6
    assert np.abs(J - num).max() < 1e-7


@settings(max_examples=8, deadline=None)
@given(rounds=st.integers(1, 2), players=st.integers(2, 3), actions=st.integers(2, 3),
       seed=st.integers(0, 10_000))
def test_random_games_profiles_are_fixed_points(rounds, players, actions, seed):
    if rounds == 2 and players * actions > 6:   # keep each example small (< 1,000 nodes)
        rounds = 1
    cg = compile_game(layered_game(rounds, players, actions, 2, seed=seed))
    lams = [0.5, 8.0]
    for lam, s in zip(lams, qre_profiles(cg, lams)):
        assert np.allclose(s.sum(axis=1), 1.0, atol=1e-12)
        assert fixed_point_residual(cg, s, lam) < 1e-10


def test_uniform_at_lambda_zero_and_bad_lambda():
    cg, br = _branch("skp", {"P": 9})
    from pokerdyn.games.strategy import uniform_strategy
    assert np.allclose(br.profiles[0], uniform_strategy(cg), atol=1e-15)
    for bad in (0, -1, float("nan"), float("inf"), "x"):
        with pytest.raises(GameError):
            check_lambda(bad)


def test_kuhn_limit_is_an_equilibrium_of_value_minus_one_eighteenth():
    """Kuhn (1950): the game value to player 1 is -1/18 and player 1's equilibria are the
    one-parameter family b1_J = alpha, b1_K = 3 alpha, c1_Q = alpha + 1/3 (alpha in
    [0, 1/3]); the branch limit lies on it with NashConv at rounding level."""
    cg, br = _branch("kuhn", {})
    lim = branch_limit(cg, br)
    assert lim.certified and lim.nash_conv < 1e-12
    assert abs(expected_payoffs(cg, lim.strategy)[0] + 1 / 18) < 1e-12
    p = params_from_strategy(cg, lim.strategy)
    assert 0 < p["b1_J"] < 1 / 3
    assert abs(p["b1_K"] - 3 * p["b1_J"]) < 1e-10 and abs(p["c1_Q"] - p["b1_J"] - 1 / 3) < 1e-10


def test_skp_limit_at_nine_is_billingham_eq_13():
    """Billingham sec. 3, eq. (13): b_J = 2/P, c_K = (P-5)/(P+1), d_Q = 0 at P = 9."""
    pt = limit_at_pot(get_game("skp"), 9.0)
    want = {"b_J": Fraction(2, 9), "c_K": Fraction(2, 5), "d_Q": 0}
    assert all(abs(pt.params[k] - float(v)) < 1e-12 for k, v in want.items())
    assert pt.family is not None and str(dict(pt.family)["b_J"]) == "2/P"


def test_skp_selection_jumps_at_the_critical_pot_five_exactly():
    """Billingham sec. 3: SKP's pure equilibrium is the only one for P < 5 and eqs. (12)-(14)
    exist for P > 5; the branch's selection jumps at P = 5, reported exactly."""
    from pokerdyn.solvers.qre.selection import selection_map
    segs = selection_map(get_game("skp"), 4.5, 5.5, grid=2)
    assert [str(s.high) for s in segs[:-1]] == ["5"]
    assert segs[0].exact_strategy() == {"b_J": 0, "c_K": 0, "d_Q": 0}
    assert str(segs[1].exact_strategy()["b_J"]) == "2/(P + 1)"


def test_kuhn3_third_selects_the_symmetric_point_of_its_continuum():
    """The one-third street game at P = 6 has the continuum b_J = (2 - P b_Q)/P, c_K =
    (P-5)/(P+1), d_K = 1 (free b_Q); the branch's limit is its point b_J = b_Q = 1/P."""
    cg, br = _branch("kuhn3-third", {"P": 6})
    p = params_from_strategy(cg, branch_limit(cg, br).strategy)
    assert abs(p["b_Q"] - 1 / 6) < 1e-9 and abs(p["b_J"] - 1 / 6) < 1e-9
    assert abs(p["c_K"] - 1 / 7) < 1e-9 and abs(p["d_K"] - 1) < 1e-9


def test_fit_rational_recovers_expressions_in_p():
    from pokerdyn.solvers.qre.selection import fit_rational
    P = np.array([5.25, 6.0, 7.5, 8.0, 9.5, 11.0])
    assert str(fit_rational(P, 1 / P)) == "1/P"
    assert str(fit_rational(P, (P - 5) / (P + 1))) == "(P - 5)/(P + 1)"
    assert fit_rational(P, np.sqrt(P)) is None


def test_skp_selection_below_five_is_the_pure_equilibrium():
    """Billingham sec. 3: for P < 5 SKP's only equilibrium is b_J = c_K = d_Q = 0."""
    pt = limit_at_pot(get_game("skp"), 3.0)
    assert max(pt.params.values()) < 1e-12 and pt.family is not None


def _cli(capsys, *args):
    from pokerdyn.cli import main
    try:
        rc = main(list(args))
    except SystemExit as e:   # argparse's usage errors
        rc = e.code
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.mark.parametrize("args", [["kuhn", "--lambda", "0"], ["kuhn", "--lambda", "nan"],
                                  ["kuhn", "--lambda", "-2"], ["skp", "--pots", "5:3"],
                                  ["skp", "--pots", "3:3"], ["skp", "--pots", "x"]])
def test_cli_bad_input_one_line_exit_2(capsys, args):
    rc, out, err = _cli(capsys, "qre", *args)
    assert rc == 2 and not out and len(err.strip().splitlines()) == 1, err


def test_cli_json_keys(capsys):
    rc, out, _ = _cli(capsys, "qre", "skp", "--pot", "9", "--json")
    res = json.loads(out)
    assert rc == 0 and set(res) >= {"branch", "limit", "seconds"}
    assert set(res["branch"][0]) >= {"lambda", "strategy", "expected_payoffs"}
    fam = res["limit"]["family"]
    assert res["limit"]["nash_conv"] < 1e-8 and fam["exact_nash_conv"] == "0"
    assert fam["strategy"] == {"b_J": "2/9", "c_K": "2/5", "d_Q": "0"}
    rc, out, _ = _cli(capsys, "qre", "kuhn", "--lambda", "1,10", "--json")
    assert [p["lambda"] for p in json.loads(out)["profiles"]] == [1.0, 10.0]


def test_logit_field_jacobian_matches_central_differences():
    from pokerdyn.solvers.qre import logit_field_jacobian, logit_response
    cg = compile_game(get_game("skp"), {"P": 9})
    rng = np.random.default_rng(3)
    sig = np.where(cg.legal, rng.random(cg.legal.shape) + 0.2, 0.0)
    sig /= sig.sum(axis=1, keepdims=True)
    lam, idx = 2.0, np.flatnonzero(cg.legal.ravel())
    J = logit_field_jacobian(cg, sig, lam)

    def field(flat):
        s = np.zeros(cg.legal.size)
        s[idx] = flat
        s = s.reshape(cg.legal.shape)
        return (logit_response(cg, s, lam) - s).ravel()[idx]
    x0 = sig.ravel()[idx]
    for k in range(idx.size):
        e = np.zeros_like(x0)
        e[k] = 1e-6
        assert np.allclose((field(x0 + e) - field(x0 - e)) / 2e-6, J[:, k], atol=1e-6)


def test_cli_stability_jordan_hopf_at_two(capsys, tmp_path):
    """Jordan (1993) matching pennies: the uniform QRE of the logit dynamics loses stability
    in a Hopf bifurcation at lambda = 2 exactly (J = -1 + lam C, C's eigenvalues the cube
    roots of -1); the CLI reports the crossing and the unstable range from 2 on."""
    from pokerdyn.figures.qre.stability import jordan_game
    from pokerdyn.games.io.efg import to_efg_exact
    f = tmp_path / "jordan.efg"
    f.write_text(to_efg_exact(jordan_game(), {}))
    rc, out, _ = _cli(capsys, "qre", str(f), "--stability", "--max-lambda", "10", "--json")
    res = json.loads(out)
    st = res["stability"]
    assert rc == 0 and len(st["crossings"]) == 1 and st["crossings"][0]["kind"] == "hopf"
    assert abs(st["crossings"][0]["lambda"] - 2.0) < 1e-8
    (lo, hi), = st["unstable_lambda_ranges"]
    assert abs(lo - 2.0) < 1e-8 and hi == res["branch"][-1]["lambda"] >= 10
    for e in res["branch"]:   # max real part = lam cos(pi/3) - 1 at the uniform QRE
        assert abs(e["stability"]["max_real_eigenvalue"] - (e["lambda"] / 2 - 1)) < 1e-9


def test_cli_stability_skp_stable_along_the_branch(capsys):
    """SKP at P = 9: the principal branch stays stable under the logit dynamics (README)."""
    rc, out, _ = _cli(capsys, "qre", "skp", "--pot", "9", "--stability", "--json")
    res = json.loads(out)
    lead = [e["stability"]["max_real_eigenvalue"] for e in res["branch"]]
    assert rc == 0 and max(lead) < 0 and res["stability"]["unstable_lambda_ranges"] == []
    assert lead[0] == -1.0    # uniform play at lambda = 0: the Jacobian is -I


@pytest.mark.parametrize("args", [["kuhn", "--lambda", "1", "--stability"],
                                  ["skp", "--pots", "1:2", "--stability"],
                                  ["kuhn", "--max-lambda", "-1"]])
def test_cli_stability_bad_combinations(capsys, args):
    rc, out, err = _cli(capsys, "qre", *args)
    assert rc == 2 and not out and len(err.strip().splitlines()) == 1, err


def test_continuity_map_finds_skp_jump_at_five_without_enumeration():
    """The selection map of games too large to enumerate (solvers.qre.jumps) splits where
    the limit jumps: on SKP, with the enumeration withheld, it finds Billingham's critical
    pot P = 5 (pure equilibrium below, b_J = 2/(P+1) above) as the rational 5 exactly, and
    no jump over (5.5, 6.5] where the selected eq. (12) moves continuously."""
    from pokerdyn.solvers.qre.jumps import continuity_map
    game = get_game("skp")
    segs = continuity_map(game, 4.5, 5.5, grid=2)
    assert [s.high for s in segs[:-1]] == [5]
    assert max(segs[0].points[0].params.values()) < 1e-9
    after = segs[1].points[0]
    assert abs(after.params["b_J"] - 2 / (after.pot + 1)) < 1e-9
    assert len(continuity_map(game, 5.5, 6.5, grid=3)) == 1


def test_kuhn3_at_three_selects_a_point_of_the_recorded_family():
    """kuhn3 at P = 3: the branch's limit lies in the third certified family of the support
    method (figures/frontier/data/kuhn3_families_P3.json, 7 free parameters) at player 3's
    x3_Q_kk_b = 1/4 (to 1e-6), x2_Q_b_c = x3_K_bc_c = x2_K_b_c = x3_Q_bf_c = 0."""
    from types import SimpleNamespace

    import sympy as sp

    from pokerdyn.figures.frontier.kuhn3_family import recorded
    fams = [SimpleNamespace(strategy=tuple((k, sp.sympify(v)) for k, v in f["strategy"].items()),
                            free=tuple(f["free"]),
                            constraints=tuple(sp.sympify(c) for c in f["constraints"]))
            for f in recorded()]
    cg, br = _branch("kuhn3", {"P": 3})
    lim = branch_limit(cg, br, fams)
    assert lim.family == 2 and lim.distance < 1e-9 and lim.nash_conv < 1e-12
    # along the family (flat directions) the limit is known to ~1e-6 only: the branch
    # points' residual 1e-11 over a smallest singular value ~1/lambda
    assert abs(lim.free["x3_Q_kk_b"] - 0.25) < 1e-6
    assert all(abs(lim.free[k]) < 1e-9 for k in ("x2_Q_b_c", "x3_K_bc_c", "x2_K_b_c",
                                                   "x3_Q_bf_c"))


def test_kuhn3_end_game_where_the_walk_cannot_go_further():
    """kuhn3 at P = 3.90625: beyond lam ~ 7e4 the branch system is singular to working
    precision and the corrector stops converging at every step size; the walk ends there
    (NashConv ~6e-6 < end_game) and the limit, extrapolated and polished, is an equilibrium
    to rounding; every point of the branch still holds the fixed point to 1e-10."""
    cg, br = _branch("kuhn3", {"P": 3.90625})
    assert br.stalled_at is not None and br.nash_conv[-1] < 1e-4
    assert branch_limit(cg, br).nash_conv < 1e-12
    res = [fixed_point_residual(cg, s, lam, lg)
           for s, lam, lg in zip(br.profiles, br.lambdas, br.logs)]
    assert max(res) < 1e-10
    with pytest.raises(GameError):          # no end game asked for: the stall is an error
        from pokerdyn.solvers.qre import trace_branch
        trace_branch(cg, tol=1e-6, end_game=0.0)


def test_figure_qre_selection_quick_draws_the_committed_kuhn3_map(tmp_path):
    """The quick figure reads kuhn3's committed map: its jumps are the rationals 2, 3 and 5
    and one pot where the branch changes course (3.89788...)."""
    from pokerdyn.figures.qre.selection import main
    res = main(tmp_path, seed=0, quick=True)
    jumps = res.numbers["kuhn3_jumps"]
    assert [j for j in jumps if j in (2.0, 3.0, 5.0)] == [2.0, 3.0, 5.0] and len(jumps) == 4
    assert any(abs(j - 3.8978839) < 1e-6 for j in jumps)
