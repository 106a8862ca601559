"""Three-way preflop all-in outcomes (games.preflop.multiway): exact 3-seat deal counts with
card removal, the Monte Carlo against exact board enumeration, and its seeding."""
from __future__ import annotations

from math import comb

import numpy as np
import pytest

from pokerdyn.games.errors import GameError
from pokerdyn.games.preflop.classes import class_combos, class_index, disjoint_pair_counts
from pokerdyn.games.preflop.multiway import (N_BOARDS3, N_TRIPLES, ThreeWayTable, exact_class_three_way,
                                    exact_three_way, sampled_three_way, triple_deal_counts)
from pokerdyn.games.tournament.showdown import weak_orderings


def test_triple_counts_add_up_and_have_the_pair_marginals():
    n = triple_deal_counts()
    assert n.sum() == N_TRIPLES == 1326 * 1225 * 1128
    # each disjoint pair leaves C(48, 2) = 1128 combos for the third hand
    pair = disjoint_pair_counts() * comb(48, 2)
    assert np.array_equal(n.sum(axis=2), pair) and np.array_equal(n.sum(axis=1), pair)
    assert np.array_equal(n.sum(axis=0), pair)
    assert np.array_equal(n, n.transpose(1, 0, 2)) and np.array_equal(n, n.transpose(0, 2, 1))


@pytest.mark.parametrize("classes, count", [
    (("AA", "AA", "AA"), 0),                 # four aces cannot make three pairs
    (("AA", "AA", "KK"), 6 * 1 * 6),         # the second AA is the other two aces
    (("AKs", "AKs", "AKs"), 4 * 3 * 2),      # three different suits
    (("AA", "KK", "QQ"), 6 ** 3),
    (("AKo", "AA", "KK"), 12 * 3 * 3),       # AKo leaves 3 aces (3 AA), 3 kings (3 KK)
])
def test_triple_counts_by_hand(classes, count):
    i, j, k = (class_index(c) for c in classes)
    assert triple_deal_counts()[i, j, k] == count


def test_monte_carlo_of_three_hands_agrees_with_every_board():
    """AKs, QQ, 76s as fixed hole cards: the kernel's 20,000 boards against all C(46, 5)."""
    hands = [class_combos("AKs")[0], class_combos("QQ")[1], class_combos("76s")[2]]
    exact = exact_three_way(hands)
    assert exact.sum() == N_BOARDS3 == comb(46, 5)
    n = 20_000
    mc = sampled_three_way(hands, n, seed=3)
    p = exact / exact.sum()
    se = np.sqrt(p * (1 - p) / n)
    assert mc.sum() == n
    assert (np.abs(mc / n - p) <= 4 * se + 1e-12).all(), (mc / n, p)
    # outright wins (the player's strength 2 alone): QQ, then AKs, then 76s
    W = weak_orderings(3)
    wins = [exact[(W[:, i] == 2) & ((W == 2).sum(axis=1) == 1)].sum() for i in range(3)]
    assert wins[1] > wins[0] > wins[2]


def test_class_triple_monte_carlo_agrees_with_exact_enumeration():
    """A class triple with a repeated class (JTs, JTs, 22): every disjoint combo triple and
    every board (by suit isomorphism) against the table's Monte Carlo, within 4 SE."""
    tri = sorted(class_index(c) for c in ("JTs", "JTs", "22"))
    exact = exact_class_three_way(tri)
    assert exact.sum() == triple_deal_counts()[tri[0], tri[1], tri[2]] * N_BOARDS3
    tw = ThreeWayTable(seed=5, batch=1000)
    tw.ensure(np.array([tri]), 20_000)
    row = tw.slots(np.array([tri]))
    p = exact / exact.sum()
    got = tw.probabilities(row)[0]
    se = np.sqrt(p * (1 - p) / 20_000)
    assert (np.abs(got - p) <= 4 * se + 1e-12).all(), (got, p)
    assert np.allclose(tw.standard_errors(row)[0], np.sqrt(got * (1 - got) / 20_000))


def test_table_is_deterministic_per_triple_whatever_the_batching():
    a, b = np.array([[0, 13, 168]]), np.array([[5, 5, 90]])
    t1 = ThreeWayTable(seed=1, batch=500)
    t1.ensure(np.vstack([a, b]), 1500)
    t2 = ThreeWayTable(seed=1, batch=500)
    t2.ensure(b[:, ::-1], 500)                        # another order of the classes
    t2.ensure(np.vstack([b, a]), 1000)
    t2.ensure(a, 1500)
    t2.ensure(b, 1500)
    for tri in (a, b):
        assert np.array_equal(t1.counts[t1.slots(tri)], t2.counts[t2.slots(tri)])
    t3 = ThreeWayTable(seed=2, batch=500)
    t3.ensure(a, 1500)
    assert not np.array_equal(t1.counts[t1.slots(a)], t3.counts[t3.slots(a)])
    assert t1.samples[t1.slots(a)][0] == 1500


def test_triples_that_cannot_be_dealt_are_not_sampled_and_bad_input_is_refused():
    tw = ThreeWayTable()
    aa = class_index("AA")
    assert tw.ensure(np.array([[aa, aa, aa]]), 1000) == 0 and tw.keys.size == 0
    with pytest.raises(GameError, match="six distinct"):
        exact_three_way([[0, 1], [1, 2], [3, 4]])
    with pytest.raises(GameError, match="batch"):
        ThreeWayTable(batch=0)
