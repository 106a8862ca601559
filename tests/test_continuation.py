"""Pseudo-arclength continuation of equilibria in the pot P (solvers.continuation): exact
derivatives, branches on the exact families of `pokerdyn equilibria` (Billingham, SKP
sec. 3 and one-third street sec. 2), exact certificates, and the command line."""
import json
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings, strategies as st

from pokerdyn.games import GameError, get_game
from pokerdyn.solvers.continuation.api import continuation
from pokerdyn.solvers.continuation.certify import certify
from pokerdyn.solvers.continuation.system import indifference_system
from pokerdyn.solvers.symbolic.model.conditions import pot_symbol
from pokerdyn.solvers.symbolic.axis.piecewise import equilibrium_pieces, solutions_at

TOL = 1e-8


def _on_family(sol, point: dict, pot, P) -> bool:
    """``point`` (name -> float) lies on the exact family ``sol`` at ``pot``: its free
    parameters set to the point's values reproduce every frequency, constraints hold."""
    sub = {P: pot, **{sp.Symbol(n, real=True): sp.Float(point[n], 30) for n in sol.free}}
    for n, v in sol.as_dict().items():
        if abs(float(sp.sympify(v).xreplace(sub)) - point[n]) > TOL:
            return False
    return all(float(sp.sympify(e).xreplace(sub)) >= -TOL for e, _ in sol.raw)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.floats(1.0, 20.0))
def test_jacobian_is_exact_by_multilinearity(seed, pot):
    """d gain / d x_J = gain(x_J=1) - gain(x_J=0) and d gain / dP agree with central
    differences at random profiles of 4-card Kuhn (payoffs multilinear, affine in P)."""
    S = indifference_system(get_game("kuhn3"))
    x = np.random.default_rng(seed).random(S.n)
    J = S.jacobian(x, pot)
    h = 1e-6
    j = seed % S.n
    e = np.zeros(S.n)
    e[j] = h
    fd = (S.gains(x + e, pot) - S.gains(x - e, pot)) / (2 * h)
    assert np.abs(fd - J[:, j]).max() < 1e-8
    fp = (S.gains(x, pot + h) - S.gains(x, pot - h)) / (2 * h)
    assert np.abs(fp - J[:, -1]).max() < 1e-8


def test_skp_branch_lies_on_the_enumerated_family():
    """From P = 11/2 the branch is Billingham's SKP solution (12)-(14): every sample point
    lies on a family of `equilibrium_pieces(skp)` and b_J = 2/(P+1), d_Q = (P-5)/(P+1)."""
    game = get_game("skp")
    P = pot_symbol(game)
    pieces = equilibrium_pieces(game)
    res = continuation(game, (5.5, 12.0))
    (br,) = res.branches
    assert br.pot_range == pytest.approx((5.5, 12.0), abs=1e-12)
    for p, x in list(zip(br.pots, br.xs))[::3]:
        pt = res.system.named_values(x)
        pot = sp.nsimplify(p, rational=True, tolerance=1e-15)
        piece = [pc for pc in pieces if pc.p_set.contains(pot) is sp.true]
        assert any(_on_family(s, pt, pot, P) for pc in piece for s in pc.solutions)
        assert pt["b_J"] == pytest.approx(2 / (p + 1), abs=1e-10)
        assert pt["d_Q"] == pytest.approx((p - 5) / (p + 1), abs=1e-10)
    assert res.max_certificate() < 1e-12


def test_kuhn3_third_branch_end_lies_on_an_exact_family_at_pot_8():
    """The branch followed to P = 8 ends (located pot-bound event) on one of the families
    that exact enumeration finds at P = 8 (Billingham sec. 2: b_Q or c_Q free)."""
    game = get_game("kuhn3-third")
    P = pot_symbol(game)
    res = continuation(game, (7.5, 8.0))
    end = res.branches[-1].end
    assert end.kind == "pot bound" and end.pot == pytest.approx(8.0, abs=1e-12)
    pt = res.system.named_values(end.x)
    sols = solutions_at(game, sp.Integer(8))
    assert any(_on_family(s, pt, sp.Integer(8), P) for s in sols)
    assert pt["c_K"] == pytest.approx(1 / 3, abs=1e-10)     # Billingham (8): c_K = (P-5)/(P+1)


def test_certificate_is_exact_and_detects_a_non_equilibrium():
    """The exact NashConv of an equilibrium point is ~0, of the uniform profile > 0 (and it
    equals the float NashConv of the numeric kernels)."""
    from pokerdyn.games.compiled import compile_game
    from pokerdyn.solvers.evaluation import nash_conv

    S = indifference_system(get_game("skp"))
    x = np.full(S.n, 0.5)
    c = certify(S, x, 7.0)
    assert c["nash_conv"] == pytest.approx(nash_conv(compile_game(S.game, {"P": 7}),
                                                     S.sigma(x)), abs=1e-14)
    assert c["nash_conv"] > 1e-3
    res = continuation(get_game("skp"), (6.0, 7.0))
    assert float(sp.Rational(res.branches[0].end.certificate["nash_conv_exact"])) < 1e-12


