"""Issue 34: crashes and internal errors of the exact equilibrium commands on files of Gambit's
game collection (github.com/gambitproject/gambit, contrib/games/), each a regression test:

- nim7.efg, montyhal.efg: an identically zero gain (the owner indifferent everywhere) left
  sympy's division without a quotient (IndexError in supports/gains.py);
- jury_un.efg: two families rational in their free parameters, one's denominator zero on the
  other, were compared by blind substitution: 0/0, then "nan is not a real number" printed
  as bad input (exit 2);
- games past the case search without a pot went to minutes of learning runs (a time-out
  on the collection) instead of a refusal with their size.
"""
from __future__ import annotations

import contextlib
import io
import json

import pytest
import sympy as sp

from pokerdyn.games import GameError
from pokerdyn.games.io.efg import game_from_efg
from pokerdyn.cli import main

# Gambit contrib/games/nim7.efg, verbatim: one pile of 7 stones, take 1 or 2, the player who
# takes the last stone wins; player 2 wins (pokerdyn's LP and pygambit's LCP: -1 to player 1)
NIM7 = '''EFG 2 R "Nim-like game. One pile of 7 stones." { "Player 1" "Player 2" }

p "7 left" 2 1 "(2,4)" { "take 2" "take 1" } 0
p "5 left" 1 1 "(1,1)" { "take_2" "take_1" } 0
p "3_left" 2 2 "(2,1)" { "take_2" "take_1" } 0
t "1_left" 1 "Outcome 1" { 1 -1 }
p "2_left" 1 2 "(1,2)" { "take_2" "take_1" } 0
t "0_left" 1 "Outcome 1" { 1 -1 }
t "1_left" 2 "Outcome 2" { -1 1 }
p "4_left" 2 3 "(2,2)" { "take_2" "take_1" } 0
p "2_left" 1 3 "(1,3)" { "take_2" "take_1" } 0
t "0_left" 1 "Outcome 1" { 1 -1 }
t "1_left" 2 "Outcome 2" { -1 1 }
p "3_left" 1 4 "(1,4)" { "take_2" "take_1" } 0
t "1_left" 2 "Outcome 2" { -1 1 }
p "2_left" 2 4 "(2,3)" { "take_2" "take_1" } 0
t "0_left" 2 "Outcome 2" { -1 1 }
t "1_left" 1 "Outcome 1" { 1 -1 }
p "6 left" 1 5 "(1,5)" { "take 2" "2" } 0
p "4 left" 2 5 "(2,5)" { "take_2" "take_1" } 0
p "2_left" 1 6 "(1,6)" { "take_2" "take_1" } 0
t "0_left" 1 "Outcome 1" { 1 -1 }
t "1_left" 2 "Outcome 2" { -1 1 }
p "3_left" 1 7 "(1,7)" { "take_2" "take_1" } 0
t "1_left" 2 "Outcome 2" { -1 1 }
p "2_left" 2 6 "(2,6)" { "take_2" "take_1" } 0
t "0_left" 2 "Outcome 2" { -1 1 }
t "1_left" 1 "Outcome 1" { 1 -1 }
p "" 2 7 "(2,7)" { "take_2" "take_1" } 0
p "3_left" 1 8 "(1,8)" { "take_2" "take_1" } 0
t "1_left" 2 "Outcome 2" { -1 1 }
p "2_left" 2 8 "(2,8)" { "take_2" "take_1" } 0
t "0_left" 2 "Outcome 2" { -1 1 }
t "1_left" 1 "Outcome 1" { 1 -1 }
p "4_left" 1 9 "(1,9)" { "take_2" "take_1" } 0
p "2_left" 2 9 "(2,9)" { "take_2" "take_1" } 0
t "0_left" 2 "Outcome 2" { -1 1 }
t "1_left" 1 "Outcome 1" { 1 -1 }
p "3_left" 2 10 "(2,10)" { "take_2" "take_1" } 0
t "1_left" 1 "Outcome 1" { 1 -1 }
p "2_left" 1 10 "(1,10)" { "take_2" "take_1" } 0
t "0_left" 1 "Outcome 1" { 1 -1 }
t "1_left" 2 "Outcome 2" { -1 1 }
'''


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def _pennies(copies: int) -> str:
    """``copies`` matching-pennies games behind a uniform chance move (2 * copies
    parameters, none dominated): past the case search once 2 * copies > 16."""
    lines = ['EFG 2 R "pennies" { "1" "2" }', "",
             'c "" 1 "" { ' + " ".join(f'"g{k}" 1/{copies}' for k in range(copies)) + " } 0"]
    out = 1
    for k in range(copies):  # depth first: P1 H -> P2 (h, t), P1 T -> P2 (h, t)
        lines.append(f'p "" 1 {k + 1} "" {{ "H" "T" }} 0')
        for a in "HT":
            lines.append(f'p "" 2 {k + 1} "" {{ "h" "t" }} 0')
            for b in "ht":
                win = 1 if a.lower() == b else -1
                lines.append(f't "" {out} "" {{ {win} {-win} }}')
                out += 1
    return "\n".join(lines) + "\n"


