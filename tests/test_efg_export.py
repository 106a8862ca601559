"""Exact Gambit export (games.io.efg.to_efg_exact, `pokerdyn export`): the file read back has
every terminal's chance probability and payoffs exactly as in the game, and its expected
payoffs under a rational profile equal symbolic_payoffs exactly."""
import random

import pytest
import sympy as sp

from pokerdyn.games import GameError, get_game
from pokerdyn.games.io.efg import read_efg, to_efg_exact
from pokerdyn.games.strategy import param_symbols
from pokerdyn.cli import main
from pokerdyn.solvers import symbolic_payoffs

CASES = [("skp", {"P": 9}), ("kuhn3-third", {"P": "15/2"}), ("kuhn", {})]


def _game_terminals(game, subs):
    """(path labels, chance probability, payoffs) of every terminal, exact, from the tree."""
    out = {}
    for t, node in enumerate(game.terminal_node):
        path, chance, n = [], sp.Integer(1), int(node)
        while game.parent[n] >= 0:
            par = int(game.parent[n])
            path.append(game.edge_label[n])
            if game.kind[par] == 1:  # chance
                chance *= sp.sympify(game.edge_prob[n])
            n = par
        pays = tuple(sp.sympify(u).subs(subs) for u in game.payoffs[t])
        out[tuple(reversed(path))] = (chance, pays)
    return out


@pytest.mark.parametrize("name,values", CASES)
def test_every_terminal_reads_back_exactly(name, values, tmp_path):
    game = get_game(name)
    f = tmp_path / f"{name}.efg"
    argv = ["export", name, "--format", "efg", str(f)]
    argv += ["--pot", str(values["P"])] if values else []
    assert main(argv) == 0
    tree = read_efg(f.read_text())
    assert tree.players == tuple(f"Player {p + 1}" for p in range(game.n_players))
    subs = {s: sp.Rational(str(values[s.name])) for s in game.params}
    expected = _game_terminals(game, subs)
    got = {t.path: (t.chance, t.payoffs) for t in tree.terminals}
    assert got == expected  # every path, probability and payoff, exactly
    assert all(isinstance(x, sp.Rational) for t in tree.terminals for x in t.payoffs)


@pytest.mark.parametrize("name,values", CASES)
def test_read_back_expected_payoffs_equal_symbolic_payoffs(name, values):
    """Under a random rational behaviour profile the read-back file's expectation equals
    symbolic_payoffs(game) at the same profile, exactly (Billingham (30)-(32) for the
    third-street games are verified against symbolic_payoffs in the core tests)."""
    game = get_game(name)
    tree = read_efg(to_efg_exact(game, values))
    rng = random.Random(7)
    at = {p.name: sp.Rational(rng.randint(0, 12), 12) for p in game.named}
    behaviour = {}
    for p in game.named:
        acts = game.infosets[game.infoset_index(p.infoset)].actions
        other = next(a for a in acts if a != p.action)
        behaviour[p.infoset] = {p.action: at[p.name], other: 1 - at[p.name]}
    syms = param_symbols(game)
    expected = [e.subs({syms[k]: v for k, v in at.items()})
                for e in symbolic_payoffs(game, values)]
    assert list(tree.expected_payoffs(behaviour)) == expected
    assert sum(expected) == 0


def test_pygambit_reads_the_same_game(tmp_path):
    """With pygambit installed, Gambit parses the file and sees the same 24 chance
    probabilities (exact 1/24) and the same outcome payoffs; without it the read-back path
    is asserted instead."""
    game = get_game("skp")
    text = to_efg_exact(game, {"P": 9})
    f = tmp_path / "skp.efg"
    f.write_text(text)
    tree = read_efg(text)
    try:
        import pygambit as gbt
    except ImportError:
        assert len(tree.terminals) == len(game.terminal_node)
        assert all(t.chance == sp.Rational(1, 24) for t in tree.terminals)
        return
    g = gbt.read_efg(str(f))
    assert [str(p.label) for p in g.players] == list(tree.players)
    assert [sp.Rational(str(a.prob)) for a in g.root.infoset.actions] == [sp.Rational(1, 24)] * 24
    pays = sorted(tuple(sp.Rational(str(o[p])) for p in g.players) for o in g.outcomes)
    assert pays == sorted(t.payoffs for t in tree.terminals)


def test_export_errors(capsys, tmp_path):
    f = str(tmp_path / "x.efg")
    assert main(["export", "skp", "--format", "efg", f]) == 2
    assert "symbolic pot P" in capsys.readouterr().err
    assert main(["export", "skp", "--pot", "9", "--format", "gbt", f]) == 2
    assert "format='gbt'" in capsys.readouterr().err
    assert main(["export", "skp", "--pot", "-1", "--format", "efg", f]) == 2
    assert "outside the allowed range" in capsys.readouterr().err
    with pytest.raises(GameError, match="needs a value for parameter 'P'"):
        to_efg_exact(get_game("skp"))
    with pytest.raises(GameError, match="EFG 2 R"):
        read_efg("NFG 1 R")
