"""The third range of three coexisting equilibria of full-street simplified 3-player Kuhn
poker (Billingham, arXiv 1707.01392, abstract: three such ranges).  Family F10 has
sqrt(P^4 - 4P^3 + 4P^2 + 12P + 12) in its frequencies; the library's generic step keeps it
(solvers.symbolic.feasibility.radical).  Its closed form built independently
(benchmarks/full_street_third.py, key ``quadratic_families`` of the committed record) is
checked against the tree (an exact NashConv 0 at the rational pot 107/33, where the root is
rational; a NashConv below 1e-30 at 50-digit approximations inside its range and none
outside) and against the library's own result (the same family, the same range)."""
from __future__ import annotations

import json
from fractions import Fraction

import pytest
import sympy as sp

from pokerdyn.games import get_game
from pokerdyn.solvers.symbolic.model.nash_conv_fraction import exact_payoffs, nash_conv_fraction
from pokerdyn.solvers.exact_profile import exact_values
from pokerdyn.figures.frontier.full_street import RECORD

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


@pytest.fixture(scope="module")
def f10_generic():
    """The gains of the 13 free frequencies and F10's support solved with P symbolic (the
    library's generic_family), shared by the tests below (seconds each)."""
    from pokerdyn.solvers.symbolic.model.conditions import conditions
    from pokerdyn.solvers.symbolic.axis.sweep import generic_family
    conds = conditions(GAME, None, FIXED)
    return conds, generic_family(GAME, conds, F10["support"], FIXED)


def _library_f10(piece: dict) -> list[dict]:
    """The families of a piece of the library's record with a square root in P."""
    return [f for f in piece["families"] if any("sqrt" in v for v in f["strategy"].values())]


def test_three_distinct_payoff_vectors_coexist_in_the_third_range():
    """At 107/33 the closed-form payoffs of F10 equal the tree's; the library's piece there
    holds three families with distinct payoffs, F10's among them (exactly equal)."""
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
    piece = next(pc for pc in REC["pieces"] if _as_set(pc["p_set"]).contains(v) is sp.true)
    pays = {tuple(sp.nsimplify(sp.radsimp(sp.sympify(e, locals=LOC).xreplace({P: v})))
                  for e in f["payoffs"]) for f in piece["families"]}
    assert len(piece["families"]) == 3 and len(pays) == 3 and tuple(mine) in pays
    assert len(_library_f10(piece)) == 1


def test_the_library_gives_the_third_range_with_f10s_ends():
    """The record's coexistence (the library's own) holds the range whose ends F10's
    constraints give: c1_K_kkb = 1 at (3 + sqrt 97)/4, 2P^2 - 3P - 11 = 0, and the end
    where F10 meets F2 at (3 + sqrt 15)/2, 2P^2 - 6P - 3 = 0."""
    lo, hi = (sp.sympify(e["value"]) for e in F10["ends"])
    third = [c for c in REC["coexistence"] if sp.sympify(c["p_set"]) == sp.Interval(lo, hi)]
    assert len(third) == 1 and third[0]["count"] == 3
    assert [e["minimal_polynomial"] for e in third[0]["ends"]] == \
        ["2*P**2 - 3*P - 11", "2*P**2 - 6*P - 3"]
    assert len(REC["coexistence"]) == 3 and REC["unresolved_supports"] == []


def test_the_record_holds_f10_as_the_library_found_it():
    """The whole-axis record (written from the library's sweep) holds F10 on the third
    range, equal exactly to the independent closed form, certified at a pot where D(P) is
    a square (exact NashConv 0 in Fractions).  Since the completeness proof (2026-11-28)
    the library's F10 is larger: c2_K_b is free too, with c3_K_bf + c2_K_b between
    2(P - 2)/(P + 1) and b2_Q + b3_Q, and the independent one-parameter form is its face
    c3_K_bf + c2_K_b = b2_Q + b3_Q (the record's last constraint vanishes on it)."""
    from pokerdyn.solvers.symbolic.feasibility import radical
    lo, hi = (sp.sympify(e["value"]) for e in F10["ends"])
    piece = next(pc for pc in REC["pieces"] if _as_set(pc["p_set"]) == sp.Interval(lo, hi))
    (lib,) = _library_f10(piece)
    assert lib["free"] == ["c3_K_bf", "c2_K_b"]
    for k, e in F10["strategy"].items():
        if k not in lib["free"]:
            assert radical.is_zero(sp.sympify(lib["strategy"][k], locals=LOC)
                                   - sp.sympify(e, locals=LOC), P), k
    top = {sp.Symbol("c2_K_b", real=True): sp.sympify(F10["strategy"]["c2_K_b"], locals=LOC)}
    last = sp.sympify(lib["constraints"][-1].split(">=")[0], locals=LOC)
    assert radical.is_zero(last.xreplace(top), P)
    cert = lib["certificate"]
    assert cert["nash_conv"] == "0" and cert["method"] == "rational"
    assert nash_conv_fraction(GAME, sp.Rational(cert["pot"]), cert["sample"]) == 0


