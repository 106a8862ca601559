"""Exact answers of the sequence-form LP and LCP (issue 34, "exact means exact"): the payoffs
are certified in rationals from the game's own exact payoffs, and equal pygambit 16.7's
``lcp_solve`` / ``lp_solve(rational=True)``; the LP takes constant-sum games and payoffs of
any magnitude.  The small Gambit files below are quoted from Gambit's repository
(github.com/gambitproject/gambit, ``contrib/games/`` and ``tests/test_games/``); the
expected values are pygambit's on the same text (computed in the tests where pygambit is
installed, and quoted in comments)."""
from __future__ import annotations

import io
import json
import re
from fractions import Fraction

import pytest

from pokerdyn.games import GameError, compile_game
from pokerdyn.games.io.efg import game_from_efg
from pokerdyn.cli import main
from pokerdyn.solvers.sequence import lp as lp_module
from pokerdyn.solvers.sequence.form import exact_sequence_form, sequence_form
from pokerdyn.solvers.sequence.lcp import solve_lcp
from pokerdyn.solvers.sequence.lp import solve_lp
from hostile import run_bad

# Gambit contrib/games/e18.efg (Banks-Sobel, Example 1): chance 1/3, 2/3 times integer
# payoffs; pygambit's lcp_solve(rational=True) gives payoffs (-5, 5).
E18 = """EFG 2 R "Banks-Sobel, Example 1" { "Player 1" "Player 2" }
""

c "" 1 "(0,1)" { "t1" 1/3 "t2" 2/3 } 0
p "" 1 1 "(1,1)" { "m1" "m2" } 0
p "" 2 1 "(2,1)" { "a1" "a2" } 0
t "" 1 "Outcome 1" { -3, 3 }
t "" 2 "Outcome 2" { -6, 0 }
p "" 2 2 "(2,2)" { "a1" "a2" } 0
t "" 3 "Outcome 3" { -5, 5 }
t "" 4 "Outcome 4" { -6, 0 }
p "" 1 2 "(1,2)" { "m1" "m2" } 0
p "" 2 1 "(2,1)" { "a1" "a2" } 0
t "" 5 "Outcome 5" { -3, 3 }
t "" 6 "Outcome 6" { -11, 5 }
p "" 2 2 "(2,2)" { "a1" "a2" } 0
t "" 7 "Outcome 7" { -5, 5 }
t "" 8 "Outcome 8" { -11, 5 }
"""

