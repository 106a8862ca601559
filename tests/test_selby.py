"""Selby's preflop hold'em (games.preflop.selby), solved by the sequence-form LP.

Source of the rules and claims: the LP survey (``poker_lp_survey.txt``), "Case Study: Preflop
Analysis" (Selby 1999): one limit betting round, SB 0.5 and BB 1, at most 3 raises, the
showdown valued by the all-in equity.  Values asserted below were measured on the LP solution
(``benchmarks/bench_selby.py``); the rules, not those numbers, are the input.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from pokerdyn.games import GameError
from pokerdyn.games.catalog.registry import get_game, make_game
from pokerdyn.games.compiled import compile_game
from pokerdyn.games.preflop.classes import N_DEALS, class_index, disjoint_pair_counts
from pokerdyn.games.preflop.equity import hu_equity_table
from pokerdyn.games.preflop.selby import (betting_tree, chart, deal_matrix, history_probabilities,
                                 own_reach, selby_game, strategy_grids)
from pokerdyn.games.tree import TERMINAL

VALUE_SB = -0.0218976836  # measured: the LP value to the small blind, in big blinds


@pytest.fixture(scope="module")
def solved():
    from pokerdyn import solvers
    cg = compile_game(get_game("selby"))
    res = solvers.solve_lp(cg)
    return cg, res, strategy_grids(cg.game, res.strategies)


def _live(grids, h):
    k = len(h.split()) % 2
    r = own_reach(grids, h)
    return k, (r[k] > 0) & (r[1 - k].sum() > 0)


def test_deal_probabilities_sum_to_one_exactly():
    """Card removal: 1326 * 1225 ordered disjoint combo pairs, every class pair possible."""
    n = disjoint_pair_counts()
    assert sum(Fraction(int(x), N_DEALS) for x in n.ravel()) == 1
    assert (n > 0).all() and deal_matrix().sum() == pytest.approx(1, abs=1e-15)
    # the survey's example: SB AKo, BB KJs has probability 4*3*3*1 / (C(52,2) C(50,2))
    assert Fraction(int(n[class_index("AKo"), class_index("KJs")]), N_DEALS) == \
        Fraction(4 * 3 * 3 * 1, 1326 * 1225)


def test_betting_tree_follows_the_survey():
    """8 decisions and 15 terminals; pots as in the survey's figure (c-r-c: pot 4, r-r-r-c: 8)."""
    tree = betting_tree()
    hists = {" ".join(n.history): n for n in tree}
    assert sum(n.actor >= 0 for n in tree) == 8 and sum(n.actor < 0 for n in tree) == 15
    assert sum(hists["c r c"].put) == 4 and sum(hists["r r r c"].put) == 8
    assert sum(hists["c c"].put) == 2 and hists["r r r"].actions == ("f", "c")
    assert hists["c r r r"].actions == ("f", "c") and hists["f"].folder == 0


def test_payoffs_zero_sum_and_the_survey_formula():
    """Payoffs are net chips, zero-sum; call-raise-call pays the SB 2e - 2(1 - e)."""
    g = selby_game()
    assert np.abs(g.payoffs.sum(axis=1)).max() == 0
    assert g.n_nodes == 1 + 23 * 169 ** 2
    eq = hu_equity_table().equity
    i, j = class_index("AKo"), class_index("KJs")
    # terminal rows are grouped by public terminal in tree order, deals row-major inside
    d = 169 * i + j
    labels = [" ".join(n.history) for n in betting_tree() if n.actor < 0]
    u = g.payoffs.reshape(len(labels), 169 * 169, 2)[:, d, 0]
    got = dict(zip(labels, u))
    e = eq[i, j]
    assert got["c r c"] == pytest.approx(2 * e - 2 * (1 - e), abs=1e-12)
    assert got["f"] == -0.5 and got["c f"] == 1 and got["r r r f"] == 3
    assert (g.kind[1:] == TERMINAL).sum() == 15 * 169 ** 2


def test_options_and_bad_input():
    assert make_game("selby", raises=2).name == "selby(raises=2)"
    assert sum(n.actor < 0 for n in betting_tree(raises=0)) == 3  # f, c f, c c
    for bad in ({"raises": -1}, {"raises": 9}, {"sb": 0}, {"sb": 1.5}):
        with pytest.raises(GameError, match="outside the allowed range"):
            selby_game(**bad)


