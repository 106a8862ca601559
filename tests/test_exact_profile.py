"""pokerdyn.solvers.exact_profile on integers over common denominators: the expected payoffs equal
a direct sum over the terminals of the product of the probabilities on each path (in
Fractions), the best-response values equal the float kernels' to rounding, and Kuhn's
equilibrium gives exactly -1/18 (Kuhn 1950)."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import given, settings, strategies as st

from pokerdyn.games import get_game
from pokerdyn.games.compiled import compile_game
from pokerdyn.games.tree import CHANCE
from pokerdyn.solvers.evaluation import best_response
from pokerdyn.solvers.exact_profile import exact_values, rational


def _random_profile(game, seed: int) -> dict[str, tuple]:
    rng = np.random.default_rng(seed)
    out = {}
    for s in game.infosets:
        w = [int(v) for v in rng.integers(0, 5, len(s.actions))]
        w[int(rng.integers(len(w)))] += 1
        out[s.label] = tuple(Fraction(v, sum(w)) for v in w)
    return out


def _direct_payoffs(game, sig) -> list[Fraction]:
    """Sum over terminals of (product of chance and action probabilities) x payoff."""
    kind, parent, edge, infoset = (a.tolist() for a in (game.kind, game.parent, game.edge,
                                                         game.infoset))
    total = [Fraction(0)] * game.n_players
    for t, node in enumerate(np.asarray(game.terminal_node).tolist()):
        w, i = Fraction(1), node
        while i != 0:
            q = parent[i]
            w *= (rational(game.edge_prob[i]) if kind[q] == CHANCE
                  else sig[game.infosets[infoset[q]].label][edge[i]])
            i = q
        for p in range(game.n_players):
            total[p] += w * rational(game.payoffs[t][p])
    return total


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10**6))
def test_integer_passes_agree_with_a_direct_sum_and_the_float_best_response(seed):
    game = get_game("leduc")
    sig = _random_profile(game, seed)
    values, best = exact_values(game, sig)
    assert values == _direct_payoffs(game, sig)
    cg = compile_game(game)
    sigma = np.zeros(cg.legal.shape)
    for I, s in enumerate(game.infosets):
        sigma[I, :len(s.actions)] = [float(v) for v in sig[s.label]]
    for p in range(game.n_players):
        assert abs(float(best[p]) - best_response(cg, sigma, p).value) < 1e-12
        assert best[p] >= values[p]


def test_kuhn_equilibrium_is_exact():
    """Kuhn (1950) with alpha = 0: player 1 always checks, calls a bet with K and with Q one
    third of the time; player 2 bets K and bluffs J one third of the time after a check,
    calls with K and with Q one third of the time.  Player 1 gets exactly -1/18 and nobody
    gains by deviating; a third bluff more with J (2/3) gives player 1 a gain."""
    game = get_game("kuhn")
    R = Fraction
    second = {"P1:J|": 0, "P1:Q|": 0, "P1:K|": 0, "P1:J|kb": 0, "P1:Q|kb": R(1, 3),
              "P1:K|kb": 1, "P2:J|k": R(1, 3), "P2:Q|k": 0, "P2:K|k": 1, "P2:J|b": 0,
              "P2:Q|b": R(1, 3), "P2:K|b": 1}
    sig = {k: (1 - R(v), R(v)) for k, v in second.items()}
    values, best = exact_values(game, sig)
    assert values[0] == R(-1, 18) and values == best
    sig["P2:J|k"] = (R(1, 3), R(2, 3))
    values, best = exact_values(game, sig)
    assert best[0] > values[0]
