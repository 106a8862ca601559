"""The whole-axis sweep and its completeness proof on an unbounded pot range ``[A, oo)``
(``pokerdyn equilibria GAME --pots A:oo --prove-complete``): the box proof with ``P = A / t``
(solvers.symbolic.certificates.leaf_boxes), the feasible parts of a family up to infinity
(solvers.symbolic.algebra.exceptional_pots), and the CLI."""
from __future__ import annotations

import json

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerdyn.games import get_game
from pokerdyn.solvers.symbolic.casesearch import walk
from pokerdyn.solvers.symbolic.model.dominance import reduce_game
from pokerdyn.solvers.symbolic.model.conditions import conditions, pot_symbol
from pokerdyn.solvers.symbolic.certificates.completeness import certify_complete
from pokerdyn.solvers.symbolic.algebra.exceptional_pots import feasible_parts
from pokerdyn.solvers.symbolic.certificates.leaf_boxes import _scaled, empty_between
from pokerdyn.solvers.symbolic.axis.sweep import sweep
from pokerdyn.solvers.symbolic.axis.piecewise import equilibrium_pieces

P, X = sp.symbols("P x")
rationals = st.fractions(min_value=0, max_value=50, max_denominator=20)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-9, 9), min_size=1, max_size=4), st.lists(
    st.integers(-9, 9), min_size=1, max_size=3), rationals, rationals,
    st.fractions(min_value=0, max_value=1, max_denominator=30))
def test_the_scaled_gain_is_the_gain_times_a_positive_power(cp, cx, lo, dp, x):
    """On ``[lo, oo)`` a gain ``e(x, P)`` becomes ``t^d e(x, lo / t)`` (d its degree in
    P): at ``t = lo / P`` that is ``e (lo / P)^d``, exactly, so its zeros and signs are
    those of ``e`` for every pot of the range."""
    lo = sp.Rational(lo) + 1
    e = sum(c * P ** i for i, c in enumerate(cp)) + sum(c * X ** (i + 1) * P ** i
                                                       for i, c in enumerate(cx))
    t = sp.Symbol("t")
    se = _scaled(P, lo, sp.oo, t)(e)
    assert se.is_polynomial(X, t)
    pot, xv = lo + sp.Rational(dp), sp.Rational(x)
    d = sp.degree(e, P) if e.has(P) else 0
    got = se.subs({t: lo / pot, X: xv})
    assert got == sp.expand(e.subs({P: pot, X: xv}) * (lo / pot) ** d)


def test_an_unbounded_range_needs_a_positive_lower_end():
    g = get_game("skp")
    conds = conditions(g, None, reduce_game(g))
    with pytest.raises(ValueError, match="positive lower end"):
        empty_between(conds, "c" * len(conds), pot_symbol(g), sp.Integer(0), sp.oo)


def test_feasible_parts_reach_infinity():
    """A family feasible for P >= 3 (x <= 1 - 3/P) meets [2, oo) in the part (3, oo), and
    the pot 3 is in its closure; one feasible only below 5 ends there."""
    parts, isolated = feasible_parts([(1 - 3 / P - X, False), (X, False)], [X], P,
                                     sp.Integer(2), sp.oo)
    assert parts == [(3, sp.oo)] and isolated == []
    parts, _ = feasible_parts([(5 - P, False), (X, False)], [X], P, sp.Integer(2), sp.oo)
    assert parts == [(2, 5)]


def test_skp_is_proven_complete_up_to_infinity():
    """SKP (Billingham) for every P >= 10: the sweep (pots 20 and 11) places the case
    search's families on [(5 + sqrt 73)/2, oo) and the proof with P = 10 / t leaves no
    gap."""
    g = get_game("skp")
    fixed = reduce_game(g)
    sw = sweep(g, fixed, sp.Integer(10), sp.oo, start=["20"])
    rec = certify_complete(g, fixed, 10, sp.oo, sw)
    assert rec["complete"] and rec["p_max"] == "oo" and rec["empty_leaves"] >= 1
    last = [pc for pc in sw.pieces if pc.p_set.sup is sp.oo][0]
    truth = [pc for pc in equilibrium_pieces(g) if pc.p_set.sup is sp.oo][0]
    assert last.p_set == truth.p_set == sp.Interval((5 + sp.sqrt(73)) / 2, sp.oo)
    key = lambda sols: sorted(str(sorted((k, sp.simplify(v)) for k, v in s.strategy
                                         if k not in fixed)) for s in sols)
    assert key(last.solutions) == key(truth.solutions)


