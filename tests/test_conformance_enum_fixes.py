"""Regression tests of the exact enumeration against Gambit's collection (issue 34, notes
34-conformance-defects.md): the fully mixed equilibrium of ``g3.efg`` (a root of degree 9,
lost by the triangular solver), membership at a pole of a family's formulas (``work2.efg``:
a ZeroDivisionError) and the size limit of the case search (``work3.efg``: refused with its
size instead of running past 90 s)."""
from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp

from pokerdyn.games import GameError
from pokerdyn.games.io.efg import game_from_efg
from pokerdyn.solvers.symbolic.casesearch import walk
from pokerdyn.solvers.symbolic.casesearch.case_enumeration import enumerate_families
from pokerdyn.solvers.symbolic.entry import case_search
from pokerdyn.solvers.symbolic.families.membership import contains_point
from pokerdyn.solvers.symbolic.model.conditions import conditions

from hostile import run_bad

G3 = """EFG 2 R "van der Laan et al. Four person, 2 x 2 x 2 x 2 example with no Pure Nash." { "Player 1" "Player 2" "Player 3" "Player 4" }
""

p "" 1 1 "(1,1)" { "1" "2" } 0
p "" 2 1 "(2,1)" { "1" "2" } 0
p "" 3 1 "(3,1)" { "1" "2" } 0
p "" 4 1 "(4,1)" { "1" "2" } 0
t "" 1 "Outcome 1" { -3, -4, -1, -6 }
t "" 2 "Outcome 2" { -3, -6, -6, -2 }
p "" 4 1 "(4,1)" { "1" "2" } 0
t "" 3 "Outcome 3" { -4, -2, -2, -3 }
t "" 4 "Outcome 4" { -2, -4, -2, -6 }
p "" 3 1 "(3,1)" { "1" "2" } 0
p "" 4 1 "(4,1)" { "1" "2" } 0
t "" 5 "Outcome 5" { -3, -5, -3, -5 }
t "" 6 "Outcome 6" { -3, -2, -3, -5 }
p "" 4 1 "(4,1)" { "1" "2" } 0
t "" 7 "Outcome 7" { -4, -7, -6, -1 }
t "" 8 "Outcome 8" { -1, -4, -5, -3 }
p "" 2 1 "(2,1)" { "1" "2" } 0
p "" 3 1 "(3,1)" { "1" "2" } 0
p "" 4 1 "(4,1)" { "1" "2" } 0
t "" 9 "Outcome 9" { -4, -5, -3, -3 }
t "" 10 "Outcome 10" { -1, -3, -3, -4 }
p "" 4 1 "(4,1)" { "1" "2" } 0
t "" 11 "Outcome 11" { -4, -3, -4, -2 }
t "" 12 "Outcome 12" { -3, -6, -6, -7 }
p "" 3 1 "(3,1)" { "1" "2" } 0
p "" 4 1 "(4,1)" { "1" "2" } 0
t "" 13 "Outcome 13" { -1, -8, -3, -3 }
t "" 14 "Outcome 14" { -1, -6, -2, -1 }
p "" 4 1 "(4,1)" { "1" "2" } 0
t "" 15 "Outcome 15" { -6, -3, -1, -2 }
t "" 16 "Outcome 16" { -8, -5, -5, -5 }
"""

WORK3 = """EFG 2 R "Employer - Employee problem, three stages" { "Player 1" "Player 2" }
""

c "" 1 "(0,1)" { "HW" 1/2 "L" 1/2 } 0
p "" 1 1 "(1,1)" { "F" "H" } 0
t "" 1 "Outcome 1" { 0, 0 }
p "" 2 1 "(2,1)" { "Q" "W" } 2 "Outcome 2" { -2, 2 }
t "" 3 "Outcome 3" { 0, 0 }
p "" 1 2 "(1,2)" { "F" "H" } 4 "Outcome 4" { 3, 1 }
t "" 1 "Outcome 1" { 0, 0 }
p "" 2 2 "(2,3)" { "Q" "W" } 2 "Outcome 2" { -2, 2 }
t "" 3 "Outcome 3" { 0, 0 }
p "" 1 3 "(1,3)" { "F" "H" } 4 "Outcome 4" { 3, 1 }
t "" 1 "Outcome 1" { 0, 0 }
p "" 2 3 "(2,5)" { "Q" "W" } 2 "Outcome 2" { -2, 2 }
t "" 3 "Outcome 3" { 0, 0 }
t "" 4 "Outcome 4" { 3, 1 }
p "" 1 1 "(1,1)" { "F" "H" } 0
t "" 5 "Outcome 5" { 0, 0 }
p "" 2 4 "(2,2)" { "Q" "W" } 6 "Outcome 6" { -2, 2 }
t "" 7 "Outcome 7" { 0, 0 }
p "" 1 2 "(1,2)" { "F" "H" } 8 "Outcome 8" { 3, -1 }
t "" 1 "Outcome 1" { 0, 0 }
p "" 2 5 "(2,4)" { "Q" "W" } 2 "Outcome 2" { -2, 2 }
t "" 7 "Outcome 7" { 0, 0 }
p "" 1 3 "(1,3)" { "F" "H" } 8 "Outcome 8" { 3, -1 }
t "" 1 "Outcome 1" { 0, 0 }
p "" 2 6 "(2,6)" { "Q" "W" } 2 "Outcome 2" { -2, 2 }
t "" 7 "Outcome 7" { 0, 0 }
t "" 8 "Outcome 8" { 3, -1 }
"""


