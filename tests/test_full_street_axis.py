"""Every equilibrium of full-street simplified 3-player Kuhn poker piecewise in P
(Billingham, arXiv 1707.01392; solvers.symbolic.axis).  The whole-axis run takes minutes
(benchmarks/bench_full_street.py), so these tests check its committed result
(figures/frontier/data/full_street_families.json) exactly, plus small pieces of the method:
the Groebner block solver on planted systems and the symbolic gains against the tree."""
from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerdyn.games import get_game
from pokerdyn.solvers.symbolic.model import conditions as en
from pokerdyn.solvers.symbolic.model.nash_conv_fraction import exact_payoffs, nash_conv_fraction
from pokerdyn.solvers.symbolic.algebra.groebner import solve_block
from pokerdyn.solvers.symbolic.axis.sweep import generic_family
from pokerdyn.figures.frontier.full_street import RECORD

GAME = get_game("kuhn3-full-simplified")
REC = json.loads(RECORD.read_text())
FIXED = {k: sp.Rational(v) for k, v in REC["fixed"].items()}
P = sp.Symbol("P", positive=True)


def _parse(text: str, extra: dict | None = None) -> sp.Expr:
    loc = {"P": P, **{n.name: sp.Symbol(n.name, real=True) for n in GAME.named}}
    return sp.sympify(text, locals=loc).xreplace(extra or {})


def _interval_pieces():
    for pc in REC["pieces"]:
        s = sp.sympify(pc["p_set"])
        if isinstance(s, sp.Interval):
            yield s, pc["families"]


def test_every_certificate_is_an_exact_equilibrium():
    certs = [f["certificate"] for pc in REC["pieces"] for f in pc["families"]]
    assert certs and all(c["nash_conv"] in ("0", None) for c in certs)


def test_families_at_a_random_pot_inside_each_piece_have_nash_conv_zero():
    """Billingham (2017) states the equilibria hold on whole P ranges: each family's closed
    form, at a random rational pot inside its piece (free parameters at the certificate's
    values where its constraints allow), is an exact equilibrium of the full 36-frequency
    game; moving b3_Q off it breaks that."""
    rng = np.random.default_rng(14)
    checked = 0
    for s, fams in _interval_pieces():
        lo = max(float(s.inf), 2.0)
        hi = min(float(s.sup), float(sp.Rational(REC["p_max"])))
        if hi <= lo:
            continue
        v = sp.Rational(int(rng.integers(1, 999)), 1000) * sp.nsimplify(hi - lo) + sp.nsimplify(lo)
        v = sp.Rational(str(round(float(v), 4)))
        if not (s.contains(v) is sp.true):
            continue
        pays = exact_payoffs(GAME, v)
        for fam in fams:
            free = {sp.Symbol(k, real=True): sp.Rational(fam["certificate"]["sample"][k])
                    for k in fam["free"]}
            cons = [_parse(c, {P: v, **free}) for c in fam["constraints"]]
            if not all(bool(c) for c in cons):
                continue
            point = {k: _parse(e, {P: v, **free}) for k, e in fam["strategy"].items()}
            if all(x.is_Rational for x in point.values()):
                assert nash_conv_fraction(GAME, v, point, pays) == 0, (s, fam["support"], v)
            else:  # a family with sqrt(R(P)) (F10) where R(v) is no square: 50 digits
                point = {k: sp.Rational(str(sp.N(x, 50))) for k, x in point.items()}
                assert nash_conv_fraction(GAME, v, point, pays) < sp.Rational(1, 10 ** 30)
            checked += 1
    assert checked >= 5


def test_coexistence_ends_are_the_roots_reported():
    """The ends of the ranges where three distinct equilibria coexist (the paper: three such
    ranges) are roots of the minimal polynomials stated with them."""
    assert REC["coexistence"], "no range with three coexisting families recorded"
    for c in REC["coexistence"]:
        assert c["count"] >= 3
        for end in c["ends"]:
            r = sp.sympify(end["value"])
            poly = _parse(end["minimal_polynomial"])
            assert sp.simplify(poly.xreplace({P: r})) == 0
            assert sp.Poly(poly, P).is_irreducible
            assert abs(float(r) - end["float"]) < 1e-12


