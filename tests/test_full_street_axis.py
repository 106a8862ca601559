"""Every equilibrium of full-street simplified 3-player Kuhn poker piecewise in P
(Billingham, arXiv 1707.01392; solvers.symbolic.fullaxis).  The whole-axis run takes minutes
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

from games import get_game
from solvers.symbolic import enumeration as en
from solvers.symbolic.fullaxis.certify import exact_payoffs, nash_conv_fraction
from solvers.symbolic.fullaxis.groebner import solve_block
from solvers.symbolic.fullaxis.sweep import generic_family
from figures.frontier.full_street import RECORD

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
    from solvers.exact_profile import exact_values
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
    from figures.frontier.full_street import main

    res = main(tmp_path, seed=0, quick=True)
    assert res.files[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert res.numbers["max_coexisting"] == max(c["count"] for c in REC["coexistence"])
    assert res.numbers["supports"] == len({f["support"] for _, _, f in _families()})


def _families():
    from figures.frontier.full_street import families

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
    import solvers.symbolic.fullaxis.sweep as sw

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

    import solvers.symbolic.fullaxis.sweep as sw
    from solvers.symbolic.piecewise import Piece

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
