"""Mercer Hold'em against its paper (shared/papers/mercer_holdem_collusion.txt), the
two-player facts, derived from the rules by LP and exact arithmetic.

2P-SMH: sec. 4.2 and Table 1; 2P-MMH: sec. 4.2 and Table 2.  Where our equilibrium differs
from a printed percentage the test states ours (README "Mercer Hold'em against the paper")."""
from __future__ import annotations

from fractions import Fraction as Fr

import numpy as np
import pytest

from pokerdyn.figures.mercer.paper import java_deal_frequencies
from pokerdyn.solvers.exact_profile import exact_values, rational
from pokerdyn.figures.mercer.paper import (ALWAYS_BET, HANDS, NEVER_BET, TABLES, VALUE_2P_SMH,
                                  table_frequencies)
from pokerdyn.solvers.learning.paper_fp import paper_fictitious_play
from pokerdyn.games import compile_game
from pokerdyn.games.catalog.registry import make_game
from pokerdyn.solvers import optimal_face_range, solve_lp

SMH_VALUE = Fr(19688, 188955)       # player 2's exact value of 2P-SMH (paper: "0.1")


@pytest.fixture(scope="module")
def smh():
    g = make_game("mercer-smh(players=2)")
    cg = compile_game(g)
    return g, cg, solve_lp(cg)


@pytest.fixture(scope="module")
def mmh():
    g = make_game("mercer-mmh(players=2)")
    cg = compile_game(g)
    return g, cg, solve_lp(cg)


def _smh_profile(g, x25, x34, y35=Fr(38, 39)):
    """Player 1 bets 25 and 34 with x25, x34, never 23 24, always the rest; player 2 calls
    35 with y35, never 23 24 25 34, always the rest (the LP's support)."""
    sig = {}
    for I in g.infosets:
        h = I.label.split(":")[1].split("|")[0]
        if I.player == 0:
            b = {"23": 0, "24": 0, "25": x25, "34": x34}.get(h, 1)
        else:
            b = {"23": 0, "24": 0, "25": 0, "34": 0, "35": y35}.get(h, 1)
        sig[I.label] = (Fr(b), 1 - Fr(b))
    return sig


def test_2p_smh_value_is_exactly_19688_over_188955(smh):
    """Sec. 4.2: positive for player 2, "0.1".  The LP gives 0.104194; the rational
    profile of its support is an exact equilibrium (no player gains by deviating, in exact
    arithmetic), so the value is exactly 19688/188955."""
    g, _, lp = smh
    assert -lp.value == pytest.approx(float(SMH_VALUE), abs=1e-9)
    assert round(float(SMH_VALUE), 1) == VALUE_2P_SMH
    pay, br = exact_values(g, _smh_profile(g, Fr(1), Fr(4, 13)))
    assert pay == [-SMH_VALUE, SMH_VALUE] and br == pay


def test_2p_smh_player1_bluffs_25_and_34_on_a_line(smh):
    """Table 1 prints 66 and 65 for player 1's 25 and 34: not unique.  Player 1 is optimal
    iff x25 + x34 = 17/13 (the two hands are equally likely against player 2's 35, who must
    stay indifferent); the paper's (0.66, 0.65) sums to 1.31 = 17/13 to its precision."""
    g, _, _ = smh
    for x25 in (Fr(4, 13), Fr(2, 3), Fr(1)):
        _, br = exact_values(g, _smh_profile(g, x25, Fr(17, 13) - x25))
        assert br[1] == SMH_VALUE                  # player 2 cannot beat the value
    _, br = exact_values(g, _smh_profile(g, Fr(1), Fr(1, 2)))
    assert br[1] > SMH_VALUE
    t1 = TABLES["1"].values["1st player"]
    assert abs((t1[0] + t1[1]) / 100 - 17 / 13) < 0.01


def test_2p_smh_face_ranges_of_table_1(smh):
    """Optimal-face ranges: player 1 25 and 34 in [4/13, 1], 35 always; player 2 calls 25
    and 34 never and 35 with 38/39 = 97.4% (Table 1: 0, 0, 97), all unique."""
    g, cg, lp = smh

    def rng(label):
        f = optimal_face_range(cg, g.infoset_index(label), 0, value=lp.value)
        return f.low, f.high

    assert rng("P1:25|") == pytest.approx((4 / 13, 1.0), abs=1e-7)
    assert rng("P1:34|") == pytest.approx((4 / 13, 1.0), abs=1e-7)
    assert rng("P1:35|") == pytest.approx((1.0, 1.0), abs=1e-7)
    assert rng("P2:25|b") == pytest.approx((0.0, 0.0), abs=1e-7)
    assert rng("P2:34|b") == pytest.approx((0.0, 0.0), abs=1e-7)
    assert rng("P2:35|b") == pytest.approx((38 / 39, 38 / 39), abs=1e-7)


