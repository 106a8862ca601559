"""Cross-check of the exact equilibrium families (issue 3) against fictitious play, the
exact NashConv of family samples, and the ``equilibria`` / ``crosscheck`` CLI output."""
from __future__ import annotations

import json

import pytest
import sympy as sp

from pokerdyn.games import get_game
from pokerdyn.cli import main
from pokerdyn.solvers.methods.crosscheck import crosscheck, distance_to_family, exact_nash_conv
from pokerdyn.solvers.symbolic.model.conditions import pot_symbol
from pokerdyn.solvers.symbolic.axis.piecewise import equilibrium_pieces, solutions_at

POTS = [3, 6, 9, 12]


def test_skp_fp_runs_end_near_a_family():
    # Issue 3 acceptance: every FP run from 10 random starts ends within 1e-2 of a family.
    # Alternating FP: 2000 iterations give max distance ~5e-3 (simultaneous needs > 10^4
    # iterations at P = 6, 9, 12: 2.5e-2 after 2000, 1.5e-2 after 10^4).
    result = crosscheck(get_game("skp"), POTS, starts=10, iterations=2000, seed=0)
    for pc in result:
        assert len(pc.runs) == 10
        assert max(r.distance for r in pc.runs) < 1e-2, pc.pot
        assert all(f["nash_conv_exact"] is sp.S.Zero for f in pc.families)
    # At P = 9 and 12 every run goes to Billingham's Solution 2 (b_J = 2/P, c_K = (P-5)/(P+1),
    # d_Q = 0), none to Solutions 1 or 3: FP selects one of the three, it finds no other.
    for pc in result[2:]:
        fam = solutions_at(get_game("skp"), int(pc.pot))[pc.runs[0].nearest_family]
        assert dict(fam.strategy)["d_Q"] == 0 and dict(fam.strategy)["c_K"] != 0
        assert {r.nearest_family for r in pc.runs} == {pc.runs[0].nearest_family}


def test_kuhn3_third_fp_runs_end_near_a_family():
    # Same acceptance for one-third street Kuhn poker (Billingham sec. 2), whose equilibria
    # form continua at every P: distance to the SET (free parameters optimised).
    game = get_game("kuhn3-third")
    equilibrium_pieces(game)
    # 2000 iterations leave distances up to 0.055 at P = 12 (NashConv 2e-3): FP's average
    # approaches the continua like 1/t, so 20000 iterations (max distance 0.007) are used.
    result = crosscheck(game, POTS, starts=10, iterations=20000, seed=1)
    for pc in result:
        assert max(r.distance for r in pc.runs) < 1e-2, pc.pot
        assert all(f["nash_conv_exact"] is sp.S.Zero for f in pc.families)


def test_every_skp_family_sample_has_exact_nash_conv_zero():
    game = get_game("skp")
    p = pot_symbol(game)
    for pc in equilibrium_pieces(game):
        if isinstance(pc.p_set, sp.FiniteSet):
            pot = next(iter(pc.p_set))
        else:
            lo, hi = pc.p_set.inf, pc.p_set.sup
            pot = lo + 1 if hi is sp.oo else (lo + hi) / 2  # P* + 1 and (5 + P*)/2 irrational
        for sol in pc.solutions:
            assert exact_nash_conv(game, pot, sol.sample(pot, p)) is sp.S.Zero, (pc.p_set, sol)


def test_exact_nash_conv_is_positive_off_equilibrium():
    game = get_game("skp")
    # Solution 1 at P = 9 (b_J = 1/5, d_Q = 2/5) with player 3 deviating to b_J = 1/2:
    # players 1 and 2 then gain by deviating, so NashConv > 0, exactly rational.
    nc = exact_nash_conv(game, 9, {"b_J": sp.Rational(1, 2), "c_K": 0, "d_Q": sp.Rational(2, 5)})
    assert nc.is_Rational and nc > 0


def test_exact_nash_conv_kuhn_known_family():
    # Two-player Kuhn poker: the known family (Kuhn 1950), alpha in [0, 1/3]; value -1/18.
    game = get_game("kuhn")
    for a in (sp.Integer(0), sp.Rational(1, 6), sp.Rational(1, 3)):
        pt = {"b1_J": a, "b1_Q": 0, "b1_K": 3 * a, "c1_J": 0, "c1_Q": a + sp.Rational(1, 3),
              "c1_K": 1, "b2_J": sp.Rational(1, 3), "b2_Q": 0, "b2_K": 1, "c2_J": 0,
              "c2_Q": sp.Rational(1, 3), "c2_K": 1}
        assert exact_nash_conv(game, None, pt) is sp.S.Zero
    pt["c2_Q"] = sp.Rational(1, 2)
    assert exact_nash_conv(game, None, pt) > 0


