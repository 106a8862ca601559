"""Invalid games, parameter values and strategies raise GameError naming the culprit."""
from __future__ import annotations

import math

import pytest
import sympy as sp
from conftest import compiled

from pokerdyn.games import (GameBuilder, GameError, ParameterDomain, compile_game, get_game,
                   strategy_from_params)
from pokerdyn.games.strategy import check_strategy, uniform_strategy

H = sp.Rational(1, 2)


def test_valid_small_game_builds():
    b = GameBuilder("coin", 2)
    r = b.chance()
    for face in "HT":
        d = b.decision(0, f"P1:{face}|", ("x", "y"), parent=r, via=face, prob=H)
        for a in "xy":
            b.terminal((1, -1) if a == "x" else (-1, 1), parent=d, via=a)
    g = b.build()
    assert g.n_nodes == 7 and g.n_infosets == 2


def test_chance_probabilities_must_sum_to_one():
    b = GameBuilder("g", 2)
    r = b.chance()
    b.terminal((1, -1), parent=r, via="a", prob=H)
    b.terminal((-1, 1), parent=r, via="b", prob=sp.Rational(1, 3))
    with pytest.raises(GameError, match=r"node 0 sum to 5/6"):
        b.build()


def test_symbolic_chance_probabilities_must_sum_to_one():
    q = sp.Symbol("q", positive=True)
    b = GameBuilder("g", 2, params=(q,))
    r = b.chance()
    b.terminal((1, -1), parent=r, via="a", prob=q)
    b.terminal((-1, 1), parent=r, via="b", prob=q)
    with pytest.raises(GameError, match=r"at node 0 sum to 2\*q"):
        b.build()


@pytest.mark.parametrize("prob", [sp.Rational(3, 2), -H, 1.5])
def test_chance_probability_outside_unit_interval(prob):
    b = GameBuilder("g", 2)
    r = b.chance()
    with pytest.raises(GameError, match=r"outcome 'a' at node 0 is outside \[0, 1\]"):
        b.terminal((1, -1), parent=r, via="a", prob=prob)


def test_symbolic_chance_probability_checked_at_compile_time():
    q = sp.Symbol("q", positive=True)
    b = GameBuilder("g", 2, params=(q,))
    r = b.chance()
    b.terminal((1, -1), parent=r, via="a", prob=q)
    b.terminal((-1, 1), parent=r, via="b", prob=1 - q)
    g = b.build(domains={"q": ParameterDomain(0, math.inf)})
    assert compile_game(g, q=0.25).chance_prob.tolist() == [1.0, 0.25, 0.75]
    with pytest.raises(GameError, match=r"probability 2.0 of outcome 'a' is outside \[0, 1\]"):
        compile_game(g, q=2)


@pytest.mark.parametrize("player, actions, message", [
    (1, ("x", "y"), r"information set 'I' has nodes of players 1 and 2"),
    (0, ("x", "z"), r"information set 'I' has action lists"),
])
def test_infoset_with_two_players_or_two_action_lists(player, actions, message):
    b = GameBuilder("g", 2)
    r = b.chance()
    b.decision(0, "I", ("x", "y"), parent=r, via="a", prob=H)
    with pytest.raises(GameError, match=message):
        b.decision(player, "I", actions, parent=r, via="b", prob=H)


def test_missing_child_action():
    b = GameBuilder("g", 2)
    d = b.decision(0, "P1:|", ("x", "y"))
    b.terminal((1, -1), parent=d, via="x")
    with pytest.raises(GameError, match=r"decision node 0 at information set 'P1:\|' has no "
                                        r"child for action\(s\) \['y'\]"):
        b.build()


def test_unknown_action_and_duplicate_child():
    b = GameBuilder("g", 2)
    d = b.decision(0, "P1:|", ("x", "y"))
    with pytest.raises(GameError, match=r"action 'z' is not one of .* 'P1:\|'"):
        b.terminal((1, -1), parent=d, via="z")
    b.terminal((1, -1), parent=d, via="x")
    with pytest.raises(GameError, match=r"node 0 already has a child for 'x'"):
        b.terminal((1, -1), parent=d, via="x")


