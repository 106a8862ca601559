"""Issue 33, leftovers (area L1): the defects the other areas reported once they were done.

1. reduced plans and their count without recursion (a 3000-level .efg was a RecursionError
   in `pokerdyn export`), and plan counts past the float range in the refusal;
2. the best response's tie tolerance relative to the payoff scale (kuhn x 1e-100 gave a
   negative NashConv);
3. the OpenSpiel importer's limits from games.tree (more than 127 players overflowed);
4. a folder named as a .efg file says what is allowed;
5. one shortening of echoed values (games.errors.shown) for numbers, specs and pots;
6. the support method's seeded runs stop at once on an interrupt;
7. `qre-fit --counts` read by common.read_json_file;
8. work ceilings of `solve`, `compare` and `collusion` (iterations x nodes x a measured
   cost per node, refused above 24 hours unless --force), `equilibria --workers` at most
   4 per CPU.
Every refusal follows tests/hostile.py's rule (one line, exit 2, nothing written).
"""
from __future__ import annotations

import dataclasses
import inspect
import sys
import types

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerdyn.games import GAMES, GameError, compile_game, get_game
from pokerdyn.games.catalog.registry import GAME_OPTIONS
from pokerdyn.games.catalog.spec import shorten
from pokerdyn.games.errors import shown
from pokerdyn.games.io.efg import game_from_efg
from pokerdyn.games.normal_form import normal_form, plan_count, reduced_plans, sequences
from pokerdyn.games.strategy import uniform_strategy
from pokerdyn.games.tree import MAX_ACTIONS, MAX_PLAYERS
from hostile import chain_efg, run_bad
from pokerdyn.cli import build_parser, main
from pokerdyn.commands.common import MAX_WORK_HOURS, check_solver_work, parse_float
from pokerdyn.solvers import _kernels as K
from pokerdyn.solvers.evaluation import best_response, nash_conv, regrets
from pokerdyn.solvers.iterative import SECONDS_PER_NODE, estimated_seconds
from pokerdyn.solvers.learning.cfr_plus import cfr


# -- 1. plans without recursion ----------------------------------------------------------------

def test_plans_of_a_deep_chain_are_found_without_recursion():
    """With the interpreter's stack cut to 80 frames above this test, plan_count,
    reduced_plans and the normal form of a 400-level chain (200 sets per player) work: no
    step recurses on the depth.  Player 1's plan k takes at her k-th set (the last plan
    passes everywhere), so there are 201; the chain's value (take at once) is 1."""
    g = game_from_efg(chain_efg(400), "deep")
    cg = compile_game(g)
    sq = sequences(g)
    n_act = cg.n_actions.astype(np.int64)
    depth = len(inspect.stack(0))
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + 80)
    try:
        counts = [plan_count(sq, p, n_act) for p in range(2)]
        plans = reduced_plans(sq, 0, n_act)
        nf = normal_form(cg)
    finally:
        sys.setrecursionlimit(old)
    assert counts == [201, 201] and nf.shape == (201, 201)
    mine = np.flatnonzero(cg.infoset_player == 0)  # her sets, in chain order
    want = np.full((201, g.n_infosets), -1, dtype=np.int16)
    for k in range(201):
        want[k, mine[:k]] = 1          # pass (y) at the sets before the k-th
        if k < 200:
            want[k, mine[k]] = 0       # take (x) there
    order = np.lexsort(plans.T[::-1])
    assert np.array_equal(plans[order], want[np.lexsort(want.T[::-1])])
    # plan profile (take at once, anything): player 1 wins 1
    take = int(np.flatnonzero(plans[:, mine[0]] == 0)[0])
    assert np.all(nf.payoffs[take, :, 0] == 1.0)


def test_export_of_a_3000_level_tree_is_one_line(tmp_path):
    """Was a RecursionError in plan_count: now the plan count (1,501 per player) is found
    and the export refused with the limit."""
    path = tmp_path / "deep.efg"
    path.write_text(chain_efg(3000))
    run_bad(["export", str(path), "out.nfg"], ("1,501 x 1,501",), tmp_path)


def test_plan_counts_past_the_float_range_are_one_line(tmp_path):
    """1,100 chance outcomes each before a 2-action set of player 1: 2^1100 plans.  The
    refusal formatted the count as a float: an OverflowError traceback."""
    n = 1100
    outs = " ".join(f'"o{i}" 1/{n}' for i in range(n))
    lines = ['EFG 2 R "wide" { "A" "B" }', '""', f'c "" 1 "" {{ {outs} }} 0']
    for i in range(n):
        lines += [f'p "" 1 {i + 1} "s{i}" {{ "l" "r" }} 0', f't "" {2 * i + 1} "" {{ 1, -1 }}',
                  f't "" {2 * i + 2} "" {{ -1, 1 }}']
    path = tmp_path / "wide.efg"
    path.write_text("\n".join(lines) + "\n")
    run_bad(["export", str(path), "out.nfg"], ("1.35e+331",), tmp_path)


