"""Conformance with OpenSpiel (issue 34): the small games of OpenSpiel 2.0.2, imported by
games.io.openspiel (simultaneous-move ones through OpenSpiel's turn_based_simultaneous_game,
cliff_walking with intermediate rewards), each evaluated by pokerdyn and by OpenSpiel itself:

* the NashConv of the uniform profile equals pyspiel.nash_conv (C++) and OpenSpiel's Python
  exploitability.nash_conv (kuhn_poker, kuhn_poker(players=3) and leduc_poker have that
  check in test_openspiel_import.py and are not repeated here);
* the NashConv of pokerdyn's CFR+ profile (a fixed number of iterations), handed to OpenSpiel
  as a TabularPolicy through the information-state strings (games.io.openspiel
  .openspiel_policy), equals OpenSpiel's evaluation of the same profile;
* for two-player zero-sum games, pokerdyn's sequence-form LP profile is an equilibrium by
  OpenSpiel's evaluation, OpenSpiel's expected payoff of it is the LP's value, and the value
  is the published one where there is one (OpenSpiel's sequence_form_lp_test: Kuhn -1/18,
  Leduc -0.085606424078, matrix_rps 0 and goofspiel(imp_info, 4 cards, descending) 0 by
  symmetry; matching pennies 0 and goofspiel(num_cards=3) 0 by symmetry too).
"""
import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
exploitability = pytest.importorskip("open_spiel.python.algorithms.exploitability")
expected_game_score = pytest.importorskip("open_spiel.python.algorithms.expected_game_score")

from pokerdyn.games import GameError, compile_game, get_game  # noqa: E402
from pokerdyn.games.io.openspiel import _load_pyspiel_game, load_openspiel, openspiel_policy  # noqa: E402
from pokerdyn.games.strategy import uniform_strategy  # noqa: E402
from pokerdyn.solvers import cfr, nash_conv, solve_lp  # noqa: E402

# every game here has at most ~1e4 histories and imports in well under a second
NEW_GAMES = [
    "tiny_hanabi", "liars_dice(dice_sides=3)", "first_sealed_auction(max_value=3)",
    "lewis_signaling", "coordinated_mp", "trade_comm(num_items=2)",
    "sheriff(max_items=1,max_bribe=1,num_rounds=1)", "nim(pile_sizes=1;2;3)",
    "mnk(m=3,n=2,k=2)",
    "cliff_walking(height=2,width=3,horizon=4)",            # intermediate rewards, 1 player
    "matrix_rps", "matrix_mp", "matrix_pd", "matrix_bos", "matrix_shapleys_game",
    "matrix_brps", "matching_pennies_3p",                   # simultaneous, one shot
    "goofspiel(num_cards=3)", "goofspiel(num_cards=3,players=3)",
    "goofspiel(num_cards=4,imp_info=True,points_order=descending)",
    "blotto(coins=4,fields=3)", "oshi_zumo(coins=2,size=1,horizon=3)",
    "turn_based_simultaneous_game(game=goofspiel(num_cards=3))",  # the wrapper named
]
POKER = ["kuhn_poker", "kuhn_poker(players=3)", "leduc_poker"]
CFR_ITERATIONS = 50

KNOWN_VALUES = {  # player 1's value; source in the module docstring
    "kuhn_poker": -1 / 18, "leduc_poker": -0.085606424078, "matrix_rps": 0.0, "matrix_mp": 0.0,
    "goofspiel(num_cards=3)": 0.0,
    "goofspiel(num_cards=4,imp_info=True,points_order=descending)": 0.0,
}


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("POKERDYN_CACHE", str(tmp_path))


def _both(spec):
    """(pyspiel game as imported: turn-based where simultaneous, pokerdyn game, compiled)."""
    g = load_openspiel(spec, cache=False)
    return _load_pyspiel_game(spec), g, compile_game(g)


def _two_player_zero_sum(spec):
    game = _load_pyspiel_game(spec)
    return game.num_players() == 2 and \
        game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM


@pytest.mark.parametrize("spec", NEW_GAMES)
def test_uniform_nash_conv_equals_openspiel(spec):
    game, g, cg = _both(spec)
    ours = nash_conv(cg, uniform_strategy(cg))
    assert ours == pytest.approx(pyspiel.nash_conv(game, pyspiel.UniformRandomPolicy(game)),
                                 abs=1e-9)
    assert ours == pytest.approx(exploitability.nash_conv(game, openspiel_policy(
        g, uniform_strategy(cg))), abs=1e-9)


