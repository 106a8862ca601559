"""Deals of the hold'em builder (games.holdem.cards): exact card-removal weights, Mercer's
hole-hand distribution (hypergeometric) and merged deals against brute-force enumeration of
distinct cards."""
from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import permutations
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerdyn.games import GameError
from pokerdyn.games.holdem import Deck
from pokerdyn.games.holdem.cards import deal_distinct, deal_multisets

MERCER = Deck(ranks=5, copies=4)


def test_mercer_hole_hands_are_hypergeometric():
    deals = dict((tuple(MERCER.rank(c) for c in cs), p) for cs, p in deal_multisets(MERCER, (), 2))
    assert len(deals) == 15
    assert sum(deals.values()) == 1
    assert deals[(0, 0)] == Fraction(comb(4, 2), comb(20, 2)) == Fraction(6, 190)
    assert deals[(1, 3)] == Fraction(4 * 4, comb(20, 2))


def test_card_removal_after_a_pair():
    """After 22 is out, 22 again needs both remaining 2s: C(2,2)/C(18,2)."""
    used = (0, 1)                       # two copies of rank 0 (card = 4 * rank + copy)
    deals = {tuple(MERCER.rank(c) for c in cs): p for cs, p in deal_multisets(MERCER, used, 2)}
    assert deals[(0, 0)] == Fraction(1, comb(18, 2))
    assert sum(deals.values()) == 1
    # dealt cards are fresh copies: no card id repeats one already out
    for cs, _ in deal_multisets(MERCER, used, 2):
        assert not set(cs) & set(used) and len(set(cs)) == len(cs)


def test_distinct_deals_are_uniform_over_card_sets():
    d = Deck(ranks=3, suits=2)
    deals = deal_distinct(d, (0, 3), 2)
    assert len(deals) == comb(4, 2) and all(p == Fraction(1, 6) for _, p in deals)
    assert [d.card_name(c) for c in range(6)] == ["2c", "2d", "3c", "3d", "4c", "4d"]


def test_a_deck_too_small_is_a_game_error():
    with pytest.raises(GameError, match="cannot deal 3 cards: only 2 remain"):
        deal_multisets(Deck(ranks=1, copies=2), (), 3)
    with pytest.raises(GameError, match=r"copies=0 is outside \[1"):
        Deck(ranks=3, copies=0)


@settings(max_examples=40, deadline=None)
@given(ranks=st.integers(1, 4), copies=st.integers(1, 3), used=st.integers(0, 3),
       k=st.integers(1, 3))
def test_merged_deals_equal_the_rank_distribution_of_distinct_cards(ranks, copies, used, k):
    """Brute force: every ordered sequence of distinct physical cards after the first
    ``used`` cards (also enumerated), counted by rank multiset."""
    deck = Deck(ranks=ranks, copies=copies)
    if used + k > deck.size:
        return
    first = tuple(range(used))           # the lowest cards: ranks 0, 0, ... in copy order
    rest = [c for c in range(deck.size) if c not in first]
    brute = Counter(tuple(sorted(deck.rank(c) for c in seq)) for seq in permutations(rest, k))
    total = sum(brute.values())
    merged = {tuple(deck.rank(c) for c in cs): p for cs, p in deal_multisets(deck, first, k)}
    assert merged == {key: Fraction(v, total) for key, v in brute.items()}
    assert sum(merged.values()) == 1
