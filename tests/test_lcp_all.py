"""Every equilibrium Lemke's method reaches from the systematic starts (the covering vector of
ones, then one per reduced pure plan of either player: solvers.sequence.lcp_all), each
certified by an exact NashConv of 0, against pygambit's enumeration of all extreme
equilibria of the reduced normal form (enummixed_solve) and its sequence-form lcp_solve."""
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerdyn.games import GameError, compile_game, get_game
from pokerdyn.cli import main
from pokerdyn.solvers.sequence.lcp_all import plan_starts, solve_lcp_all, start_labels
from test_lcp import signalling_game

KUHN = compile_game(get_game("kuhn"))


def _same(a, b) -> bool:
    return np.allclose(a[0], b[0], atol=1e-9) and np.allclose(a[1], b[1], atol=1e-9)


def test_kuhn_all_starts_reach_both_ends_of_player_ones_family():
    """Kuhn (1950): player 1 bets the jack with any alpha in [0, 1/3] (and the king with
    3 alpha), player 2's strategy is unique.  The 1 + 27 + 64 starts reach exactly the two
    ends alpha = 1/3 (the start of ones, Gambit's) and alpha = 0, both certified, both
    worth exactly -1/18."""
    res = solve_lcp_all(KUHN)
    assert res.starts == 1 + 27 + 64 == len(start_labels(KUHN))
    assert len(res.equilibria) == 2
    from pokerdyn.solvers.sequence.form import sequence_form
    jack = [I for I, info in enumerate(KUHN.game.infosets) if info.label == "P1:J|"][0]
    bet = int(sequence_form(KUHN).seq[jack, KUHN.game.infosets[jack].actions.index("b")])
    bets = sorted(Fraction(e.exact_plans[0][bet]) for e in res.equilibria)
    assert bets == [0, Fraction(1, 3)]
    for e in res.equilibria:
        assert e.exact_nash_conv == 0
        assert e.exact_payoffs == (Fraction(-1, 18), Fraction(1, 18))


@settings(max_examples=12, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6))
def test_lemke_ends_are_extreme_equilibria_of_the_reduced_normal_form(seed):
    """Random general-sum signalling games: every end of a Lemke path is an extreme
    equilibrium found by Gambit's enummixed_solve, certified exactly.  Derandomized (the
    same 12 seeds every run), so that a run's verdict does not depend on the draw: a random
    draw found seed 1263 (below), an open defect."""
    _lemke_ends_are_distinct_extreme_equilibria(seed)


@pytest.mark.xfail(strict=True, reason="open defect found under issue 33's repeated runs: on "
                   "this degenerate game two distinct exact Lemke ends match the same extreme "
                   "equilibrium of Gambit's enummixed_solve (ends [8, 3, 6, 3])")
def test_lemke_ends_seed_1263_two_ends_match_one_extreme_equilibrium():
    _lemke_ends_are_distinct_extreme_equilibria(1263)


def _lemke_ends_are_distinct_extreme_equilibria(seed: int) -> None:
    pytest.importorskip("pygambit")
    from pokerdyn.solvers.sequence.gambit_check import gambit_enummixed
    rng = np.random.default_rng(seed)
    cg = compile_game(signalling_game(rng.integers(-5, 6, size=(2, 2, 2, 2)).astype(float)))
    res = solve_lcp_all(cg)
    assert res.starts == 1 + 4 + 4
    extreme, _ = gambit_enummixed(cg)
    for e in res.equilibria:
        assert e.exact_nash_conv == 0
        assert any(_same(e.plans, x) for x in extreme)
    assert res.equilibria[0].start == 0  # the start of ones always reaches an end
    # the ends are distinct equilibria: each is exactly one of Gambit's, no two the same one
    hits = [i for e in res.equilibria for i, x in enumerate(extreme) if _same(e.plans, x)]
    assert len(hits) == len(set(hits)) == len(res.equilibria)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_start_of_ones_ends_where_gambits_lcp_solve_does(seed):
    """Generic payoffs (no ties, so the Lemke path from the covering vector of ones is unique):
    its end is pygambit's lcp_solve end.  With small integer payoffs ties between ratio tests
    make the end depend on the tie-breaking rule (seed 999999 of the test above: both ends are
    equilibria, player 2's second set differs), so that comparison needs a nondegenerate game."""
    pytest.importorskip("pygambit")
    from pokerdyn.solvers.sequence.gambit_check import gambit_lcp
    rng = np.random.default_rng(seed)
    cg = compile_game(signalling_game(np.round(rng.uniform(-5, 5, size=(2, 2, 2, 2)), 6)))
    res = solve_lcp_all(cg)
    ones = [e for e in res.equilibria if e.start == 0][0]
    assert ones.exact_nash_conv == 0
    theirs, _ = gambit_lcp(cg)
    assert np.abs(ones.strategies - theirs[0]).max() < 1e-9


