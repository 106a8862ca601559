"""The 3-player Kuhn family with pot P (issue 14): ``kuhn3`` (P symbolic, default 3 = the
ACPC game), ``kuhn3(cards=N)`` (Billingham, arXiv 1802.04670) and
``kuhn3-full-simplified`` (Billingham, arXiv 1707.01392: a player holding J must check or
fold)."""
from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from pokerdyn.games import compile_game, get_game
from pokerdyn.games.errors import GameError
from pokerdyn.games.strategy import uniform_strategy
from pokerdyn.solvers import expected_payoffs, symbolic_payoffs


@pytest.mark.parametrize("n", [3, 4, 5, 7])
def test_n_card_game_has_every_deal_and_twelve_sets_per_card(n):
    g = get_game(f"kuhn3(cards={n})")
    root = 0
    assert int(np.sum(g.parent == root)) == n * (n - 1) * (n - 2)
    assert len(g.infosets) == 12 * n
    assert g.name == ("kuhn3" if n == 4 else f"kuhn3(cards={n})")


def test_pot_three_is_the_ante_one_game():
    g = get_game("kuhn3")
    # stake P/3 each: at P = 3 the check-down deal AKQ pays the ace holder 2 = P - P/3
    cg = compile_game(g)
    assert g.defaults == {"P": 3}
    pays = symbolic_payoffs(g)
    assert all(sp.Symbol("P", positive=True) in e.free_symbols for e in pays)
    u = expected_payoffs(cg, uniform_strategy(cg))
    assert abs(u.sum()) < 1e-12
    # doubling the pot scales the check-down share: payoffs are affine in P
    u6 = expected_payoffs(compile_game(g, {"P": 6.0}), uniform_strategy(cg))
    u9 = expected_payoffs(compile_game(g, {"P": 9.0}), uniform_strategy(cg))
    np.testing.assert_allclose(u9 - u6, u6 - u, atol=1e-12)


def test_jack_only_checks_or_folds_in_the_simplified_game():
    g = get_game("kuhn3-full-simplified")
    for s in g.infosets:
        card = s.label.split(":")[1][0]
        if card == "J":
            assert s.actions in (("k",), ("f",)), s.label
        else:
            assert len(s.actions) == 2, s.label


@pytest.mark.parametrize("bad", ["kuhn3(cards=2)", "kuhn3(cards=14)", "kuhn3(cards=4.5)"])
def test_bad_deck_size_is_one_clear_error(bad):
    with pytest.raises(GameError, match=r"cards=.*3\.\.13"):
        get_game(bad)
