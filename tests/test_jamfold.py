"""The jam/fold game (games.tournament.jamfold) on small hand models whose equilibria are
derived by hand, side pots settled by hand, and zero-sum identities."""
from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerdyn.games import GameError
from pokerdyn.games.compiled import compile_game
from pokerdyn.games.tournament.icm import icm, icm_batch
from pokerdyn.games.tournament.jamfold import deal_probabilities, jamfold_game, table
from pokerdyn.games.tournament.showdown import HandModel, settle, weak_orderings
from pokerdyn.solvers import fictitious_play, hedge, nash_conv, solve_lp

ONE = HandModel(("X",), np.ones((1, 1)), np.full((1, 1), 0.5))
# two classes dealt independently, A beats B 80% of the time
AB = HandModel(("A", "B"), np.full((2, 2), 0.25), np.array([[0.5, 0.8], [0.2, 0.5]]))


def strat(game, sigma, label, action):
    I = game.infoset_index(label)
    return sigma[I, game.infosets[I].actions.index(action)]


@given(st.floats(1.01, 50), st.floats(1.01, 50))
@settings(max_examples=10, deadline=None)
def test_equal_hands_push_and_call(s1, s2):
    """All hands equal (equity 1/2): calling an all-in is worth 0 chips against folding's
    -1 (the big blind), so the BB calls; pushing is then worth 0 against folding's -1/2, so
    the SB pushes.  Game value 0."""
    g = jamfold_game(ONE, [s1, s2], (0.5, 1))
    res = solve_lp(compile_game(g))
    assert res.value == pytest.approx(0, abs=1e-9)
    assert strat(g, res.strategies, "P1:X|", "p") == pytest.approx(1)
    assert strat(g, res.strategies, "P2:X|p", "c") == pytest.approx(1)


def test_two_class_mixed_equilibrium_by_hand():
    """Classes A, B (1/2 each, independent), A beats B with probability 4/5, stacks 2,
    blinds 1/2, 1.  BB holding A always calls; SB holding A always pushes.  Let the SB push
    B with probability x and the BB call with B with probability y.
    BB's B indifferent: call = (-6/5 * 1 + 0 * x) / (1 + x) = fold = -1  ->  x = 1/5.
    SB's B indifferent: push = 1/2 (-6/5) + 1/2 (1 - y) = fold = -1/2  ->  y = 4/5.
    SB's A pushes: 1/2 * 0 + 1/2 (y 6/5 + (1 - y) 1) = 29/50.  Value 1/2 (29/50 - 1/2) = 1/25."""
    g = jamfold_game(AB, [2, 2], (0.5, 1))
    cg = compile_game(g)
    res = solve_lp(cg)
    assert res.value == pytest.approx(float(F(1, 25)), abs=1e-9)
    assert strat(g, res.strategies, "P1:B|", "p") == pytest.approx(0.2, abs=1e-7)
    assert strat(g, res.strategies, "P2:B|p", "c") == pytest.approx(0.8, abs=1e-7)
    assert strat(g, res.strategies, "P1:A|", "p") == pytest.approx(1)
    assert nash_conv(cg, res.strategies) < 1e-9


def test_side_pots_by_hand():
    """Stacks 5, 10, 20 all in: main pot 15 (3 x 5), side pot 10 (2 x 5) between the two
    larger stacks, the last 10 of the big stack uncalled."""
    c = np.array([5.0, 10, 20])
    everyone = np.ones(3, dtype=bool)
    assert settle(c, everyone, np.array([2, 1, 0])).tolist() == [15, 10, 10]
    assert settle(c, everyone, np.array([0, 1, 2])).tolist() == [0, 0, 35]
    assert settle(c, everyone, np.array([2, 0, 1])).tolist() == [15, 0, 20]
    # the short stack ties the middle one: main pot split, side pot to the middle stack
    assert settle(c, everyone, np.array([1, 1, 0])).tolist() == [7.5, 17.5, 10]
    # a folded big blind (2) larger than the only caller's stack (1.5): 0.5 goes back
    assert settle(np.array([1.5, 2.0, 1.5]), np.array([True, False, True]),
                  np.array([1, 0, 0])).tolist() == [4.5, 0.5, 0.0]