# Gambit contrib/games/montyhal.efg; pygambit's lcp_solve(rational=True): (200/3, 1).
MONTYHAL = """EFG 2 R "The Monty Hall 'Lets make a deal' problem" { "Player 1" "Player 2" }
""

c "" 1 "(0,1)" { "DOOR A" 1/3 "DOOR B" 1/3 "DOOR C" 1/3 } 0
p "" 1 1 "(1,1)" { "DOOR A" "DOOR B" "DOOR C" } 0
p "" 2 1 "(2,1)" { "DOOR B" "DOOR C" } 0
p "" 1 2 "(1,2)" { "STAY" "SWITCH" } 0
t "" 1 "Outcome 1" { 100, 1 }
t "" 2 "Outcome 2" { 0, 1 }
p "" 1 3 "(1,3)" { "STAY" "SWITCH" } 0
t "" 1 "Outcome 1" { 100, 1 }
t "" 2 "Outcome 2" { 0, 1 }
p "" 2 2 "(2,4)" { "DOOR A" "DOOR C" } 0
p "" 1 4 "(1,4)" { "STAY" "SWITCH" } 0
t "" 3 "Outcome 3" { 0, 0 }
t "" 3 "Outcome 3" { 0, 0 }
p "" 1 5 "(1,5)" { "STAY" "SWITCH" } 0
t "" 2 "Outcome 2" { 0, 1 }
t "" 1 "Outcome 1" { 100, 1 }
p "" 2 3 "(2,7)" { "DOOR A" "DOOR B" } 0
p "" 1 6 "(1,6)" { "STAY" "SWITCH" } 0
t "" 3 "Outcome 3" { 0, 0 }
t "" 3 "Outcome 3" { 0, 0 }
p "" 1 7 "(1,7)" { "STAY" "SWITCH" } 0
t "" 2 "Outcome 2" { 0, 1 }
t "" 1 "Outcome 1" { 100, 1 }
p "" 1 1 "(1,1)" { "DOOR A" "DOOR B" "DOOR C" } 0
p "" 2 4 "(2,2)" { "DOOR B" "DOOR C" } 0
p "" 1 2 "(1,2)" { "STAY" "SWITCH" } 0
t "" 3 "Outcome 3" { 0, 0 }
t "" 3 "Outcome 3" { 0, 0 }
p "" 1 3 "(1,3)" { "STAY" "SWITCH" } 0
t "" 2 "Outcome 2" { 0, 1 }
t "" 1 "Outcome 1" { 100, 1 }
p "" 2 5 "(2,6)" { "DOOR A" "DOOR C" } 0
p "" 1 4 "(1,4)" { "STAY" "SWITCH" } 0
t "" 1 "Outcome 1" { 100, 1 }
t "" 2 "Outcome 2" { 0, 1 }
p "" 1 5 "(1,5)" { "STAY" "SWITCH" } 0
t "" 1 "Outcome 1" { 100, 1 }
t "" 2 "Outcome 2" { 0, 1 }
p "" 2 6 "(2,9)" { "DOOR A" "DOOR B" } 0
p "" 1 6 "(1,6)" { "STAY" "SWITCH" } 0
t "" 2 "Outcome 2" { 0, 1 }
t "" 1 "Outcome 1" { 100, 1 }
p "" 1 7 "(1,7)" { "STAY" "SWITCH" } 0
t "" 3 "Outcome 3" { 0, 0 }
t "" 3 "Outcome 3" { 0, 0 }
p "" 1 1 "(1,1)" { "DOOR A" "DOOR B" "DOOR C" } 0
p "" 2 7 "(2,3)" { "DOOR B" "DOOR C" } 0
p "" 1 2 "(1,2)" { "STAY" "SWITCH" } 0
t "" 2 "Outcome 2" { 0, 1 }
t "" 1 "Outcome 1" { 100, 1 }
p "" 1 3 "(1,3)" { "STAY" "SWITCH" } 0
t "" 3 "Outcome 3" { 0, 0 }
t "" 3 "Outcome 3" { 0, 0 }
p "" 2 8 "(2,5)" { "DOOR A" "DOOR C" } 0
p "" 1 4 "(1,4)" { "STAY" "SWITCH" } 0
t "" 2 "Outcome 2" { 0, 1 }
t "" 1 "Outcome 1" { 100, 1 }
p "" 1 5 "(1,5)" { "STAY" "SWITCH" } 0
t "" 3 "Outcome 3" { 0, 0 }
t "" 3 "Outcome 3" { 0, 0 }
p "" 2 9 "(2,8)" { "DOOR A" "DOOR B" } 0
p "" 1 6 "(1,6)" { "STAY" "SWITCH" } 0
t "" 1 "Outcome 1" { 100, 1 }
t "" 2 "Outcome 2" { 0, 1 }
p "" 1 7 "(1,7)" { "STAY" "SWITCH" } 0
t "" 1 "Outcome 1" { 100, 1 }
t "" 2 "Outcome 2" { 0, 1 }
"""

# Gambit contrib/games/centcs6.efg: a constant-sum (3.2) centipede with decimal payoffs;
# Gambit's LP takes it; pygambit's lp_solve(rational=True) gives payoffs (8/5, 8/5).
CENTCS6 = """EFG 2 R "Centipede game, 6 move constant sum" { "Player 1" "Player 2" }
""

p "" 1 1 "(1,1)" { "TAKE" "PASS" } 0
t "" 1 "Outcome 1" { 1.60, 1.60 }
p "" 2 1 "(2,1)" { "TAKE" "PASS" } 0
t "" 2 "Outcome 2" { 1.20, 2.00 }
p "" 1 2 "(1,2)" { "TAKE" "PASS" } 0
t "" 3 "Outcome 3" { 2.30, .90 }
p "" 2 2 "(2,2)" { "TAKE" "PASS" } 0
t "" 4 "Outcome 4" { .68, 2.52 }
p "" 1 3 "(1,3)" { "TAKE" "PASS" } 0
t "" 5 "Outcome 5" { 2.69, .51 }
p "" 2 3 "(2,3)" { "TAKE" "PASS" } 0
t "" 6 "Outcome 6" { .38, 2.82 }
t "" 7 "Outcome 7" { 2.92, .28 }
"""

