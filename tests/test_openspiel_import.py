"""OpenSpiel games imported by games.io.openspiel: sizes, game values and NashConv against
pyspiel's own counts and best responses (OpenSpiel's tests assert Kuhn -1/18 and the uniform
NashConv 11/12; Leduc's value -0.0856064 is from OpenSpiel's sequence-form LP test)."""
import sys

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
policy_lib = pytest.importorskip("open_spiel.python.policy")
exploitability = pytest.importorskip("open_spiel.python.algorithms.exploitability")

from pokerdyn.games import GameError, compile_game, get_game  # noqa: E402
from pokerdyn.games.io.openspiel import load_openspiel, openspiel_game  # noqa: E402
from pokerdyn.games.strategy import uniform_strategy  # noqa: E402
from pokerdyn.solvers import nash_conv, solve_lp  # noqa: E402


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("POKERDYN_CACHE", str(tmp_path))


def _count(game):
    """(histories, terminals, information sets) of a pyspiel game, by plain recursion."""
    counts = [0, 0]
    infosets = set()

    def walk(s):
        counts[0] += 1
        if s.is_terminal():
            counts[1] += 1
            return
        if s.is_chance_node():
            acts = [a for a, _ in s.chance_outcomes()]
        else:
            infosets.add((s.current_player(), s.information_state_string()))
            acts = s.legal_actions()
        for a in acts:
            walk(s.child(a))

    walk(game.new_initial_state())
    return counts[0], counts[1], len(infosets)


def _tabular(game, g, sigma):
    """OpenSpiel TabularPolicy of the pokerdyn profile ``sigma`` of the imported game ``g``
    (row k of an information set goes to its k-th legal OpenSpiel action)."""
    pol = policy_lib.TabularPolicy(game)
    for I, info in enumerate(g.infosets):
        key = info.label.split(":", 1)[1]
        row = pol.state_lookup[key]
        legal = np.flatnonzero(pol.legal_actions_mask[row])
        pol.action_probability_array[row] = 0.0
        pol.action_probability_array[row, legal] = sigma[I, :legal.size]
    return pol


@pytest.mark.parametrize("spec", ["kuhn_poker", "leduc_poker", "kuhn_poker(players=3)"])
def test_sizes_equal_pyspiel_counts(spec):
    g = load_openspiel(spec)
    assert (g.n_nodes, g.terminal_node.size, g.n_infosets) == _count(pyspiel.load_game(spec))
    assert g.n_players == pyspiel.load_game(spec).num_players()


def test_kuhn_value_and_equal_to_pokerdyn_kuhn():
    value = solve_lp(compile_game(load_openspiel("kuhn_poker"))).value
    assert value == pytest.approx(-1 / 18, abs=1e-9)
    assert value == pytest.approx(solve_lp(compile_game(get_game("kuhn"))).value, abs=1e-9)


def test_leduc_value():
    assert solve_lp(compile_game(load_openspiel("leduc_poker"))).value == \
        pytest.approx(-0.0856064, abs=1e-6)


@pytest.mark.parametrize("spec", ["kuhn_poker", "leduc_poker", "kuhn_poker(players=3)"])
def test_nash_conv_equals_openspiel(spec):
    game = pyspiel.load_game(spec)
    g = load_openspiel(spec)
    cg = compile_game(g)
    uni = uniform_strategy(cg)
    want = exploitability.nash_conv(game, policy_lib.TabularPolicy(game))
    assert nash_conv(cg, uni) == pytest.approx(want, abs=1e-9)
    assert nash_conv(cg, uni) == pytest.approx(
        pyspiel.nash_conv(game, pyspiel.UniformRandomPolicy(game)), abs=1e-9)
    # a random profile: the same NashConv through OpenSpiel's information-state keys
    rng = np.random.default_rng(7)
    sigma = rng.random(uni.shape) * cg.legal
    sigma /= sigma.sum(axis=1, keepdims=True)
    assert nash_conv(cg, sigma) == pytest.approx(
        exploitability.nash_conv(game, _tabular(game, g, sigma)), abs=1e-9)


def test_kuhn_uniform_nash_conv_is_eleven_twelfths():
    assert nash_conv(compile_game(load_openspiel("kuhn_poker")),
                     uniform_strategy(compile_game(load_openspiel("kuhn_poker")))) == \
        pytest.approx(11 / 12, abs=1e-12)


