"""Iterated elimination of dominated actions (solvers.symbolic.model.dominance) against Billingham sec. 2,
points 1-4, and the textbook facts of 2-player Kuhn poker."""
import random

import pytest
import sympy as sp

from pokerdyn.games import GameError, get_game
from pokerdyn.games.strategy import param_symbols
from pokerdyn.solvers import symbolic_payoffs
from pokerdyn.solvers.symbolic.model.dominance import iterated_dominance, reduce_game


def _fixed_by_rules():
    """The actions kuhn3-third fixes (single-action information sets, games.catalog.kuhn
    THIRD_STREET_RULES), as values of kuhn3-third-full's parameters."""
    third, full = get_game("kuhn3-third"), get_game("kuhn3-third-full")
    out = {}
    for p in full.named:
        acts = third.infosets[third.infoset_index(p.infoset)].actions
        if len(acts) == 1:
            out[p.name] = int(acts[0] == p.action)
    return out


def test_billingham_points_1_to_4_come_out_of_the_tree():
    """Billingham sec. 2: P3 bets A, P1/P2 call with A and fold J, P2 never overcalls Q,
    P3 never bets K -- for every P > 0, exactly the actions kuhn3-third fixes by hand."""
    res = iterated_dominance(get_game("kuhn3-third-full"))
    expected = _fixed_by_rules()
    assert len(expected) == 9
    assert res.fixed == expected
    assert set(res.free) == set(get_game("kuhn3-third").named_names)
    rounds = {e.name: e.round for e in res.eliminations}
    # point 4 ("never bet K") needs the A-calls first: it is a second-round elimination
    assert rounds.pop("x3_K_0_b") == 2 and set(rounds.values()) == {1}
    # "P3 bets A" is only weakly dominant (nobody need call); the rest are strict
    weak = {e.name for e in res.eliminations if e.reason.endswith("weakly dominated")}
    assert weak == {"x3_A_0_b"}
    strict = iterated_dominance(get_game("kuhn3-third-full"), mode="strict")
    assert strict.fixed == {k: v for k, v in expected.items() if k != "x3_A_0_b"}


def test_fixed_pot_and_pot_range_agree_with_all_p():
    full = get_game("kuhn3-third-full")
    assert reduce_game(full, "15/2") == reduce_game(full) == reduce_game(full, 9)
    assert reduce_game(full, sp.Interval(5, sp.oo)) == _fixed_by_rules()


def test_small_pot_is_solved_by_dominance_alone():
    """Billingham sec. 2: for P < 2 the unique equilibrium is b = c = d = 0 with o_K free;
    iterated strict dominance alone finds it on the open interval (0, 2)."""
    res = iterated_dominance(get_game("kuhn3-third"), sp.Interval.open(0, 2), mode="strict")
    assert res.fixed == dict.fromkeys(["b_J", "b_Q", "c_Q", "c_K", "d_Q", "d_K"], 0)
    assert res.free == ("o_K",)


def test_weak_dominance_can_remove_equilibria_at_p_2():
    """Billingham eq. (1): at P = 2 every 0 <= b_J + b_Q <= 2/3 is an equilibrium.  Bluffing
    is weakly (not strictly) dominated there, so weak elimination removes those equilibria
    while strict elimination keeps them: use mode="strict" to keep every equilibrium."""
    game = get_game("kuhn3-third")
    assert reduce_game(game, 2)["b_J"] == 0
    assert "b_J" not in reduce_game(game, 2, mode="strict")


def test_kuhn_two_player():
    """2-player Kuhn: never call with J, never fold K; P2 bets K after a check (weakly), and
    once P1 calls K / folds J, P2 checks Q behind (weakly, round 2)."""
    res = iterated_dominance(get_game("kuhn"))
    assert res.fixed == {"c1_J": 0, "c2_J": 0, "c1_K": 1, "c2_K": 1, "b2_K": 1, "b2_Q": 0}
    assert {e.name for e in res.eliminations if e.round == 2} == {"b2_Q"}
    assert reduce_game(get_game("kuhn"), mode="strict") == {"c1_J": 0, "c2_J": 0, "c1_K": 1,
                                                          "c2_K": 1}


def test_skp_has_nothing_dominated():
    assert reduce_game(get_game("skp")) == {}
    assert reduce_game(get_game("skp"), 9) == {}


@pytest.mark.parametrize("name,pot", [("kuhn3-third-full", 9), ("kuhn", None)])
def test_eliminated_action_never_pays_more(name, pot):
    """Property: at random rational profiles (in the reduced game of the elimination's round)
    switching an eliminated parameter to the value kept never lowers its owner's payoff."""
    game = get_game(name)
    E = symbolic_payoffs(game, {"P": pot} if pot else None)
    syms = param_symbols(game)
    res = iterated_dominance(game, pot)
    rng = random.Random(3)
    for e in res.eliminations:
        earlier = {syms[d.name]: d.value for d in res.eliminations if d.round < e.round}
        Ep = E[game.owner(e.name)].subs(earlier)
        for _ in range(5):
            at = {s: sp.Rational(rng.randint(0, 8), 8) for s in syms.values()
                  if s not in earlier and s != syms[e.name]}
            kept = Ep.subs(at).subs(syms[e.name], e.value)
            other = Ep.subs(at).subs(syms[e.name], 1 - e.value)
            assert kept >= other


def test_bad_input():
    with pytest.raises(GameError, match="pot='x'"):
        iterated_dominance(get_game("skp"), "x")
    with pytest.raises(GameError, match="outside"):
        iterated_dominance(get_game("skp"), 0)
    with pytest.raises(GameError, match="mode"):
        iterated_dominance(get_game("skp"), mode="very")
    with pytest.raises(GameError, match="no pot"):
        iterated_dominance(get_game("kuhn"), 3)


def test_strict_needs_every_reached_vertex_with_float_chance_weights():
    """Builder games carry card-removal weights as floats (3/95 ...); the reach of an
    information set is computed with them as exact rationals.  In 2P-SMH, folding 34 to a bet
    gains g = 8 (13 x1_23_0_f + 13 x1_24_0_f + 4 x1_25_0_f + 3 x1_34_0_f) / 4845 >= 0 once
    round 1 is done: calling is weakly dominated, but not strictly, since at the vertex where
    player 1 never folds g = 0 while player 2's set is reached (player 1 always bets).  (The
    reach used to be truncated to integers, every vertex looked unreached and the call was
    reported strictly dominated.)"""
    from pokerdyn.games.catalog.registry import make_game

    g = make_game("mercer-smh(players=2)")
    weak = {e.name: e for e in iterated_dominance(g).eliminations}
    assert weak["x2_34_b_f"].value == 1 and weak["x2_34_b_f"].reason.endswith("weakly dominated")
    syms = param_symbols(g)
    at = {syms[e.name]: e.value for e in weak.values() if e.round < weak["x2_34_b_f"].round}
    E = symbolic_payoffs(g)[g.owner("x2_34_b_f")]
    gain = sp.expand(sp.diff(E, syms["x2_34_b_f"]).xreplace(at))
    a, b, c, d = (syms[f"x1_{h}_0_f"] for h in ("23", "24", "25", "34"))
    assert gain == sp.Rational(8, 4845) * (13 * a + 13 * b + 4 * c + 3 * d)
    assert "x2_34_b_f" in iterated_dominance(g, mode="strict").free