def test_three_player_tree_and_terminal_payoffs():
    """Button 0 acts first, then SB (1), BB (2); nobody acts after folds to the BB."""
    W = weak_orderings(3).tolist()
    first = lambda cls: np.eye(13)[W.index([2, 1, 0])]      # noqa: E731  seat 0 best, 1 next
    model = HandModel(("X",), np.ones((1, 1)), np.full((1, 1), 0.5), multiway=first)
    g = jamfold_game(model, [5, 10, 20], (0.5, 1))
    labels = {I.label for I in g.infosets}
    assert labels == {"P1:X|", "P2:X|f", "P2:X|p", "P3:X|f p", "P3:X|p f", "P3:X|p c"}
    rows = {tuple(g.history(int(t))[3:]): g.payoffs[k].tolist()
            for k, t in enumerate(g.terminal_node)}
    assert rows[("p", "c", "c")] == [10, 0, -10]          # all in: as settled above
    assert rows[("f", "f")] == [0, -0.5, 0.5]              # folds to the BB
    assert rows[("p", "f", "f")] == [1.5, -0.5, -1]


@given(st.lists(st.floats(2.5, 40), min_size=3, max_size=3), st.booleans())
@settings(max_examples=10, deadline=None)
def test_zero_sum_chips_and_icm(stacks, use_icm):
    model = HandModel(AB.names, AB.pair_prob, AB.equity,
                      multiway=lambda cls: np.full(13, 1 / 13))
    g = jamfold_game(model, stacks, (0.5, 1), ante=0.1,
                     payouts=[0.5, 0.3, 0.2] if use_icm else None)
    assert np.abs(g.payoffs.sum(axis=1)).max() < 1e-12


def test_heads_up_icm_is_scaled_chip_ev():
    """Heads-up ICM is linear in chips: equity = p2 + (p1 - p2) s / S, so ICM payoffs are
    the chip payoffs times (p1 - p2) / S."""
    chips = jamfold_game(AB, [7, 3], (0.5, 1))
    eq = jamfold_game(AB, [7, 3], (0.5, 1), payouts=[0.65, 0.35])
    assert np.allclose(eq.payoffs, chips.payoffs * 0.3 / 10, atol=1e-14)


def test_icm_bubble_makes_calls_worse():
    """3 equal stacks, payouts 0.5/0.3/0.2, all hands equal: after a push from the button
    and a fold from the SB, the BB's call is a coin flip for its tournament life, worth
    less ICM equity than folding (in chips it is worth 0 against -1)."""
    model = HandModel(("X",), np.ones((1, 1)), np.full((1, 1), 0.5),
                      multiway=lambda cls: np.full(13, 1 / 13))
    g = jamfold_game(model, [10, 10, 10], (0.5, 1), payouts=[0.5, 0.3, 0.2])
    rows = {tuple(g.history(int(t))[3:]): g.payoffs[k] for k, t in enumerate(g.terminal_node)}
    call, fold = rows[("p", "f", "c")][2], rows[("p", "f", "f")][2]
    base = icm([10, 10, 10], [0.5, 0.3, 0.2])[2]
    # by hand: the call ends with stacks (0, 9.5, 20.5) or (20.5, 9.5, 0), each half the time
    lose_eq = 0.2                                              # busted: third place
    win_eq = icm_batch([[0, 9.5, 20.5]], [0.5, 0.3, 0.2])[0, 2]
    assert call == pytest.approx(0.5 * (lose_eq + win_eq) - base, abs=1e-9)
    assert fold == pytest.approx(icm([11.5, 9.5, 9], [0.5, 0.3, 0.2])[2] - base, abs=1e-12)
    assert call < fold


def test_deal_probabilities():
    assert deal_probabilities(AB, 2) is not None
    joint = deal_probabilities(AB, 3)
    assert np.allclose(joint, 1 / 8)                  # independent pairs: the product
    model = HandModel(("A", "B"), np.array([[0.1, 0.3], [0.3, 0.3]]), AB.equity)
    j3 = deal_probabilities(model, 3)
    assert j3.sum() == pytest.approx(1)
    assert np.allclose(j3, j3.transpose(1, 0, 2)) and np.allclose(j3, j3.transpose(2, 1, 0))