@settings(max_examples=10)
@given(st.lists(st.fractions(0, 1, max_denominator=13), min_size=3, max_size=3),
       st.lists(st.integers(-5, 5), min_size=9, max_size=9))
def test_groebner_block_solver_finds_a_planted_solution(point, coef):
    """A bilinear system with a planted rational solution in [0, 1]^3: the solver returns
    it among its branches (every branch solves the system exactly)."""
    xs = sp.symbols("x0:3", real=True)
    s = [sp.Rational(q.numerator, q.denominator) for q in point]
    d = [x - v for x, v in zip(xs, s)]
    eqs = [d[0] + coef[0] * d[1] + coef[1] * d[1] * d[2],
           d[1] + coef[2] * d[2] + coef[3] * d[0] * d[2],
           d[2] + coef[4] * d[0] * d[1] + coef[5] * d[0]]
    eqs = [sp.expand(e) for e in eqs]
    sols = solve_block(eqs, xs, None)
    for sol in sols:
        assert all(sp.simplify(e.xreplace(sol)) == 0 for e in eqs)
    assert any(all(sp.nsimplify(sol.get(x, x)) == v for x, v in zip(xs, s)) for sol in sols)


@pytest.fixture(scope="module")
def conds():
    return en.conditions(GAME, None, FIXED)


@settings(max_examples=4)
@given(st.fractions(2, 20, max_denominator=7),
       st.lists(st.fractions(0, 1, max_denominator=11), min_size=13, max_size=13),
       st.integers(0, 12))
def test_symbolic_gains_equal_the_tree_at_rational_points(conds, pot, vals, k):
    """g_x (the counterfactual gain, Billingham appendix A) times the owner's reach equals
    E_owner(x = 1) - E_owner(x = 0) computed exactly over the tree (exact_values)."""
    v = sp.Rational(pot.numerator, pot.denominator)
    point = {**FIXED, **{c.name: sp.Rational(q.numerator, q.denominator)
                         for c, q in zip(conds, vals)}}
    c = conds[k]
    sub = {sp.Symbol(n, real=True): x for n, x in point.items()}
    g = sp.sympify(c.gradient).xreplace({**sub, P: v, en.pot_symbol(GAME): v})
    reach = en.own_reach(GAME, GAME.infoset_index(next(
        n.infoset for n in GAME.named if n.name == c.name))).xreplace(sub)
    from pokerdyn.solvers.exact_profile import exact_values
    pays = exact_payoffs(GAME, v)
    e = []
    for x in (1, 0):
        pt = {**point, c.name: x}
        sig = {s.label: (Fraction(1), Fraction(0)) for s in GAME.infosets}
        by = {s.label: s for s in GAME.infosets}
        for prm in GAME.named:
            y = Fraction(int(sp.Rational(pt[prm.name]).p), int(sp.Rational(pt[prm.name]).q))
            j = list(by[prm.infoset].actions).index(prm.action)
            sig[prm.infoset] = tuple(y if i == j else 1 - y for i in range(2))
        e.append(exact_values(GAME, sig, pays)[0][c.player])
    assert sp.Rational(e[0] - e[1]) == sp.nsimplify(g * reach)


def test_generic_family_at_pot_nine_is_the_known_equilibrium(conds):
    """The support of the P = 9 equilibrium solved with P symbolic: at P = 9 it gives the
    point found by enumeration at that pot (tests/test_full_street.py AT_NINE)."""
    case = "cabcaacacbcca"
    fams = generic_family(GAME, conds, case, FIXED)
    assert len(fams) == 1
    at = {k: sp.cancel(sp.sympify(e).xreplace({en.pot_symbol(GAME): 9}))
          for k, e in fams[0].strategy}
    assert at["b1_Q"] == sp.Rational(2, 9) and at["b3_Q"] == sp.Rational(9, 50)
    assert nash_conv_fraction(GAME, 9, at) == 0