def test_lp_value_and_nash_conv(solved):
    """The survey gives no value; the LP's: the SB loses 0.0219 BB a hand, NashConv < 1e-9."""
    from pokerdyn import solvers
    cg, res, _ = solved
    assert res.value == pytest.approx(VALUE_SB, abs=1e-9)
    assert abs(solvers.nash_conv(cg, res.strategies)) < 1e-9
    assert solvers.expected_payoffs(cg, res.strategies) == pytest.approx([VALUE_SB, -VALUE_SB],
                                                                          abs=1e-9)


def test_big_blind_never_folds(solved):
    """Survey: "player 2 never folds".  Confirmed: at every (situation, hand) its own strategy
    reaches, the BB's fold probability is 0 (the 175 cells it never reaches are unconstrained:
    there the optimal face allows any fold probability)."""
    _, _, grids = solved
    for h in ("c", "r", "c r r", "r r r"):
        k, live = _live(grids, h)
        assert k == 1
        assert grids[h].reshape(169, -1)[live, 0].max() == 0
    hp = history_probabilities(grids)
    assert sum(p for h, p in hp.items() if h.endswith("f") and len(h.split()) % 2 == 0) == 0


def test_small_blind_rarely_folds(solved):
    """Survey: "player 1 rarely folds".  Confirmed: the SB folds 9.68% of deals (deal-weighted),
    always at its first action, never after putting in more chips."""
    _, _, grids = solved
    hp = history_probabilities(grids)
    sb_folds = {h: p for h, p in hp.items() if h.endswith("f") and len(h.split()) % 2 == 1}
    assert hp["f"] == pytest.approx(0.0968, abs=5e-5)
    assert sum(sb_folds.values()) == pytest.approx(hp["f"], abs=1e-12)
    assert grids[""][12, 11, 0] == 1 and grids[""][0, 0, 0] == 0  # 32o folds, AA never


def test_almost_no_hand_mixes(solved):
    """Survey: "almost no mixing".  Confirmed: 10 of the 839 reached (situation, hand) cells mix
    (AA, AKo, KJo, 53o at the SB's first action; T4o after a limp; K7s, A5o after a raise; 66
    facing a re-raise; A3s, 88 facing limp-raise-re-raise)."""
    _, _, grids = solved
    cells, mixed = 0, []
    for h, g in grids.items():
        _, live = _live(grids, h)
        flat = g.reshape(169, -1)
        cells += int(live.sum())
        mixed += [(h, c) for c in np.flatnonzero(live & ((flat > 1e-9).sum(axis=1) > 1))]
    assert cells == 839 and len(mixed) == 10
    assert ("", class_index("AA")) in mixed
    text = chart(grids[""])
    assert text.splitlines()[1].split()[1] == "M"  # AA mixes limp and raise


def test_aa_mix_is_forced(solved):
    """AA's first action: limp 0.665, raise 0.335; over the SB's whole optimal face the raise
    stays in a narrow band away from 0 and 1, so no pure optimal AA strategy exists."""
    from pokerdyn import solvers
    cg, res, _ = solved
    I = next(k for k, info in enumerate(cg.game.infosets) if info.label == "P1:AA|")
    fr = solvers.optimal_face_range(cg, I, 2, value=res.value)
    assert 0.3 < fr.low <= fr.high < 0.35


def test_no_raise_variant_matches_the_closed_form():
    """With ``raises=0`` the BB always checks (2e - 1 > -1) and the SB limps class i exactly
    when its expected showdown result beats folding, so the value is
    ``sum_i max(-0.5 m_i, sum_j p_ij (2 e_ij - 1))``: an independent check of tree, payoffs,
    deal probabilities and LP together."""
    from pokerdyn import solvers
    p, e = deal_matrix(), hu_equity_table().equity
    closed = np.maximum(-0.5 * p.sum(axis=1), (p * (2 * e - 1)).sum(axis=1)).sum()
    res = solvers.solve_lp(compile_game(selby_game(raises=0)))
    assert res.value == pytest.approx(closed, abs=1e-9)