# Gambit tests/test_games/large_payoff_game.efg: payoffs 1e19; pygambit's LP and LCP: 1.
LARGE = """EFG 2 R "Large payoff game" { "1" "2" }
""

c "" 1 "" { "L" 1/2 "R" 1/2 } 0
p "" 1 1 "" { "A" "B" } 0
p "" 2 1 "" { "X" "Y" } 0
t "" 1 "large payoff" { 10000000000000000000, -10000000000000000000 }
t "" 2 "1" { 1, -1 }
p "" 2 2 "" { "X" "Y" } 0
t "" 3 "-1" { -1, 1 }
t "" 4 "0" { 0, 0 }
p "" 1 2 "" { "A" "B" } 0
p "" 2 1 "" { "X" "Y" } 0
t "" 3 "-1" { -1, 1 }
t "" 2 "1" { 1, -1 }
p "" 2 2 "" { "X" "Y" } 0
t "" 4 "0" { 0, 0 }
t "" 1 "large payoff" { 10000000000000000000, -10000000000000000000 }
"""

# A 2x2 zero-sum game (written for this test) whose value 3e19/(2e19 + 1) is decided by the
# payoffs 1 and 2 next to +-1e19: the float LP on the scaled payoffs sees those as 0 and
# answers 0; pygambit's lp_solve(rational=True) and lcp_solve give 10^19/6666666666666666667.
MIXED_MAGNITUDES = """EFG 2 R "2x2 with payoffs 1e19" { "1" "2" }
""
p "" 1 1 "" { "A" "B" } 0
p "" 2 1 "" { "X" "Y" } 0
t "" 1 "" { 1, -1 }
t "" 2 "" { 10000000000000000000, -10000000000000000000 }
p "" 2 1 "" { "X" "Y" } 0
t "" 3 "" { 2, -2 }
t "" 4 "" { -10000000000000000000, 10000000000000000000 }
"""

# Gambit contrib/games/nim.efg: value -1 (the second mover wins).  pygambit's lp_solve
# returns an invalid profile here (payoffs 0, 0; issue 34); its lcp_solve gives -1.
NIM = """EFG 2 R "Nim-like game. One pile of 5 stones. Players alternately take 1 or 2 stones. Player to take last stone wins." { "Player 1" "Player 2" }

p "5 left" 1 1 "(1,1)" { "TAKE 1" "TAKE 2" } 0
p "4 left" 2 1 "(2,1)" { "TAKE 1" "TAKE 2" } 0
p "3 left" 1 2 "(1,2)" { "TAKE 1" "TAKE 2" } 0
p "2 left" 2 2 "(2,3)" { "TAKE 1" "TAKE 2" } 0
t "1 left" 1 "Outcome 1" { 1 -1 }
t "0 left" 2 "Outcome 2" { -1 1 }
t "1 left" 2 "Outcome 2" { -1 1 }
p "2 left" 1 3 "(1,3)" { "TAKE 1" "TAKE 2" } 0
t "1 left" 2 "Outcome 2" { -1 1 }
t "0 left" 1 "Outcome 1" { 1 -1 }
p "" 2 3 "(2,2)" { "TAKE 1" "TAKE 2" } 0
p "2 left" 1 4 "(1,4)" { "TAKE 1" "TAKE 2" } 0
t "1 left" 2 "Outcome 2" { -1 1 }
t "0 left" 1 "Outcome 1" { 1 -1 }
t "1 left" 2 "Outcome 2" { -1 1 }
"""


def _cg(text: str):
    return compile_game(game_from_efg(text, "t"))


