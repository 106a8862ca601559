"""The exact collapse of trailing boards (games.holdem.collapse): boards dealt after the last
betting round become terminal nodes paying the expectation over the board.  The collapsed
game must be the same game: the same information sets, and the same expected payoffs and
NashConv for every profile as the game with one chance node and one showdown per board."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerdyn.games import GameError, compile_game
from pokerdyn.games.holdem import Deck, MercerEvaluator, Round, build_game, mercer_mmh, mercer_smh
from pokerdyn.games.holdem.build import count_nodes
from pokerdyn.games.holdem.standard import MERCER_DECK
from pokerdyn.games.tree import CHANCE, TERMINAL
from pokerdyn.solvers.evaluation import expected_payoffs, nash_conv

SMH = (Round(ante=1, hole_cards=2, bets=(4,), max_bets=1), Round(shared_cards=2, bets=()))


def _pair(deck, rounds, n, **kw):
    a = compile_game(build_game(deck, rounds, MercerEvaluator(), n, collapse=False, **kw))
    b = compile_game(build_game(deck, rounds, MercerEvaluator(), n, collapse=True, **kw))
    return a, b


def _random_profile(cg, rng):
    s = rng.random(cg.legal.shape) * cg.legal
    return s / s.sum(axis=1, keepdims=True)


@settings(max_examples=10, deadline=None)
@given(ranks=st.integers(3, 4), copies=st.integers(2, 3), n=st.integers(2, 3),
       kind=st.sampled_from([None, "weak", "pot", "strong"]), max_bets=st.integers(1, 2),
       split=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_collapsed_game_has_the_same_infosets_payoffs_and_nash_conv(ranks, copies, n, kind,
                                                                   max_bets, split, seed):
    deck = Deck(ranks=ranks, copies=copies)
    if deck.size < 2 * n + 2:
        return
    kind = kind if n == 3 else None          # collusion needs a non-colluder
    # an ante after the betting too; the board in one deal of 2 or two rounds of 1 card
    boards = (Round(ante=1, shared_cards=1, bets=()), Round(shared_cards=1, bets=())) \
        if split else (Round(ante=1, shared_cards=2, bets=()),)
    rounds = (Round(ante=1, hole_cards=2, bets=(3,), max_bets=max_bets),) + boards
    a, b = _pair(deck, rounds, n, collusion=kind)
    assert [(i.label, i.actions) for i in a.game.infosets] == \
        [(i.label, i.actions) for i in b.game.infosets]
    assert b.n_nodes < a.n_nodes
    rng = np.random.default_rng(seed)
    for sigma in (_random_profile(a, rng), _random_profile(a, rng)):
        assert np.abs(expected_payoffs(a, sigma) - expected_payoffs(b, sigma)).max() < 1e-12
        assert nash_conv(a, sigma) == pytest.approx(nash_conv(b, sigma), abs=1e-12)


def test_3p_smh_collapsed_equals_the_full_tree_at_a_cfr_profile():
    """3P-SMH (227,991 nodes; 43,271 collapsed) at a CFR+ profile and a random one."""
    from pokerdyn.solvers import cfr
    a = compile_game(mercer_smh(players=3, collapse=False))
    b = compile_game(mercer_smh(players=3))
    assert (a.n_nodes, b.n_nodes) == (227_991, 43_271)
    sigma = cfr(b, iterations=8).strategy
    for s in (sigma, _random_profile(a, np.random.default_rng(5))):
        assert np.abs(expected_payoffs(a, s) - expected_payoffs(b, s)).max() < 1e-12
        assert nash_conv(a, s) == pytest.approx(nash_conv(b, s), abs=1e-12)


def test_collapsed_payoffs_are_the_exact_expectation_over_the_board():
    """Each collapsed showdown pays the Fraction-exact sum over the board's chance node of
    the uncollapsed game (its probabilities are the exact card-removal weights): the float
    is the nearest one to the rational (a 9-card deck, 2 players)."""
    deck = Deck(ranks=3, copies=3)
    full = build_game(deck, SMH, MercerEvaluator(), 2, collapse=False)
    short = build_game(deck, SMH, MercerEvaluator(), 2)
    term = {int(t): i for i, t in enumerate(full.terminal_node)}
    kids: dict[int, list[int]] = {}
    for v in range(full.n_nodes):
        if full.parent[v] >= 0:
            kids.setdefault(int(full.parent[v]), []).append(v)
    boards = [v for v in range(full.n_nodes) if full.kind[v] == CHANCE
              and all(full.kind[c] == TERMINAL for c in kids[v])]
    exact = [[sum(Fraction(full.edge_prob[c]).limit_denominator(10**4)
                  * Fraction(full.payoffs[term[c]][p]) for c in kids[v]) for p in range(2)]
             for v in boards]
    # the collapsed terminals in the same order (public node, then deal path)
    coll = [i for i, t in enumerate(short.terminal_node) if _showdown(short, int(t))]
    assert len(coll) == len(boards)
    for i, e in zip(coll, exact):
        assert [float(x) for x in e] == [float(x) for x in short.payoffs[i]]


def _showdown(g, t: int) -> bool:
    """A collapsed showdown: more than one player still in (the payoffs are not +-stake of
    one winner); here, a terminal reached after player 2 called."""
    return g.infosets[int(g.infoset[int(g.parent[t])])].label.startswith("P2") and \
        g.edge[t] == 0


@pytest.mark.parametrize("n,full,short", [(2, 4451, 1141), (3, 227_991, 43_271),
                                          (4, 7_799_881, 1_342_771), (5, 203_787_441,
                                                                      35_857_341)])
def test_count_nodes_knows_the_collapse(n, full, short):
    """1 + 15 + 5 x 225 = 1,141 for 2P-SMH: per pair of hole multisets, P1, P1's fold, P2,
    P2's fold and one collapsed showdown (the 3,310 board paths are gone)."""
    assert count_nodes(MERCER_DECK, SMH, n, collapse=False) == full
    assert count_nodes(MERCER_DECK, SMH, n) == short
    if n <= 3:
        assert mercer_smh(players=n).n_nodes == short


def test_collapse_where_it_does_not_apply():
    """MMH bets after the board: nothing to collapse (None builds the full tree, True is an
    error naming why)."""
    assert mercer_mmh(players=2).n_nodes == count_nodes(MERCER_DECK, (
        Round(ante=1, hole_cards=2, bets=(4,), max_bets=2),
        Round(shared_cards=2, bets=(4,), max_bets=2)), 2)
    with pytest.raises(GameError, match="collapse=True is not possible: no board is dealt "
                                        "after the last betting round"):
        build_game(MERCER_DECK, (Round(ante=1, hole_cards=2, bets=(4,)),
                                 Round(shared_cards=2, bets=(4,))), MercerEvaluator(), 2,
                   collapse=True)
    with pytest.raises(GameError, match="not merged by rank"):
        build_game(Deck(ranks=3, copies=3), SMH, MercerEvaluator(), 2, merge=False,
                   collapse=True)