# -- 2. tie tolerance relative to the payoff scale -----------------------------------------------

def _scaled(cg, k: float):
    return dataclasses.replace(cg, payoffs=cg.payoffs * k, cache={})


@pytest.mark.parametrize("scale", [1e-100, 1e100])
def test_nash_conv_of_scaled_kuhn_is_the_scaled_value(scale):
    """Kuhn's payoffs times 1e-100 gave a negative NashConv (the absolute tolerance 1e-14
    exceeded every action value, so the first action was taken for the best); now NashConv
    and each best-response value scale with the payoffs, to relative 1e-9, and the same
    actions are chosen.  The uniform profile's NashConv is 11/12 (OpenSpiel's test)."""
    cg = compile_game(get_game("kuhn"))
    sc = _scaled(cg, scale)
    profiles = [uniform_strategy(cg), cfr(cg, iterations=40).strategy]
    rng = np.random.default_rng(3)
    w = rng.random(cg.legal.shape) * cg.legal
    profiles.append(w / w.sum(axis=1, keepdims=True))
    for s in profiles:
        base, got = nash_conv(cg, s), nash_conv(sc, s)
        assert got >= 0 and base > 0
        assert got == pytest.approx(base * scale, rel=1e-9)
        for p in range(2):
            b0, b1 = best_response(cg, s, p), best_response(sc, s, p)
            assert b1.value == pytest.approx(b0.value * scale, rel=1e-9)
            assert np.array_equal(b0.actions, b1.actions)
    assert nash_conv(sc, profiles[0]) == pytest.approx(11 / 12 * scale, rel=1e-12)


def test_the_kernels_compute_the_scale_when_not_given():
    """K.regrets without a scale (tests and scripts call it so) computes it: the same
    values as the entry's, which passes payoff_scale once."""
    cg = _scaled(compile_game(get_game("kuhn")), 1e-100)
    s = uniform_strategy(cg)
    a = (cg.kind, cg.player, cg.parent, cg.edge, cg.infoset, cg.chance_prob)
    assert K.payoff_scale(cg.payoffs) == 2e-100
    assert np.array_equal(K.regrets(*a, cg.terminal_index, cg.payoffs, cg.legal, s),
                          regrets(cg, s))
    assert (K.regrets(*a, cg.terminal_index, cg.payoffs, cg.legal, s) >= 0).all()


# -- 3. OpenSpiel limits ------------------------------------------------------------------------

class _FakeState:
    """A decision node of player 0 with ``n`` legal actions."""

    def __init__(self, n: int):
        self.n = n

    def current_player(self):
        return 0

    def information_state_string(self, player):
        return "root"

    def legal_actions(self):
        return list(range(self.n))


class _FakeGame:
    def __init__(self, players: int, actions: int = 2):
        import pyspiel

        self.players, self.actions, self.states = players, actions, 0
        self.kind = types.SimpleNamespace(
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
            provides_information_state_string=True)

    def get_type(self):
        return self.kind

    def num_players(self):
        return self.players

    def new_initial_state(self):
        self.states += 1
        return _FakeState(self.actions)

    def __str__(self):
        return "fake_game()"


def test_openspiel_game_of_200_players_is_refused_before_the_walk():
    """Players are int8 (games.tree.MAX_PLAYERS): 200 players overflowed the importer's
    arrays; now one line with the limit, before any state is made (so also before the
    size estimate's random walks)."""
    pytest.importorskip("pyspiel")
    from pokerdyn.games.io.openspiel import estimate_openspiel, load_openspiel

    for call in (lambda g: load_openspiel(g, cache=False), estimate_openspiel):
        game = _FakeGame(200)
        with pytest.raises(GameError) as exc:
            call(game)
        msg = str(exc.value)
        assert "\n" not in msg and "fake_game()" in msg and f"[1, {MAX_PLAYERS}]" in msg
        assert game.states == 0
    assert load_openspiel(_FakeGame(MAX_PLAYERS, 0), cache=False).n_players == MAX_PLAYERS


def test_openspiel_node_with_too_many_actions_names_the_limit():
    pytest.importorskip("pyspiel")
    from pokerdyn.games.io.openspiel import load_openspiel

    with pytest.raises(GameError) as exc:
        load_openspiel(_FakeGame(2, MAX_ACTIONS + 1), cache=False)
    assert f"{MAX_ACTIONS + 1} actions" in str(exc.value)
    assert f"at most {MAX_ACTIONS}" in str(exc.value) and "fake_game()" in str(exc.value)