def _gambit(text: str):
    """pygambit's game of ``text`` (node labels blanked: pygambit 16.7 refuses repeated
    node labels, which Gambit's own files such as nim.efg have; they carry no meaning)."""
    gbt = pytest.importorskip("pygambit")
    return gbt, gbt.read_efg(io.StringIO(re.sub(r'^([cpt] )"[^"]*"', r'\1""', text,
                                                  flags=re.M)))


def _gambit_regret(text: str, cg, plans) -> Fraction:
    """pygambit's own max_regret of our exact equilibrium (realization plans), set into its
    rational behaviour profile of the same file (nodes matched by walking both trees)."""
    gbt, g = _gambit(text)
    sf = sequence_form(cg)
    prof = g.mixed_behavior_profile(rational=True)
    stack = [(0, g.root)]
    while stack:
        node, theirs = stack.pop()
        I = int(cg.game.infoset[node])
        if I >= 0:
            x = plans[int(cg.infoset_player[I])]
            row = [Fraction(x[int(sf.seq[I, a])]) for a in range(int(cg.n_actions[I]))]
            tot = sum(row)
            for a, act in enumerate(theirs.infoset.actions):
                p = row[a] / tot if tot else Fraction(1, len(row))
                prof[act] = gbt.Rational(p.numerator, p.denominator)
        stack.extend(zip(cg.game.children(node), theirs.children))
    return Fraction(str(prof.max_regret()))


def _gambit_payoffs(text: str, method: str) -> tuple[Fraction, ...]:
    gbt, g = _gambit(text)
    solve = gbt.nash.lp_solve if method == "lp" else \
        (lambda g, rational: gbt.nash.lcp_solve(g, rational=rational, use_strategic=False))
    eq = solve(g, rational=True).equilibria[0]
    return tuple(Fraction(str(eq.payoff(p))) for p in g.players)


@pytest.mark.parametrize("text, payoffs", [(E18, (-5, 5)), (MONTYHAL, (Fraction(200, 3), 1))],
                         ids=["e18", "montyhal"])
def test_lcp_payoffs_are_the_files_rationals_and_pygambits(text, payoffs):
    # issue 34: -11258999068426239/2251799813685248 for -5 and 2345624805922133/35184372088832
    # for 200/3 when the payoff matrices were rebuilt from floats
    cg = _cg(text)
    eq = solve_lcp(cg).equilibria[0]
    assert eq.exact_nash_conv == 0
    assert eq.exact_payoffs == tuple(Fraction(v) for v in payoffs)
    assert _gambit_payoffs(text, "lcp") == eq.exact_payoffs
    assert _gambit_regret(text, cg, eq.exact_plans) == 0


