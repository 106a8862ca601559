"""The exact enumeration over behaviour supports for information sets of any number of
actions (issue 34; solvers.symbolic.casesearch.behaviour_supports and solvers.symbolic.axis.support_families,
Gambit's ``enumpoly`` approach: McKelvey and McLennan 1996, sec. 6)."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import sympy as sp

from pokerdyn.games import GameBuilder, GameError
from pokerdyn.games.io.efg import game_from_efg
from pokerdyn.games.strategy import symbolic_strategy, param_symbols
from pokerdyn.solvers.symbolic.casesearch.behaviour_supports import action_values, many_actions, support_leaves
from pokerdyn.solvers.symbolic.model.nash_conv import nash_conv_with, payoffs_at
from pokerdyn.solvers.symbolic.axis.piecewise import _key, solutions_at
from pokerdyn.solvers.symbolic.axis.support_families import solutions

from hostile import run_bad, run_cli


def _simultaneous_efg(name: str, rows: list[str], cols: list[str], pay) -> str:
    """A one-shot two-player game as a Gambit file: player 2 moves without seeing player 1."""
    lines = [f'EFG 2 R "{name}" {{ "1" "2" }}', '""',
             f'p "" 1 1 "" {{ {" ".join(f"{chr(34)}{r}{chr(34)}" for r in rows)} }} 0']
    out = 0
    for r in rows:
        lines.append(f'p "" 2 1 "" {{ {" ".join(f"{chr(34)}{c}{chr(34)}" for c in cols)} }} 0')
        for c in cols:
            out += 1
            u1, u2 = pay(r, c)
            lines.append(f't "" {out} "" {{ {u1}, {u2} }}')
    return "\n".join(lines) + "\n"


BEATS = {("R", "S"), ("P", "R"), ("S", "P")}
RPS = _simultaneous_efg("rps", ["R", "P", "S"], ["R", "P", "S"],
                        lambda r, c: (0, 0) if r == c else (1, -1) if (r, c) in BEATS else (-1, 1))
# matching pennies with player 1's tails duplicated (T and U play alike)
PENNIES = _simultaneous_efg("pennies3", ["H", "T", "U"], ["h", "t"],
                            lambda r, c: (1, -1) if (r == "H") == (c == "h") else (-1, 1))


def _rows(game, strategy) -> list[list[sp.Expr]]:
    """Per information set, each action's probability under named-parameter values."""
    syms = param_symbols(game)
    sub = {syms[k]: v for k, v in strategy}
    return [[sp.expand(sp.sympify(e).xreplace(sub)) for e in row]
            for row in symbolic_strategy(game)]


def _probabilities(game, sol, point=None) -> list[list[sp.Expr]]:
    """Per information set, each action's probability in a family (at ``point`` of its
    free parameters)."""
    rows = _rows(game, sol.strategy)
    if point:
        rows = [[e.xreplace(point) for e in row] for row in rows]
    return rows


def test_rock_paper_scissors_unique_uniform():
    """Rock-paper-scissors has the unique equilibrium (1/3, 1/3, 1/3) for both players,
    value 0 (von Neumann and Morgenstern 1944; any textbook)."""
    game = game_from_efg(RPS, "rps")
    assert many_actions(game)
    sols = solutions(game)
    assert len(sols) == 1 and sols[0].free == ()
    third = sp.Rational(1, 3)
    assert _probabilities(game, sols[0]) == [[third] * 3, [third] * 3]
    assert sols[0].payoffs == (0, 0)


def test_rock_paper_scissors_cli_json(tmp_path):
    path = tmp_path / "rps.efg"
    path.write_text(RPS)
    run = run_cli(["equilibria", str(path), "--json"], tmp_path)
    assert run.code in (0, None), run.err
    rec = json.loads(run.out)
    assert len(rec["families"]) == 1
    assert set(rec["families"][0]["strategy"].values()) == {"1/3"}
    assert rec["families"][0]["payoffs"] == ["0", "0"]


