"""Curves of equilibria at a fixed pot (solvers.symbolic.algebra.curves) and exact NashConv in a
quadratic field (solvers.exact_profile.Quadratic).

3-player Kuhn poker (4 cards) at P = 4: two supports that seeded CFR+ runs propose hold
one-dimensional families of equilibria whose values are not rational in any unknown's
rational functions the triangular solver reaches (README, issue 14): one curve is rational
in player 3's K call after check-bet (x3_K_kb_c), the other carries the square root of a
quartic in player 2's J bet after a check (x2_J_k_b), an elliptic curve.  Along both,
player 1's payoff moves: the P = 4 set does not fix E1 at -(3P + 4)/(12 (P + 1)^2)."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, strategies as st

from pokerdyn.games import compile_game
from pokerdyn.games.catalog.kuhn import kuhn3
from pokerdyn.games.strategy import strategy_from_params
from pokerdyn.solvers.evaluation import nash_conv
from pokerdyn.solvers.exact_profile import Quadratic
from pokerdyn.solvers.symbolic.algebra import curves
from pokerdyn.solvers.symbolic.model.nash_conv_fraction import nash_conv_fraction, nash_conv_quadratic, quadratic_profile
from pokerdyn.solvers.symbolic.model.sparse_gains import counterfactual_gains, gain_system, iterated_dominance_at
from pokerdyn.solvers.symbolic.algebra.support_solve import pure_values

RATIONAL_CURVE = "ccbbcbcbabccbcbbaccbccbccbc"  # 14 mixed frequencies, x1_Q_kbf_c among them
ELLIPTIC_CURVE = "ccbbcbcbabccbcbbaccbbcbccbc"  # 13 mixed frequencies
SECONDS = 300.0  # the solver's own budget (60 s) is for sweeps; a test on a loaded CI runner
# must not fail on time


@given(st.fractions(-5, 5), st.fractions(-5, 5), st.fractions(-5, 5), st.fractions(-5, 5),
       st.sampled_from([2, 3, 5, 7, 1234]))
def test_quadratic_field_arithmetic_and_order_are_exact(a, b, c, e, d):
    x, y = Quadratic(a, b, d), Quadratic(c, e, d)
    r = sp.sqrt(d)
    sx, sy = sp.Rational(a) + sp.Rational(b) * r, sp.Rational(c) + sp.Rational(e) * r
    for got, want in ((x + y, sx + sy), (x - y, sx - sy), (x * y, sx * sy), (3 - x, 3 - sx)):
        assert sp.expand(sp.Rational(got.a) + sp.Rational(got.b) * r - want) == 0
    assert (x < y) == bool(sx < sy) and (x > y) == bool(sx > sy)
    assert (x == y) == (sp.expand(sx - sy) == 0)


@pytest.fixture(scope="module")
def p4():
    g, pot = kuhn3(), sp.Integer(4)
    sysm = gain_system(g, pot)
    dom = iterated_dominance_at(g, pot, "strict", system=sysm)
    gains = counterfactual_gains(sysm, dom.fixed)
    fixed = {**dom.fixed, **{n: 0 for n in gains.idle}}
    return g, pot, gains.conditions, fixed


def _point(g, fixed, conds, case, curve, t):
    pv = pure_values(conds, case)
    pt = {**{k: sp.Rational(v) for k, v in fixed.items()}, **{s.name: v for s, v in pv.items()},
          **{k: sp.radsimp(v.xreplace({curve.u: t})) for k, v in curve.values}}
    return {p.name: pt.get(p.name, sp.S.Zero) for p in g.named}


def _float_nash_conv(g, pot, point) -> float:
    """NashConv of the compiled game in float64 (the numeric solvers' own code, not the
    exact one under test)."""
    cg = compile_game(g, {"P": pot})
    return nash_conv(cg, strategy_from_params(cg, {k: float(v) for k, v in point.items()}))


def test_quadratic_nash_conv_agrees_with_fractions_and_floats():
    g = kuhn3()
    rat = {p.name: sp.Rational(1, 3) for p in g.named}
    assert nash_conv_quadratic(g, 3, rat) == Fraction(943, 324) == nash_conv_fraction(g, 3, rat)
    irr = {p.name: sp.Rational(1, 3) + sp.sqrt(2) / 10 for p in g.named}
    nc = nash_conv_quadratic(g, 3, irr)
    assert nc.d == 2 and float(nc.a) + float(nc.b) * 2 ** 0.5 == pytest.approx(
        _float_nash_conv(g, 3, irr), abs=1e-12)


@pytest.fixture(scope="module")
def rational_curves(p4):
    g, pot, conds, fixed = p4
    return curves.support_curves(g, pot, conds, RATIONAL_CURVE, fixed, only=["x3_K_kb_c"],
                                 seconds=SECONDS)[0]


def test_kuhn3_p4_rational_curve_is_a_family_of_exact_equilibria(p4, rational_curves):
    g, pot, conds, fixed = p4
    assert len(rational_curves) == 1
    c = rational_curves[0]
    assert c.parameter == "x3_K_kb_c" and c.radicand is None
    (lo, hi), = c.parts
    assert lo == 0 and 0.0659 < float(hi) < 0.0660
    for t in (sp.Integer(0), sp.Rational(1, 50), sp.Rational(1, 16)):
        pt = _point(g, fixed, conds, RATIONAL_CURVE, c, t)
        assert nash_conv_fraction(g, pot, pt) == 0
        assert _float_nash_conv(g, pot, pt) < 1e-12
    assert sp.expand(hi - (sp.Rational(31, 20) - sp.sqrt(881) / 20)) == 0
    # player 1's payoff moves along the curve, away from -(3P + 4)/(12 (P + 1)^2) = -4/75
    (e1lo, e1hi), _, _ = c.payoff_range
    assert e1hi - e1lo > 9e-4 and e1hi < -0.055 < -4 / 75
    values, _ = quadratic_profile(g, pot, _point(g, fixed, conds, RATIONAL_CURVE, c, sp.S.Zero))
    assert values[0].a == Fraction(-16, 285) and values[0].b == 0


def test_kuhn3_p4_elliptic_curve_certified_in_a_quadratic_field(p4):
    g, pot, conds, fixed = p4
    cs, _ = curves.support_curves(g, pot, conds, ELLIPTIC_CURVE, fixed, only=["x2_J_k_b"],
                                  seconds=SECONDS)
    assert len(cs) == 1
    c = cs[0]
    u = c.u
    assert sp.expand(c.radicand - (390625 * u ** 4 - 393750 * u ** 3 + 142225 * u ** 2
                                   - 19640 * u + 864)) == 0
    # the quartic has two simple real roots (0.0852, 0.1571): y^2 = R(u) has genus 1, so no
    # rational parametrisation exists and the square root is needed
    assert sp.degree(sp.gcd(c.radicand, sp.diff(c.radicand, u)), u) == 0
    assert len(sp.Poly(c.radicand, u).real_roots()) == 2
    (lo, hi), = c.parts
    assert lo == sp.Rational(9, 25)
    assert sp.expand(hi - (73 + sp.sqrt(2689)) / 330) == 0  # where x1_K_kbf_c reaches 1
    cert, = c.certificates
    assert cert["nash_conv"] == 0
    assert any(a.exp == sp.S.Half for a in cert["payoffs"][0].atoms(sp.Pow))
    for t in (sp.Rational(9, 25), sp.Rational(3, 8), sp.Rational(37, 100)):
        pt = _point(g, fixed, conds, ELLIPTIC_CURVE, c, t)
        assert not nash_conv_quadratic(g, pot, pt)
        assert _float_nash_conv(g, pot, {k: sp.N(v, 30) for k, v in pt.items()}) < 1e-12
    # at u = 9/25, where R is the square 10404/25, the curve meets the payoffs of the isolated
    # equilibrium C, (-4/75, 1/300, 1/20); inside, player 1 earns less
    values, _ = quadratic_profile(g, pot, _point(g, fixed, conds, ELLIPTIC_CURVE, c,
                                                 sp.Rational(9, 25)))
    assert [(v.a, v.b) for v in values] == [(Fraction(-4, 75), 0), (Fraction(1, 300), 0),
                                           (Fraction(1, 20), 0)]
    inside, _ = quadratic_profile(g, pot, _point(g, fixed, conds, ELLIPTIC_CURVE, c,
                                                 sp.Rational(3, 8)))
    assert inside[0] < Fraction(-4, 75) and inside[0].b != 0


def test_curve_record_is_json_ready(rational_curves):
    import json

    rec = json.loads(json.dumps(curves.curve_record(rational_curves[0])))
    assert rec["parameter"] == "x3_K_kb_c" and rec["radicand"] is None
    assert rec["certificates"][0]["nash_conv"] == "0"
    assert len(rec["payoff_range"]) == 3 and rec["parts"][0][0] == "0"
    assert set(rec["values"]) >= {"x1_A_0_b", "x1_Q_kbf_c", "x3_K_kb_c"}
    assert np.isfinite(rec["parts_float"][0][1])


def test_kuhn3_p4_curves_figure_from_the_committed_record(p4, tmp_path):
    """The committed record (benchmarks/kuhn3_p4_curves.py) holds the curves of the skipped
    supports and of their neighbours, each part certified, and the figure renders from it;
    the elliptic curve ends at C's payoffs."""
    from pokerdyn.figures.frontier.kuhn3_p4_curves import recorded
    from pokerdyn.figures.registry import load

    cs = recorded()
    assert {RATIONAL_CURVE, ELLIPTIC_CURVE} <= {c["support"] for c in cs}
    assert all(q["nash_conv"] == "0" for c in cs for q in c["certificates"])
    ell = next(c for c in cs if c["support"] == ELLIPTIC_CURVE)
    assert ell["parts"][0][0] == "9/25" and ell["radicand"]
    assert ell["samples"]["payoffs"][0] == pytest.approx([-4 / 75, 1 / 300, 1 / 20], abs=1e-12)
    # the elliptic curve's end where x1_K_kbf_c reaches 1 leads to a support with it pure
    i = [c.name for c in p4[2]].index("x1_K_kbf_c")
    assert ELLIPTIC_CURVE[:i] + "a" + ELLIPTIC_CURVE[i + 1:] in ell["neighbours"]
    res = load("kuhn3_p4_curves").main(tmp_path, seed=0, quick=True)
    assert res.files[0].exists() and min(v[0] for v in res.numbers.values()) < -0.0561


