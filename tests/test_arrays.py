"""Games built from flat arrays (games.arrays, games.catalog.synthetic): same compiled game as the
builder, vectorised validation with the builder's messages, and a 10^5-node game."""
from __future__ import annotations

import numpy as np
import pytest
from conftest import profiles
from hypothesis import given, settings

from pokerdyn.games import GameError, compile_game, get_game, uniform_strategy
from pokerdyn.games.arrays import game_from_arrays, game_to_arrays
from pokerdyn.games.catalog.synthetic import layered_game, layered_size
from pokerdyn.solvers import best_response, expected_payoffs, fictitious_play, nash_conv


def test_round_trip_of_kuhn3_gives_the_same_compiled_game():
    g = get_game("kuhn3")
    h = game_from_arrays(**game_to_arrays(g))
    a, b = compile_game(g), compile_game(h)
    for f in ("kind", "player", "parent", "edge", "infoset", "chance_prob", "terminal_index",
              "payoffs", "infoset_player", "n_actions", "legal"):
        assert np.array_equal(getattr(a, f), getattr(b, f)), f
    assert h.named_names == g.named_names
    assert h.history(600) == g.history(600) == ("AKQ", "b", "c", "c")
    lazy = game_from_arrays(**{**game_to_arrays(g), "edge_label": None})
    assert lazy.history(600) == ("23", "b", "c", "c")  # outcome index, action names
    assert nash_conv(b, uniform_strategy(b)) == pytest.approx(2.0625, abs=1e-12)


def test_compiled_arrays_are_read_only_and_of_one_numba_type():
    """Builder and array games compile to read-only arrays, also after dataclasses.replace,
    so each numba kernel compiles one signature for both (a writable and a read-only
    chance_prob were two compilations of every kernel)."""
    import dataclasses

    from numba import typeof

    g = get_game("kuhn3")
    a, b = compile_game(g), compile_game(game_from_arrays(**game_to_arrays(g)))
    fields = ("kind", "player", "parent", "edge", "infoset", "chance_prob", "terminal_index",
              "payoffs", "infoset_player", "n_actions", "legal")
    for f in fields:
        assert not getattr(a, f).flags.writeable and not getattr(b, f).flags.writeable, f
        assert typeof(getattr(a, f)) == typeof(getattr(b, f)), f
    mine = a.payoffs * 2.0
    c = dataclasses.replace(a, payoffs=mine, cache={})
    assert not c.payoffs.flags.writeable and mine.flags.writeable  # a view; the caller's
    # array stays writable
    assert np.array_equal(c.payoffs, mine) and typeof(c.payoffs) == typeof(a.payoffs)
    with pytest.raises(ValueError):
        a.chance_prob[0] = 0.5


def _coin():
    return game_to_arrays(get_game("kuhn"))


@pytest.mark.parametrize("change, message", [
    (lambda d: d["chance_prob"].__setitem__(1, 0.5), r"chance probabilities at node 0 sum to"),
    (lambda d: d["chance_prob"].__setitem__(1, 1.5),
     r"chance probability 1.5 of outcome 0 at node 0 is outside \[0, 1\]"),
    (lambda d: d["player"].__setitem__(1, 1), r"information set 'P1:J\|' has nodes of players 1 "
                                              r"and 2"),
    (lambda d: d["parent"].__setitem__(5, 7), r"node 5 has parent 7: the root comes first"),
    (lambda d: d["edge"].__setitem__(4, 0), r"node 2 has two children on edge 0"),
    (lambda d: d["payoffs"].__setitem__((0, 0), np.nan), r"has a payoff that is not finite"),
])
def test_invalid_arrays_raise_game_error(change, message):
    d = {k: (np.array(v) if isinstance(v, np.ndarray) else v) for k, v in _coin().items()}
    change(d)
    with pytest.raises(GameError, match=message):
        game_from_arrays(**d)


def test_wrong_payoff_shape_and_missing_child():
    d = _coin()
    with pytest.raises(GameError, match=r"payoffs have shape \(30, 3\), expected"):
        game_from_arrays(**{**d, "payoffs": np.zeros((30, 3))})
    keep = np.arange(d["kind"].shape[0]) != 2  # drop a terminal child of the first decision
    with pytest.raises(GameError):
        game_from_arrays(**{**d, **{k: d[k][keep] for k in ("kind", "parent", "edge", "player",
                                                             "infoset", "chance_prob")}})