def test_three_player_fp_and_hedge_agree():
    """Two classes, three seats: fictitious play and hedge both approach equilibrium."""
    model = HandModel(AB.names, AB.pair_prob, AB.equity,
                      multiway=lambda cls: np.full(13, 1 / 13))
    cg = compile_game(jamfold_game(model, [6, 8, 10], (0.5, 1), payouts=[0.5, 0.3, 0.2]))
    fp = fictitious_play(cg, iterations=3000)
    hg = hedge(cg, iterations=3000)
    assert fp.nash_conv < 2e-3 and hg.nash_conv < 2e-2
    assert nash_conv(cg, np.full_like(fp.strategy, 0.5)) > 10 * fp.nash_conv


@pytest.mark.parametrize("stacks, blinds, ante, msg", [
    ([10, 0], (0.5, 1), 0, "stack 0 is outside"),
    ([10, 0.8], (0.5, 1), 0, "seat 2 posts 1"),
    ([10, 10], (1, 0.5), 0, "0 < small <= big"),
    ([10, 10], (0.5, 1), -1, "ante=-1"),
    ([10] * 7, (0.5, 1), 0, "7 seats"),
])
def test_bad_tables(stacks, blinds, ante, msg):
    with pytest.raises(GameError, match=msg):
        table(stacks, blinds, ante)


def test_missing_multiway_provider():
    with pytest.raises(GameError, match="3-way all-in equities need"):
        jamfold_game(AB, [5, 5, 5], (0.5, 1))


def test_preflop_model_pair_probabilities_by_hand():
    """The 169-class model's deal probabilities against combo counts done by hand: AA vs AA
    6 * 1, AA vs KK 6 * 6, AKs vs AKo 4 * 6 (the 3 x 3 other-suit A, K less 3 suited),
    AKo vs AKo 12 * 7 (Ah Kd: A not h, K not d, 9 less the 2 suited spades/clubs); each
    row sums to the class's combos times the 1,225 hands of the other player."""
    pytest.importorskip("pokerdyn.games.preflop.equity")
    from pokerdyn.games.preflop.classes import CLASSES, class_index
    from pokerdyn.games.tournament.hands import preflop_model
    m = preflop_model()
    assert m.names == CLASSES
    n = m.pair_prob * 1326 * 1225
    i = class_index
    for a, b, want in (("AA", "AA", 6), ("AA", "KK", 36), ("AKs", "AKo", 24),
                       ("AKo", "AKo", 84), ("AKo", "AKs", 24)):
        assert n[i(a), i(b)] == pytest.approx(want, abs=1e-9), (a, b)
    for k, name in enumerate(CLASSES):
        want = (6 if len(name) == 2 else 4 if name.endswith("s") else 12) * 1225
        assert n[k].sum() == pytest.approx(want, abs=1e-8)
    g = jamfold_game(m, [10, 10], (0.5, 1))
    cg = compile_game(g)
    assert nash_conv(cg, solve_lp(cg).strategies) < 1e-9


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_seat_counts_and_order(n):
    """Terminals: folds to the BB (1) plus, for a first push at position k, every call/fold
    sequence of the n-1-k players behind it: 1 + sum_k 2^(n-1-k) = 2^n - 1.  The first
    decision is UTG's (the seat after the big blind); heads-up the button (SB)."""
    model = HandModel(("X",), np.ones((1, 1)), np.full((1, 1), 0.5),
                      multiway=lambda cls: np.eye(len(weak_orderings(len(cls))))[0])
    g = jamfold_game(model, [10.0 + i for i in range(n)], (0.5, 1), ante=0.25, button=1,
                     payouts=[0.5, 0.3, 0.2][:n])
    assert len(g.terminal_node) == 2 ** n - 1
    t = table([10.0 + i for i in range(n)], (0.5, 1), 0.25, 1)
    assert t.order[0] == (1 if n == 2 else (1 + 3) % n) and t.order[-1] == t.bb
    assert g.infosets[0].player == t.order[0]
    assert np.abs(g.payoffs.sum(axis=1)).max() < 1e-12
