"""One-third street 3-player Kuhn poker (Billingham sections 2-3): the symbolic payoffs
derived from the tree equal the paper's equations, exactly; the published SKP equilibria
(12)-(14) are Nash equilibria of the compiled game."""
from __future__ import annotations

import pytest
import sympy as sp
from conftest import compiled

from pokerdyn.games import get_game, strategy_from_params
from pokerdyn.solvers import nash_conv, symbolic_payoffs

P = sp.Symbol("P", positive=True)


def _syms(game):
    E = symbolic_payoffs(game)
    names = {s.name: s for e in E for s in e.free_symbols}
    return E, lambda n: names.get(n, sp.Symbol(n, real=True))


def test_kuhn3_third_payoffs_equal_billingham_30_to_32():
    E, s = _syms(get_game("kuhn3-third"))
    b_J, b_Q, c_Q, c_K, d_Q, d_K, o_K = map(s, ["b_J", "b_Q", "c_Q", "c_K", "d_Q", "d_K", "o_K"])
    P_ = s("P")
    # Billingham eq. (30)
    e1 = (c_Q * (-2 + b_J * (P_ - (P_ + 2) * o_K)) + c_K * (-2 + P_ * (b_J + b_Q))
          + (2 - P_ + o_K) * (b_J + b_Q))
    # Billingham eq. (31)
    e2 = (d_Q * (c_K - 2 + b_J * (1 - c_K) * (P_ + 1))
          + d_K * (c_Q - 2 + b_J * (1 - c_Q) * (P_ + 1) + b_Q * (P_ + 1))
          + o_K * (-c_Q - b_Q + b_J * ((P_ + 2) * c_Q - 1))
          + b_J * (2 - P_ + c_Q + c_K) + b_Q * (2 - P_ + c_K))
    # Billingham eq. (32)
    e3 = (b_J * (2 * P_ - 4 - (P_ + 1) * (c_Q * (1 - d_K) + d_K + c_K * (1 - d_Q) + d_Q))
          + b_Q * (2 * P_ - 4 - (P_ + 1) * (c_K + d_K)) + 2 * (c_Q + c_K) + (2 - c_K) * d_Q
          + (2 - c_Q) * d_K + c_Q * o_K)
    for got, paper in zip(E, (e1, e2, e3)):
        assert sp.expand(24 * got - paper) == 0


def test_skp_payoffs_equal_billingham_38_to_40():
    E, s = _syms(get_game("skp"))
    b_J, c_K, d_Q, P_ = s("b_J"), s("c_K"), s("d_Q"), s("P")
    e1 = c_K * (P_ * b_J - 2) - (P_ - 2) * b_J                                  # eq. (38)
    e2 = d_Q * (c_K - 2 + b_J * (1 - c_K) * (P_ + 1)) + b_J * (c_K + 3) - 2     # eq. (39)
    e3 = (b_J * (P_ - 5 - (P_ + 1) * (d_Q + (1 - d_Q) * c_K)) + 2 * c_K          # eq. (40)
          + (2 - c_K) * d_Q + 2)
    for got, paper in zip(E, (e1, e2, e3)):
        assert sp.expand(24 * got - paper) == 0


def skp_solutions(p):
    """Billingham eqs. (12), (13), (14): SKP equilibria (b_J, c_K, d_Q) at pot p."""
    return [(2 / (p + 1), 0.0, (p - 5) / (p + 1)),                              # (12)
            (2 / p, (p - 5) / (p + 1), 0.0),                                    # (13)
            (2 / p, 2 / (p + 2), (p * p - 5 * p - 12) / (p * (p + 1)))]         # (14)


@pytest.mark.parametrize("which", [0, 1, 2])
def test_published_skp_equilibria_have_zero_nash_conv(which):
    cg = compiled("skp", 9)
    b_J, c_K, d_Q = skp_solutions(9.0)[which]
    sigma = strategy_from_params(cg, {"b_J": b_J, "c_K": c_K, "d_Q": d_Q})
    assert nash_conv(cg, sigma) == pytest.approx(0.0, abs=1e-12)


def test_moving_off_an_equilibrium_creates_regret():
    cg = compiled("skp", 9)
    b_J, c_K, d_Q = skp_solutions(9.0)[1]
    sigma = strategy_from_params(cg, {"b_J": b_J + 0.05, "c_K": c_K, "d_Q": d_Q})
    assert nash_conv(cg, sigma) > 1e-3
