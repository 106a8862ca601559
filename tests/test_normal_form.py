"""The reduced normal form (games.normal_form): plan counts from the rules, Kuhn's value
-1/18 by LP over the matrix (exactly certified), and Kuhn's theorem both ways: behaviour ->
mixed -> behaviour keeps every expected payoff, exactly with rationals, for 2 and 3 players."""
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerdyn.games import GameError, compile_game, get_game
from pokerdyn.games.normal_form import (behaviour_from_mixed, mixed_from_behaviour, normal_form,
                               realization_plan)
from pokerdyn.solvers.evaluation import expected_payoffs
from pokerdyn.games.exact_values import exact_value, exact_values
from pokerdyn.games.tree import CHANCE

KUHN = compile_game(get_game("kuhn"))
KUHN_NF = normal_form(KUHN, exact=True)
K3 = compile_game(get_game("kuhn3-third"), P=9)      # Billingham's one-third street, pot 9
K3_NF = normal_form(K3, exact=True)
HALF = compile_game(get_game("river(street=half)"))
CASES = [(KUHN, KUHN_NF), (K3, K3_NF), (HALF, normal_form(HALF, exact=True))]


def test_kuhn_plan_counts_follow_from_the_rules():
    # player 1, per card: bet, or check and then fold or call a bet -> 3 plans, 3^3 in all;
    # player 2, per card: (check or bet after a check) x (fold or call a bet) -> 4^3
    assert KUHN_NF.shape == (27, 64)
    assert KUHN_NF.payoffs.shape == (27, 64, 2)
    # every plan is distinct and plays exactly one action at each set it reaches
    for P in KUHN_NF.plans:
        assert len({tuple(r) for r in P.tolist()}) == P.shape[0]


def test_exact_tensor_equals_the_float_one_and_is_zero_sum():
    for _, nf in CASES:
        assert np.abs(nf.exact_payoffs.astype(float) - nf.payoffs).max() < 1e-12
        assert all(x == 0 for x in nf.exact_payoffs.sum(axis=-1).flat)


def test_kuhn_value_is_minus_one_eighteenth_by_lp_over_the_matrix():
    """Kuhn (1950): the game value for player 1 is -1/18.  HiGHS solves the 27 x 64 matrix
    game; the optimal mixes, read as rationals, certify the value exactly."""
    from scipy.optimize import linprog

    A = KUHN_NF.payoffs[..., 0]
    m, n = A.shape
    # max v s.t. x^T A >= v, sum x = 1, x >= 0 (and the same for player 2 on -A^T)
    res = linprog(np.r_[np.zeros(m), -1.0], A_ub=np.c_[-A.T, np.ones(n)], b_ub=np.zeros(n),
                  A_eq=np.r_[np.ones(m), 0.0][None], b_eq=[1.0],
                  bounds=[(0, None)] * m + [(None, None)], method="highs")
    res2 = linprog(np.r_[np.zeros(n), 1.0], A_ub=np.c_[A, -np.ones(m)], b_ub=np.zeros(m),
                   A_eq=np.r_[np.ones(n), 0.0][None], b_eq=[1.0],
                   bounds=[(0, None)] * n + [(None, None)], method="highs")
    assert -res.fun == pytest.approx(-1 / 18, abs=1e-9)
    assert res2.fun == pytest.approx(-1 / 18, abs=1e-9)
    Ae = KUHN_NF.exact_payoffs[..., 0]
    x = np.array([Fraction(v).limit_denominator(1000) for v in res.x[:m]], dtype=object)
    y = np.array([Fraction(v).limit_denominator(1000) for v in res2.x[:n]], dtype=object)
    assert sum(x) == 1 and sum(y) == 1 and min(x) >= 0 and min(y) >= 0
    value = Fraction(-1, 18)
    assert min(x @ Ae) == value      # player 1 guarantees -1/18 against every plan
    assert max(Ae @ y) == value      # player 2 holds player 1 to -1/18
    # the optimal mixes as behaviour: Kuhn's family, P1 bets J with 1/3 of its K-bet rate
    sigma = behaviour_from_mixed(KUHN_NF, [x, y])
    g = KUHN.game
    bet = {c: sigma[g.infoset_index(f"P1:{c}|"), 1] for c in "JQK"}
    assert bet["Q"] == 0 and bet["J"] == bet["K"] / 3


def _random_profile(cg, seed: int, exact: bool):
    """A random behaviour profile with rational probabilities (denominators up to 12),
    zeros included so that some sets are never reached."""
    rng = np.random.default_rng(seed)
    sigma = np.full(cg.legal.shape, Fraction(0), dtype=object)
    for I in range(cg.n_infosets):
        k = int(cg.n_actions[I])
        w = rng.integers(0, 4, size=k)
        w[rng.integers(k)] += 1
        sigma[I, :k] = [Fraction(int(v), int(w.sum())) for v in w]
    return sigma if exact else sigma.astype(float)


