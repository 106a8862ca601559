"""Gambit .nfg export of the reduced normal form (games.io.nfg, `pokerdyn export`): the file
reads back exactly (our reader, and pygambit where installed), and Gambit's own LP on it
gives Kuhn's value -1/18."""
import numpy as np
import pytest
import sympy as sp

from pokerdyn.games import GameError, compile_game, get_game
from pokerdyn.games.io.nfg import read_nfg, to_nfg
from pokerdyn.games.normal_form import normal_form
from pokerdyn.cli import main


@pytest.mark.parametrize("name,pot", [("kuhn", None), ("kuhn3-third", "15/2"),
                                      ("river(street=half)", None)])
def test_nfg_reads_back_exactly(name, pot, tmp_path):
    f = tmp_path / "game.nfg"      # the format follows from the suffix
    assert main(["export", name, str(f)] + (["--pot", pot] if pot else [])) == 0
    back = read_nfg(f.read_text())
    values = {"P": sp.Rational(pot)} if pot else {}
    nf = normal_form(compile_game(get_game(name), values), exact=True, exact_params=values)
    assert back.payoffs.shape == nf.exact_payoffs.shape
    assert (back.payoffs == nf.exact_payoffs).all()
    assert back.strategies[0] == tuple(nf.plan_labels(0))
    assert len(back.players) == get_game(name).n_players


def test_float_text_and_payoff_version():
    nf = normal_form(compile_game(get_game("kuhn")))
    back = read_nfg(to_nfg(nf))          # decimals: -1/6 written as repr(float)
    assert np.allclose(back.payoffs.astype(float), nf.payoffs, atol=1e-15)
    # Gambit's payoff version: player 1's strategy changes fastest
    pv = read_nfg('NFG 1 R "x" { "a" "b" } { 2 2 }\n\n1 -1 2 -2 3 -3 1/2 -1/2\n')
    assert pv.payoffs[1, 0, 0] == 2 and pv.payoffs[0, 1, 0] == 3
    assert pv.payoffs[1, 1, 1] == sp.Rational(-1, 2)
    with pytest.raises(GameError, match="NFG 1 R"):
        read_nfg('EFG 2 R "x" { "a" }')


def test_export_format_errors(tmp_path, capsys):
    assert main(["export", "kuhn", str(tmp_path / "k.txt")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "k.txt" in err[0] and "efg, nfg" in err[0]
    assert main(["export", "kuhn3", str(tmp_path / "k3.nfg")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "reduced plan profiles, more than the" in err[0]
    assert main(["export", "kuhn", "--format", "nfg", "-"]) == 0
    assert capsys.readouterr().out.startswith('NFG 1 R "kuhn"')


def test_pygambit_reads_our_nfg(tmp_path):
    gbt = pytest.importorskip("pygambit")
    f = tmp_path / "kuhn.nfg"
    assert main(["export", "kuhn", str(f)]) == 0
    g = gbt.read_nfg(str(f))
    nf = normal_form(compile_game(get_game("kuhn")), exact=True)
    arrays = g.to_arrays()
    for p in range(2):
        assert arrays[p].shape == nf.shape
        assert all(sp.Rational(str(a)) == b for a, b in
                   zip(arrays[p].flat, nf.exact_payoffs[..., p].flat))
    assert [s.label for s in list(g.players)[0].strategies] == nf.plan_labels(0)
    eq = gbt.nash.lp_solve(g, rational=True).equilibria[0]
    assert sp.Rational(str(eq.payoff(list(g.players)[0]))) == sp.Rational(-1, 18)  # Kuhn 1950
