"""Preflop classes and the exact heads-up all-in equity table (issue 13)."""
from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import pytest

from pokerdyn.games.errors import GameError
from pokerdyn.games.preflop.boards import all_boards, canonical_boards
from pokerdyn.games.preflop.classes import (CLASSES, GRID, N_DEALS, class_combos, class_index, combos,
                                   deal_probabilities, deal_probability, disjoint_pair_counts,
                                   grid_names)
from pokerdyn.games.preflop.equity import (BOARDS_PER_DEAL, SHIPPED, hu_equity, hu_equity_table,
                                  load_table, save_table, showdown_counts)

phevaluator = pytest.importorskip("phevaluator")


# ---------------------------------------------------------------- classes
def test_169_names_in_chart_order():
    assert len(CLASSES) == len(set(CLASSES)) == 169
    assert CLASSES[:3] == ("AA", "AKs", "AQs") and CLASSES[13] == "AKo" and CLASSES[-1] == "22"
    assert CLASSES[GRID[12, 0]] == "A2o" and CLASSES[GRID[0, 12]] == "A2s"
    for r in range(13):
        for c in range(13):
            name = CLASSES[GRID[r, c]]
            kind = "" if r == c else ("s" if r < c else "o")
            assert name.endswith(kind) and len(name) == (2 if r == c else 3)
            assert "AKQJT98765432".index(name[0]) == min(r, c)
            assert "AKQJT98765432".index(name[1]) == max(r, c)
    chart = grid_names()
    assert chart[0][:3] == ["AA", "AKs", "AQs"] and chart[1][0] == "AKo" and chart[12][12] == "22"
    assert sum(n.endswith("s") for n in CLASSES) == sum(n.endswith("o") for n in CLASSES) == 78