# -- 4. a folder named .efg ---------------------------------------------------------------------

def test_a_folder_named_efg_says_a_file_is_needed(tmp_path):
    folder = tmp_path / "somedir.efg"
    folder.mkdir()
    for argv in (["games", str(folder)], ["solve", str(folder)]):
        run_bad(argv, ("somedir.efg",), tmp_path)
    with pytest.raises(GameError, match="must be a .efg file"):
        from pokerdyn.commands.common import load_game
        load_game(str(folder))


# -- 5. one shortening of echoed values ---------------------------------------------------------

def test_long_values_are_shortened_alike_in_numbers_specs_and_pots(tmp_path):
    """parse_float echoed a 5,000-digit value in full; specs and pots had shortenings of
    their own.  All three now show the first characters and the length, the same way."""
    from pokerdyn.solvers.symbolic.model.pot_values import exact_pot

    digits = "9" * 5000
    with pytest.raises(GameError) as exc:
        parse_float(digits, "iterations", low=1)
    number = str(exc.value)
    with pytest.raises(GameError) as exc:
        parse_float("x" + digits, "tol")
    word = str(exc.value)
    with pytest.raises(GameError) as exc:
        exact_pot(digits)
    pot = str(exc.value)
    for msg in (number, word, pot, shorten("river(" + digits + ")")):
        assert "...(5,0" in msg and len(msg) < 250 and digits[:100] not in msg, msg
    assert number.startswith(f"iterations={digits[:30]}...(5,000 characters) is outside")
    assert word.startswith(f"tol={'x' + digits[:29]!r}...(5,001 characters) is not a number")
    run_bad(["solve", "kuhn", "--iterations", digits], ("iterations=",), tmp_path)
    run_bad(["solve", "kuhn", "--tol", "x" + digits], ("tol=",), tmp_path)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.text(max_size=300), st.integers(2, 100), st.booleans())