def test_cli_prints_the_curves(rational_curves, capsys):
    """``pokerdyn equilibria kuhn3 --pot 4`` prints each curve with its parameter range and
    payoffs, and the runs' distance to a family or curve."""
    from pokerdyn.commands.exact.equilibrium_supports import print_set
    from pokerdyn.solvers.symbolic.learned.equilibrium_set import EquilibriumSet

    res = EquilibriumSet("kuhn3", sp.Integer(4), {}, (), (), (), ((0.36, -1),),
                         curves=tuple(rational_curves), curve_distances=(0.04,))
    print_set(kuhn3(), 4, res)
    out = capsys.readouterr().out
    assert "curve 1 (support ccbbcbcbabccbcbbaccbccbccbc): parameter x3_K_kb_c in [0, 0.0659178]" \
        in out
    assert "E1 in [-0.0561404, -0.0552152]" in out
    assert "to its nearest family: 3.60e-01" in out and "family or curve: 4.00e-02" in out


def test_a_curve_found_with_two_parameters_is_one_curve(p4):
    """The support next to the elliptic curve's end x1_K_kbf_c = 1 holds one curve, rational
    in x3_K_kb_c and with a square root in x2_Q_k_b (real only for x2_Q_k_b in about
    [0.0346, 0.0375]): found with both parameters, it is reported once."""
    g, pot, conds, fixed = p4
    i = [c.name for c in conds].index("x1_K_kbf_c")
    case = ELLIPTIC_CURVE[:i] + "a" + ELLIPTIC_CURVE[i + 1:]
    cs, _ = curves.support_curves(g, pot, conds, case, fixed, only=["x3_K_kb_c", "x2_Q_k_b"],
                                  seconds=SECONDS)
    assert [(c.parameter, c.radicand) for c in cs] == [("x3_K_kb_c", None)]
    (e1lo, e1hi), _, _ = cs[0].payoff_range
    assert e1lo == pytest.approx(-0.0554486, abs=1e-6) and e1hi == pytest.approx(-0.0541209,
                                                                                  abs=1e-6)