def test_2p_smh_always_and_never_bet_hands(smh):
    """Sec. 4.2: both players always bet 22 26 33 36 44 45 46 55 56 66 and never 23 24, in
    every history: unique on the optimal face (every information set of 2P-SMH is one of
    player 1's first bet or player 2's answer to a bet)."""
    g, cg, lp = smh
    assert len(g.infosets) == 2 * len(HANDS)
    for p, hist in ((1, ""), (2, "b")):
        for hands, want in ((ALWAYS_BET, 1.0), (NEVER_BET, 0.0)):
            for h in hands:
                f = optimal_face_range(cg, g.infoset_index(f"P{p}:{h}|{hist}"), 0,
                                       value=lp.value)
                assert (f.low, f.high) == pytest.approx((want, want), abs=1e-6), (p, h)


def test_2p_mmh_value_and_unique_first_bets(mmh):
    """Sec. 4.2: 2P-MMH is worth "0.4" to player 2 ("several times" 2P-SMH); ours 0.419302.
    Table 2's first bets are unique at equilibrium; we check the cells where the paper's
    fictitious play (stopped at regret 0.01) sits furthest from the LP: player 1's 26
    (paper 27.1, ours 11.49) and 25 (12.4 vs 19.57), player 2's 22 (46.2 vs 49.60)."""
    g, cg, lp = mmh
    assert -lp.value == pytest.approx(0.419302, abs=5e-7)
    want = {"P1:26|": 0.1149, "P1:25|": 0.1957, "P2:22|b": 0.4960, "P1:35|": 0.6730}
    for label, x in want.items():
        f = optimal_face_range(cg, g.infoset_index(label), 0, value=lp.value)
        assert f.high - f.low < 5e-5 and f.low == pytest.approx(x, abs=2e-4), label


def test_paper_fp_replay_stops_where_the_per_iteration_check_stops(smh):
    """``check_every`` > 1 replays the last window: same stop and profile as the Java rule
    (regret measured before every update)."""
    _, cg, _ = smh
    a = paper_fictitious_play(cg, 0.005)
    b = paper_fictitious_play(cg, 0.005, check_every=16)
    assert a.iterations == b.iterations == 131
    assert np.array_equal(a.strategy, b.strategy)


def test_tables_2_and_3_are_the_papers_fictitious_play_at_regret_001(mmh):
    """Table 2 differs from the unique equilibrium by up to 15.6 points (player 1's 26:
    27.1 printed, 11.49 at equilibrium) because the paper stops fictitious play at a max
    regret of 0.01 (sec. 2.2, ``Strategies.nes``).  Re-run on our game from the rules, that
    procedure stops after 1901 iterations and gives every printed cell of Table 2 to the
    printed digit: the rules (betting orbits, deal weights, evaluator) are the paper's."""
    g, cg, _ = mmh
    fp = paper_fictitious_play(cg, 0.01, check_every=50)
    assert fp.iterations == 1901
    for name in ("2", "3"):       # Table 3: post-flop bets holding 45, also to the digit
        t = TABLES[name]
        got = table_frequencies(g, t, fp.strategy)
        for r in t.rows:
            for c, printed in zip(t.columns, t.values[r]):
                assert got[r, c] == pytest.approx(printed, abs=0.05 + 1e-9), (name, r, c)


def test_the_java_deal_weights_are_our_card_removal_probabilities(smh):
    """``PokerGame.makeAllDeals`` (the paper's code) weighs deals exactly like our merged
    deals: player 1's hole cards from the full deck and player 2's after player 1 holds 22
    (a candidate cause of the 3P-SMH payoff gap, ruled out)."""
    g, _, _ = smh
    p1 = java_deal_frequencies((4, 4, 4, 4, 4), 2)
    assert sum(p1.values()) == 1 and p1[(0, 0)] == Fr(3, 95) and p1[(0, 1)] == Fr(8, 95)
    p2 = java_deal_frequencies((2, 4, 4, 4, 4), 2)
    for node, deals in ((0, p1), (1, p2)):      # node 1: player 2's deal after 22
        kids = [i for i in range(g.n_nodes) if g.parent[i] == node]
        assert [rational(g.edge_prob[i]) for i in kids] == [deals[d] for d in sorted(deals)]


def test_paper_fp_resumes_where_it_stopped(smh):
    """A run cut at 40 iterations and resumed equals the uninterrupted run."""
    _, cg, _ = smh
    a = paper_fictitious_play(cg, 0.005)
    cut = paper_fictitious_play(cg, 0.005, max_iterations=40)
    b = paper_fictitious_play(cg, 0.005, resume=(cut.iterations, cut.strategy), check_every=8)
    assert cut.iterations == 40 and b.iterations == a.iterations
    assert np.array_equal(a.strategy, b.strategy)
