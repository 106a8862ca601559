"""Continuation agrees with exact enumeration where both run: branch points of `kuhn3`
(N = 4, ante P/3) at P = 2, 3 and 6 lie in the exact families of the support method
(solvers.symbolic.learned; README "The equilibrium set of 3-player Kuhn poker"), recorded
in figures/frontier/data/kuhn3_families_P3.json (P = 3) and benchmarks/results/
kuhn3_set_pots.json, kuhn3_set_pot6.json (P = 2, 6); for N = 5 at P = 6 the branch point's
own support solved exactly.

A point lies in a family when the max-norm distance to it (solvers.symbolic.learned.
geometry.distance, the family's constraints enforced) is below 1e-8 on every set reached
with probability above 1e-6: a set nobody reaches has gain 0 whatever it plays, and the
continuation holds such a frequency at any value; the family's constraints must still hold
(they keep player 1, say, from betting into those sets)."""
from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from pokerdyn.figures.frontier.kuhn3_family import recorded
from pokerdyn.games import get_game
from pokerdyn.games.compiled import compile_game
from pokerdyn.solvers.continuation.api import continuation
from pokerdyn.solvers.continuation.trace import Options
from pokerdyn.solvers.evaluation import expected_payoffs
from pokerdyn.solvers.symbolic.learned.equilibrium_set import family_from_record
from pokerdyn.solvers.symbolic.families.geometry import Numeric, distance

RESULTS = Path(__file__).resolve().parents[1] / "benchmarks" / "results"
REACHED = 1e-6   # a set reached less often than this is not compared
TOL = 1e-8


def _records(pot: int) -> list[dict]:
    """The family records of the support method at ``pot`` (P = 3: the figure's data)."""
    if pot == 3:
        return recorded()
    name = "kuhn3_set_pot6.json" if pot == 6 else "kuhn3_set_pots.json"
    rows = json.loads((RESULTS / name).read_text())["kuhn3"]
    (row,) = [r for r in rows if r.get("pot") == str(pot)]
    return row["record"]["families"]


def _points_at(res, pot: float) -> list:
    """Distinct certified branch points (start, folds, end) at ``pot``."""
    out, seen = [], set()
    for b in res.branches:
        for q in (b.start, *b.folds, b.end):
            key = tuple(np.round(q.x, 10))
            if abs(q.pot - pot) < 1e-12 and key not in seen:
                seen.add(key)
                out.append(q)
    return out


def _check(res, pot: int) -> list[np.ndarray]:
    """Every branch point at ``pot``: exact NashConv below 1e-9, within TOL of a recorded
    family on the reached sets; returns their expected payoffs."""
    names = res.names
    nums = [Numeric(family_from_record(r)[0], names) for r in _records(pot)]
    cg = compile_game(res.system.game, {"P": pot})
    pts = _points_at(res, pot)
    assert pts, "no branch point at the pot"
    pays = []
    for q in pts:
        assert q.certificate["nash_conv"] < 1e-9, q.kind
        val = res.system.named_values(q.x)
        y = np.array([val[n] for n in names])
        mask = res.system.cf_reach(q.x, q.pot) > REACHED
        d = min(distance(num, y, mask)[0] for num in nums)
        assert d < TOL, (q.kind, d)
        pays.append(expected_payoffs(cg, res.system.sigma(q.x)))
    return pays


def test_branch_points_at_pot_3_lie_in_the_certified_families():
    """P = 3 reached from P = 3.1 by continuation, and the curves that the continuation
    follows inside the equilibrium set at P = 3 from a start there: every point is in one
    of the three families, player 2 gets -1/48 and players 1 and 3 share 1/48 - the
    utility transfer of Szafron, Gibson & Sturtevant (AAMAS 2013)."""
    game = get_game("kuhn3")
    arrive = continuation(game, (3.0, 3.1), start=3.1, opts=Options(max_branches=30))
    inside = continuation(game, (3.0, 3.05), start=3.0, opts=Options(max_branches=1))
    pays = _check(arrive, 3) + _check(inside, 3)
    for e in pays:
        assert e[1] == pytest.approx(-1 / 48, abs=1e-9)
        assert e[0] + e[2] == pytest.approx(1 / 48, abs=1e-9)
    assert len(pays) >= 3


@pytest.mark.parametrize("pot, pots, start, payoffs", [
    (2, (2.0, 2.1), 2.1, (0, 0, 0)),
    (6, (5.9, 6.0), 5.9, (Fraction(-11, 294), Fraction(-1, 168), Fraction(17, 392))),
])
def test_branch_points_at_pots_2_and_6_lie_in_the_certified_families(pot, pots, start,
                                                                     payoffs):
    """Followed to P = 2 (down from 2.1) and to P = 6 (up from 5.9), the branch points there
    lie in the families of the support method and pay what README reports: nobody profits
    at P = 2; at P = 6 (-11/294, -1/168, 17/392) on every family."""
    res = continuation(get_game("kuhn3"), pots, start=start, opts=Options(max_branches=30))
    for e in _check(res, pot):
        assert e == pytest.approx([float(v) for v in payoffs], abs=1e-9)


def test_five_card_branch_point_at_pot_6_lies_on_an_exact_family():
    """N = 5 (`kuhn3(cards=5)`, 60 parameters: the largest deck the support method takes):
    the branch point at P = 6, followed up from 5.9 and handed to the support method as its
    one proposal, has a support whose exact solution is a certified family (one free
    parameter, player 3's T bet after two checks; exact NashConv 0 at a rational point) at
    max-norm distance below 1e-8, with the family's exact payoffs."""
    from pokerdyn.solvers.symbolic.learned.equilibrium_set import equilibrium_set
    from pokerdyn.solvers.symbolic.learned.propose import LearnedProfile

    game = get_game("kuhn3(cards=5)")
    res = continuation(game, (5.9, 6.0), start=5.9, opts=Options(max_branches=30))
    pts = _points_at(res, 6.0)
    assert len(pts) == 1 and pts[0].certificate["nash_conv"] < 1e-9
    run = LearnedProfile("continuation", 0, res.system.named_values(pts[0].x),
                         pts[0].certificate["nash_conv"], 0)
    es = equilibrium_set(game, 6, runs=[run], rounds=0, curves=False)
    (fam,) = es.families
    assert fam.certified and fam.family.free == ("x3_T_kk_b",)
    assert es.distances[0][0] < 1e-8
    assert fam.payoffs == (Fraction(-359071, 7590240), Fraction(-64279507, 12255154065),
                           Fraction(27369277, 520803360))
    cg = compile_game(game, {"P": 6.0})
    assert expected_payoffs(cg, res.system.sigma(pts[0].x)) == pytest.approx(
        [float(v) for v in fam.payoffs], abs=1e-9)
