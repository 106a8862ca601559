"""Published values of Kuhn poker: the game value -1/18 (Kuhn 1950) and the NashConv of
the uniform profile (OpenSpiel's exploitability tests: 11/12 for 2-player Kuhn, 2.0625
for 3-player Kuhn)."""
from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from conftest import compiled

from pokerdyn.games import get_game, params_from_strategy, strategy_from_params, uniform_strategy
from pokerdyn.solvers import expected_payoffs, fictitious_play, nash_conv, symbolic_payoffs

ALPHA = sp.Symbol("alpha")


def kuhn_equilibrium(alpha):
    """Kuhn's (1950) one-parameter family of equilibria, alpha in [0, 1/3]."""
    return {"b1_J": alpha, "c1_J": 0, "b2_J": sp.Rational(1, 3), "c2_J": 0,
            "b1_Q": 0, "c1_Q": alpha + sp.Rational(1, 3), "b2_Q": 0, "c2_Q": sp.Rational(1, 3),
            "b1_K": 3 * alpha, "c1_K": 1, "b2_K": 1, "c2_K": 1}


def test_kuhn_value_is_minus_one_eighteenth_exactly():
    game = get_game("kuhn")
    E = symbolic_payoffs(game)
    syms = {s.name: s for e in E for s in e.free_symbols}
    subs = {syms[k]: v for k, v in kuhn_equilibrium(ALPHA).items() if k in syms}
    assert sp.simplify(E[0].subs(subs)) == sp.Rational(-1, 18)
    assert sp.simplify(E[1].subs(subs)) == sp.Rational(1, 18)


@pytest.mark.parametrize("alpha", [0.0, 0.1, 1 / 3])
def test_kuhn_equilibrium_family_has_zero_nash_conv(alpha):
    cg = compiled("kuhn")
    sigma = strategy_from_params(cg, {k: float(v) for k, v in kuhn_equilibrium(alpha).items()})
    assert nash_conv(cg, sigma) == pytest.approx(0.0, abs=1e-12)
    assert expected_payoffs(cg, sigma)[0] == pytest.approx(-1 / 18, abs=1e-12)


@pytest.mark.parametrize("schedule", ["alternating", "simultaneous"])
def test_fictitious_play_reaches_kuhn_value(schedule):
    cg = compiled("kuhn")
    res = fictitious_play(cg, iterations=400_000, tol=1e-3, schedule=schedule)
    assert res.converged and res.nash_conv < 1e-3
    assert abs(res.expected_payoffs[0] - (-1 / 18)) < 1e-3
    # |E1 - v| <= NashConv in a 2-player zero-sum game
    assert abs(expected_payoffs(cg, res.strategy)[0] + 1 / 18) <= res.nash_conv + 1e-12
    # the FP average lies near Kuhn's family: P2's responses are unique there
    p = params_from_strategy(cg, res.strategy)
    assert p["b2_K"] > 0.99 and p["c2_J"] < 0.01 and abs(p["c2_Q"] - 1 / 3) < 0.05


def test_uniform_nash_conv_kuhn2_is_11_12():
    cg = compiled("kuhn")
    assert nash_conv(cg, uniform_strategy(cg)) == pytest.approx(11 / 12, abs=1e-12)


def test_uniform_nash_conv_kuhn3_is_2_0625():
    cg = compiled("kuhn3")
    assert nash_conv(cg, uniform_strategy(cg)) == pytest.approx(2.0625, abs=1e-12)


def test_kuhn3_shape():
    """ACPC 3-player Kuhn: 16 information sets per player (4 cards x 4 histories: the
    opening and the three spots where a player faces a bet)."""
    cg = compiled("kuhn3")
    assert cg.n_infosets == 48
    assert np.bincount(cg.infoset_player, minlength=3).tolist() == [16, 16, 16]
