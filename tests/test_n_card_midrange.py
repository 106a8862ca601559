"""The mid-range bet of N-card 3-player Kuhn poker (Billingham, arXiv 1802.04670, N > 5):
the figure `n_card_midrange` and its committed data (figures/frontier/data/
n_card_midrange.json, derived from the continuation's JSON)."""
from __future__ import annotations

import json

import numpy as np

from pokerdyn.figures.frontier import n_card_midrange as mid
from pokerdyn.games import get_game
from pokerdyn.games.catalog.kuhn import deck
from pokerdyn.solvers.continuation.api import continuation


def test_profiles_rebuilt_from_the_json_are_the_branch_points():
    """branch_profiles (support + first point + sampled mixed frequencies) gives back every
    kept sample of every branch of the 3-card game, to 1e-9 (the first point of a branch is
    the event that starts it, where the set that switched is within the event tolerance)."""
    res = continuation(get_game("kuhn3(cards=3)"), (2.0, 10.0), start=5.3)
    js = res.to_json()
    for b, rec in zip(res.branches, js["branches"]):
        got = mid.branch_profiles(res.system, rec)
        want = dict(zip(b.pots, b.xs))
        assert len(got) == len(rec["samples"]["pot"])
        for p, x in got:
            assert np.abs(x - want[p]).max() < 1e-9


def test_committed_data_shows_split_mid_range_bets_for_six_and_seven_cards():
    """For N = 6 and 7 the data covers P in [2, 10]; every bet listed has a mid-range card
    (neither of the two lowest nor the two highest of the deck) and, at a pot inside its
    split range, equity above 1/2 against one opponent's calls and below against the
    other's, with frequencies in [0, 1]."""
    data = json.loads(mid.DATA.read_text())
    for n in mid.CARDS:
        d = data[f"N={n}"]
        assert d["covered"][0] <= 2.0 + 1e-9 and d["covered"][1] >= 10.0 - 1e-9
        assert d["max_nash_conv"] < 1e-8
        assert d["bets"], n
        cards = deck(n)
        for b in d["bets"]:
            assert 2 <= cards.index(b["card"]) <= n - 3
            lo, hi = b["split_pots"]
            split = False
            for s in b["branches"]:
                f = np.array(s["frequency"])
                assert ((f >= 0) & (f <= 1)).all()
                for i, p in enumerate(s["pot"]):
                    e = [s["equity"][q][i] for q in sorted(s["equity"])]
                    if lo <= p <= hi and None not in e and f[i] > 0:
                        split |= min(e) < 0.5 < max(e)
            assert split, b


def test_figure_quick_reads_the_committed_data(tmp_path):
    res = mid.main(tmp_path, seed=0, quick=True)
    assert res.files[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert set(res.numbers) == {"N=6", "N=7"}
