"""Full-street simplified 3-player Kuhn poker (Billingham, "Full street simplified three
player Kuhn poker", arXiv 1707.01392): a player holding J must check or fold.

The paper's abstract: removing the obviously dominated actions leaves 11 nontrivial betting
frequencies (of 23 in the full game).  Derived from the tree here, iterated weak dominance
(solvers.symbolic.model.dominance) leaves 13 for every P >= 2 -- the two more than the paper's 11
are not removed by dominance of a single action against the others' pure vertices (see the
report in BENCHMARKS.md); strict dominance keeps P3's two weakly dominated choices at 'kk'
as well (15).  For P < 2 dominance alone solves the game.
"""
from __future__ import annotations

import sympy as sp
import pytest

from pokerdyn.games import get_game
from pokerdyn.solvers.symbolic.model import conditions as en
from pokerdyn.solvers.symbolic.model.dominance import iterated_dominance, reduce_game
from pokerdyn.solvers.symbolic.model.nash_conv import exact_nash_conv

GAME = get_game("kuhn3-full-simplified")
FREE = ("b1_Q", "b1_K", "c1_K_kkb", "c1_K_kbf", "b1_A", "b2_Q", "b2_K", "c2_K_b",
        "c2_K_kkbf", "b2_A", "b3_Q", "c3_K_kb", "c3_K_bf")


@pytest.fixture(scope="module")
def weak():
    return iterated_dominance(GAME)


def test_thirty_six_named_frequencies_none_for_the_jack():
    assert len(GAME.named) == 36
    assert not any("_J" in n for n in GAME.named_names)
    # in the tree's information-set order: the first set with a choice comes first
    first = next(s.label for s in GAME.infosets if len(s.actions) > 1)
    assert GAME.named[0].infoset == first


def test_weak_dominance_leaves_thirteen_frequencies_for_every_pot(weak):
    assert sorted(weak.free) == sorted(FREE)
    # the obvious ones: A always calls, Q never calls, K never overcalls, P3 bets A at 'kk'
    # (weakly) and then, in round 2, never bets K there (weakly)
    assert weak.fixed["c3_A_bc"] == 1 and weak.fixed["c2_Q_b"] == 0
    assert weak.fixed["c1_K_kbc"] == 0 and weak.fixed["c2_K_kkbc"] == 0
    rounds = {e.name: e.round for e in weak.eliminations}
    assert rounds["b3_K"] == 2 and weak.fixed["b3_K"] == 0 and weak.fixed["b3_A"] == 1
    assert {e.name for e in weak.eliminations if e.reason.endswith("weakly dominated")} == \
        {"b3_A", "b3_K"}


def test_strict_dominance_keeps_the_two_weak_choices():
    strict = iterated_dominance(GAME, mode="strict")
    assert set(strict.free) == set(FREE) | {"b3_K", "b3_A"}


def test_eliminations_do_not_depend_on_the_pot(weak):
    assert reduce_game(GAME, sp.Interval(2, sp.oo)) == weak.fixed


def test_below_two_dominance_alone_solves_the_game():
    """For P < 2 no bluff or call pays: iterated dominance fixes all 36 frequencies, and
    that profile (nobody bets Q, K or even A before P3, nobody calls with K) has exact
    NashConv 0 at P = 3/2."""
    res = iterated_dominance(GAME, sp.Interval.open(0, 2))
    assert res.free == ()
    assert all(res.fixed[n] == 0 for n in FREE)
    assert exact_nash_conv(GAME, sp.Rational(3, 2), res.fixed) == 0


def test_case_walk_cells_are_the_integers_one_to_five():
    """Every vertex value of every gain changes sign only at P = 1, 2, 3, 4 or 5, so the
    case walk works on 11 cells of the P axis."""
    from pokerdyn.solvers.symbolic.casesearch import walk

    conds = en.conditions(GAME, None, reduce_game(GAME))
    s = walk._Search(conds, en.pot_symbol(GAME), {})
    assert s.cells.roots == [1, 2, 3, 4, 5] and s.cells.n == 11


R = sp.Rational
# P = 9: the point CFR+ and FP both reach (b1_Q = 2/P, ...), read off as rationals and
# certified by the exact NashConv of the full 36-frequency game (not taken from the paper,
# whose equations were not available; whether it is the only equilibrium at P = 9 is not
# decided here: the whole-axis enumeration is unfinished)
AT_NINE = dict(b1_Q=R(2, 9), b1_K=0, c1_K_kkb=R(4, 5), c1_K_kbf=R(3, 5), b1_A=1, b2_Q=R(1, 5),
               b2_K=0, c2_K_b=R(2, 5), c2_K_kkbf=1, b2_A=1, b3_Q=R(9, 50), c3_K_kb=1,
               c3_K_bf=1)


def test_point_at_pot_nine_is_an_exact_equilibrium(weak):
    assert exact_nash_conv(GAME, 9, {**weak.fixed, **AT_NINE}) == 0
    off = {**AT_NINE, "b3_Q": R(1, 5)}
    assert exact_nash_conv(GAME, 9, {**weak.fixed, **off}) > 0


@pytest.mark.parametrize("method,tol", [("cfr+", 1e-3), ("fp", 5e-3)])
def test_learning_limits_at_pot_nine_reach_the_exact_equilibrium(method, tol):
    from pokerdyn.games.compiled import compile_game
    from pokerdyn.games.strategy import params_from_strategy
    from pokerdyn.solvers.learning.cfr_plus import cfr
    from pokerdyn.solvers.learning.fictitious_play import fictitious_play

    cg = compile_game(GAME, P=9.0)
    res = cfr(cg, iterations=20_000) if method == "cfr+" else \
        fictitious_play(cg, iterations=20_000, schedule="alternating")
    x = params_from_strategy(cg, res.strategy)
    assert max(abs(x[k] - float(v)) for k, v in AT_NINE.items()) < tol