def test_cached_load_equals_first_load(tmp_path):
    first = load_openspiel("leduc_poker")
    assert len(list((tmp_path / "openspiel").glob("*.npz"))) == 1
    again = load_openspiel("leduc_poker")
    for k in ("kind", "parent", "edge", "player", "infoset", "edge_prob", "payoffs"):
        assert np.array_equal(getattr(first, k), getattr(again, k)), k
    assert first.infosets == again.infosets and first.name == again.name


def test_spec_prefix_and_cli_names():
    g = openspiel_game("openspiel:kuhn_poker")
    assert g.name == "openspiel:kuhn_poker()" and g.infosets[0].actions == ("Pass", "Bet")
    from pokerdyn.commands.common import load_game
    assert load_game("openspiel:kuhn_poker") is g


@pytest.mark.parametrize("spec, words", [
    ("mfg_crowd_modelling", "mean_field dynamics"),
    ("markov_soccer", "(simultaneous moves) provides no information_state_string"),
    ("no_such_game", "unknown OpenSpiel game 'no_such_game'"),
    ("kuhn_poker(players=x)", "kuhn_poker(players=x)")])
def test_rejected_games(spec, words):
    with pytest.raises(GameError, match=words.replace("(", r"\(").replace(")", r"\)")):
        load_openspiel(spec)


def test_size_limit_named():
    with pytest.raises(GameError, match="more than 1,000 histories"):
        load_openspiel("leduc_poker", cache=False, max_nodes=1000)


