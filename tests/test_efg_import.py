"""Games read from Gambit .efg files (`games.io.efg.game_from_efg`, `pokerdyn ... FILE.efg`):
the same tree as the game written out, and one-line errors for missing or malformed files."""
import contextlib
import io

import pytest
import sympy as sp

from pokerdyn.games import compile_game, get_game, uniform_strategy
from pokerdyn.games.io.efg import game_from_efg, to_efg_exact
from pokerdyn.cli import main
from pokerdyn.solvers import nash_conv, solve_lp
from pokerdyn.solvers.symbolic.model.payoffs import symbolic_payoffs
from pokerdyn.solvers.symbolic.axis.piecewise import solutions_at


@pytest.mark.parametrize("name", ["kuhn", "kuhn3"])
def test_read_back_game_has_the_same_tree(name):
    g = get_game(name)
    h = game_from_efg(to_efg_exact(g), name)
    assert (h.n_nodes, len(h.infosets), h.n_players) == (g.n_nodes, len(g.infosets), g.n_players)
    assert [I.label for I in h.infosets] == [I.label for I in g.infosets]
    # NashConv of the uniform profile: 11/12 (Kuhn) and 2.0625 (3-player Kuhn), as OpenSpiel
    cg, ch = compile_game(g), compile_game(h)
    assert nash_conv(ch, uniform_strategy(ch)) == pytest.approx(nash_conv(cg, uniform_strategy(cg)),
                                                              abs=1e-12)


def test_read_back_kuhn_has_value_minus_one_eighteenth():
    """Kuhn (1950): player 1's value is -1/18."""
    h = game_from_efg(to_efg_exact(get_game("kuhn")), "kuhn")
    assert solve_lp(compile_game(h)).value == pytest.approx(-1 / 18, abs=1e-9)


def test_read_back_kuhn3_third_has_the_same_exact_payoffs_and_equilibria():
    """Billingham (5)-(6) at P = 9 survive the trip through a file: the payoff polynomials
    are equal term by term and the reduced equilibrium families have the same payoffs."""
    g = get_game("kuhn3-third")
    h = game_from_efg(to_efg_exact(g, {"P": 9}), "k3")
    by_set = {(n.infoset, n.action): n.name for n in h.named}
    renamed = {}
    for n in g.named:  # kuhn3-third names the action whose probability it is; the file, its first
        mine = by_set.get((n.infoset, n.action))
        if mine is not None:
            renamed[sp.Symbol(n.name, real=True)] = sp.Symbol(mine, real=True)
        else:
            other = next(v for (s, _), v in by_set.items() if s == n.infoset)
            renamed[sp.Symbol(n.name, real=True)] = 1 - sp.Symbol(other, real=True)
    assert len(renamed) == len(g.named) == len(h.named)
    assert [sp.expand(e.xreplace(renamed)) for e in symbolic_payoffs(g, {"P": 9})] == \
        [sp.expand(e) for e in symbolic_payoffs(h)]
    from pokerdyn.solvers.symbolic.axis.piecewise import equilibrium_pieces

    def end_payoffs(sols):  # payoffs at both ends of every one-parameter family
        out = set()
        for s in sols:
            for name, low, high, _, _ in s.intervals:
                x = sp.Symbol(name, real=True)
                out |= {tuple(e.xreplace({x: v}) for e in s.payoffs) for v in (low, high)}
        return out

    got = [s for pc in equilibrium_pieces(h) for s in pc.solutions]
    want = solutions_at(g, 9)
    assert len(got) == len(want) == 2
    assert end_payoffs(got) == end_payoffs(want)


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("content, needle", [
    (None, "No such file"),
    ("", "EFG 2 R"),
    ("hello", "EFG 2 R"),
    ('EFG 2 R "x" { "a" "b" }\np "" 1 1 "s" { "l" "r" } 0\nt "" 1 "o" { 1 -1 }\n', "end of file"),
    ('EFG 2 R "x" { "a" }\np "" 3 1 "s" { "l" } 0\nt "" 1 "o" { 1 }\n', "player 3"),
])
def test_missing_or_malformed_efg_is_one_line_exit_2(tmp_path, content, needle):
    path = tmp_path / "game.efg"
    if content is not None:
        path.write_text(content)
    for argv in (["solve", str(path)], ["payoffs", str(path)], ["equilibria", str(path)]):
        code, out, err = _run(argv)
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, (argv, err)
        assert str(path) in err and needle in err and "Traceback" not in err