@pytest.mark.parametrize("spec", POKER + NEW_GAMES)
def test_cfr_plus_profile_nash_conv_equals_openspiels_evaluation(spec):
    game, g, cg = _both(spec)
    sigma = cfr(cg, iterations=CFR_ITERATIONS).strategy
    ours = nash_conv(cg, sigma)
    assert ours == pytest.approx(exploitability.nash_conv(game, openspiel_policy(g, sigma)),
                                 abs=1e-9)


# leduc_poker's LP value is asserted in test_openspiel_import.py (its LP takes seconds)
@pytest.mark.parametrize("spec", [s for s in ["kuhn_poker"] + NEW_GAMES if _two_player_zero_sum(s)])
def test_lp_equilibrium_by_openspiels_evaluation(spec):
    game, g, cg = _both(spec)
    res = solve_lp(cg)
    pol = openspiel_policy(g, res.strategies)
    assert exploitability.nash_conv(game, pol) == pytest.approx(0.0, abs=1e-9)
    v1, v2 = expected_game_score.policy_value(game.new_initial_state(), [pol, pol])
    assert res.value == pytest.approx(v1, abs=1e-9) and v2 == pytest.approx(-v1, abs=1e-9)
    if spec in KNOWN_VALUES:
        assert res.value == pytest.approx(KNOWN_VALUES[spec], abs=1e-9)


def test_the_suite_covers_the_zero_sum_games_with_known_values():
    """The LP test above is not vacuous: these games reach it with their published value."""
    assert {s for s in KNOWN_VALUES if _two_player_zero_sum(s)} == set(KNOWN_VALUES)
    assert set(KNOWN_VALUES) - {"leduc_poker"} <= {"kuhn_poker", *NEW_GAMES}


# ---- simultaneous moves through turn_based_simultaneous_game --------------------------------

def test_simultaneous_game_loads_as_its_turn_based_wrapper():
    """matrix_rps automatically and the explicit wrapper spec give the same game; the second
    mover does not see the first one's move (one information set per player)."""
    auto = load_openspiel("openspiel:matrix_rps")
    named = load_openspiel("turn_based_simultaneous_game(game=matrix_rps())")
    assert auto.name == named.name == "openspiel:turn_based_simultaneous_game(game=matrix_rps())"
    assert np.array_equal(auto.payoffs, named.payoffs) and auto.infosets == named.infosets
    assert [(i.player, i.actions) for i in auto.infosets] == \
        [(0, ("Rock", "Paper", "Scissors")), (1, ("Rock", "Paper", "Scissors"))]
    # the payoff matrix of rock-paper-scissors, row player's view (OpenSpiel's matrix_rps)
    rows = auto.payoffs[:, 0].reshape(3, 3)
    assert rows.tolist() == [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]


def test_matrix_rps_value_and_unique_optimum():
    """Rock-paper-scissors: value 0, the uniform profile its unique equilibrium."""
    res = solve_lp(compile_game(load_openspiel("matrix_rps")))
    assert res.value == pytest.approx(0.0, abs=1e-12)
    assert np.allclose(res.strategies[:, :3], 1 / 3, atol=1e-9)


def test_cli_games_takes_simultaneous_openspiel_games(capsys):
    import json

    from pokerdyn.cli import main
    assert main(["games", "--json", "openspiel:matrix_rps",
                 "openspiel:goofspiel(num_cards=3)"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["players"], r["nodes"], r["infosets"]) for r in rows] == [(2, 13, 2), (2, 418, 114)]


# ---- intermediate rewards -------------------------------------------------------------------

def test_intermediate_rewards_are_summed_to_the_terminal():
    """cliff_walking pays -1 a step (and -100 for the cliff) as rewards along the way: each
    terminal payoff of the import is the sum of the rewards() on its path."""
    spec = "cliff_walking(height=2,width=3,horizon=4)"
    g = load_openspiel(spec, cache=False)
    game = pyspiel.load_game(spec)
    assert game.get_type().reward_model == pyspiel.GameType.RewardModel.REWARDS
    sums = []

    def walk(s, acc):
        if s.is_terminal():
            sums.append(acc)
            return
        for a in s.legal_actions():
            c = s.child(a)
            walk(c, acc + c.rewards()[0])

    walk(game.new_initial_state(), 0.0)  # depth first, actions in order: the import's order
    assert g.payoffs[:, 0].tolist() == sums
    assert min(sums) < -100 and max(sums) == -4  # some paths fall, the best walks 4 steps


def test_unrelated_spec_is_refused_by_openspiel_policy():
    with pytest.raises(GameError, match="not imported from OpenSpiel"):
        openspiel_policy(get_game("kuhn"), np.zeros((12, 2)))