def test_some_extreme_equilibria_are_out_of_reach():
    """A game where the starts miss extreme equilibria (seed 23 of the random signalling
    games: 11 extreme equilibria of the reduced normal form, Lemke reaches 4)."""
    pytest.importorskip("pygambit")
    from pokerdyn.solvers.sequence.gambit_check import gambit_enummixed
    rng = np.random.default_rng(23)
    cg = compile_game(signalling_game(rng.integers(-5, 6, size=(2, 2, 2, 2)).astype(float)))
    extreme, _ = gambit_enummixed(cg)
    res = solve_lcp_all(cg)
    reached = sum(any(_same(e.plans, x) for e in res.equilibria) for x in extreme)
    assert (len(extreme), len(res.equilibria), reached) == (11, 4, 4)


def test_plan_starts_are_the_reduced_plans_of_both_players():
    """Kuhn: 27 reduced plans of player 1, 64 of player 2; each start lists the sequences
    its plan plays (the empty sequence 0 and one per reached own set)."""
    starts = plan_starts(KUHN)
    assert [p for _, p, _ in starts].count(0) == 27 and len(starts) == 91
    assert all(s[0] == 0 for _, _, s in starts)
    assert {len(s) for _, p, s in starts if p == 0} == {4, 5, 6, 7}


def test_cli_lcp_all_lists_every_equilibrium(capsys):
    import json
    assert main(["solve", "kuhn", "--method", "lcp", "--all", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    eqs = out["equilibria"]
    assert len(eqs) == 2 and out["starts"] == 92
    assert all(e["exact"]["nash_conv"] == "0" for e in eqs)
    assert {e["exact"]["expected_payoffs"][0] for e in eqs} == {"-1/18"}


def test_cli_all_needs_lcp_and_two_players(capsys):
    assert main(["solve", "kuhn", "--method", "fp", "--all"]) == 2
    assert capsys.readouterr().err.strip() == ("pokerdyn: error: --all lists the equilibria "
                                               "of the LCP solver; use it with --method lcp")
    with pytest.raises(GameError, match="2-player"):
        solve_lcp_all(compile_game(get_game("kuhn3")))


def test_a_float_ray_falls_back_to_the_exact_path():
    """Generic payoffs of seed 140 * 7919: the float Lemke path of start 8 (a plan of player 2)
    reads a near-tie as a ray; the exact path from the same covering vector ends at an
    equilibrium, so solve_lcp_all still returns every start's end, each certified."""
    from pokerdyn.solvers.sequence.lcp import lcp_system
    from pokerdyn.solvers.sequence.lcp_all import covering
    from pokerdyn.solvers.sequence.lemke import lemke
    rng = np.random.default_rng(140 * 7919)
    cg = compile_game(signalling_game(np.round(rng.uniform(-5, 5, size=(2, 2, 2, 2)), 6)))
    M, q, sizes = lcp_system(cg, exact=False)
    _, player, seqs = plan_starts(cg)[7]
    with pytest.raises(GameError, match="ray"):
        lemke(M, q, [float(v) for v in covering(sizes, player, seqs)])
    res = solve_lcp_all(cg)
    assert res.equilibria and all(e.exact_nash_conv == 0 for e in res.equilibria)