@pytest.mark.parametrize("pots", [(5.0, 5.0), (6.0, 3.0), (float("nan"), 3.0)])
def test_empty_or_reversed_pot_range_is_a_game_error(pots):
    with pytest.raises(GameError, match="empty or reversed"):
        continuation(get_game("skp"), pots)


def _cli(argv):
    import contextlib
    import io

    from pokerdyn.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(argv)
        except SystemExit as e:
            rc = e.code
    return rc, out.getvalue(), err.getvalue()


def test_cli_json_has_branches_and_bad_input_is_one_line(tmp_path):
    plot = tmp_path / "f.png"
    rc, out, _ = _cli(["continuation", "skp", "--pots", "6:7", "--json", "--plot", str(plot)])
    js = json.loads(out)
    (br,) = js["branches"]
    assert rc == 0 and plot.stat().st_size > 0
    assert set(br["support"]) == {"zero", "one", "mixed", "held", "unreached"}
    assert br["support"]["zero"] == ["c_K"]
    assert br["pot_range"] == pytest.approx([6.0, 7.0])
    assert [q["kind"] for q in br["bifurcation_points"]] == ["start", "pot bound"]
    for bad in (["skp", "--pots", "7:6"], ["kuhn3(cards=2)", "--pots", "2:4"],
                ["kuhn3(cards=14)", "--pots", "2:4"], ["kuhn", "--pots", "2:4"],
                ["skp", "--pots", "2"], ["skp", "--pots", "2:4", "--start", "9"]):
        rc, out, err = _cli(["continuation", *bad])
        assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1, bad


@pytest.mark.parametrize("argv, named", [
    (["kuhn3(cards=2)", "--pots", "2:10"], "cards=2"),
    (["kuhn3(cards=100)", "--pots", "2:10"], "cards=100"),
    (["kuhn3", "--pots", "5:3"], "5:3"),
    (["kuhn3", "--pots", "4:4"], "4:4"),
])
def test_issue_14_bad_input_is_one_line_naming_the_value(argv, named):
    """Issue 14's bad inputs (a deck outside 3..13, an empty or reversed pot range): one
    line on stderr naming the bad value and what is allowed, nothing on stdout, exit 2."""
    rc, out, err = _cli(["continuation", *argv, "--no-progress"])
    assert rc == 2 and out == ""
    (line,) = err.strip().splitlines()
    assert named in line
    assert ("3..13" in line) if "cards" in named else ("A < B" in line)


def test_n_card_figure_quick_renders_certified_branches(tmp_path):
    """The `n_card` figure (quick: N = 3, 2 <= P <= 10) draws certified branches."""
    from pokerdyn.figures.frontier.n_card import main

    res = main(tmp_path, seed=0, quick=True)
    assert res.files[0].stat().st_size > 0
    num = res.numbers["N=3"]
    assert num["branches"] >= 2 and num["max_nash_conv"] < 1e-8


def test_every_sample_of_every_branch_is_an_equilibrium():
    """Not only the certified branch points: every accepted continuation step of the
    3-card game over 2 <= P <= 10 has NashConv below 1e-9 (float kernels)."""
    from pokerdyn.games.compiled import compile_game
    from pokerdyn.solvers.evaluation import nash_conv

    game = get_game("kuhn3(cards=3)")
    res = continuation(game, (2.0, 10.0), start=5.3)
    lo = min(b.pot_range[0] for b in res.branches)
    hi = max(b.pot_range[1] for b in res.branches)
    assert lo == pytest.approx(2.0) and hi == pytest.approx(10.0)
    for b in res.branches:
        for p, x in zip(b.pots, b.xs):
            assert nash_conv(compile_game(game, {"P": p}), res.system.sigma(x)) < 1e-9


def test_bet_equities_of_the_best_and_worst_card():
    """The bet classifier of the n_card figure: an ace bet wins against every calling range
    (equity 1), a bet with the lowest card loses to every one (equity 0), at all branch
    points of the 3-card game (deck Q K A)."""
    from pokerdyn.figures.frontier.n_card import bet_equities

    res = continuation(get_game("kuhn3(cards=3)"), (2.0, 10.0), start=5.3)
    seen = set()
    for b in res.branches:
        for x in (b.xs[0], b.xs[-1]):
            for r in bet_equities(res.system, x):
                if r["card"] in "AQ":
                    want = 1.0 if r["card"] == "A" else 0.0
                    assert all(abs(v - want) < 1e-12 for v in r["equity"].values())
                    seen.add(r["card"])
    assert "A" in seen