def test_perfect_recall_violation_in_arrays():
    """Player 1 decides twice; both second-decision nodes share a set though they follow
    different first actions of hers."""
    from pokerdyn.games import Infoset
    infosets = (Infoset("P1:|", 0, ("x", "y")), Infoset("P1:|?", 0, ("u", "v")))
    kind = [2, 2, 2, 0, 0, 0, 0]
    parent = [-1, 0, 0, 1, 1, 2, 2]
    edge = [0, 0, 1, 0, 1, 0, 1]
    player = [0, 0, 0, -1, -1, -1, -1]
    infoset = [0, 1, 1, -1, -1, -1, -1]
    pay = np.array([[1.0, -1.0]] * 4)
    with pytest.raises(GameError, match=r"perfect recall fails at information set 'P1:\|\?': "
                                        r"nodes 1 and 2"):
        game_from_arrays("forgetful", 2, kind, parent, edge, player, infoset, infosets,
                         np.ones(7), pay)
    ok = game_from_arrays("fine", 2, kind, parent, edge, player, [0, 1, 2, -1, -1, -1, -1],
                          infosets + (Infoset("P1:|!", 0, ("u", "v")),), np.ones(7), pay)
    assert ok.n_infosets == 3


def test_layered_game_of_1e5_nodes():
    g = layered_game(3, n_players=3, n_actions=2, n_outcomes=5, seed=1)
    assert g.n_nodes == layered_size(3, 3, 2, 5) and g.n_nodes > 10**5
    cg = compile_game(g)
    assert cg.nbytes() / cg.n_nodes < 48  # 24 bytes per node + 8 per payoff entry
    assert np.shares_memory(cg.chance_prob, g.edge_prob)  # no copy at compile time
    sigma = uniform_strategy(cg)
    ev = expected_payoffs(cg, sigma)
    assert abs(ev.sum()) < 1e-12
    for p in range(3):
        assert best_response(cg, sigma, p).value >= ev[p] - 1e-12
    res = fictitious_play(cg, iterations=50)
    assert res.history[-1, 1] < res.history[0, 1]


def test_layered_game_is_reproducible_from_seed():
    a, b, c = (layered_game(2, seed=s) for s in (5, 5, 6))
    assert np.array_equal(a.payoffs, b.payoffs) and np.array_equal(a.edge_prob, b.edge_prob)
    assert not np.array_equal(a.payoffs, c.payoffs)


_SMALL = compile_game(layered_game(2, n_players=2, n_actions=3, n_outcomes=2, seed=3))


@settings(max_examples=25)
@given(sigma=profiles(_SMALL))
def test_best_response_on_layered_game(sigma):
    ev = expected_payoffs(_SMALL, sigma)
    for p in range(2):
        br = best_response(_SMALL, sigma, p)
        assert br.value >= ev[p] - 1e-12
        assert expected_payoffs(_SMALL, br.apply(sigma))[p] == pytest.approx(br.value, abs=1e-12)


_ONE_SIGNATURE = r"""
import numpy as np
from pokerdyn import solvers
from pokerdyn.games import compile_game
from pokerdyn.games.catalog.registry import make_game
from pokerdyn.solvers import _kernels as K
from pokerdyn.solvers.continuation.system import indifference_system
from pokerdyn.solvers.learning.hedge import hedge

cg = compile_game(make_game("kuhn3"))
sigma = np.full((cg.n_infosets, 2), 0.5)
solvers.expected_payoffs(cg, sigma)
solvers.regrets(cg, sigma)
hedge(cg, iterations=3)
S = indifference_system(make_game("kuhn3"))
x = np.full(S.n, 0.5)
S.gains(x, 3.0)
S.jacobian(x, 3.0)
print({f.__name__: len(f.signatures) for f in (K.back_up, K.sequence_pass, K.reach_probs)})
"""


def test_shared_kernels_compile_one_signature(tmp_path):
    """The kernels that several solvers call compile once per process, not once per way of
    calling them: a literal flag (back_up's True/False, reach_probs' -1) or a writable
    payoff array (the continuation's payoffs at a pot) was a second compilation each.  In a
    process of its own with an empty numba cache (a caller loaded from the cache compiles
    none of its callees)."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", _ONE_SIGNATURE], capture_output=True,
                         text=True, check=True, env=env).stdout
    assert out.strip().splitlines()[-1] == \
        "{'back_up': 1, 'sequence_pass': 1, 'reach_probs': 1}"
