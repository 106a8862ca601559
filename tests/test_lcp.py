"""Sequence-form LCP (Koller, Megiddo & von Stengel 1996) by Lemke's method: exact values,
exact NashConv certificates, and Gambit's own ``lcp_solve`` on the exported .efg."""
import functools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerdyn.games import GameError, compile_game, get_game
from pokerdyn.games.arrays import game_from_arrays
from pokerdyn.games.tournament.buckets import bucket_model
from pokerdyn.games.tournament.endgame import blind_vs_blind
from pokerdyn.games.tree import Infoset
from pokerdyn.cli import main
from pokerdyn.solvers import nash_conv
from pokerdyn.solvers.sequence.lcp import solve_lcp
from pokerdyn.solvers.sequence.lp import solve_lp



def gambit_lcp(cg):
    """pygambit's lcp_solve (these comparisons skip where pygambit is not installed)."""
    pytest.importorskip("pygambit")
    from pokerdyn.solvers.sequence.gambit_check import gambit_lcp as run
    return run(cg)

KUHN = compile_game(get_game("kuhn"))


def signalling_game(pay: np.ndarray, p_high: float = 1 / 3):
    """A general-sum signalling game: chance deals player 1 'lo' or 'hi', player 1 sends
    A or B, player 2 sees only the message and answers L or R; ``pay`` (2, 2, 2, 2):
    type, message, answer, player."""
    kind = [1, 2, 2] + [2] * 4 + [0] * 8
    parent = [-1, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]
    edge = [0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1]
    player = [-1, 0, 0, 1, 1, 1, 1] + [-1] * 8
    infoset = [-1, 0, 1, 2, 3, 2, 3] + [-1] * 8
    infosets = [Infoset("P1:lo", 0, ("A", "B")), Infoset("P1:hi", 0, ("A", "B")),
                Infoset("P2:A", 1, ("L", "R")), Infoset("P2:B", 1, ("L", "R"))]
    prob = [1, 1 - p_high, p_high] + [1] * 12
    pays = pay.reshape(8, 2)
    return game_from_arrays("signal", 2, kind, parent, edge, player, infoset, infosets, prob,
                            pays)


def test_kuhn_lcp_value_is_exactly_minus_one_eighteenth_and_certified():
    """Kuhn (1950): the game value -1/18; every LCP solution has exact NashConv 0."""
    res = solve_lcp(KUHN, starts=4, seed=0)
    assert res.exact
    for eq in res.equilibria:
        assert eq.exact_payoffs == (Fraction(-1, 18), Fraction(1, 18))
        assert eq.exact_nash_conv == 0
    # two covering vectors reach two different equilibria of Kuhn's one-parameter family
    assert len(res.equilibria) >= 2
    a, b = res.equilibria[:2]
    assert not np.allclose(a.strategies, b.strategies)


def test_kuhn_lcp_equals_gambit():
    """Start 0 (covering vector of ones, payoffs shifted by max + 1: Gambit's tableau) ends at
    the same equilibrium as pygambit's lcp_solve."""
    ours = solve_lcp(KUHN).equilibria[0].strategies
    theirs, _ = gambit_lcp(KUHN)
    assert np.abs(ours - theirs[0]).max() < 1e-9
    assert nash_conv(KUHN, theirs[0]) < 1e-12


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_general_sum_signalling_game_equals_gambit(seed):
    """Random general-sum payoffs (integers in [-5, 5]): the exact LCP solution is certified
    (exact NashConv 0) and equals Gambit's."""
    rng = np.random.default_rng(seed)
    pay = rng.integers(-5, 6, size=(2, 2, 2, 2)).astype(float)
    cg = compile_game(signalling_game(pay))
    res = solve_lcp(cg, starts=3, seed=seed)
    for eq in res.equilibria:
        assert eq.exact_nash_conv == 0
    theirs, _ = gambit_lcp(cg)
    # pygambit reports a centroid where a set is unreached; compare on the reached plans
    x, y = res.equilibria[0].plans
    tx = np.array([1.0, *[theirs[0][I, a] for I in (0, 1) for a in (0, 1)]])
    assert np.abs(x - tx).max() < 1e-9
    assert nash_conv(cg, theirs[0]) < 1e-9


def test_fixed_general_sum_game_is_not_zero_sum_and_solved_exactly():
    """A coordination-flavoured signalling game (both gain from L after A): general-sum, so
    the LP refuses it, while the LCP certifies an equilibrium with exact payoffs."""
    pay = np.zeros((2, 2, 2, 2))
    pay[:, 0, 0] = (3, 2)
    pay[:, 0, 1] = (0, 0)
    pay[:, 1, 0] = (1, 0)
    pay[:, 1, 1] = (1, 3)
    cg = compile_game(signalling_game(pay))
    with pytest.raises(GameError, match="zero-sum"):
        solve_lp(cg)
    eq = solve_lcp(cg, starts=4).equilibria
    assert all(e.exact_nash_conv == 0 for e in eq)
    assert all(isinstance(v, Fraction) for e in eq for v in e.exact_payoffs)


@functools.cache
def _buckets():
    """The 6-bucket model (built when a test first asks, not at collection)."""
    return bucket_model(6, samples=10, seed=0).model


def test_blind_vs_blind_icm_endgame_is_general_sum_and_equals_gambit():
    """Three seats, ICM payouts 50/30/20: the blinds' equity changes do not sum to a
    constant (the folded seat's equity moves); float LCP equals Gambit within 1e-9."""
    g = blind_vs_blind(_buckets(), [10, 6, 4], blinds=(0.5, 1.0), payouts=[0.5, 0.3, 0.2])
    cg = compile_game(g)
    sums = cg.payoffs.sum(axis=1)
    assert sums.max() - sums.min() > 1e-3
    eq = solve_lcp(cg, exact=False).equilibria[0]
    assert eq.nash_conv < 1e-9
    theirs, _ = gambit_lcp(cg)
    assert np.abs(eq.strategies - theirs[0]).max() < 1e-9


def test_blind_vs_blind_chip_ev_is_zero_sum_and_lcp_matches_lp():
    """With chip payoffs and no ante the endgame is zero-sum: the LCP value equals the LP's."""
    cg = compile_game(blind_vs_blind(_buckets(), [10, 6, 4], blinds=(0.5, 1.0)))
    assert np.abs(cg.payoffs.sum(axis=1)).max() < 1e-12
    eq = solve_lcp(cg, exact=False).equilibria[0]
    assert abs(eq.payoffs[0] - solve_lp(cg).value) < 1e-9


def test_starts_replay_exactly_from_a_seed():
    """Covering vectors of starts >= 1 come from the seed only."""
    a, b = solve_lcp(KUHN, starts=3, seed=7), solve_lcp(KUHN, starts=3, seed=7)
    assert [e.exact_plans for e in a.equilibria] == [e.exact_plans for e in b.equilibria]


def test_blind_vs_blind_needs_three_seats():
    with pytest.raises(GameError, match="2 seats: a blind-versus-blind endgame needs 3 to 6"):
        blind_vs_blind(_buckets(), [10, 6])


def test_cli_lcp_on_three_players_is_one_line_exit_2(capsys):
    assert main(["solve", "kuhn3", "--method", "lcp"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["pokerdyn: error: the LCP solver needs a 2-player game; 'kuhn3' has 3 "
                   "players (use fp, hedge or cfr+)"]


def test_cli_lcp_kuhn_reports_exact_value(capsys):
    import json
    assert main(["solve", "kuhn", "--method", "lcp", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["exact"] == {"nash_conv": "0", "expected_payoffs": ["-1/18", "1/18"]}
