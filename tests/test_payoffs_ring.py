"""Symbolic payoffs (solvers.symbolic.model.payoffs) computed in a sparse polynomial ring are the
very expressions that expanding sympy expressions gives, and a game whose payoffs are not
polynomial in its symbols (1/P) takes the expression path."""
import dataclasses

import pytest
import sympy as sp

from pokerdyn.games import get_game
from pokerdyn.games.catalog.registry import make_game
from pokerdyn.games.strategy import symbolic_strategy
from pokerdyn.solvers.symbolic.model import payoffs as pay


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
    ring, elems = pay._derive(game)
    assert elems is not None  # the ring path
    assert ring == _by_expressions(game)  # structurally equal expressions
    # and the zero-sum games stay zero-sum
    if spec != "river":
        assert sp.expand(sum(ring)) == 0


def test_non_polynomial_payoffs_take_the_expression_path():
    game = get_game("kuhn3-third")
    P = next(s for s in game.params if s.name == "P")
    odd = dataclasses.replace(game, payoffs=tuple(tuple(x / P for x in u)
                                                  for u in game.payoffs))
    got, elems = pay._derive(odd)
    assert elems is None
    assert got == _by_expressions(odd)
    assert all(sp.simplify(a - b / P) == 0 for a, b in zip(got, pay._derive(game)[0]))


@pytest.mark.parametrize("spec", ["kuhn3-third", "kuhn3-full-simplified", "kuhn3"])
@pytest.mark.parametrize("pot", [sp.Integer(3), sp.Rational(41, 10), 2.5])
def test_a_pot_substituted_in_the_ring_is_sympys_subs_and_expand(spec, pot):
    """symbolic_payoffs(game, {"P": pot}) substitutes in the polynomial ring; the result is
    structurally the expression sympy's subs and expand give (a float pot as the rational
    nsimplify makes of it)."""
    game = make_game(spec)
    P = next(s for s in game.params if s.name == "P")
    base = pay.symbolic_payoffs(game)
    assert game in pay._RING
    v = sp.nsimplify(pot, rational=True) if isinstance(pot, float) else pot
    assert pay.symbolic_payoffs(game, {"P": pot}) == tuple(sp.expand(e.subs({P: v}))
                                                          for e in base)


def test_a_symbolic_value_takes_the_expression_path():
    game = make_game("kuhn3-third")
    P = next(s for s in game.params if s.name == "P")
    Q = sp.Symbol("Q")
    got = pay.symbolic_payoffs(game, {"P": 2 * Q})
    assert got == tuple(sp.expand(e.subs({P: 2 * Q})) for e in pay.symbolic_payoffs(game))


@pytest.mark.parametrize("spec,pot", [("kuhn3", 3), ("kuhn3", sp.Rational(41, 10)),
                                      ("kuhn3-full-simplified", 5), ("skp", None),
                                      ("kuhn3", None)])
def test_gain_systems_take_the_ring_payoffs_unchanged(spec, pot):
    """gain_system and the pot-axis system read the payoffs from the ring they were derived
    in; they are the ring elements the expressions give (GainSystem.element)."""
    from pokerdyn.solvers.symbolic.model.nash_conv import payoffs_at
    from pokerdyn.solvers.symbolic.model.sparse_gains import GainSystem, gain_system
    from pokerdyn.solvers.symbolic.learned.pot_axis import pot_system

    game = make_game(spec)
    if pot is None and any(s.name == "P" for s in game.params):
        sysm = pot_system(game)
        exprs = payoffs_at(game, None)
    else:
        sysm = gain_system(game, pot)
        exprs = payoffs_at(game, pot)
    assert game in pay._RING  # the ring path
    ref = GainSystem(game, sysm.pot, sysm.ring, ())
    assert sysm.payoffs == tuple(ref.element(e) for e in exprs)
    assert all(e.ring == sysm.ring for e in sysm.payoffs)