def test_identically_zero_gain_stays_zero():
    """nim7.efg: after iterated strict dominance the three parameters left have gains that
    vanish identically (player 1 loses whatever they do there); they are conditions with
    gain 0, not an IndexError."""
    from pokerdyn.solvers.symbolic.model.sparse_gains import gain_system, undominated

    game = game_from_efg(NIM7, "nim7")
    sysm = gain_system(game, None)
    dom, gains, fixed = undominated(game, None, system=sysm)
    assert len(game.named) == 20 and len(fixed) == 17
    assert len(gains.conditions) == 3
    assert all(c.gradient == 0 for c in gains.conditions)
    assert all(not e for e in gains.elements)


def test_nim7_enumerated_exactly_after_dominance(tmp_path):
    """nim7.efg (20 parameters, 3 undominated): the case search over the 3 gives one family,
    a cube of player-1 choices where player 1 loses anyway, with value -1 (player 2 moves
    first from 7 stones, not a multiple of 3, and wins; pokerdyn's LP and pygambit's LCP
    give -1 too, issue 34)."""
    path = tmp_path / "nim7.efg"
    path.write_text(NIM7)
    code, out, err = _run(["equilibria", str(path), "--json"])
    assert code == 0, err
    rec = json.loads(out)
    assert len(rec["dominance_fixed"]) == 17
    (fam,) = rec["families"]
    assert fam["payoffs"] == ["-1", "1"]
    assert len(fam["free"]) == 3


def test_support_path_refuses_a_third_action():
    """montyhal.efg (17 parameters, a 3-action set) reached the support method, whose gains
    treat each parameter as a probability of its own: the size check refuses it in one
    line naming the set (the case search's rule, shared)."""
    from pokerdyn.solvers.symbolic.learned.equilibrium_set import check_size

    text = ('EFG 2 R "three" { "1" "2" }\n\np "" 1 1 "" { "a" "b" "c" } 0\n'
            't "" 1 "" { 1 -1 }\np "" 2 1 "" { "l" "r" } 0\nt "" 2 "" { 0 0 }\n'
            't "" 3 "" { 2 -2 }\nt "" 4 "" { -1 1 }\n')
    with pytest.raises(GameError, match="has 3 actions; enumeration supports at most 2"):
        check_size(game_from_efg(text, "three"))


def test_past_the_case_search_refused_with_its_size(tmp_path):
    """9 matching-pennies games (18 parameters, none dominated, no pot): refused with the
    number of undominated parameters and the limit, at once, not minutes of learning
    runs (Gambit's artist2.efg, bayes2a.efg, palf2.efg: 20 undominated)."""
    path = tmp_path / "pennies.efg"
    path.write_text(_pennies(9))
    code, out, err = _run(["equilibria", str(path)])
    assert code == 2 and out == ""
    assert "18 undominated parameters (of 18)" in err and "at most 16" in err
    assert len(err.strip().splitlines()) == 1


