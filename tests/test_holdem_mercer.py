"""Mercer Hold'em from the builder (games.holdem): sizes, zero-sum, an independent brute force
over distinct cards, the 2P-SMH value by LP (Mercer's paper: "0.1", positive for player 2),
collusion payoffs and bad input."""
from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from pokerdyn.games import GameError, compile_game, uniform_strategy
from pokerdyn.games.catalog.registry import make_game
from pokerdyn.games.holdem import Deck, MercerEvaluator, Round, build_game, mercer_mmh, mercer_smh
from pokerdyn.games.tree import DECISION, TERMINAL
from pokerdyn.solvers import expected_payoffs, solve_lp

SMH_ROUNDS = (Round(ante=1, hole_cards=2, bets=(4,), max_bets=1), Round(shared_cards=2, bets=()))


def _mercer_key(ranks) -> tuple:
    """An independent Mercer ranking: (category, group ranks by (count, rank) descending);
    category high card 0, pair 1, two pair 2, trips 3, quads 4."""
    groups = sorted({(ranks.count(r), r) for r in ranks}, reverse=True)
    counts = tuple(c for c, _ in groups)
    cat = {(1, 1, 1, 1): 0, (2, 1, 1): 1, (2, 2): 2, (3, 1): 3, (4,): 4}[counts]
    return (cat,) + tuple(r for _, r in groups)


def _brute_force_uniform_smh(ranks: int, copies: int, bet: float = 4) -> float:
    """Player 1's expected payoff in 2-player SMH rules under the uniform profile, over every
    deal of distinct cards: P1 folds (-1) or bets; P2 folds (+1 to P1) or calls (showdown,
    pot 2 + 2 bet)."""
    cards = [r for r in range(ranks) for _ in range(copies)]
    idx = range(len(cards))
    total, count = 0.0, 0
    for h1 in combinations(idx, 2):
        rest1 = [i for i in idx if i not in h1]
        for h2 in combinations(rest1, 2):
            rest2 = [i for i in rest1 if i not in h2]
            for b in combinations(rest2, 2):
                k1 = _mercer_key([cards[i] for i in h1 + b])
                k2 = _mercer_key([cards[i] for i in h2 + b])
                sd = (1 + bet) * ((k1 > k2) - (k1 < k2))
                total += 0.5 * -1 + 0.25 * 1 + 0.25 * sd
                count += 1
    return total / count


def test_2p_smh_sizes_are_those_of_the_public_tree_times_the_deals():
    g = mercer_smh(players=2, collapse=False)
    # 15 hole multisets for P1; P1: bet or fold; P2 (after a bet): call or fold
    assert g.n_infosets == 15 + 15 == 30
    # chance P1 (1) + chance P2 (15) + per hole pair (225): P1, fold-end, P2, fold-end, board
    # chance; then one showdown per (hole, hole, board) multiset path: 3310
    assert g.n_nodes == 1 + 15 + 5 * 225 + 3310 == 4451
    labels = {I.label for I in g.infosets}
    assert {"P1:22|", "P2:35|b", "P2:66|b"} <= labels
    assert g.infosets[g.infoset_index("P2:35|b")].actions == ("c", "f")
    assert g.infosets[g.infoset_index("P1:35|")].actions == ("b", "f")


@pytest.mark.parametrize("factory,players", [(mercer_smh, 2), (mercer_smh, 3),
                                             (mercer_mmh, 2)])
def test_mercer_games_are_zero_sum_with_net_chip_payoffs(factory, players):
    g = factory(players=players)
    assert np.abs(g.payoffs.sum(axis=1)).max() < 1e-12
    # net chips: a player loses at most his ante and bets, wins at most the others' stakes
    assert g.payoffs.min() >= -(1 + 4 * (1 if factory is mercer_smh else 4))


