"""Exact (sympy) builder games with a symbolic bet size (games.holdem.exact)."""
from __future__ import annotations

from functools import partial

import numpy as np
import pytest
import sympy as sp

from pokerdyn.games import GameError, compile_game
from pokerdyn.games.holdem import Deck, MercerEvaluator, Round, build_game, mercer_smh
from pokerdyn.games.holdem.exact import exact_game
from pokerdyn.games.tree import CHANCE, DECISION

from test_holdem_mercer import _brute_force_uniform_smh

B = sp.Symbol("B", positive=True)


def _small_smh(bet):
    rounds = (Round(ante=1, hole_cards=2, bets=(bet,), max_bets=1),
              Round(shared_cards=2, bets=()))
    return build_game(Deck(ranks=3, copies=3), rounds, MercerEvaluator(), 2, name="smh9")


def _uniform_value(g):
    """Expected payoffs under the uniform profile, exactly (reach products in sympy)."""
    reach = [sp.Integer(1)] * g.n_nodes
    for i in range(1, g.n_nodes):
        p = int(g.parent[i])
        if g.kind[p] == CHANCE:
            reach[i] = reach[p] * g.edge_prob[i]
        elif g.kind[p] == DECISION:
            reach[i] = reach[p] / len(g.infosets[int(g.infoset[p])].actions)
    return [sp.simplify(sum(reach[int(t)] * u[k] for t, u in zip(g.terminal_node, g.payoffs)))
            for k in range(g.n_players)]


def test_symbolic_bet_payoffs_are_exact_and_affine():
    g = exact_game(_small_smh, bet=B)
    assert g.param_names == ("B",)
    u1, u2 = _uniform_value(g)
    assert sp.simplify(u1 + u2) == 0
    # the brute force over distinct cards at two bet sizes pins the affine form
    for bet in (1, 4):
        assert float(u1.subs(B, bet)) == pytest.approx(
            _brute_force_uniform_smh(3, 3, bet=bet), abs=1e-12)
    below_chance = [i for i in range(1, g.n_nodes) if g.kind[int(g.parent[i])] == CHANCE]
    assert all(isinstance(g.edge_prob[i], sp.Rational) for i in below_chance)
    assert g.edge_prob[below_chance[0]] == sp.Rational(3, 36)      # 22 from 9 cards


def test_exact_game_compiles_to_the_float_game():
    g = exact_game(partial(mercer_smh, players=2, collapse=False), bet=B)
    for bet in (4, 1):
        a = compile_game(g, {"B": bet})
        b = compile_game(mercer_smh(players=2, bet=bet, collapse=False))
        assert np.allclose(a.payoffs, b.payoffs) and np.allclose(a.chance_prob, b.chance_prob)
    worst = min(min(row) for row in g.payoffs)
    assert sp.simplify(worst.subs(B, 4)) == -5 and sp.diff(worst, B) == -1


def test_exact_game_refuses_large_games():
    with pytest.raises(GameError, match="more than the 1000 of an exact build"):
        exact_game(partial(mercer_smh, players=2), max_nodes=1000)
