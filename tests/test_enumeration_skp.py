"""Symbolic equilibrium enumeration on SKP against Billingham section 3 and appendix B."""
import json
import subprocess
import sys

import pytest
import sympy as sp

from pokerdyn.games import GameBuilder, GameError, get_game
from pokerdyn.solvers.methods.crosscheck import exact_nash_conv
from pokerdyn.solvers.symbolic.model.conditions import conditions
from pokerdyn.solvers.symbolic.axis.piecewise import equilibrium_pieces

P = sp.Symbol("P", positive=True)
PSTAR = (5 + sp.sqrt(73)) / 2  # Billingham sec. 3: the positive root of 12 + 5P - P^2


def _same(a, b):
    return sp.simplify(sp.sympify(a) - sp.sympify(b)) == 0


def _piece_containing(pieces, v):
    return [pc for pc in pieces if pc.p_set.contains(v) is sp.true]


def test_skp_gains_are_billingham_appendix_b():
    """Billingham (38)-(40): the gains of b_J, c_K, d_Q are 24x the bracketed coefficients."""
    g = {c.name: c.gradient for c in conditions(get_game("skp"))}
    b, c, d = sp.symbols("b_J c_K d_Q", real=True)
    assert _same(24 * g["b_J"], P - 5 - (P + 1) * (d + (1 - d) * c))
    assert _same(24 * g["c_K"], P * b - 2)
    assert _same(24 * g["d_Q"], c - 2 + b * (1 - c) * (P + 1))


def test_skp_three_solutions_and_pstar():
    """Billingham (12)-(14) and (15)-(17): one solution on (5, P*), three on [P*, oo)."""
    pieces = equilibrium_pieces(get_game("skp"))
    sets = [pc.p_set for pc in pieces]
    assert sp.Interval.open(5, PSTAR) in sets
    assert sp.Interval(PSTAR, sp.oo) in sets
    sol1 = {"b_J": 2 / (P + 1), "c_K": 0, "d_Q": (P - 5) / (P + 1)}
    sol2 = {"b_J": 2 / P, "c_K": (P - 5) / (P + 1), "d_Q": 0}
    sol3 = {"b_J": 2 / P, "c_K": 2 / (P + 2), "d_Q": (P ** 2 - 5 * P - 12) / (P * (P + 1))}
    pay1 = [-(P - 2) / (12 * (P + 1)), -(P - 2) / (12 * (P + 1)), (P - 2) / (6 * (P + 1))]
    pay2 = [-(P - 2) / (12 * P), -(P - 1) * (P - 2) / (12 * P * (P + 1)), (P - 2) / (6 * (P + 1))]
    pay3 = [-(P - 2) / (12 * P), -(P ** 2 - P - 8) / (12 * P * (P + 2)),
            (2 * P ** 2 - P - 12) / (12 * P * (P + 2))]
    (mid,) = [pc for pc in pieces if pc.p_set == sp.Interval.open(5, PSTAR)]
    (top,) = [pc for pc in pieces if pc.p_set == sp.Interval(PSTAR, sp.oo)]
    assert len(mid.solutions) == 1 and len(top.solutions) == 3
    s = mid.solutions[0]
    assert all(_same(s.as_dict()[k], v) for k, v in sol1.items())
    assert all(_same(a, b) for a, b in zip(s.payoffs, pay1))
    for want, pay in ((sol1, pay1), (sol2, pay2), (sol3, pay3)):
        hits = [x for x in top.solutions if all(_same(x.as_dict()[k], v) for k, v in want.items())]
        assert len(hits) == 1
        assert all(_same(a, b) for a, b in zip(hits[0].payoffs, pay))


def test_skp_point_five_has_its_own_solution_set():
    """At P = 5 Player 3 may bluff with any b_J in [0, 1/3], both ends included (decided at
    P = 5 exactly); the reduced set is this one segment (its end points b_J = 0 and 1/3,
    listed separately by the raw enumeration, are inside it)."""
    pieces = equilibrium_pieces(get_game("skp"))
    (five,) = [pc for pc in pieces if pc.p_set == sp.FiniteSet(5)]
    (s,) = five.solutions
    assert s.as_dict()["c_K"] == 0 and s.as_dict()["d_Q"] == 0
    assert s.intervals == (("b_J", sp.S.Zero, sp.Rational(1, 3), False, False),)
    for bj in (0, sp.Rational(1, 3)):
        assert exact_nash_conv(get_game("skp"), 5, {"b_J": bj, "c_K": 0, "d_Q": 0}) == 0
    assert exact_nash_conv(get_game("skp"), 5, {"b_J": sp.Rational(2, 5), "c_K": 0, "d_Q": 0}) > 0


@pytest.mark.parametrize("pot", [3, 6, 9, 12])
def test_skp_sample_points_have_exact_zero_nash_conv(pot):
    from pokerdyn.solvers.symbolic.axis.piecewise import solutions_at
    g = get_game("skp")
    sols = solutions_at(g, pot)
    assert sols
    for s in sols:
        pt = s.sample()
        assert exact_nash_conv(g, pot, pt) == 0


def test_non_equilibrium_has_positive_nash_conv():
    g = get_game("skp")
    assert exact_nash_conv(g, 9, {"b_J": 0, "c_K": 0, "d_Q": 0}) > 0


def test_equilibria_json_parses_with_sympify():
    out = subprocess.run([sys.executable, "-m", "pokerdyn", "equilibria", "skp", "--json"],
                         capture_output=True, text=True, check=True).stdout
    data = json.loads(out)
    assert data["game"] == "skp" and data["families"]
    for f in data["families"]:
        sp.sympify(f["p_interval"])
        for v in f["strategy"].values():
            sp.sympify(v)
        for c in f["constraints"] + f["payoffs"]:
            sp.sympify(c)


def test_bad_input_gives_clear_errors():
    b = GameBuilder("trivial", 1)
    b.terminal([0])
    with pytest.raises(GameError, match="no named parameters"):
        conditions(b.build())
    with pytest.raises(GameError, match="at most"):
        conditions(get_game("kuhn3"))
    r = subprocess.run([sys.executable, "-m", "pokerdyn", "equilibria", "skp", "--pot", "abc"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "not a number" in r.stderr