def test_g3_fully_mixed_equilibrium_is_found_exactly():
    """Gambit's g3.efg (4 players, 2 actions each): the leaf where everyone mixes has one
    equilibrium, x4 a root of a degree-9 polynomial (pygambit's enumpoly finds it at
    x = (0.2889, 0.3062, 0.3799, 0.6354)); the triangular solver dropped it silently."""
    game = game_from_efg(G3, "g3")
    conds = conditions(game, None)
    fams = enumerate_families(game, conds=conds, leaves=[({}, "cccc")])
    assert len(fams) == 1
    values = dict(fams[0].strategy)
    x = [values[c.name] for c in conds]
    assert all(v.has(sp.CRootOf) for v in x)
    want = (0.28888624616264946, 0.3062086493776899, 0.3798810867155197, 0.6354439692419179)
    assert [float(sp.N(v, 30)) for v in x] == pytest.approx(want, abs=1e-12)
    sub = {c.symbol: v for c, v in zip(conds, x)}
    for c in conds:  # every gain vanishes there (an exact zero: 60 digits)
        assert abs(sp.N(c.gradient.xreplace(sub), 60)) < sp.Float(10) ** -50


class _Family:
    """A family as contains_point reads it (piecewise.Solution's fields)."""

    def __init__(self, strategy, free, raw):
        self.strategy, self.free, self.raw = strategy, free, raw


def test_point_at_a_pole_of_a_family_is_outside_it():
    """work2.efg's family x23 = (2 x21 - 3 x22 x24 + 2 x22) / (3 x21), 0 <= x21 <= 1: the
    extreme equilibrium at x21 = 0 lies in another family; here the test is False, not a
    ZeroDivisionError ('sign of the undefined value nan')."""
    a, b = sp.symbols("a b", real=True)
    fam = _Family((("a", a), ("b", (2 * a - 1) / (3 * a))), ("a",),
                  ((a, False), (1 - a, False), (sp.Rational(2, 3) - 1 / (3 * a), False)))
    assert contains_point(fam, {"a": Fraction(0)}) is False
    assert contains_point(fam, {"a": Fraction(0), "b": Fraction(0)}) is False
    assert contains_point(fam, {"a": Fraction(1), "b": Fraction(1, 3)}) is True
    assert contains_point(fam, {"a": Fraction(1), "b": Fraction(1, 2)}) is False


def test_case_search_refused_with_its_size(tmp_path):
    """work3.efg: 346 case combinations, more than MAX_CASE_LEAVES: one GameError line with
    the size and the limit, at once (the conformance run timed out at 90 s)."""
    game = game_from_efg(WORK3, "work3")
    with pytest.raises(GameError, match=r"more than 300 case combinations.*at most 300"):
        case_search(game, None)
    path = tmp_path / "work3.efg"
    path.write_text(WORK3)
    run_bad(["equilibria", str(path)], ("300 case combinations", "--force"), tmp_path)


def test_force_lifts_the_limit(monkeypatch):
    """force=True runs past the limit (checked with a limit of 2 on skp at P = 9)."""
    from pokerdyn.games import get_game

    monkeypatch.setattr(walk, "MAX_CASE_LEAVES", 2)
    game = get_game("skp")
    with pytest.raises(GameError, match="more than 2 case combinations"):
        case_search(game, sp.Integer(9))
    assert len(case_search(game, sp.Integer(9), force=True)) == 3


@pytest.mark.parametrize("spec", ["kuhn", "kuhn3-third", "skp"])
def test_project_games_within_the_limit(spec):
    from pokerdyn.games import get_game
    from pokerdyn.solvers.symbolic.model.conditions import pot_symbol

    game = get_game(spec)
    leaves = walk.case_leaves(conditions(game, None), pot_symbol(game), {})
    assert len(leaves) <= walk.MAX_CASE_LEAVES
