"""3-player Kuhn poker (kuhn3, 4 cards, pot P) with the pot symbolic: supports solved over
QQ(P) (solvers.symbolic.learned.pot_axis), the families recorded over 2 <= P <= 10 by
``pokerdyn equilibria kuhn3 --pots 2:10 --json`` (figures/frontier/data/kuhn3_pot.json)
re-certified exactly at random rational pots, their interval ends checked to be roots of the
stated polynomials, and the P = 3 supports checked against the fixed-pot families (Szafron,
Gibson & Sturtevant's family, AAMAS 2013, lies inside those)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import sympy as sp

from pokerdyn.figures.frontier.kuhn3_family import recorded
from pokerdyn.games.catalog.kuhn import kuhn3
from pokerdyn.cli import main
from pokerdyn.solvers.symbolic.feasibility import pot_split
from pokerdyn.solvers.symbolic.learned import pot_axis
from pokerdyn.solvers.symbolic.learned.equilibrium_set import family_from_record
from pokerdyn.solvers.symbolic.learned.pot_sweep import family_from_sweep_record

DATA = Path(__file__).resolve().parents[1] / "figures" / "frontier" / "data" / "kuhn3_pot.json"
GAPS = DATA.with_name("kuhn3_pot_gaps.json")
P3 = Path(__file__).resolve().parents[1] / "figures" / "frontier" / "data" / "kuhn3_families_P3.json"


@pytest.fixture(scope="module")
def psys():
    return pot_axis.pot_system(kuhn3())


@pytest.fixture(scope="module")
def sweep():
    return json.loads(DATA.read_text())


def test_p3_supports_solved_with_p_symbolic_give_the_fixed_pot_families(psys):
    """Each support of the recorded P = 3 families, solved once over QQ(P), is a family of
    the single pot P = 3 (its indifference equations force 2(3 - P)/(P + 1) = 0) and equals,
    at P = 3, the family solved at the fixed pot."""
    rec = json.loads(P3.read_text())
    p = psys.pot
    for r in recorded():
        fixed_fam, _ = family_from_record(r)
        case = pot_axis.full_case(psys.names, rec["dominance_fixed"], (), rec["free"],
                                  r["cases"])
        fams = pot_axis.support_families(psys, (), case)
        assert len(fams) == 1
        f = fams[0]
        assert f.only_at and all(sp.cancel(e.xreplace({p: 3})) == 0 for e in f.only_at)
        assert all(sp.cancel(e.xreplace({p: sp.Rational(7, 2)})) != 0 for e in f.only_at)
        at3 = pot_axis.at_value(f, p, sp.Integer(3))
        assert at3 is not None and at3.free == fixed_fam.free
        want = fixed_fam.as_dict()
        for n, v in at3.strategy:
            assert sp.cancel(sp.sympify(v) - want[n]) == 0, n


def test_families_have_exact_nash_conv_zero_at_random_rational_pots(psys, sweep):
    """A family's strategy at a random rational P strictly inside each recorded interval has
    a point with exact NashConv 0 in the full game (48 parameters, dominated actions
    included)."""
    rng = np.random.default_rng(14)
    recs = [r for r in sweep["families"] if r["ends"]["low"] != r["ends"]["high"]]
    assert recs
    for r in recs[:4]:
        fam = family_from_sweep_record(r, psys.game)
        lo, hi = (float(sp.N(sp.sympify(r["ends"][k]), 20)) for k in ("low", "high"))
        u = rng.uniform(0.1, 0.9)
        v = sp.nsimplify(lo + u * (hi - lo), rational=True, tolerance=1e-4)
        v = sp.Rational(round(v * 997), 997)
        assert lo < v < hi
        assert pot_axis.certify_at(psys, fam, v) is not None, (r["p_interval"], v)


def test_interval_ends_are_roots_of_the_stated_polynomials(sweep):
    p = sp.Symbol("P", positive=True)
    lo, hi = (sp.Rational(x) for x in sweep["pots"].split(":"))
    n = 0
    for r in sweep["families"]:
        for side in ("low", "high"):
            poly = r["ends"][f"{side}_root_of"]
            if poly is None:
                continue
            f = sp.sympify(poly, locals={"P": p})
            x = sp.sympify(r["ends"][side])
            assert pot_split.sign(f.xreplace({p: x})) == 0, (poly, x)
            assert pot_split.sign(x - lo) >= 0 and pot_split.sign(hi - x) >= 0
            n += 1
    assert n > 0


def test_sweep_pieces_cover_the_range_and_name_the_families(sweep):
    lo, hi = (sp.Rational(x) for x in sweep["pots"].split(":"))
    sets = [sp.sympify(q["p_set"]) for q in sweep["pieces"]]
    union = sp.Union(*[s if isinstance(s, sp.Set) else sp.FiniteSet(s) for s in sets])
    assert union == sp.Interval(lo, hi)
    assert "not a proof" in sweep["note"]


@pytest.mark.parametrize("argv, message", [
    (["equilibria", "kuhn3", "--pots", "5:2"], "0 < A <= B"),
    (["equilibria", "kuhn3", "--pots", "2-5"], "not a range A:B"),
    (["equilibria", "skp", "--pots", "2:5"], "--pots is for games past the case search"),
])
def test_bad_pot_range_one_line_exit_2(capsys, argv, message):
    rc = main(argv)
    out, err = capsys.readouterr()
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and message in err


def test_figure_renders_from_the_committed_data(tmp_path):
    from pokerdyn.figures.registry import load

    res = load("kuhn3_pot").main(tmp_path, seed=0, quick=True)
    assert res.files[0].exists()
    assert res.numbers["families"] >= 2 and "2:10" == res.numbers["pots"]
    assert res.numbers["families_gaps"] == {k: len(sw["families"]) for k, sw in
                                            ((sw["pots"], sw) for sw in gaps())}


def gaps() -> list:
    return json.loads(GAPS.read_text())["sweeps"]


@pytest.mark.parametrize("k", range(len(json.loads(GAPS.read_text())["sweeps"])))
def test_gap_sweeps_families_are_exact_equilibria_inside_their_intervals(psys, k):
    """The sweeps of (2, 5/2), (7/2, 4), (9/2, 5), (41/10, 9/2): every family with an open interval has a
    point with exact NashConv 0 in the full game at a random rational pot inside it."""
    rng = np.random.default_rng(140 + k)
    sw = gaps()[k]
    recs = [r for r in sw["families"] if r["ends"]["low"] != r["ends"]["high"]]
    assert recs
    for r in recs[:3]:
        fam = family_from_sweep_record(r, psys.game)
        lo, hi = (float(sp.N(sp.sympify(r["ends"][s]), 20)) for s in ("low", "high"))
        v = sp.Rational(round((lo + rng.uniform(0.1, 0.9) * (hi - lo)) * 997), 997)
        assert lo < v < hi
        assert pot_axis.certify_at(psys, fam, v) is not None, (r["p_interval"], v)


def test_p5_transfers_utility_between_players_2_and_3():
    """At P = 5 the families join the (9/2, 5) equilibrium (E2 = 1/(12 (P + 1)^2)) and the
    (5, 10) one (E2 = -(P - 3)/(12 P (P + 1))): E1 = -19/432 is fixed while x1_Q_0_b moves
    E2 and E3 (a utility transfer, as at P = 3 in Szafron et al.'s family)."""
    p, x = sp.Symbol("P", positive=True), sp.Symbol("x1_Q_0_b", real=True)
    sw = next(s for s in gaps() if s["pots"] == "9/2:5")
    at5 = [r for r in sw["families"] if r["p_interval"] == "5" and r["free"] == ["x1_Q_0_b"]]
    assert at5
    e1, e2, e3 = (sp.sympify(e, locals={"x1_Q_0_b": x}) for e in at5[0]["payoffs"])
    assert e1 == sp.Rational(-19, 432) and sp.diff(e2 + e3, x) == 0
    left = sp.Rational(1, 12) / (p + 1) ** 2
    right = -(p - 3) / (12 * p * (p + 1))
    ends = sorted(sp.solve(e2 - left.subs(p, 5), x) + sp.solve(e2 - right.subs(p, 5), x))
    assert ends == [sp.Rational(1, 3), sp.Rational(2, 5)]


def test_cli_prints_and_emits_the_sweep(psys, monkeypatch, capsys):
    """The --pots printout and JSON of a sweep (the sweep itself replaced by the P = 3
    family of one support, certified here): pieces, families, payoffs, the note."""
    from pokerdyn.solvers.symbolic.learned import pot_sweep as ps

    rec = json.loads(P3.read_text())
    case = pot_axis.full_case(psys.names, rec["dominance_fixed"], (), rec["free"],
                              recorded()[0]["cases"])
    f = pot_axis.support_families(psys, (), case)[0]
    three = sp.Integer(3)
    segs = tuple(pot_axis.segments(psys, f, three, three))
    assert [(s.low, s.high) for s in segs] == [(3, 3)]
    fams = (ps.PotFamily(f, segs, pot_axis.payoffs_of(psys, f)),)
    fake = ps.PotSweep("kuhn3", three, three, fams, ps._pieces(fams, three, three), (), {})
    monkeypatch.setattr(ps, "pot_sweep", lambda *a, **k: fake)
    assert main(["equilibria", "kuhn3", "--pots", "3:3"]) == 0
    out = capsys.readouterr().out
    assert "P = 3:" in out and "family 1" in out and "not a proof" in out
    assert main(["equilibria", "kuhn3", "--pots", "3:3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["pieces"] == [{"p_set": "3", "families": [0], "sampled": []}]
    assert data["families"][0]["payoffs"][1] == "-1/48"


def test_the_isolated_equilibrium_of_9_2_to_5_starts_at_a_root_and_has_a_wider_face(psys):
    """The sweep of (41/10, 9/2): the equilibrium the (9/2, 5) sweep found (payoffs
    (-(3P + 4)/(12 (P + 1)^2), 1/(12 (P + 1)^2), 1/(4 (P + 1)))) holds from (7 + sqrt 97)/4
    = 4.2122 (a root of 2P^2 - 7P - 6), and with player 2's K call after
    check-check-bet-call x2_K_kkbc_c free (payoff-neutral) on the wider
    [root of 2P^3 - 7P^2 - 4P + 2 = 3.9429, 2 + sqrt(34)/2 = 4.9155], P = 4 included, which
    no earlier sweep had found: checked exactly past the sweep's own range."""
    sw = next(s for s in gaps() if s["pots"] == "41/10:9/2")
    rec = {r["family"]: r for r in sw["families"] if r["p_interval"].startswith("Interval")}
    point, face = rec[7], rec[1]
    assert point["free"] == [] and face["free"] == ["x2_K_kkbc_c"]
    assert point["payoffs"] == face["payoffs"]
    p = sp.Symbol("P", positive=True)
    assert sp.simplify(sp.sympify(point["ends"]["low"]) - (7 + sp.sqrt(97)) / 4) == 0
    assert sp.expand(2 * sp.sympify(point["ends"]["low_root_of"], locals={"P": p})
                     - (2 * p ** 2 - 7 * p - 6)) == 0
    f_point = family_from_sweep_record(point, psys.game)
    f_face = family_from_sweep_record(face, psys.game)
    r = sp.Rational
    for v, ok in ((r(21, 5), False), (r(4223, 1000), True), (r(5), True), (r(51, 10), False)):
        assert (pot_axis.certify_at(psys, f_point, v) is not None) is ok, v
    for v, ok in ((r(39, 10), False), (r(3945, 1000), True), (r(4), True), (r(49, 10), True),
                  (r(4916, 1000), False)):
        assert (pot_axis.certify_at(psys, f_face, v) is not None) is ok, v