def test_family_undefined_on_another_is_not_compared_by_substitution():
    """jury_un.efg, reduced: ``big`` is rational in its free parameters with denominator
    ``y - w`` (a pivot's 'coefficient != 0' branch); ``small`` has ``y = w = 1``.  The
    substitution gave 0/0, then 'nan is not a real number' as bad input; now ``small`` is
    not inside ``big`` (big's formula does not reach it) and both are kept."""
    from pokerdyn.solvers.symbolic.model.conditions import Family
    from pokerdyn.solvers.symbolic.families.reduction import family_contains, reduce_families

    game = game_from_efg(NIM7, "nim7")  # decisions here need no payoffs
    a, y, w, z = sp.symbols("a y w z", real=True)
    big = Family((("a", (1 - w) / (y - w)), ("y", y), ("w", w), ("z", sp.Integer(1))),
                 ("y", "w"), (((1 - w) / (y - w), False), (1 - (1 - w) / (y - w), False),
                              (y, False), (1 - y, False), (w, False), (1 - w, False)), "ccc")
    small = Family((("a", sp.Rational(1, 2)), ("y", sp.Integer(1)), ("w", sp.Integer(1)),
                    ("z", z)), ("z",), ((z, False), (1 - z, False)), "cab")
    assert family_contains(game, big, small) is False
    assert family_contains(game, small, big) is False
    assert len(reduce_families(game, [big, small])) == 2


def test_sign_of_an_undefined_value_is_a_bug_not_bad_input():
    """A 0/0 reaching an exact sign is an internal failure: ZeroDivisionError, which the
    CLI does not report as bad input (it did: ValueError, exit 2)."""
    from pokerdyn.solvers.symbolic.feasibility.algebraic import sign

    for bad in (sp.nan, sp.zoo, sp.sqrt(2) + sp.nan):
        with pytest.raises(ZeroDivisionError) as info:
            sign(bad)
        assert not isinstance(info.value, ValueError)
    assert sign(sp.sqrt(2) - 1) == 1 and sign(sp.Rational(-1, 3)) == -1


def test_sample_of_constraints_whose_sum_only_is_affine():
    """cent4.efg: a family's constraints held x*y and -x*y; their sum is affine, so the
    sample point went down the affine path and met a sign with a free parameter in it
    (TypeError).  Each constraint is checked now, and the point satisfies them all."""
    from pokerdyn.solvers.symbolic.feasibility.pot_split import interior_point

    x, y = sp.symbols("x y", real=True)
    cons = [(x * y - sp.Rational(1, 10), True), (1 - x * y, False), (x, False), (1 - x, False),
            (y, False), (1 - y, False)]
    pt = interior_point(cons, [x, y])
    assert set(pt) == {x, y}
    for e, strict in cons:
        v = e.xreplace(pt)
        assert v > 0 if strict else v >= 0


def test_rational_constraints_are_not_dropped_as_redundant():
    """cent6.efg (Gambit contrib/games): a family with ``x2_3 = (1 - 3x)/(28x)`` kept its
    bounds ``1/(28x) - 3/28 >= 0`` and ``31/28 - 1/(28x) >= 0``, whose sum is the constant 1:
    the affine test of the sum let the affine redundancy check drop them (and the box of
    both free parameters), leaving only ``x < 1/7`` - points with x <= 0 and x2_3 < 0
    printed as equilibria.  Now every bound stays and the sample is a probability."""
    from pokerdyn.solvers.symbolic.model.conditions import Family
    from pokerdyn.solvers.symbolic.axis.piecewise import _display

    a, x = sp.symbols("a x", real=True)
    r = sp.Rational
    fam = Family((("a", a), ("x", x), ("y", (1 - 3 * x) / (28 * x))), ("a", "x"),
                 ((a, False), (1 - a, False), (x, False), (1 - x, False),
                  (r(8, 35) - r(8, 5) * x, True), (-r(3, 28) + 1 / (28 * x), False),
                  (r(31, 28) - 1 / (28 * x), False)), "cc")
    sol = _display(fam, (), None, None)
    assert len(sol.raw) >= 5
    pt = sol.sample()
    assert all(0 <= pt[k] <= 1 for k in ("a", "x", "y")), pt
    assert r(1, 31) <= pt["x"] < r(1, 7)