def test_distance_to_a_continuum_is_to_the_set():
    # skp at P = 5: family b_J in [0, 1/3), c_K = d_Q = 0 (Billingham sec. 3).  A point with
    # b_J = 0.2 lies in the set (distance 0); b_J = 0.5 is 1/6 from its closure.
    sol = next(s for s in solutions_at(get_game("skp"), 5) if s.free)
    assert distance_to_family(sol, {"b_J": 0.2, "c_K": 0.0, "d_Q": 0.0}) < 1e-8
    assert distance_to_family(sol, {"b_J": 0.5, "c_K": 0.0, "d_Q": 0.0}) == pytest.approx(1 / 6)
    assert distance_to_family(sol, {"b_J": 0.2, "c_K": 0.05, "d_Q": 0.0}) == pytest.approx(0.05)


def test_crosscheck_replays_from_its_seed():
    a = crosscheck(get_game("skp"), [9], starts=3, iterations=50, seed=7)
    b = crosscheck(get_game("skp"), [9], starts=3, iterations=50, seed=7)
    c = crosscheck(get_game("skp"), [9], starts=3, iterations=50, seed=8)
    assert [r.distance for r in a[0].runs] == [r.distance for r in b[0].runs]
    assert [r.distance for r in a[0].runs] != [r.distance for r in c[0].runs]


def _json(capsys, argv):
    rc = main(argv)
    return rc, json.loads(capsys.readouterr().out)


def _check_parses(obj):
    for fam in obj["families"]:
        sp.sympify(fam["p_interval"])
        for v in fam["strategy"].values():
            sp.sympify(v)
        for c in fam["constraints"]:
            assert isinstance(sp.sympify(c), sp.core.relational.Relational)
        for e in fam["payoffs"]:
            sp.sympify(e)


@pytest.mark.parametrize("argv", [["skp"], ["skp", "--pot", "5"], ["skp", "--pot", "9"],
                                  ["kuhn"], ["kuhn", "--pot", "1"]])
def test_equilibria_json_strings_parse(capsys, argv):
    if argv[0] == "kuhn" and "--pot" in argv:  # kuhn has no pot: a one-line error, exit 2
        assert main(["equilibria", *argv]) == 2
        assert "no pot parameter" in capsys.readouterr().err
        return
    rc, obj = _json(capsys, ["equilibria", *argv, "--json"])
    assert rc == 0 and obj["game"] == argv[0] and obj["families"]
    _check_parses(obj)
    if argv == ["kuhn"]:  # Kuhn (1950): player 1's value is -1/18 on the whole family
        assert all(sp.simplify(sp.sympify(f["payoffs"][0]) + sp.Rational(1, 18)) == 0
                   for f in obj["families"])


def test_equilibria_json_round_trips_skp_pieces(capsys):
    # P* = (5 + sqrt 73)/2 (Billingham sec. 3) survives the string form exactly.
    from pokerdyn.solvers.symbolic.axis.family_records import record_family

    _, obj = _json(capsys, ["equilibria", "skp", "--json"])
    sets = [record_family(f, get_game("skp"))["p_set"] for f in obj["families"]]
    pstar = (5 + sp.sqrt(73)) / 2
    assert sp.Interval.open(5, pstar) in sets and sp.Interval(pstar, sp.oo) in sets
    assert sp.FiniteSet(5) in sets
    sol2 = [record_family(f, get_game("skp")) for f in obj["families"] if record_family(f, get_game("skp"))["p_set"].inf == pstar]
    P = pot_symbol(get_game("skp"))
    assert {"b_J": 2 / P, "c_K": (P - 5) / (P + 1), "d_Q": sp.Integer(0)} in \
        [{k: sp.simplify(v) for k, v in f["strategy"].items()} for f in sol2]


@pytest.mark.parametrize("argv,msg", [(["equilibria", "leduc"], "too large to enumerate"),
                                      (["equilibria", "skp", "--pot", "abc"], "not a number"),
                                      (["equilibria", "skp", "--pot", "-1"], "outside"),
                                      (["crosscheck", "skp", "--pots", "3,x"], "not a number")])
def test_bad_input_one_line_exit_2(capsys, argv, msg):
    assert main(argv) == 2
    err = capsys.readouterr().err
    # a slow build (a loaded machine) may add its timing notices: not errors
    lines = [ln for ln in err.splitlines() if not ln.startswith("pokerdyn: building")]
    assert msg in err and len(lines) == 1


def test_crosscheck_cli_json_and_failure_exit(capsys):
    rc, obj = _json(capsys, ["crosscheck", "skp", "--pots", "3", "--starts", "2",
                             "--iterations", "2000", "--json"])
    assert rc == 0 and obj["pots"][0]["families"][0]["nash_conv_exact"] == "0"
    assert {"start", "distance", "nash_conv", "nearest_family"} <= set(obj["pots"][0]["runs"][0])
    # 20 FP iterations cannot get within 1e-2 at P = 9: flagged, exit code 1.
    rc, obj = _json(capsys, ["crosscheck", "skp", "--pots", "9", "--starts", "2",
                             "--iterations", "20", "--json"])
    assert rc == 1 and obj["failures"] >= 1
