"""The sequence-form kernels of solvers._kernels (best responses, regrets, own reach per
information set) against independent computations: node-by-node products, brute force
over pure strategies, and the node-order expected payoffs."""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from conftest import compiled

from pokerdyn.solvers import _kernels as K
from pokerdyn.solvers.evaluation import best_response, expected_payoffs, regrets


def _random_profile(cg, seed):
    rng = np.random.default_rng(seed)
    sigma = rng.random(cg.legal.shape) * cg.legal
    return sigma / sigma.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("name", ["kuhn", "skp", "kuhn3"])
def test_own_reach_per_set_equals_per_node(name):
    """Perfect recall: a player's own reach is equal at every node of her sets, and the
    per-set recursion over parent sequences (infoset_trees) gives the per-node product."""
    cg = compiled(name)
    sigma = _random_profile(cg, 3)
    iparents, topos, ms = K.infoset_trees(cg)
    dec = np.flatnonzero(cg.infoset >= 0)
    for p in range(cg.n_players):
        node = K.own_reach(cg.kind, cg.player, cg.parent, cg.edge, cg.infoset, sigma, p)
        per_set = np.full(cg.n_infosets, np.nan)
        K.own_reach_sets(sigma, iparents[p], topos[p], ms[p], cg.max_actions, per_set)
        mine = dec[cg.player[dec] == p]
        assert ms[p] == (cg.infoset_player == p).sum()
        np.testing.assert_allclose(per_set[cg.infoset[mine]], node[mine], rtol=1e-14, atol=0)


@pytest.mark.parametrize("seed", range(3))
def test_best_response_is_the_best_pure_strategy_of_kuhn(seed):
    """Kuhn poker: each player has 6 two-action sets, 64 pure strategies; the best-response
    value is the largest expected payoff among them, and the chosen one attains it."""
    cg = compiled("kuhn")
    sigma = _random_profile(cg, seed)
    for p in range(2):
        rows = np.flatnonzero(cg.infoset_player == p)
        best = -np.inf
        for acts in itertools.product(range(2), repeat=rows.size):
            s = sigma.copy()
            s[rows] = 0.0
            s[rows, acts] = 1.0
            best = max(best, expected_payoffs(cg, s)[p])
        br = best_response(cg, sigma, p)
        assert br.value == pytest.approx(best, abs=1e-14)
        assert expected_payoffs(cg, br.apply(sigma))[p] == pytest.approx(best, abs=1e-14)


@pytest.mark.parametrize("name", ["kuhn3", "skp"])
def test_regrets_are_best_response_minus_node_order_payoffs(name):
    cg = compiled(name)
    for seed in range(3):
        sigma = _random_profile(cg, seed)
        ev = expected_payoffs(cg, sigma)
        want = [best_response(cg, sigma, p).value - ev[p] for p in range(cg.n_players)]
        got = regrets(cg, sigma)
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-13)
        assert np.all(got > 0)     # a random profile is no equilibrium