def test_uniform_payoff_equals_a_brute_force_over_distinct_cards():
    """Small deck (3 ranks x 3 copies, 9 cards): the builder merges deals by rank multiset,
    the brute force deals every set of distinct cards and ranks hands its own way."""
    g = build_game(Deck(ranks=3, copies=3), SMH_ROUNDS, MercerEvaluator(), 2)
    cg = compile_game(g)
    u = expected_payoffs(cg, uniform_strategy(cg))
    assert u[0] == pytest.approx(_brute_force_uniform_smh(3, 3), abs=1e-12)
    assert u[1] == pytest.approx(-u[0], abs=1e-12)


def test_merged_and_distinct_deals_give_the_same_game_value():
    deck = Deck(ranks=3, copies=2)
    rounds = (Round(ante=1, hole_cards=1, bets=(2,), max_bets=1), Round(shared_cards=2, bets=()))

    class Two:  # best pair of hole + 2 shared cards, via Mercer on 4 cards of a tiny deck
        suited = False

        def strength(self, deck, hands):
            return MercerEvaluator().strength(deck, np.concatenate([hands, hands[:, :1]], 1))

    a = build_game(deck, rounds, Two(), 2)
    b = build_game(deck, rounds, Two(), 2, merge=False)
    assert b.n_nodes > a.n_nodes
    va, vb = solve_lp(compile_game(a)).value, solve_lp(compile_game(b)).value
    assert va == pytest.approx(vb, abs=1e-9)


def test_2p_smh_value_to_player_2_by_lp():
    """Mercer's paper: 2P-SMH is worth about 0.1 to player 2 (positive)."""
    res = solve_lp(compile_game(mercer_smh(players=2)))
    assert -res.value == pytest.approx(0.104194, abs=5e-6)


def test_2p_smh_and_mmh_equilibria_by_lp():
    """Mercer's paper: player 2 calls 35 about 97% of the time in 2P-SMH; 2P-MMH is worth
    about 0.4 to player 2 (our rules: 0.419302).  The 35 call frequency is unique (38/39:
    minimised and maximised over player 2's optimal plans, both 0.9744)."""
    cg = compile_game(make_game("mercer-smh"))
    res = solve_lp(cg)
    i = cg.game.infoset_index("P2:35|b")
    assert res.strategies[i][0] == pytest.approx(0.974, abs=5e-4)
    assert -solve_lp(compile_game(make_game("mercer-mmh"))).value == pytest.approx(0.419302,
                                                                                    abs=5e-6)


def test_orbits_follow_the_java_betting_loop():
    g = make_game("mercer-mmh", players=3)
    lab = {I.label: I for I in g.infosets}
    # 2 orbits: a player who called may bet again in orbit 2 (one bet size: "b" opens,
    # "c" matches; nobody can raise); nobody acts after folding
    assert lab["P1:22|b c c"].actions == ("b", "f")
    assert lab["P2:22|b c c b"].actions == ("c", "f")
    assert "P3:22|b f" in lab and "P1:22|b f c" in lab and "P3:22|b f c b" in lab
    assert not any(k.startswith("P2:22|b f") for k in lab)
    assert lab["P2:22|b c c b c c/33:b"].actions == ("c", "f")
    # one player left: the game ends there (no board deal below "b f f")
    kinds = np.asarray(g.kind)
    assert (kinds == DECISION).sum() < (kinds == TERMINAL).sum()


def test_last_orbit_keeps_the_java_prev_player_quirk():
    """PokerGame.java's prevPlayer returns the player himself when the seat before him has
    folded, so in the last orbit P3 may still bet after "P1 checks, P2 folds" (the bet is
    never answered: the round's single orbit is over)."""
    g = make_game("mercer-smh", players=3, check=True)
    lab = {I.label: I for I in g.infosets}
    assert lab["P3:22|k f"].actions == ("b", "k", "f")
    assert lab["P3:22|k k"].actions == ("k", "f")
    assert lab["P2:22|f"].actions == ("b", "k", "f")       # P2 leads once P1 has folded
    rounds = (Round(ante=1, hole_cards=2, bets=(4,), check=True, java_prev=False),
              Round(shared_cards=2, bets=()))
    lab = {I.label: I for I in build_game(Deck(5, copies=4), rounds, MercerEvaluator(), 3).infosets}
    assert lab["P3:22|k f"].actions == ("k", "f")            # the intended rule
    assert lab["P2:22|f"].actions == ("b", "k", "f")


