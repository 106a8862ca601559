"""Blind-versus-blind endgames of the jam/fold tournament game as registry games
(``blind-vs-blind(stacks=...,payouts=...)``): the spec mirrors
games.tournament.endgame.blind_vs_blind; bad values are one line and exit 2; the exact LCP
equilibrium against fictitious play and Freund-Schapire (hedge) on the same subgame."""
import json

import numpy as np
import pytest

from pokerdyn.games import compile_game, get_game
from pokerdyn.games.tournament.buckets import bucket_model
from pokerdyn.games.tournament.endgame import blind_vs_blind
from pokerdyn.cli import main
from pokerdyn.solvers import fictitious_play, hedge, nash_conv
from pokerdyn.solvers.sequence.lcp import solve_lcp

SPEC = "blind-vs-blind(stacks=[10,6,4],payouts=[0.5,0.3,0.2],buckets=6)"


def test_registry_game_is_the_endgame_of_its_options():
    """The spec builds exactly blind_vs_blind on the 6-bucket model (same tree, payoffs)."""
    g = get_game(SPEC)
    ref = blind_vs_blind(bucket_model(6, samples=1).model, [10, 6, 4], (0.5, 1.0),
                         payouts=[0.5, 0.3, 0.2])
    assert g.name == "blind-vs-blind(payouts=(0.5,0.3,0.2))"   # canonical spec
    assert np.array_equal(np.asarray(g.payoffs), np.asarray(ref.payoffs))
    assert [I.label for I in g.infosets] == [I.label for I in ref.infosets]
    chips = compile_game(get_game("blind-vs-blind(payouts=chips)"))
    assert np.abs(chips.payoffs.sum(axis=1)).max() < 1e-12          # zero-sum in chips


def test_cli_lcp_solves_the_endgame_exactly(capsys):
    assert main(["solve", SPEC, "--method", "lcp", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["exact"]["nash_conv"] == "0"
    assert out["nash_conv"] < 1e-12
    # general-sum: the blinds' equity changes do not sum to a constant
    cg = compile_game(get_game(SPEC))
    assert np.ptp(cg.payoffs.sum(axis=1)) > 1e-3


@pytest.mark.parametrize("spec, message", [
    ("blind-vs-blind(stacks=[10,6])", "2 seats: a blind-versus-blind endgame needs 3 to 6"),
    ("blind-vs-blind(buckets=1)", "buckets=1 is outside [2, 169]"),
    ("blind-vs-blind(payouts=foo)", "payouts='foo'; allowed: icm, chips or a list"),
    ("blind-vs-blind(stacks=[10,x,4])", "is not a list of numbers"),
    ("blind-vs-blind(button=7)", "button=7 is outside [0, 2]"),
    ("blind-vs-blind(payouts=[0.3,0.5])", "are not non-increasing"),
    ("blind-vs-blind(ante=-1)", "ante=-1 is outside the allowed range [0, inf)"),
    ("blind-vs-blind(seats=3)", "has no option 'seats'"),
])
def test_bad_values_are_one_line_exit_2(capsys, spec, message):
    assert main(["solve", spec, "--method", "lcp"]) == 2
    err = [ln for ln in capsys.readouterr().err.splitlines() if "error" in ln]
    assert len(err) == 1 and message in err[0]


def test_lcp_against_fictitious_play_and_hedge():
    """Same subgame, 10,000 iterations each (BENCHMARKS.md, "Blind versus blind"): fictitious
    play approaches the LCP's exact equilibrium (largest behaviour difference below 0.01,
    NashConv below 1e-5); hedge's average lags (NashConv about 1e-4, some classes still
    tens of points away) although the game is general-sum for both."""
    cg = compile_game(get_game(SPEC))
    eq = solve_lcp(cg).equilibria[0]
    assert eq.exact_nash_conv == 0
    fp = fictitious_play(cg, iterations=10_000)
    hd = hedge(cg, iterations=10_000)
    assert nash_conv(cg, fp.strategy) < 1e-5
    assert np.abs(fp.strategy - eq.strategies).max() < 0.01
    assert 1e-5 < nash_conv(cg, hd.strategy) < 1e-3
    assert np.abs(hd.strategy - eq.strategies).max() > 0.05
