"""Leduc poker from the builder against OpenSpiel's ``leduc_poker``: the same value with merged
and distinct deals (LP: -0.0856064 for player 1), and, with pyspiel, the same histories,
chance probabilities, returns and information-set partition, one to one."""
from __future__ import annotations

import numpy as np
import pytest

from pokerdyn.games import GameError, compile_game
from pokerdyn.games.catalog.registry import make_game
from pokerdyn.games.tree import CHANCE, DECISION, TERMINAL
from pokerdyn.solvers import solve_lp

LEDUC_VALUE = -0.0856064  # OpenSpiel's leduc_poker game value for player 1


@pytest.mark.parametrize("merge", [True, False])
def test_leduc_lp_value(merge):
    g = make_game("leduc", merge=merge)
    assert solve_lp(compile_game(g)).value == pytest.approx(LEDUC_VALUE, abs=1e-6)
    assert np.abs(np.asarray(g.payoffs).sum(axis=1)).max() < 1e-12


def test_merged_leduc_is_smaller():
    a, b = make_game("leduc", merge=True), make_game("leduc", merge=False)
    assert (a.n_nodes, a.n_infosets) == (1939, 288)
    assert (b.n_nodes, b.n_infosets) == (9457, 936)
    assert a.infosets[a.infoset_index("P2:K|r")].actions == ("f", "c", "r")
    assert a.infosets[a.infoset_index("P1:K|c c/J:")].actions == ("c", "r")


def test_three_player_distinct_leduc_has_openspiel_sizes():
    """pyspiel 2.0.2, leduc_poker(players=3): 1,831,601 histories and 25,800 information
    states, counted by walking its tree (python -c ..., about 4 s; not repeated here)."""
    g = make_game("leduc", players=3, merge=False)
    assert (g.n_nodes, g.n_infosets) == (1_831_601, 25_800)


def test_bad_leduc_options():
    with pytest.raises(GameError, match="players=1"):
        make_game("leduc", players=1)
    with pytest.raises(GameError, match="merge='maybe'"):
        make_game("leduc", merge="maybe")


def _children(g):
    order = np.lexsort((np.asarray(g.edge), np.asarray(g.parent)))
    kids: dict[int, list[int]] = {}
    for i in order.tolist():
        p = int(g.parent[i])
        if p >= 0:
            kids.setdefault(p, []).append(i)
    return kids


def test_distinct_leduc_matches_openspiel_one_to_one():
    pyspiel = pytest.importorskip("pyspiel")
    g = make_game("leduc", merge=False)
    kids = _children(g)
    term = {int(t): i for i, t in enumerate(np.asarray(g.terminal_node))}
    ours_of: dict[str, int] = {}
    theirs_of: dict[int, str] = {}
    count = 0

    def walk(s, node):
        nonlocal count
        count += 1
        k = int(g.kind[node])
        if s.is_terminal():
            assert k == TERMINAL
            assert np.allclose(g.payoffs[term[node]], s.returns())
            return
        ch = kids[node]
        if s.is_chance_node():
            assert k == CHANCE
            out = s.chance_outcomes()
            assert len(out) == len(ch)
            for (a, p), c in zip(out, ch):
                assert g.edge_prob[c] == pytest.approx(p)
                walk(s.child(a), c)
            return
        assert k == DECISION and int(g.player[node]) == s.current_player()
        I = int(g.infoset[node])
        key = s.information_state_string()
        assert ours_of.setdefault(key, I) == I and theirs_of.setdefault(I, key) == key
        legal = s.legal_actions()
        assert [("f", "c", "r")[a] for a in legal] == list(g.infosets[I].actions)
        for a, c in zip(legal, ch):
            walk(s.child(a), c)

    walk(pyspiel.load_game("leduc_poker").new_initial_state(), 0)
    assert count == g.n_nodes == 9457
    assert len(ours_of) == g.n_infosets == 936