def test_cli_lcp_reports_minus_five_on_e18(tmp_path, capsys):
    f = tmp_path / "e18.efg"
    f.write_text(E18)
    assert main(["solve", str(f), "--method", "lcp", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["exact"] == {"nash_conv": "0",
                                                            "expected_payoffs": ["-5", "5"]}


def test_exact_sequence_form_is_built_from_the_files_numbers():
    # e18: one terminal per sequence pair, entry = chance (1/3 at t1, 2/3 at t2) x payoff
    ex = exact_sequence_form(_cg(E18))
    third = Fraction(1, 3)
    assert sorted(ex.A[0].values()) == sorted(
        [third * u for u in (-3, -6, -5, -6)] + [2 * third * u for u in (-3, -11, -5, -11)])
    assert sorted(ex.A[1].values()) == sorted(   # player 2's zero payoffs are left out
        [third * u for u in (3, 5)] + [2 * third * u for u in (3, 5, 5, 5)])
    assert sum(ex.reach.values()) == 4           # 4 terminals per chance outcome, exactly
    assert ex.constant is None
    assert exact_sequence_form(_cg(CENTCS6)).constant == Fraction(16, 5)


def test_lp_takes_a_constant_sum_game_in_its_own_units(tmp_path, capsys):
    cg = _cg(CENTCS6)
    res = solve_lp(cg)
    assert res.exact_payoffs == (Fraction(8, 5), Fraction(8, 5))   # sum 16/5 = the constant
    assert res.exact_value == Fraction(8, 5) and res.value == pytest.approx(1.6)
    assert _gambit_payoffs(CENTCS6, "lp") == res.exact_payoffs
    assert _gambit_regret(CENTCS6, cg, res.exact_plans) == 0
    f = tmp_path / "centcs6.efg"
    f.write_text(CENTCS6)
    assert main(["solve", str(f), "--method", "lp", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["exact"] == {"nash_conv": "0", "expected_payoffs": ["8/5", "8/5"]}
    assert out["expected_payoffs"] == pytest.approx([1.6, 1.6])


def test_lp_points_a_general_sum_game_to_the_lcp(tmp_path):
    with pytest.raises(GameError, match=r"constant-sum or zero-sum game; payoffs at terminal "
                                        r"t1/m1/a1 sum to 0 but at t1/m1/a2 to -6 .*--method lcp"):
        solve_lp(_cg(E18))
    f = tmp_path / "e18.efg"
    f.write_text(E18)
    run_bad(["solve", str(f), "--method", "lp"], ("--method lcp",), tmp_path)


@pytest.mark.parametrize("text, value", [
    (LARGE, Fraction(1)),
    (MIXED_MAGNITUDES, Fraction(3 * 10**19, 2 * 10**19 + 1)),
], ids=["large_payoff_game", "mixed_magnitudes"])
def test_lp_takes_payoffs_of_any_magnitude_exactly(text, value):
    cg = _cg(text)
    res = solve_lp(cg)
    assert res.exact_value == value and res.exact_payoffs == (value, -value)
    assert _gambit_payoffs(text, "lp") == res.exact_payoffs
    assert _gambit_regret(text, cg, res.exact_plans) == 0


def test_float_lp_alone_is_wrong_on_mixed_magnitudes_and_is_not_reported_exact():
    # why the certificate exists: HiGHS on the payoffs scaled by 2^-64 loses the 1 and 2
    res = solve_lp(_cg(MIXED_MAGNITUDES), exact=False)
    assert res.exact_value is None and res.certificate is None
    assert abs(res.value - 1.5) > 0.1


def test_lp_vertex_certificate_re_solves_the_floats_support_in_rationals():
    # a 2x2 zero-sum game (written for this test) whose mixed equilibrium has denominators
    # beyond every rounding tried, so that the certificate is the exact re-solve of the
    # float optimum's vertex: value (ad - bc) / (a - b - c + d)
    a, b, c, d = 123456789, -987654321, -555555557, 222222223
    text = ('EFG 2 R "mixed" { "1" "2" }\n""\np "" 1 1 "" { "A" "B" } 0\n'
            'p "" 2 1 "" { "X" "Y" } 0\n'
            f't "" 1 "" {{ {a}, {-a} }}\nt "" 2 "" {{ {b}, {-b} }}\n'
            'p "" 2 1 "" { "X" "Y" } 0\n'
            f't "" 3 "" {{ {c}, {-c} }}\nt "" 4 "" {{ {d}, {-d} }}\n')
    cg = _cg(text)
    res = solve_lp(cg)
    value = Fraction(a * d - b * c, a - b - c + d)
    assert res.certificate == "vertex" and res.exact_value == value
    assert _gambit_payoffs(text, "lp")[0] == value


def test_lp_falls_back_to_the_exact_lcp(monkeypatch):
    # with the vertex re-solve unavailable, the exact LCP certifies the same value
    monkeypatch.setattr(lp_module, "_exact_vertex", lambda *a: None)
    res = solve_lp(_cg(MIXED_MAGNITUDES))
    assert res.certificate == "lcp"
    assert res.exact_value == Fraction(3 * 10**19, 2 * 10**19 + 1)


def test_nim_lp_value_is_minus_one_where_gambits_lp_is_not():
    # issue 34, settled in pokerdyn's favour: the LP and pygambit's own LCP agree on -1
    cg = _cg(NIM)
    res = solve_lp(cg)
    assert res.exact_payoffs == (-1, 1)
    assert _gambit_payoffs(NIM, "lcp") == (-1, 1)
    assert _gambit_regret(NIM, cg, res.exact_plans) == 0