def test_kuhn3_third_leaves_proved_empty_to_infinity_hold_no_support_found():
    """kuhn3-third on [10, oo): every leaf the box proof shows empty is none of the
    supports the sweep finds there (they hold equilibria at every pot of the range), and
    the proof finds nothing the sweep missed."""
    g = get_game("kuhn3-third")
    fixed = reduce_game(g)
    p, conds = pot_symbol(g), conditions(g, None, fixed)
    sw = sweep(g, fixed, sp.Integer(10), sp.oo, start=["20"])
    leaves = [c for _, c in walk.case_leaves(conds, p, {})]
    empty = [c for c in leaves if empty_between(conds, c, p, sp.Integer(10), sp.oo)]
    assert len(empty) >= 10 and not set(empty) & set(sw.supports)
    rec = certify_complete(g, fixed, 10, sp.oo, sw)
    assert rec["nothing_missed"] and not rec["undecided"] and len(empty) == rec["empty_leaves"]


def test_the_whole_axis_command_proves_skp_complete_up_to_infinity(capsys, tmp_path):
    """The path of ``pokerdyn equilibria GAME --pots 10:oo --prove-complete --json`` (the
    CLI sends SKP, which the case search enumerates, elsewhere)."""
    from argparse import Namespace

    from pokerdyn.commands.exact.equilibrium_axis import run_axis

    args = Namespace(pots="10:oo", prove_complete=True, json=True, workers=1,
                     state=str(tmp_path / "s.json"))
    assert run_axis(get_game("skp"), args) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["p_max"] == "oo" and rec["completeness"]["complete"]
    assert rec["pieces"][-1]["p_set"].endswith("oo)")
    assert all(f["certificate"]["nash_conv"] == "0" for pc in rec["pieces"]
               for f in pc["families"])


@pytest.mark.parametrize("pots", ["oo:5", "0:oo", "5:-oo", "inf:oo"])
def test_cli_rejects_a_bad_unbounded_range(capsys, pots):
    from pokerdyn.cli import main

    assert main(["equilibria", "kuhn3-full-simplified", "--pots", pots]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "pot" in err[0]


RESULTS = "benchmarks/results/full_street_completeness{}.json"


def test_the_committed_proofs_cover_the_pot_axis_from_two_to_infinity():
    """kuhn3-full-simplified: the committed completeness proofs (README, "The whole axis
    proven complete") are complete on [2, 20], [20, 100] and [100, oo), end to end; above
    P = 20 the only piece is F9's [5, oo), and the family the last proof places there is the
    record's F9 (figures/frontier/data/full_street_families.json) with an exact NashConv 0
    at its certificate pot."""
    from pokerdyn.figures.frontier.full_street import RECORD

    recs = [json.loads(open(RESULTS.format(s)).read()) for s in ("", "_20_100", "_100_oo")]
    spans = [(r["completeness"]["p_min"], r["completeness"]["p_max"]) for r in recs]
    assert spans == [("2", "20"), ("20", "100"), ("100", "oo")]
    assert all(r["completeness"]["complete"] for r in recs)
    last = recs[2]["pieces"]
    assert recs[1]["pieces"] == [pc["p_set"] for pc in last] == ["Interval(5, oo)"]
    (fam,) = last[0]["families"]
    assert fam["certificate"]["nash_conv"] == "0" and not fam["free"]
    f9 = [f for pc in json.loads(RECORD.read_text())["pieces"] if pc["p_set"] ==
          "Interval.open(5, oo)" for f in pc["families"]]  # P = 5 is a piece of its own
    assert len(f9) == 1
    assert {k: sp.simplify(sp.sympify(v) - sp.sympify(f9[0]["strategy"][k])) for k, v in
            fam["strategy"].items()} == {k: 0 for k in fam["strategy"]}