def test_figure_draws_every_family_from_the_committed_data(tmp_path):
    from pokerdyn.figures.frontier.full_street import main

    res = main(tmp_path, seed=0, quick=True)
    assert res.files[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert res.numbers["max_coexisting"] == max(c["count"] for c in REC["coexistence"])
    assert res.numbers["supports"] == len({f["support"] for _, _, f in _families()})


def _families():
    from pokerdyn.figures.frontier.full_street import families

    return [x for x in families(REC) if x[1] > x[0]]


@pytest.mark.parametrize("pots", ["5:3", "abc", "2:3:4"])
def test_cli_whole_axis_rejects_a_bad_pot_range(capsys, pots):
    from pokerdyn.cli import main

    assert main(["equilibria", "kuhn3-full-simplified", "--pots", pots]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "pot" in err[0]


def test_cli_whole_axis_applies_only_without_a_pot():
    from argparse import Namespace

    from pokerdyn.commands.exact.equilibrium_axis import applies

    assert applies(GAME, Namespace(pot=None))
    assert not applies(GAME, Namespace(pot="9"))
    assert not applies(get_game("kuhn3"), Namespace(pot=None))  # 48 frequencies


def test_a_resumed_sweep_solves_the_supports_of_every_pot_done_before(monkeypatch):
    """--state resumes a run: the supports of pots enumerated before (here 13/4, a sample
    of an earlier round, not a start pot) must become generic families in the first round,
    not be skipped because their pot is already done (the resumed run used to lose them)."""
    import pokerdyn.solvers.symbolic.axis.sweep as sw

    seen: list = []
    monkeypatch.setattr(sw, "conditions", lambda *a: [])
    monkeypatch.setattr(sw, "pot_families", lambda *a: pytest.fail("enumerated again"))
    monkeypatch.setattr(sw, "generic_family", lambda g, c, case, f: seen.append(case) or [case])
    monkeypatch.setattr(sw, "equilibrium_pieces", lambda *a, **k: [])
    res = sw.sweep(GAME, FIXED, sp.Integer(2), sp.Integer(20), start=["5/2"],
                   done={"5/2": ["x"], "13/4": ["y"]})
    assert sorted(seen) == ["x", "y"] and res.supports == ["x", "y"]


def test_a_sweep_enumerates_the_rational_ends_of_its_pieces(monkeypatch):
    """At a rational end of a piece (a critical pot) families exist that are no limit of a
    generic family (P = 2 and 3 of this game, README): the sweep enumerates every rational
    end inside its range, none outside it and no irrational one, passes each end's supports
    to the pieces as point tasks, and keeps what an enumeration left undecided."""
    from types import SimpleNamespace

    import pokerdyn.solvers.symbolic.axis.sweep as sw
    from pokerdyn.solvers.symbolic.axis.piecewise import Piece

    r7 = 1 + sp.sqrt(7)
    axis = [Piece(sp.Interval.Ropen(2, 3), ()), Piece(sp.FiniteSet(3), ()),
            Piece(sp.Interval.open(3, r7), ()), Piece(sp.Interval(r7, 25), ())]
    pots: list = []
    calls: list = []

    def fake_pot_families(game, conds, v, fixed, un, odd):
        pots.append(v)
        if v == 3:
            un.append(("z", "a block not decided"))
        return [SimpleNamespace(cases=f"s{v}")]

    monkeypatch.setattr(sw, "conditions", lambda *a: [])
    monkeypatch.setattr(sw, "pot_families", fake_pot_families)
    monkeypatch.setattr(sw, "generic_family", lambda g, c, case, f: [case])
    monkeypatch.setattr(sw, "equilibrium_pieces", lambda *a, **k: calls.append(k) or axis)
    res = sw.sweep(GAME, FIXED, sp.Integer(2), sp.Integer(20), start=["5/2"])
    ends = [v for v in pots if v in (2, 3, r7, 25)]
    assert ends == [2, 3] and all(v.is_Rational for v in pots)
    assert sorted(v for v, _ in calls[-1]["tasks"].values()) == [2, 3]
    assert res.undecided == {"3": [["z", "a block not decided"]]}
    assert {"s2", "s3"} <= set(res.supports)  # an end's supports are solved with P symbolic too


def _point_piece(pot: str) -> list:
    return next(pc["families"] for pc in REC["pieces"] if pc["p_set"] == pot)


def _family_at(fam: dict, pot: sp.Expr, free: dict) -> dict:
    sub = {P: pot, **{sp.Symbol(k, real=True): v for k, v in free.items()}}
    return {k: _parse(e, sub) for k, e in fam["strategy"].items()}


@pytest.mark.parametrize("pot, name, others, ends, pays", [
    # P = 3: player 2's Q bluff b2_Q = beta in [0, 1/4] moves utility between players 1 and
    # 3 with E2 = -1/48 fixed: E1 = -(1 + 2 beta)/48, E3 = (1 + beta)/24, the formula of
    # Szafron, Gibson and Sturtevant (AAMAS 2013) for standard 3-player Kuhn poker; the ends
    # are F1's limit (beta = 0) and F2's (beta = 1/(P + 1) = 1/4); P3's K calls after
    # kbf and P2's after b are free with 1/2 <= c3_K_bf + c2_K_b <= beta + 1/2
    ("3", "b2_Q", {"c3_K_bf": sp.Rational(1, 4), "c2_K_b": sp.Rational(1, 4)}, (sp.Integer(0), sp.Rational(1, 4)),
     lambda b: (-(1 + 2 * b) / 48, sp.Rational(-1, 48), (1 + b) / 24)),
    # P = 5: player 1's Q bluff b1_Q in [1/3, 2/5] joins F7 (b1_Q = 2/(P + 1)) and F9
    # (b1_Q = 2/P) with E1 = -19/432 fixed (a transfer between players 2 and 3)
    ("5", "b1_Q", {}, (sp.Rational(1, 3), sp.Rational(2, 5)),
     lambda b: (sp.Rational(-19, 432), -(54 * b - 17) / 432, (27 * b + 1) / 216)),
])
def test_critical_pots_hold_the_segments_joining_their_neighbours(pot, name, others, ends,
                                                                  pays):
    """The sweep enumerates the rational ends of its pieces: at P = 3 and P = 5 the set is a
    segment between the families on either side (the CFR+ limits at these pots lie on it:
    b2_Q = 0.17 at 3, b1_Q = 0.357 at 5), exact equilibria along it and nowhere past its
    ends."""
    v = sp.Integer(pot)
    fam = next(f for f in _point_piece(pot) if name in f["free"])
    assert sorted(fam["free"]) == sorted([name, *others])
    pay = exact_payoffs(GAME, v)
    lo, hi = ends

    def at(t):
        return {sp.Symbol(k, real=True): x for k, x in {**others, name: t}.items()}

    for t in (lo, (lo + hi) / 2, hi, lo + (hi - lo) / 7):
        assert all(bool(_parse(c, at(t))) for c in fam["constraints"]), t
        point = _family_at(fam, v, {**others, name: t})
        assert nash_conv_fraction(GAME, v, point, pay) == 0, t
        assert tuple(_parse(e, at(t)) for e in fam["payoffs"]) == tuple(pays(t))
    for t in (lo - sp.Rational(1, 50), hi + sp.Rational(1, 50)):
        assert not all(bool(_parse(c, at(t))) for c in fam["constraints"]), t


def test_pot_two_is_one_zero_payoff_family_and_the_record_is_decided():
    """At P = 2 (nobody profits) the complete enumeration leaves one family with five free
    parameters (b3_Q among them, up to 2/3; the proof had listed families with b3_Q = 1/2
    that F1's limit lacks); every component the fixed-pot solver left undecided is a point
    of a family with sqrt(R(P)) that the whole-axis step decides (F10's support inside F10's
    range, ccbcbcbccbcbc nowhere feasible)."""
    (fam,) = _point_piece("2")
    assert len(fam["free"]) == 5 and "b3_Q" in fam["free"] and fam["payoffs"] == ["0"] * 3
    v = sp.Integer(2)
    free = {"c3_K_kb": 0, "b3_Q": sp.Rational(1, 2), "c3_K_bf": sp.Rational(1, 4),
            "c2_K_b": sp.Rational(1, 4), "c1_K_kbf": sp.Rational(1, 3)}
    assert all(bool(_parse(c, {sp.Symbol(k, real=True): x for k, x in free.items()}))
               for c in fam["constraints"])
    assert nash_conv_fraction(GAME, v, _family_at(fam, v, free), exact_payoffs(GAME, v)) == 0
    assert {"2", "3", "4", "5", "7/2"} <= set(REC["pots_enumerated"])
    assert {u["support"] for u in REC["undecided"]} == {"cbbcbcbccbccc", "ccbcbcbccbcbc"}


def test_the_undecided_components_belong_to_families_decided_over_the_axis(conds):
    """The components left undecided at 13/4, 55/16 and 7/2 (an irrational constant
    c1_K_kkb) come from two supports whose families carry sqrt(R(P)): F10's is feasible
    exactly on F10's range, the other's (R = P^4 - 6P^3 + 15P^2 - 2P + 1) nowhere in
    [2, 20], both branches."""
    from pokerdyn.solvers.symbolic.algebra.exceptional_pots import feasible_parts

    lo, hi = sp.Integer(2), sp.Integer(20)
    parts = {}
    for case in ("cbbcbcbccbccc", "ccbcbcbccbcbc"):
        fams = generic_family(GAME, conds, case, FIXED)
        assert len(fams) == 2  # the two roots
        parts[case] = [feasible_parts(f.constraints, f.free_symbols(), P, lo, hi) for f in fams]
    assert parts["ccbcbcbccbcbc"] == [([], []), ([], [])]
    ranges = [r for rs, _ in parts["cbbcbcbccbccc"] for r in rs]
    assert ranges == [(sp.Rational(3, 4) + sp.sqrt(97) / 4, sp.Rational(3, 2) + sp.sqrt(15) / 2)]


def test_a_block_is_solved_once_per_pot_and_its_unhandled_parts_are_repeated(monkeypatch):
    """atpot.block_once: the second leaf with the same block gets the same branches (fresh
    dicts) without a second solve, and whatever the solve left in positive_dimensional.UNHANDLED is
    reported again for it."""
    from pokerdyn.solvers.symbolic.axis import at_pot as swm
    from pokerdyn.solvers.symbolic.algebra import positive_dimensional

    x, y = sp.symbols("x y", real=True)
    calls = []

    def fake(eqs, xs, p):
        calls.append(tuple(eqs))
        positive_dimensional.UNHANDLED.append((tuple(eqs), "undecided"))
        return [{x: sp.Rational(1, 3), y: sp.Rational(1, 2)}]

    monkeypatch.setattr(swm, "solve_block", fake)
    monkeypatch.setattr(positive_dimensional, "UNHANDLED", [])
    memo: dict = {}
    first = swm.block_once(memo, [x * y - sp.Rational(1, 6), 2 * y - 1], [x, y])
    first[0][x] = 0  # a caller's change does not reach the memo
    again = swm.block_once(memo, [2 * y - 1, x * y - sp.Rational(1, 6)], [x, y])
    assert len(calls) == 1 and again == [{x: sp.Rational(1, 3), y: sp.Rational(1, 2)}]
    assert len(positive_dimensional.UNHANDLED) == 2
    swm.block_once(memo, [2 * y - 1, x * y - sp.Rational(1, 6)], [y, x])  # other unknowns
    assert len(calls) == 2


def test_a_constraint_sympy_decides_by_itself_is_dropped_from_the_display():
    """A family constraint that holds identically (x^2 + 1 >= 0 for real x) becomes sympy's
    True as a relation; the display drops it instead of failing on it (a resumed
    whole-axis sweep re-solving its critical pots met one at P = 5)."""
    from pokerdyn.solvers.symbolic.model.conditions import Family
    from pokerdyn.solvers.symbolic.axis.piecewise import _display

    x = sp.Symbol("x", real=True)
    fam = Family((("x", x),), ("x",), ((x, False), (1 - x, False), (x ** 2 + 1, False)), "c")
    sol = _display(fam, (), None, None)
    assert [str(c) for c in sol.constraints] == ["x >= 0", "x <= 1"]
    assert len(sol.constraints) == 2