def test_f10_joins_f3_at_its_lower_end_and_f2_at_its_upper_end():
    """F10 is the branch between the two other families of the piece: its payoffs equal
    one of them at each end (to 50 digits) and neither inside."""
    lo, hi = (sp.sympify(e["value"]) for e in F10["ends"])
    piece = next(pc for pc in REC["pieces"] if _as_set(pc["p_set"]) == sp.Interval(lo, hi))
    others = [f for f in piece["families"] if f not in _library_f10(piece)]
    pays = [[sp.sympify(e, locals=LOC) for e in f["payoffs"]] for f in others + [F10]]

    def meets(at: sp.Expr) -> list[bool]:
        return [float(max(abs(sp.N((a - b).xreplace({P: at}), 50)) for a, b in zip(f, pays[-1])))
                < 1e-40 for f in pays[:-1]]

    assert sorted(meets(lo)) == [False, True] and sorted(meets(hi)) == [False, True]
    assert meets(lo) != meets(hi) and meets((lo + hi) / 2) == [False, False]


def test_generic_family_of_f10s_support_is_the_stored_closed_form(f10_generic):
    """F10's support solved with P symbolic (generic_family): two branches (the two roots of
    the quadratic in b2_Q), one equal to the independent closed form exactly in
    QQ(P)(sqrt D) and at random rational pots of its range to 40 digits."""
    import random

    from pokerdyn.solvers.symbolic.feasibility import radical
    fams = f10_generic[1]
    assert len(fams) == 2
    want = {k: sp.sympify(e, locals=LOC) for k, e in F10["strategy"].items()}
    same = [f for f in fams if all(radical.is_zero(v - want[k], P) for k, v in f.strategy
                                   if k in want)]
    assert len(same) == 1
    lo, hi = (e["float"] for e in F10["ends"])
    rnd = random.Random(14)
    for _ in range(3):
        v = sp.Rational(rnd.randint(1, 999), 1000) * sp.nsimplify(round(hi - lo, 6)) + \
            sp.nsimplify(round(lo, 6))
        c = {LOC["c3_K_bf"]: sp.Rational(1, 7)}
        for k, e in same[0].strategy:
            if k in want:
                got, ref = (sp.N(x.xreplace({P: v, **c}), 50) for x in (e, want[k]))
                assert abs(got - ref) < 1e-40, (k, v)
    assert {f.cases for f in fams} == {F10["support"]}


def test_the_sweep_reports_the_supports_it_cannot_solve_in_P():
    """A support whose solve with P symbolic gives no family (none left since F10 is
    solved) is listed under ``unresolved_supports`` with the pots where it was enumerated,
    unless those pots are only ends of pieces."""
    from pokerdyn.solvers.symbolic.axis.sweep import unresolved
    from pokerdyn.solvers.symbolic.axis.piecewise import Piece
    case = F10["support"]
    done = {"13/4": [case], "33/10": [case, "x"], "4": [case]}
    supports = {case: [], "x": ["a family"]}
    end = Piece(sp.Interval(sp.Rational(7, 2), 4), ())
    assert unresolved([end], supports, done) == {case: ["13/4", "33/10"]}
    assert unresolved([end], {case: ["a family"], "x": []}, done) == {"x": ["33/10"]}


def test_pieces_of_f2_f3_and_f10_give_the_third_range_with_exact_ends(f10_generic):
    """The library's pieces built from the supports of F2, F3 and F10 alone (generic_family
    + equilibrium_pieces, as the sweep does): exactly one range with three families,
    [(3 + sqrt 97)/4, (3 + sqrt 15)/2], its ends roots of 2P^2 - 3P - 11 and 2P^2 - 6P - 3."""
    from pokerdyn.solvers.symbolic.model.conditions import pot_symbol
    from pokerdyn.solvers.symbolic.axis.sweep import coexistence, generic_family
    from pokerdyn.solvers.symbolic.axis.piecewise import equilibrium_pieces
    conds, f10 = f10_generic
    gen = [f for case in ("cbbcccbccbccb", "cbbcbcbccbacb")
           for f in generic_family(GAME, conds, case, FIXED)] + f10
    co = coexistence(equilibrium_pieces(GAME, FIXED, generic=gen), pot_symbol(GAME))
    assert len(co) == 1 and co[0]["count"] == 3
    assert sp.sympify(co[0]["p_set"]) == sp.Interval((3 + sp.sqrt(97)) / 4, (3 + sp.sqrt(15)) / 2)
    assert [e["minimal_polynomial"] for e in co[0]["ends"]] == \
        ["2*P**2 - 3*P - 11", "2*P**2 - 6*P - 3"]