def test_missing_pyspiel(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    with pytest.raises(GameError, match=r"pip install 'pokerdyn\[openspiel\]'"):
        load_openspiel("kuhn_poker")


@pytest.mark.parametrize("spec, n", [("kuhn_poker(players=3)", 200), ("leduc_poker", 20)])
def test_cfr_plus_step_for_step_equal_to_openspiel(spec, n):
    """pokerdyn's CFR+ on the imported game and OpenSpiel's C++ CFRPlusSolver on the original
    are the same algorithm: equal NashConv of the average policy after n iterations."""
    from pokerdyn.solvers import cfr
    game = pyspiel.load_game(spec)
    solver = pyspiel.CFRPlusSolver(game)
    for _ in range(n):
        solver.evaluate_and_update_policy()
    cg = compile_game(load_openspiel(spec))
    assert cfr(cg, iterations=n).nash_conv == pytest.approx(
        pyspiel.nash_conv(game, solver.average_policy()), abs=1e-10)


def test_unreadable_cache_file_is_rebuilt(tmp_path):
    first = load_openspiel("kuhn_poker")
    (path,) = (tmp_path / "openspiel").glob("*.npz")
    path.write_bytes(b"PK\x03\x04 truncated zip")
    again = load_openspiel("kuhn_poker", progress=True)
    assert np.array_equal(first.payoffs, again.payoffs) and first.infosets == again.infosets
    assert path.stat().st_size > 100  # written again


class _FakeState:
    """A one-player game whose two histories in one information set have different legal
    actions (possible in a buggy OpenSpiel game; the import must refuse it)."""

    def __init__(self, h=()):
        self.h = h

    def current_player(self):
        return -1 if not self.h else (0 if len(self.h) == 1 else -4)

    def chance_outcomes(self):
        return [(0, 0.5), (1, 0.5)]

    def information_state_string(self, player):
        return "same"

    def legal_actions(self):
        return [0, 1] if self.h == (0,) else [0, 2]

    def action_to_string(self, player, a):
        return f"a{a}"

    def child(self, a):
        return _FakeState(self.h + (a,))

    def returns(self):
        return [0.0]


class _FakeGame:
    def num_players(self):
        return 1

    def new_initial_state(self):
        return _FakeState()

    def __str__(self):
        return "fake"


def test_information_set_with_two_legal_action_lists_is_refused():
    from pokerdyn.games.io.openspiel import _traverse
    with pytest.raises(GameError, match=r"'P1:same'.*legal actions \[0, 1\] and \[0, 2\]"):
        _traverse(_FakeGame(), 100, False)


def test_cli_games_and_solve_take_openspiel_names(capsys):
    import json
    from pokerdyn.cli import main
    assert main(["games", "--json", "openspiel:kuhn_poker", "kuhn"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["game"], r["players"], r["nodes"], r["infosets"]) for r in rows] == \
        [("openspiel:kuhn_poker", 2, 58, 12), ("kuhn", 2, 55, 12)]
    assert main(["solve", "openspiel:kuhn_poker", "--method", "lp"]) == 0
    assert "E1=-0.055556" in capsys.readouterr().out
    assert main(["games", "openspiel:goofspiel"]) == 2  # 13 cards: refused by its size
    assert "nodes" in capsys.readouterr().err


class _RewardState:
    """One decision of player 0 with two actions; a reward of 1 + action on the way to each
    terminal, which returns() forget when ``honest`` is False (a broken game: refused)."""

    def __init__(self, honest, h=()):
        self.honest, self.h = honest, h

    def current_player(self):
        return 0 if not self.h else -4

    def information_state_string(self, player):
        return "root"

    def legal_actions(self):
        return [0, 1]

    def action_to_string(self, player, a):
        return f"a{a}"

    def child(self, a):
        return _RewardState(self.honest, self.h + (a,))

    def rewards(self):
        return [1.0 + self.h[-1]] if self.h else [0.0]

    def returns(self):
        return [1.0 + self.h[0]] if self.honest else [float(self.h[0])]

    def history(self):
        return list(self.h)


class _RewardGame:
    def __init__(self, honest):
        self.honest = honest

    def num_players(self):
        return 1

    def new_initial_state(self):
        return _RewardState(self.honest)

    def __str__(self):
        return "rewarded"


def test_rewards_that_do_not_sum_to_the_returns_are_refused():
    """Intermediate rewards are summed along the path; a terminal's returns() must be that
    sum (OpenSpiel's contract, spiel.h State::Returns), else one line naming the history."""
    from pokerdyn.games.io.openspiel import _traverse
    assert _traverse(_RewardGame(True), 100, False, True)["arrays"]["payoffs"].tolist() == \
        [[1.0], [2.0]]
    with pytest.raises(GameError) as exc:
        _traverse(_RewardGame(False), 100, False, True)
    assert "sum to [1.0] but returns() there is [0.0]" in str(exc.value)
    assert "history [0]" in str(exc.value) and "\n" not in str(exc.value)


def test_a_loaded_simultaneous_pyspiel_game_is_made_turn_based():
    g = load_openspiel(pyspiel.load_game("matrix_mp"), cache=False)
    assert g.name == "openspiel:turn_based_simultaneous_game(game=matrix_mp())"
    assert g.n_nodes == 7 and g.n_infosets == 2
    assert solve_lp(compile_game(g)).value == pytest.approx(0.0, abs=1e-12)


def test_openspiel_size_estimate_of_a_simultaneous_game():
    """The CLI's guard estimates simultaneous games too (through the same wrapper): 418 is
    goofspiel(num_cards=3)'s exact count of turn-based histories (test_conformance_openspiel)."""
    from pokerdyn.games.io.openspiel import estimate_openspiel
    est = estimate_openspiel("goofspiel(num_cards=3)")
    assert 418 / 2 < est.nodes < 418 * 2 and est.n_players == 2


def test_openspiels_own_error_print_is_muted(capfd, tmp_path):
    """pyspiel's C++ error handler writes "OpenSpiel exception: ..." to file descriptor 2
    before raising; the CLI's one line must be the only one."""
    from hostile import run_bad
    with pytest.raises(GameError, match="Wrong type for parameter players"):
        load_openspiel("kuhn_poker(players=x)")
    assert "OpenSpiel exception" not in capfd.readouterr().err
    run_bad(["games", "openspiel:misere"], ("Missing parameter game",), tmp_path)
    assert "OpenSpiel exception" not in capfd.readouterr().err


def test_a_game_far_over_the_limit_is_refused_from_its_estimate_before_any_walk(monkeypatch):
    """From Python too, 13-card goofspiel (about 4.6e18 histories) is refused from the
    seeded estimate after ESTIMATE_AFTER histories, not after walking max_nodes (minutes)."""
    pytest.importorskip("pyspiel")
    import pokerdyn.games.io.openspiel as osp

    monkeypatch.setattr(osp, "ESTIMATE_AFTER", 1000)
    with pytest.raises(GameError, match=r"more than 20,000,000 histories \(about 4\.\d+e\+18, "
                       r"estimated"):
        osp.load_openspiel("goofspiel", cache=False)
