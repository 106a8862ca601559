"""The third range of three coexisting equilibria of full-street simplified 3-player Kuhn
poker (Billingham, arXiv 1707.01392, abstract: three such ranges).  Family F10
(benchmarks/full_street_third.py, key ``quadratic_families`` of the committed record) has
sqrt(P^4 - 4P^3 + 4P^2 + 12P + 12) in its frequencies, so the generic step over QQ(P) had
dropped it; these tests check it against the tree: an exact NashConv 0 at the rational pot
107/33 (where the root is rational), a NashConv below 1e-30 at 50-digit approximations
inside its range and none outside, and payoffs distinct from F2 and F3 there."""
from __future__ import annotations

import json
from fractions import Fraction

import pytest
import sympy as sp

from games import get_game
from solvers.symbolic.fullaxis.certify import exact_payoffs, nash_conv_fraction
from solvers.exact_profile import exact_values
from figures.frontier.full_street import RECORD

GAME = get_game("kuhn3-full-simplified")
REC = json.loads(RECORD.read_text())
F10 = REC["quadratic_families"][0]
FIXED = {k: sp.Rational(v) for k, v in REC["fixed"].items()}
P = sp.Symbol("P", positive=True)
LOC = {"P": P, **{n.name: sp.Symbol(n.name, real=True) for n in GAME.named}}


def _point(fam: dict, v: sp.Expr, digits: int = 50) -> dict:
    """The family at pot ``v`` (c3_K_bf at half its admissible sum), each value rounded to a
    ``digits``-digit rational (exact where the square root is rational)."""
    expr = {k: sp.sympify(e, locals=LOC) for k, e in fam["strategy"].items()}
    total = (expr["c3_K_bf"] + expr["c2_K_b"]).xreplace({P: v})
    half = {LOC["c3_K_bf"]: total / 2}
    out = {}
    for k, e in expr.items():
        val = sp.nsimplify(sp.radsimp(e.xreplace({P: v}).xreplace(half)))
        out[k] = val if val.is_Rational else sp.Rational(str(sp.N(val, digits)))
    return {**FIXED, **out}


def _as_set(text: str) -> sp.Set:
    s = sp.sympify(text)
    return s if isinstance(s, sp.Set) else sp.FiniteSet(s)


def test_f10_certificate_is_an_exact_equilibrium_and_moving_off_it_is_not():
    v = sp.Rational(F10["certificate"]["pot"])
    pt = _point(F10, v)
    assert all(x.is_Rational for x in pt.values())
    assert {k: str(pt[k]) for k in F10["certificate"]["sample"]} == F10["certificate"]["sample"]
    assert nash_conv_fraction(GAME, v, pt) == 0
    off = dict(pt, b2_Q=pt["b2_Q"] + sp.Rational(1, 100))
    assert nash_conv_fraction(GAME, v, off) > 0


@pytest.mark.parametrize("pot,inside", [("3.22", True), ("3.3", True), ("3.43", True),
                                        ("3.2", False), ("3.45", False)])
def test_f10_is_an_equilibrium_exactly_on_its_range(pot, inside):
    """Ends (3+sqrt 97)/4 = 3.2122 (c1_K_kkb reaches 1, F10 meets F3) and (3+sqrt 15)/2 =
    3.4365 (F10 meets F2; beyond, P2 with K gains by calling after kkb-f)."""
    v = sp.Rational(pot)
    lo, hi = (sp.sympify(e["value"]) for e in F10["ends"])
    assert bool(lo < v < hi) is inside
    pt = _point(F10, v)
    in_box = all(0 <= x <= 1 for x in pt.values())
    if not in_box:
        assert not inside
        return
    nc = nash_conv_fraction(GAME, v, pt)
    assert (nc < sp.Rational(1, 10**30)) if inside else (nc > sp.Rational(1, 10**6))


def test_three_distinct_payoff_vectors_coexist_in_the_third_range():
    """At 107/33 the closed-form payoffs of F10 equal the tree's and differ from those of
    F2 and F3, the two families of the enumerated pieces there."""
    v = sp.Rational(F10["certificate"]["pot"])
    pt = _point(F10, v)
    by = {s.label: s for s in GAME.infosets}
    sig = {s.label: (Fraction(1),) + (Fraction(0),) * (len(s.actions) - 1) for s in GAME.infosets}
    for prm in GAME.named:
        q = Fraction(int(pt[prm.name].p), int(pt[prm.name].q))
        k = list(by[prm.infoset].actions).index(prm.action)
        sig[prm.infoset] = tuple(q if j == k else 1 - q for j in range(2))
    tree = exact_values(GAME, sig, exact_payoffs(GAME, v))[0]
    mine = [sp.nsimplify(sp.radsimp(sp.sympify(e, locals=LOC).xreplace({P: v})))
            for e in F10["payoffs"]]
    assert [sp.Rational(t.numerator, t.denominator) for t in tree] == mine
    assert sum(mine) == 0
    others = {tuple(sp.sympify(e, locals=LOC).xreplace({P: v}) for e in f["payoffs"])
              for pc in REC["pieces"] if _as_set(pc["p_set"]).contains(v) is sp.true
              for f in pc["families"]}
    assert len(others) == 2 and tuple(mine) not in others
    third = [c for c in REC["coexistence"] if "sqrt(97)" in c["p_set"]]
    assert third and third[0]["families"] == ["F2", "F3", "F10"]


def test_f10_joins_f3_at_its_lower_end_and_f2_at_its_upper_end():
    """F10 is the branch between the two families of the enumerated piece: its payoffs equal
    one of them at each end (to 50 digits) and neither inside."""
    lo, hi = (sp.sympify(e["value"]) for e in F10["ends"])
    piece = next(pc for pc in REC["pieces"] if _as_set(pc["p_set"]) == sp.Interval(lo, hi))
    pays = [[sp.sympify(e, locals=LOC) for e in f["payoffs"]]
            for f in piece["families"] + [F10]]

    def meets(at: sp.Expr) -> list[bool]:
        return [float(max(abs(sp.N((a - b).xreplace({P: at}), 50)) for a, b in zip(f, pays[-1])))
                < 1e-40 for f in pays[:-1]]

    assert sorted(meets(lo)) == [False, True] and sorted(meets(hi)) == [False, True]
    assert meets(lo) != meets(hi) and meets((lo + hi) / 2) == [False, False]


def test_the_sweep_reports_the_support_it_cannot_solve_in_P():
    """F10's support, solved with P symbolic, gives no family rational in P
    (generic_family returns []): the sweep lists it under ``unresolved_supports`` with the
    pots where it was enumerated, unless those pots are only ends of pieces."""
    from solvers.symbolic.enumeration import conditions
    from solvers.symbolic.fullaxis.sweep import generic_family, unresolved
    from solvers.symbolic.piecewise import Piece
    case = F10["support"]
    conds = conditions(GAME, None, FIXED)
    assert generic_family(GAME, conds, case, FIXED) == []
    done = {"13/4": [case], "33/10": [case, "x"], "4": [case]}
    supports = {case: [], "x": ["a family"]}
    end = Piece(sp.Interval(sp.Rational(7, 2), 4), ())
    assert unresolved([end], supports, done) == {case: ["13/4", "33/10"]}
    assert unresolved([end], {case: ["a family"], "x": []}, done) == {"x": ["33/10"]}