def test_shown_is_bounded_and_says_the_length(text, limit, quote):
    out = shown(text, limit, quote)
    if len(text) <= limit:
        assert out == (repr(text) if quote else text)
    else:
        head = text[:limit // 2]
        assert out == f"{repr(head) if quote else head}...({len(text):,} characters)"
        assert len(out) <= len(repr(head)) + 30


# -- 6. interrupted seeded runs -----------------------------------------------------------------

def test_interrupted_seeded_runs_terminate_their_workers(monkeypatch):
    """The pool was left by ``with``, which waits for the running seeded runs (minutes)
    after Ctrl-C; now the workers are terminated first and the interrupt goes on."""
    import pokerdyn.solvers.symbolic.learned.propose as propose

    events = []

    class Pool:
        def __init__(self, workers, mp_context=None, initializer=None):
            events.append(("start", initializer))

        def map(self, fn, tasks):
            raise KeyboardInterrupt

        def shutdown(self, wait=True, cancel_futures=False):
            events.append(("shutdown", cancel_futures))

    monkeypatch.setattr(propose, "ProcessPoolExecutor", Pool)
    monkeypatch.setattr(propose, "terminate_workers", lambda pool: events.append("terminate"))
    cg = compile_game(get_game("kuhn"))
    with pytest.raises(KeyboardInterrupt):
        propose.learned_profiles(cg, seeds=2, workers=2)
    from pokerdyn.solvers.symbolic.axis.forked_map import _default_signals
    assert events == [("start", _default_signals), "terminate", ("shutdown", True)]


# -- 7. qre-fit counts --------------------------------------------------------------------------

@pytest.mark.parametrize("content, words", [
    (b"", "is empty; allowed: a JSON file"),
    (b'{"P1:K|kb": ', "is not valid JSON"),
    (b"\xff\xfe{}", "is not UTF-8 text"),
])
def test_qre_fit_counts_read_like_every_json_input(tmp_path, monkeypatch, content, words):
    """read_counts had its own reader (a non-UTF-8 file was a UnicodeDecodeError); now
    common.read_json_file's messages, naming the file, and before the game is built."""
    import pokerdyn.api.qre as fit

    def never(*a, **k):
        raise AssertionError("the game was built before the counts file was read")

    monkeypatch.setattr(fit, "_game_and_values", never)
    path = tmp_path / "counts.json"
    path.write_bytes(content)
    run_bad(["qre-fit", "kuhn", "--counts", str(path)], (f"counts='{path}' {words}",),
            tmp_path)


# -- 8. work ceilings ---------------------------------------------------------------------------

class Reached(Exception):
    """Raised by a stand-in solver: the command got past its checks."""


def _reach(*a, **k):
    raise Reached


def test_estimate_is_iterations_times_nodes_times_the_measured_cost():
    assert estimated_seconds("cfr+", 1000, 2000) == pytest.approx(1000 * 2000 * 6e-8)
    assert estimated_seconds("lp", 10**15, 2000) == 0.0
    assert estimated_seconds("fp", 10**400, 10**9) == 1e300
    # every method the shared loop runs has its measured cost (issue 37 added the CFR variants)
    from pokerdyn.solvers.methods import ITERATIVE_METHODS
    assert set(SECONDS_PER_NODE) == set(ITERATIVE_METHODS) >= {"fp", "hedge", "cfr+", "cfr"}
    args = types.SimpleNamespace(force=False)
    limit = MAX_WORK_HOURS * 3600
    n = int(limit / (1000 * 6e-8))  # iterations of 24 hours on 1000 nodes
    assert check_solver_work(args, ["cfr+"], n, 1000) == pytest.approx(limit)
    with pytest.raises(GameError, match="allowed: at most 24 hours"):
        check_solver_work(args, ["cfr+"], 2 * n, 1000)
    assert check_solver_work(types.SimpleNamespace(force=True), ["cfr+"], 2 * n, 1000) > limit
    # a time budget caps each method; runs multiply
    assert check_solver_work(args, ["fp", "hedge"], 10**15, 1000, seconds=30) == 60
    assert check_solver_work(args, ["fp"], 10, 1000, runs=4) == pytest.approx(4 * 10 * 1000 * 6e-8)


@pytest.mark.parametrize("method", ["fp", "hedge", "cfr+", "cfr"])
def test_solve_refuses_centuries_before_solving(tmp_path, monkeypatch, method):
    """`pokerdyn solve leduc --iterations 1e15` started a run of centuries; now one line
    with the estimate and the limit, before the solver is called; --force runs it."""
    import pokerdyn.commands.numeric.solve as solve

    monkeypatch.setitem(solve.METHODS, method, _reach)
    argv = ["solve", "leduc", "--method", method, "--iterations", "1e15"]
    run_bad(argv, ("iterations=1,000,000,000,000,000",), tmp_path)
    with pytest.raises(Reached):
        main([*argv, "--force"])
    with pytest.raises(Reached):
        main(["solve", "leduc", "--method", method, "--iterations", "100000"])


def test_compare_counts_its_time_budget(tmp_path, monkeypatch):
    """compare runs each method for --seconds at most: the default 30 s with a huge
    --iterations is fine; --seconds 1e9 with it is refused before any method runs."""
    import pokerdyn.solvers.methods.compare
    from pokerdyn import solvers
    monkeypatch.setattr(solvers.methods.compare, "compare", _reach)
    run_bad(["compare", "kuhn", "--iterations", "1e15", "--seconds", "1e9"],
            ("iterations=1,000,000,000,000,000",), tmp_path)
    with pytest.raises(Reached):
        main(["compare", "kuhn", "--iterations", "1e15"])
    with pytest.raises(Reached):
        main(["compare", "kuhn", "--iterations", "1e15", "--seconds", "1e9", "--force"])


@pytest.fixture
def kuhn3_collusion(monkeypatch):
    """A 3-player game with the collusion options (as tests/test_collusion.py's)."""
    from pokerdyn.games.collusion import share_winnings

    k3 = get_game("kuhn3")

    def make(collusion="none", colluders=(2, 3)):
        return k3 if collusion == "none" else share_winnings(k3, colluders)
    monkeypatch.setitem(GAMES, "kuhn3-l1", make)
    monkeypatch.setitem(GAME_OPTIONS, "kuhn3-l1", ("collusion", "colluders"))


def test_collusion_refuses_before_the_first_solve(tmp_path, monkeypatch, kuhn3_collusion):
    import pokerdyn.solvers.learning.cfr_plus
    from pokerdyn import solvers
    monkeypatch.setattr(solvers.learning.cfr_plus, "cfr", _reach)
    argv = ["collusion", "kuhn3-l1", "--kind", "weak", "--iterations", "1e15"]
    run_bad(argv, ("iterations=1,000,000,000,000,000",), tmp_path)
    with pytest.raises(Reached):
        main([*argv, "--force"])


def test_equilibria_workers_at_most_four_per_cpu(tmp_path, monkeypatch):
    """--workers allowed 256 processes on any machine; now 4 per CPU."""
    import os

    monkeypatch.setattr(os, "cpu_count", lambda: 3)
    run_bad(["equilibria", "kuhn3", "--workers", "13"], ("workers=13",), tmp_path)
    assert build_parser().parse_args(["equilibria", "kuhn3", "--workers", "12"]).workers == 12
    with pytest.raises(SystemExit):
        build_parser().parse_args(["equilibria", "kuhn3", "--workers", "13"])
