"""Showdown evaluators of games.holdem: Mercer's 4-card ranking (FourCardEvaluator.java
``value()``), Leduc (OpenSpiel ``RankHand``) and hold'em through phevaluator."""
from __future__ import annotations

import numpy as np
import pytest

from pokerdyn.games.holdem import Deck, HoldemEvaluator, LeducEvaluator, MercerEvaluator, pot_shares
from pokerdyn.games.holdem.evaluators import mercer_value

MERCER = Deck(ranks=5, copies=4)


def _hand(deck, text):
    """Cards from rank names, copies numbered in order of appearance."""
    seen = {}
    out = []
    for ch in text:
        r = deck.rank_names.index(ch)
        out.append(r * deck.per_rank + seen.get(r, 0))
        seen[r] = seen.get(r, 0) + 1
    return out


def _mercer(*texts):
    return MercerEvaluator().strength(MERCER, np.array([_hand(MERCER, t) for t in texts]))


def test_mercer_values_are_those_of_the_java_formula():
    # value = 10000*type + 1000*d + 100*c + 10*b + a, ranks 0-based (2 -> 0 ... 6 -> 4)
    assert list(_mercer("6542", "3322", "6552", "5554", "6666")) == [
        0 * 10000 + 4 * 1000 + 3 * 100 + 2 * 10 + 0,      # junk 6 5 4 2
        4 * 10000 + 1 * 1000 + 0 * 100,                   # two pair 3s and 2s
        3 * 10000 + 3 * 1000 + 4 * 100 + 0 * 10,          # pair of 5s, kickers 6 2
        5 * 10000 + 3 * 1000 + 2 * 100,                   # trips 5s, kicker 4
        6 * 10000 + 4 * 1000]                             # quad 6s


def test_mercer_order_and_ties():
    order = ["5432", "6432", "6542", "2234", "2256", "3324", "2233", "6655", "2224", "3332",
             "6665", "2222", "6666"]
    s = _mercer(*order)
    assert (np.diff(s) > 0).all()
    # same ranks in another order or other copies: a tie (the pot is split)
    assert _mercer("2345")[0] == _mercer("5432")[0]
    # two pair ignores nothing (4 cards); pair kickers decide, highest first
    assert _mercer("4465")[0] > _mercer("4463")[0] > _mercer("4432")[0]
    assert mercer_value((4, 4, 3, 3)) > mercer_value((4, 4, 2, 2)) > mercer_value((3, 3, 2, 2))


def test_mercer_takes_the_best_four_of_more_cards():
    six = MercerEvaluator().strength(MERCER, np.array([_hand(MERCER, "226634")]))
    assert six[0] == mercer_value((4, 4, 0, 0))        # two pair 6s and 2s


def test_pot_shares_split_ties_among_active_players():
    s = np.array([[5, 5, 9], [1, 2, 2]])
    sh = pot_shares(s, np.array([True, True, False]))
    assert sh.tolist() == [[0.5, 0.5, 0.0], [0.0, 1.0, 0.0]]
    assert pot_shares(s, np.array([True, True, True]))[1].tolist() == [0, 0.5, 0.5]


def test_leduc_pair_beats_high_card_then_high_then_low():
    deck = Deck(ranks=3, suits=2, rank_names="JQK")
    ev = LeducEvaluator()
    hands = [("Jc", "Jd"), ("Qc", "Qd"), ("Kc", "Kd"), ("Jc", "Qc"), ("Jc", "Kc"), ("Qc", "Kd")]
    names = [deck.card_name(c) for c in range(6)]
    s = ev.strength(deck, np.array([[names.index(a), names.index(b)] for a, b in hands]))
    assert s[3] < s[4] < s[5] < s[0] < s[1] < s[2]
    # suits never matter
    assert ev.strength(deck, np.array([[0, 4], [1, 5]])).tolist() == [s[4]] * 2


def test_holdem_textbook_hands():
    pytest.importorskip("phevaluator")
    deck = Deck(ranks=13, suits=4)
    names = [deck.card_name(c) for c in range(52)]

    def h(*cards):
        return [names.index(c) for c in cards]

    hands = [h("2c", "7d", "9h", "Js", "Kd"),          # high card
             h("2c", "2d", "9h", "Js", "Kd"),          # pair
             h("2c", "2d", "9h", "9s", "Kd"),          # two pair
             h("2c", "2d", "2h", "9s", "Kd"),          # trips
             h("Ac", "2d", "3h", "4s", "5d"),          # wheel straight
             h("2c", "3d", "4h", "5s", "6d"),          # six-high straight
             h("2c", "7c", "9c", "Jc", "Kc"),          # flush
             h("2c", "2d", "2h", "9s", "9d"),          # full house
             h("2c", "2d", "2h", "2s", "Kd"),          # quads
             h("Ac", "2c", "3c", "4c", "5c"),          # steel wheel (straight flush)
             h("Tc", "Jc", "Qc", "Kc", "Ac")]          # royal flush
    s = HoldemEvaluator().strength(deck, np.array(hands))
    assert (np.diff(s) > 0).all()
    # best 5 of 7: the board's flush beats the hole pair
    seven = HoldemEvaluator().strength(deck, np.array([h("Ad", "Ah", "2c", "7c", "9c", "Jc", "Kc")]))
    assert seven[0] == s[6]