def test_duplicated_strategy_gives_a_segment():
    """Matching pennies with player 1's tails played by two actions T and U: player 2 mixes
    1/2 and player 1 plays H with 1/2 and splits the other 1/2 in any way over T and U
    (derived by hand), so the equilibria are one segment with one free parameter in
    [0, 1/2], payoffs (0, 0)."""
    game = game_from_efg(PENNIES, "pennies3")
    sols = solutions(game)
    assert len(sols) == 1
    sol = sols[0]
    assert len(sol.free) == 1 and sol.payoffs == (0, 0)
    (name, low, high, low_open, high_open), = sol.intervals
    assert (low, high, low_open, high_open) == (0, sp.Rational(1, 2), False, False)
    half = sp.Rational(1, 2)
    x = sp.Symbol(name, real=True)
    pays = payoffs_at(game, None)
    for v in (0, sp.Rational(1, 5), half):
        probs = _probabilities(game, sol, {x: v})
        assert probs[1] == [half, half]
        assert probs[0][0] == half and probs[0][1] + probs[0][2] == half
        point = {k: sp.sympify(e).xreplace({x: v}) for k, e in sol.strategy}
        assert nash_conv_with(game, pays, point) == 0
    # the check can fail: player 1 uniform lets player 2 gain by playing t
    off = {k: (sp.Rational(1, 3) if k in ("x1_1_0_T", "x1_1_0_U") else half)
           for k, _ in sol.strategy}
    assert nash_conv_with(game, pays, off) > 0


def test_conditional_dominance_prunes_supports():
    """In rock-paper-scissors no action is dominated, so all 7 x 7 supports remain at the
    root; in the walk, every smaller support leaves some action of the other player a strict
    loser against what remains (R alone: only P replies, and then S beats R), so conditional
    dominance leaves the full support alone, the only one with an equilibrium."""
    game = game_from_efg(RPS, "rps")
    sup = support_leaves(game, action_values(game))
    assert sup.count == 49
    assert sup.leaves == (((0, 1, 2), (0, 1, 2)),)


def _two_action_games():
    yield "skp", 9
    yield "kuhn3-third", 4


@pytest.mark.parametrize("spec,pot", list(_two_action_games()))
def test_agrees_with_two_action_engine(spec, pot):
    """On two-action games the support enumeration finds the families of the case analysis
    (solvers.symbolic.casesearch.case_enumeration) exactly, at a fixed pot: SKP at P = 9 (three isolated
    equilibria, Billingham sec. 3) and one-third street Kuhn at P = 4 (a segment)."""
    from pokerdyn.games.catalog.registry import get_game
    game = get_game(spec)
    old = solutions_at(game, pot)
    new = solutions(game, {"P": sp.Integer(pot)})
    assert {_key(s) for s in new} == {_key(s) for s in old}
    assert sorted(s.payoffs for s in new) == sorted(s.payoffs for s in old)


def test_symbolic_pot_refused_in_one_line():
    b = GameBuilder("pot3", 2, params=(sp.Symbol("P", positive=True),))
    root = b.decision(0, "P1:x|", ["a", "b", "c"])
    for k, a in enumerate("abc"):
        n = b.decision(1, "P2:y|", ["l", "r"], parent=root, via=a)
        b.terminal([sp.Symbol("P", positive=True) * k, -k], parent=n, via="l")
        b.terminal([-k, k], parent=n, via="r")
    game = b.build()
    with pytest.raises(GameError, match="needs a value of P"):
        solutions(game)
    assert solutions(game, {"P": 2})  # at a pot it is enumerated


def _wide_efg(sets: int) -> str:
    """Chance picks one of ``sets`` nodes, each player 1's own set of 3 actions, all
    payoffs 0: nothing is dominated, so 7^sets supports remain."""
    probs = " ".join(f'"{k}" 1/{sets}' for k in range(sets))
    lines = ['EFG 2 R "wide" { "1" "2" }', '""', f'c "" 1 "" {{ {probs} }} 0']
    for k in range(sets):
        lines.append(f'p "" 1 {k + 1} "s{k}" {{ "a" "b" "c" }} 0')
        lines += [f't "" 1 "" {{ 0, 0 }}'] * 3
    return "\n".join(lines) + "\n"