@pytest.mark.parametrize("second", [0, 1])
def test_perfect_recall(second):
    """Player 1 decides, then player ``second + 1`` decides at one information set on both
    branches.  Player 2 may not see player 1's action; player 1 may not forget her own."""
    b = GameBuilder("forgetful", 2)
    d = b.decision(0, "P1:|", ("x", "y"))
    for a in "xy":
        e = b.decision(second, f"P{second + 1}:|?", ("u", "v"), parent=d, via=a)
        for c in "uv":
            b.terminal((1, -1), parent=e, via=c)
    if second == 1:
        assert b.build().n_infosets == 2
        return
    with pytest.raises(GameError, match=r"perfect recall fails at information set 'P1:\|\?': "
                                        r"nodes 1 and 4"):
        b.build()


def test_wrong_payoff_length():
    b = GameBuilder("g", 3)
    d = b.decision(0, "P1:|", ("x",))
    with pytest.raises(GameError, match=r"terminal after 'x' has 2 payoffs, expected 3"):
        b.terminal((1, -1), parent=d, via="x")


def test_player_out_of_range():
    b = GameBuilder("g", 2)
    with pytest.raises(GameError, match=r"player 2 out of range \[0, 1\] at information set 'I'"):
        b.decision(2, "I", ("x",))


@pytest.mark.parametrize("value, message", [
    (1.5, r"probability c_K=1.5 is outside the allowed range \[0, 1\]"),
    (-0.1, r"probability c_K=-0.1 is outside the allowed range \[0, 1\]"),
    (float("nan"), r"probability c_K=nan is outside"),
    ("abc", r"probability c_K='abc' is not a number"),
])
def test_strategy_from_params_rejects_out_of_range(value, message):
    with pytest.raises(GameError, match=message):
        strategy_from_params(compiled("skp", 9), {"c_K": value})


def test_strategy_from_params_rejects_unknown_name():
    with pytest.raises(GameError, match=r"unknown parameter 'b_K' of game 'skp'"):
        strategy_from_params(compiled("skp", 9), {"b_K": 0.5})


def test_strategy_from_params_sets_both_actions():
    cg = compiled("skp", 9)
    sigma = strategy_from_params(cg, {"b_J": 0.3})
    I = cg.game.infoset_index("P3:J|")
    assert sigma[I, :2].tolist() == pytest.approx([0.7, 0.3])  # actions (k, b)
    check_strategy(cg, sigma)


@pytest.mark.parametrize("pot, message", [
    (-1, r"parameter P=-1 is outside the allowed range \(0, inf\)"),
    (float("nan"), r"parameter P=nan is outside"),
    (0, r"parameter P=0 is outside"),
])
def test_pot_out_of_range(pot, message):
    with pytest.raises(GameError, match=message):
        compile_game(get_game("skp"), P=pot)


def test_missing_and_unknown_game_parameters():
    with pytest.raises(GameError, match=r"needs a value for parameter 'P'"):
        compile_game(get_game("skp"))
    with pytest.raises(GameError, match=r"has no parameter 'Q'"):
        compile_game(get_game("skp"), P=9, Q=1)
    with pytest.raises(GameError, match=r"unknown game 'nope'; available: kuhn"):
        get_game("nope")


def test_check_strategy_rejects_bad_profiles():
    cg = compiled("kuhn")
    sigma = uniform_strategy(cg)
    sigma[3] = [0.7, 0.7]
    with pytest.raises(GameError, match=r"strategy at 'P\d:.\|.*' sums to 1.4"):
        check_strategy(cg, sigma)
    with pytest.raises(GameError, match=r"strategy shape"):
        check_strategy(cg, sigma[:2])