def test_branches_with_an_irrational_constant_out_of_range_are_decided(p4):
    """Support cccbcbcbabccbcbbaccbbcbcabc (next to the curves at P = 4) has, with x3_K_kk_b
    as parameter, two branches with sqrt 223 in their constants, on which x1_A_0_b = 2: no
    equilibrium.  They used to stop the solver (sympy cannot root-order the other
    constraints over QQ(sqrt 223)) and were listed as undecided; now no branch of the
    support is left undecided and none is a curve of equilibria."""
    g, pot, conds, fixed = p4
    case = "cccbcbcbabccbcbbaccbbcbcabc"
    _, xs, eqs = curves.case_equations(conds, case)
    (beqs, bxs), = [(e, x) for e, x in curves.blocks(eqs, xs) if len(x) > 1]
    found, _ = curves.branches(beqs, sorted(bxs, key=xs.index), only=["x3_K_kk_b"],
                               seconds=SECONDS)
    irr = [{s.name: v for s, v in b.items()} for _, b in found
           if any(v.has(sp.sqrt(223)) for v in b.values())]
    assert len(irr) == 2 and all(b["x1_A_0_b"] == 2 for b in irr)
    assert curves.support_curves(g, pot, conds, case, fixed, only=["x3_K_kk_b"],
                                 seconds=SECONDS) == ([], [])