def test_check_option_adds_check_after_the_bets():
    g = mercer_smh(players=2, check=True)
    lab = {I.label: I for I in g.infosets}
    assert lab["P1:22|"].actions == ("b", "k", "f")
    assert lab["P2:22|k"].actions == ("k", "f")       # last orbit: no raise after a check
    assert lab["P2:22|b"].actions == ("c", "f")


@pytest.mark.parametrize("kind", ["weak", "pot", "strong"])
def test_collusion_payoffs(kind):
    base = make_game("mercer-smh", players=3)
    g = make_game("mercer-smh", players=3, collusion=kind)
    pay, pay0 = np.asarray(g.payoffs), np.asarray(base.payoffs)
    assert np.abs(pay.sum(axis=1)).max() < 1e-12                 # still zero-sum
    if kind != "pot":
        assert np.allclose(pay[:, 1], pay[:, 2])                 # team payoffs equal
        assert np.allclose(pay[:, 1] + pay[:, 2], pay0[:, 1] + pay0[:, 2])
    else:
        # pooled gross shares: the team's difference is only their own bets
        assert np.allclose(pay[:, 1] + pay[:, 2], pay0[:, 1] + pay0[:, 2])
    assert np.allclose(pay[:, 0], pay0[:, 0])                    # the outsider is unaffected
    if kind == "strong":
        assert g.n_infosets > base.n_infosets
        assert "P2:22+33|b" in {I.label for I in g.infosets}
    else:
        assert g.n_infosets == base.n_infosets


def test_colluders_by_seat_and_registry_options():
    g = make_game("mercer-smh", players=3, collusion="weak", colluders=(1, 2))
    pay = np.asarray(g.payoffs)
    assert np.allclose(pay[:, 0], pay[:, 1]) and not np.allclose(pay[:, 1], pay[:, 2])
    with pytest.raises(GameError, match=r"colluder seat 4 is outside \[1, 3\]"):
        make_game("mercer-smh", players=3, collusion="weak", colluders=(1, 4))
    with pytest.raises(GameError, match="players=7"):
        make_game("mercer-mmh", players=7)
    # the same options from a spec string
    g = make_game("mercer-smh(players=3,collusion=weak,colluders=(1,2),bet=2)")
    assert np.allclose(np.asarray(g.payoffs)[:, 0], np.asarray(g.payoffs)[:, 1])
    assert np.asarray(g.payoffs).min() == -3          # ante 1 + bet 2
    with pytest.raises(GameError, match=r"bet=0 is outside \(0"):
        make_game("mercer-smh", bet=0)


def test_bad_input_is_a_game_error_with_the_range():
    with pytest.raises(GameError, match="too few for the deal of 10 cards"):
        build_game(Deck(ranks=2, copies=2), SMH_ROUNDS, MercerEvaluator(), 4)
    with pytest.raises(GameError, match=r"max_bets=0 is outside \[1"):
        Round(bets=(4,), max_bets=0)
    with pytest.raises(GameError, match=r"bet -4 is outside \(0"):
        Round(bets=(-4,))
    with pytest.raises(GameError, match="collusion 'loud'"):
        mercer_smh(players=3, collusion="loud")

    class Greedy:  # everybody takes the whole pot
        suited = False

        def shares(self, deck, hands, active):
            return np.ones((hands.shape[0], hands.shape[1]))

    with pytest.raises(GameError, match="do not sum to 1"):
        build_game(Deck(ranks=5, copies=4), SMH_ROUNDS, Greedy(), 2)