def test_too_many_supports_refused_up_front(tmp_path):
    game = game_from_efg(_wide_efg(8), "wide")
    with pytest.raises(GameError,
                       match=r"7\^8 = 5.76e\+06 behaviour supports.*at most 1,000,000 are allowed"):
        support_leaves(game, action_values(game))
    path = tmp_path / "wide.efg"
    path.write_text(_wide_efg(8))
    run_bad(["equilibria", str(path)], ("7^8",), tmp_path)


def _terminal_probs(game, strat):
    from pokerdyn.games.tree import CHANCE
    syms = param_symbols(game)
    sub = {syms[k]: v for k, v in strat}
    rows = [[sp.sympify(e).xreplace(sub) for e in row] for row in symbolic_strategy(game)]
    reach = [sp.Integer(1)] * game.n_nodes
    for n in range(1, game.n_nodes):
        p = int(game.parent[n])
        w = sp.nsimplify(game.edge_prob[n]) if game.kind[p] == CHANCE else \
            rows[int(game.infoset[p])][int(game.edge[n])]
        reach[n] = reach[p] * w
    return [sp.expand(reach[t]) for t in sorted(int(t) for t in game.terminal_node)]


def _gambit_terminal_probs(g, beh):
    from fractions import Fraction
    out, stack = [], [(g.root, Fraction(1))]
    while stack:
        node, r = stack.pop()
        if node.is_terminal:
            out.append(sp.Rational(r.numerator, r.denominator))
            continue
        inf = node.infoset
        for child, act in reversed(list(zip(node.children, inf.actions))):
            pr = Fraction(str(act.prob if inf.is_chance else beh[act]))
            stack.append((child, r * pr))
    return out


@pytest.mark.parametrize("path", ["books/shohamleytonbrown2008/fig5_15.efg",
                                  "books/shohamleytonbrown2008/fig5_1.efg"])
def test_catalog_game_matches_enummixed(path):
    """Shoham and Leyton-Brown (2009) Figs. 5.1 and 5.15 from pygambit's catalog: every
    extreme equilibrium of pygambit's ``enummixed_solve(rational=True)``, as a behaviour
    profile, has exactly the terminal probabilities of a point of one of our families, and a
    point of each family is an equilibrium by pygambit's own regret check."""
    gbt = pytest.importorskip("pygambit")
    file = Path(os.path.dirname(gbt.__file__)) / "catalog_data" / path
    text = file.read_text()
    game = game_from_efg(text, file.stem)
    g = gbt.read_efg(str(file))
    sols = solutions(game)
    ours = [(_terminal_probs(game, s.strategy), [sp.Symbol(n, real=True) for n in s.free], s)
            for s in sols]
    res = gbt.nash.enummixed_solve(g, rational=True)
    assert res.equilibria
    for eq in res.equilibria:
        target = _gambit_terminal_probs(g, eq.as_behavior())
        found = False
        for probs, xs, sol in ours:
            eqs = [e for e in (sp.expand(a - b) for a, b in zip(probs, target)) if e != 0]
            for pt in (sp.solve(eqs, xs, dict=True) if eqs else [{}]):
                cons = [(sp.expand(e.xreplace(pt)), s) for e, s in sol.raw]
                if all(e.free_symbols or e > 0 or (e == 0 and not s) for e, s in cons):
                    found = True
        assert found, f"{path}: enummixed equilibrium {eq} not among ours"
    # pygambit's regret check of a point of each family
    dec = []
    stack = [g.root]
    while stack:
        node = stack.pop()
        if not node.is_terminal:
            if not node.infoset.is_chance:
                dec.append(node.infoset)
            stack.extend(reversed(list(node.children)))
    from pokerdyn.games.tree import DECISION
    nodes = [n for n in range(game.n_nodes) if game.kind[n] == DECISION]
    smap = {}
    for n, inf in zip(nodes, dec):
        smap.setdefault(int(game.infoset[n]), inf)
    for sol in sols:
        rows = _rows(game, sol.sample().items())
        prof = g.mixed_behavior_profile(rational=True)
        for i, inf in smap.items():
            for a, act in enumerate(inf.actions):
                prof[act] = gbt.Rational(int(rows[i][a].p), int(rows[i][a].q))
        assert prof.max_regret() == 0