def test_combos_per_class():
    cards, cls = combos()
    assert cards.shape == (1326, 2) and len({tuple(c) for c in cards.tolist()}) == 1326
    sizes = np.bincount(cls, minlength=169)
    for i, name in enumerate(CLASSES):
        assert sizes[i] == {2: 6, 3: 4 if name[2:] == "s" else 12}[len(name)]
    # As = 4*12+3 = 51, Ks = 47 (card id 4 * rank + suit, rank 0 = deuce)
    assert [51, 47] in class_combos("AKs")[:, ::-1].tolist()
    assert all(a // 4 == 5 and b // 4 == 1 and a % 4 != b % 4 for b, a in class_combos("73o"))


@pytest.mark.parametrize("bad", ["XYz", "KAs", "AAs", "AKx", "A", "", "aks", None])
def test_unknown_class(bad):
    with pytest.raises(GameError, match=r"unknown hand class .*expected like AA, AKs, T3o"):
        class_index(bad)


def test_deal_probabilities_exact():
    probs = deal_probabilities()
    assert sum(sum(row, Fraction(0)) for row in probs) == 1
    n = disjoint_pair_counts()
    assert n.sum() == N_DEALS == 1326 * 1225 and np.array_equal(n, n.T)
    # AA vs AA: each AA combo leaves exactly one disjoint AA combo; AKo vs AA: 3 per AKo combo;
    # AKs vs AKs: the 3 other suits; 72o vs AA: all 6
    assert deal_probability("AA", "AA") == Fraction(6, N_DEALS)
    assert deal_probability("AKo", "AA") == Fraction(12 * 3, N_DEALS)
    assert deal_probability("AKs", "AKs") == Fraction(4 * 3, N_DEALS)
    assert deal_probability("72o", "AA") == Fraction(12 * 6, N_DEALS)
    # marginal of one class: its combo share of the 1,326
    assert sum(probs[class_index("AKo")], Fraction(0)) == Fraction(12, 1326)


# ---------------------------------------------------------------- boards
def test_canonical_boards():
    boards, sizes = canonical_boards()
    assert len(boards) == 134_459 and sizes.sum() == comb(52, 5)
    assert set(sizes.tolist()) <= {4, 6, 12, 24} and np.all(np.diff(boards, axis=1) > 0)
    # a monotone board's orbit: the same ranks in each of the 4 suits
    flush = np.flatnonzero((boards % 4 == boards[:, :1] % 4).all(axis=1))
    assert len(flush) == comb(13, 5) and np.all(sizes[flush] == 4)


# ---------------------------------------------------------------- the table
@pytest.fixture(scope="module")
def table():
    return hu_equity_table()


def test_counts_add_up_exactly(table):
    total = disjoint_pair_counts() * BOARDS_PER_DEAL
    assert np.array_equal(table.total, total)
    assert np.array_equal(table.win + table.win.T + table.tie, table.total)
    assert np.array_equal(table.tie, table.tie.T)
    i, j = class_index("AKo"), class_index("22")
    e_ij = Fraction(2 * int(table.win[i, j]) + int(table.tie[i, j]), 2 * int(table.total[i, j]))
    e_ji = Fraction(2 * int(table.win[j, i]) + int(table.tie[j, i]), 2 * int(table.total[j, i]))
    assert e_ij + e_ji == 1
    assert np.allclose(table.equity + table.equity.T, 1, atol=1e-12)
    assert np.allclose(np.diag(table.equity), 0.5)


# Published heads-up preflop equities.  AA vs KK, suits unknown: 81.946031% (Kevin Gong,
# "Calling Pre-Flop All-In with KK or AK", 2007, kevingong.com/Math/KKPreflop.html; the exact
# count here gives 81.9460505%, 2e-7 apart).  The rest are the rounded PokerStove figures
# widely reprinted (AKs vs QQ 46%, AKo vs QQ 43%, AA vs AKo 93%, AA vs AKs 88%, KK vs AKo 70%).
@pytest.mark.parametrize("a, b, published, tol", [
    ("AA", "KK", 0.81946031, 5e-7), ("AKs", "QQ", 0.46, 0.002), ("AKo", "QQ", 0.43, 0.003),
    ("AA", "AKo", 0.93, 0.003), ("AA", "AKs", 0.88, 0.003), ("KK", "AKo", 0.70, 0.002)])
def test_published_equities(a, b, published, tol):
    assert abs(hu_equity(a, b) - published) <= tol
    assert abs(hu_equity(b, a) - (1 - published)) <= tol


# Each class against a random hand, exact to the 7 digits printed in Jazbo's table of all
# 47,008 head-to-head matchups (http://jazbo.com/poker/huholdem.html, ties worth 1/2).
JAZBO = {"AA": 0.8520371, "KK": 0.8239568, "QQ": 0.7992516, "JJ": 0.7746947, "TT": 0.7501178,
         "99": 0.7205725, "88": 0.6916304, "AKs": 0.6704463, "77": 0.6623602, "A4s": 0.5903364,
         "A7o": 0.5884120, "K8s": 0.5831235, "A3s": 0.5822032, "K5o": 0.5331397, "J9o": 0.5325120,
         "96s": 0.4742829, "J2s": 0.4737815, "85o": 0.4142753, "64s": 0.4133332, "83s": 0.4087350}


def test_against_random_hand_published(table):
    got = table.against_random()
    for name, published in JAZBO.items():
        assert abs(got[class_index(name)] - published) <= 5e-8, name
    assert CLASSES[int(np.argmax(got))] == "AA" and CLASSES[int(np.argmin(got))] == "32o"


# Exact win / loss / tie counts over the 1,712,304 boards from GNU poker-eval's hcmp2
# (brainwagon.org, "Texas Hold'em trivia", 2005-04-09): an independent evaluator.
@pytest.mark.parametrize("hero, villain, counts", [
    (("Ad", "Ac"), ("Kh", "Ks"), (1388072, 317694, 6538)),
    (("Ad", "Ac"), ("Td", "9d"), (1338249, 367143, 6912)),
    (("Ad", "Ac"), ("Qc", "Jh"), (1450987, 254763, 6554))])
def test_combo_counts_against_poker_eval(hero, villain, counts):
    from phevaluator.card import Card

    from pokerdyn.games.preflop._kernels import board_ranks
    cards = np.array([[Card(c).id_ for c in hero], [Card(c).id_ for c in villain]])
    ranks = board_ranks(all_boards(), cards)
    x, y = ranks[(ranks > 0).all(axis=1)].T
    assert len(x) == BOARDS_PER_DEAL
    assert ((x < y).sum(), (x > y).sum(), (x == y).sum()) == counts


def _all_boards_counts(names):
    """Independent exact counts: every one of the 2,598,960 boards (no suit isomorphism, no
    class kernel), ranking each combo of ``names`` with phevaluator on it, then comparing
    combo ranks pair by pair."""
    from pokerdyn.games.preflop._kernels import board_ranks
    cards = np.concatenate([class_combos(n) for n in names])
    owner = np.repeat(np.arange(len(names)), [len(class_combos(n)) for n in names])
    boards = all_boards()
    ranks = board_ranks(boards, cards)
    out = {}
    for x, y in combinations(range(len(cards)), 2):
        if set(cards[x].tolist()) & set(cards[y].tolist()):
            continue
        ok = (ranks[:, x] > 0) & (ranks[:, y] > 0)
        rx, ry = ranks[ok, x], ranks[ok, y]
        assert len(rx) == BOARDS_PER_DEAL
        for (p, q), (s, t) in (((owner[x], owner[y]), (rx, ry)), ((owner[y], owner[x]), (ry, rx))):
            w, tie, tot = out.get((p, q), (0, 0, 0))
            out[p, q] = (w + int((s < t).sum()), tie + int((s == t).sum()), tot + len(s))
    return {(names[p], names[q]): v for (p, q), v in out.items()}


def test_table_cells_against_direct_enumeration(table):
    got = _all_boards_counts(["AA", "KK", "AKs"])
    for (a, b), (w, tie, tot) in got.items():
        i, j = class_index(a), class_index(b)
        assert (table.win[i, j], table.tie[i, j], table.total[i, j]) == (w, tie, tot), (a, b)
    assert len(got) == 9


def test_kernel_against_pairwise_counts_on_sample_boards():
    """The class kernel against plain pair-by-pair counting, on a deterministic sample of
    boards, every class pair, ranks from phevaluator's Python function."""
    from phevaluator import evaluate_cards
    boards, sizes = canonical_boards()
    pick = np.arange(0, len(boards), len(boards) // 12)[:12]
    cards, cls = combos()
    onehot = np.zeros((1326, 169))
    onehot[np.arange(1326), cls] = 1
    hits = np.zeros((1326, 52))
    hits[np.arange(1326), cards[:, 0]] = hits[np.arange(1326), cards[:, 1]] = 1
    disjoint = (hits @ hits.T) == 0
    win = np.zeros((169, 169))
    tie = np.zeros((169, 169))
    for b in pick:
        board = boards[b].tolist()
        live = ~hits[:, board].any(axis=1)
        r = np.array([evaluate_cards(*board, *c) if ok else 0
                      for c, ok in zip(cards.tolist(), live)])
        pair = disjoint & live[:, None] & live[None, :]
        win += sizes[b] * onehot.T @ (pair & (r[:, None] < r[None, :])) @ onehot
        tie += sizes[b] * onehot.T @ (pair & (r[:, None] == r[None, :])) @ onehot
    kw, kt = showdown_counts(boards[pick], sizes[pick])
    assert np.array_equal(kw, win.astype(np.int64)) and np.array_equal(kt, tie.astype(np.int64))
    assert kw.sum() > 0 and kt.sum() > 0


def test_save_load_and_cache(tmp_path, monkeypatch, table):
    path = save_table(table, tmp_path / "t.npz")
    again = load_table(path)
    assert np.array_equal(again.win, table.win) and again.meta == table.meta
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    assert load_table(tmp_path / "bad.npz") is None and load_table(tmp_path / "none.npz") is None
    assert SHIPPED.is_file() and load_table(SHIPPED) is not None


def test_suit_renaming_keeps_board_counts():
    """The premise of the canonical boards: renaming suits leaves the class counts alone."""
    board = np.array([[48, 45, 30, 29, 6]])  # Ac Kb 9d 9b 3d (suits 0-3 as numbered)
    perm = np.array([2, 0, 3, 1])
    renamed = np.sort(4 * (board // 4) + perm[board % 4], axis=1)
    w1, t1 = showdown_counts(board, np.array([1]))
    w2, t2 = showdown_counts(renamed, np.array([1]))
    assert np.array_equal(w1, w2) and np.array_equal(t1, t2) and w1.sum() > 0


def test_python_fallback_ranks_agree(monkeypatch):
    from pokerdyn.games.preflop import _kernels
    boards = canonical_boards()[0][[0, 5000, 99999]]
    cards = combos()[0]
    native = _kernels.board_ranks(boards, cards)
    monkeypatch.setattr(_kernels, "_native_rank_kernel", lambda: None)
    assert np.array_equal(_kernels.board_ranks(boards, cards), native)
    assert (native > 0).sum() == 3 * 1081


def test_cache_is_read_first(tmp_path, monkeypatch, table):
    from dataclasses import replace

    from pokerdyn.games.preflop import equity
    monkeypatch.setenv("POKERDYN_CACHE", str(tmp_path))
    assert str(equity.cache_path()).startswith(str(tmp_path / "preflop"))
    marked = replace(table, meta={**table.meta, "marker": 1})
    save_table(marked, equity.cache_path())
    equity._loaded.cache_clear()
    try:
        assert hu_equity_table().meta.get("marker") == 1
    finally:
        equity._loaded.cache_clear()