def _tree_payoffs(cg, sigma) -> list:
    """Exact expected payoffs by walking the tree (exact chance probabilities and payoffs
    at the compiled parameter values, ``sigma`` of Fractions)."""
    game = cg.game
    subs = exact_values(game, cg.values)
    reach = [sp.Integer(1)] * game.n_nodes
    for i in range(1, game.n_nodes):
        j = int(game.parent[i])
        w = (exact_value(game, game.edge_prob[i], subs) if game.kind[j] == CHANCE else
             sp.Rational(sigma[game.infoset[j], game.edge[i]]))
        reach[i] = reach[j] * w
    return [sum((reach[int(z)] * exact_value(game, game.payoffs[t][p], subs)
                 for t, z in enumerate(game.terminal_node)), sp.Integer(0))
            for p in range(game.n_players)]


def _own_reach(cg, nf, sigma, player):
    x = realization_plan(nf, player, mixed_from_behaviour(nf, sigma, player))
    return np.array([x[nf.sequences.parent_seq[I]] for I in range(cg.n_infosets)])


@settings(max_examples=25, deadline=None)
@given(case=st.integers(0, len(CASES) - 1), seed=st.integers(0, 2**32 - 1),
       support=st.sampled_from(["product", "small"]))
def test_behaviour_mixed_behaviour_keeps_the_payoffs_exactly(case, seed, support):
    cg, nf = CASES[case]
    sigma = _random_profile(cg, seed, exact=True)
    mixed = [mixed_from_behaviour(nf, sigma, p, support) for p in range(cg.n_players)]
    assert all(sum(m) == 1 and min(m) >= 0 for m in mixed)
    if support == "small":   # at most one plan per sequence (Caratheodory-size support)
        assert all(np.count_nonzero(m) <= nf.sequences.n_sequences[p]
                   for p, m in enumerate(mixed))
    by_tree = _tree_payoffs(cg, sigma)
    assert by_tree == list(nf.expected_payoffs(mixed, exact=True))
    back = behaviour_from_mixed(nf, mixed)
    for p in range(cg.n_players):   # identical wherever the player's own plans reach
        reached = (_own_reach(cg, nf, sigma, p) > 0) & (cg.infoset_player == p)
        assert (back[reached] == sigma[reached]).all()
    back_f = np.array(back, dtype=float)
    assert np.allclose(expected_payoffs(cg, back_f), np.array(by_tree, dtype=float),
                       atol=1e-12)


@settings(max_examples=15, deadline=None)
@given(case=st.integers(0, len(CASES) - 1), seed=st.integers(0, 2**32 - 1))
def test_mixed_to_behaviour_is_realization_equivalent(case, seed):
    """Kuhn's theorem the other way: any mixed strategy (float) and its behaviour strategy
    give every sequence the same probability, hence the same payoffs against anything."""
    cg, nf = CASES[case]
    rng = np.random.default_rng(seed)
    mixed = [rng.dirichlet(np.full(n, 0.3)) for n in nf.shape]
    sigma = behaviour_from_mixed(nf, mixed)
    for p, m in enumerate(mixed):
        again = mixed_from_behaviour(nf, sigma, p)
        assert np.allclose(realization_plan(nf, p, again), realization_plan(nf, p, m),
                           atol=1e-12)
    assert np.allclose(nf.expected_payoffs(mixed), expected_payoffs(cg, sigma), atol=1e-12)


def test_pure_plans_are_the_tensor_entries():
    cg, nf = K3, K3_NF
    rng = np.random.default_rng(3)
    for _ in range(10):
        prof = tuple(int(rng.integers(n)) for n in nf.shape)
        mixed = [np.eye(n)[k] for n, k in zip(nf.shape, prof)]
        sigma = behaviour_from_mixed(nf, mixed)
        assert np.allclose(expected_payoffs(cg, sigma), nf.payoffs[prof], atol=1e-12)


def test_size_guard_and_bad_input():
    with pytest.raises(GameError, match=r"6,561 x 10,000 x 65,536 .* more than the"):
        normal_form(compile_game(get_game("kuhn3")))
    with pytest.raises(GameError, match="support='tiny' is not one of product, small"):
        mixed_from_behaviour(KUHN_NF, KUHN.legal / 2.0, 0, "tiny")
    with pytest.raises(GameError, match=r"shape \(3,\); it needs \(27,\)"):
        behaviour_from_mixed(KUHN_NF, [np.ones(3) / 3, np.ones(64) / 64])
    with pytest.raises(GameError, match="no exact payoffs"):
        normal_form(KUHN).expected_payoffs([np.ones(27) / 27, np.ones(64) / 64], exact=True)
