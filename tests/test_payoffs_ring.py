"""Symbolic payoffs (solvers.symbolic.payoffs) computed in a sparse polynomial ring are the
very expressions that expanding sympy expressions gives, and a game whose payoffs are not
polynomial in its symbols (1/P) takes the expression path."""
import dataclasses

import pytest
import sympy as sp

from games import get_game
from games.catalog.registry import make_game
from games.strategy import symbolic_strategy
from solvers.symbolic import payoffs as pay


def _by_expressions(game):
    probs = symbolic_strategy(game)
    chance = {n: pay._exact(game.edge_prob[n]) for n in range(1, game.n_nodes)
              if game.kind[int(game.parent[n])] == pay.CHANCE}
    return pay._derive_expr(game, probs, chance,
                            [[pay._exact(x) for x in u] for u in game.payoffs])


@pytest.mark.parametrize("spec", ["kuhn", "kuhn3-third", "kuhn3-third-full", "skp", "river",
                                  "kuhn3-full-simplified", "mercer-smh(players=2)"])
def test_ring_equals_expression_expansion(spec):
    game = make_game(spec)
    ring = pay._derive(game)
    assert ring == _by_expressions(game)  # structurally equal expressions
    # and the zero-sum games stay zero-sum
    if spec != "river":
        assert sp.expand(sum(ring)) == 0


def test_non_polynomial_payoffs_take_the_expression_path():
    game = get_game("kuhn3-third")
    P = next(s for s in game.params if s.name == "P")
    odd = dataclasses.replace(game, payoffs=tuple(tuple(x / P for x in u)
                                                  for u in game.payoffs))
    got = pay._derive(odd)
    assert got == _by_expressions(odd)
    assert all(sp.simplify(a - b / P) == 0 for a, b in zip(got, pay._derive(game)))
