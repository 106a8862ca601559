"""Gambit's .efg and .nfg grammar as Gambit 16 reads it (src/games/file.cc, ``ReadEfgFile`` and
``ReadNfgFile``; issue 34): repeated information sets with name and actions left out,
outcomes defined once and used again by number, outcomes on any node summed along the path,
decimals read as the rationals they denote, both .nfg bodies; imperfect recall refused in one
line.  Every game is compared with pygambit 16.7 reading the same text (games.io.gambit_compare:
players, information sets per player, the information-set partition, the exact chance reach
and payoffs of every terminal), over hand-made files, pygambit's own catalog
(``pygambit/catalog_data``) and small generated files; read, write, read gives the same game."""
from __future__ import annotations

import zlib
from pathlib import Path

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerdyn.games import GameError, compile_game
from pokerdyn.games.io.efg import game_from_efg, normalize_labels, read_efg, to_efg_exact
from pokerdyn.games.io.nfg import read_nfg, write_nfg
from pokerdyn.games.io.gambit_compare import (disagreements, gambit_read, gambit_summary,
                                              nfg_disagreements, our_summary)
from hostile import run_bad
from pokerdyn.solvers import solve_lp

gbt = pytest.importorskip("pygambit")
CATALOG = Path(gbt.__file__).parent / "catalog_data"


def _agrees(text: str):
    """The game of ``text``, after checking that it is pygambit's game and survives a round
    trip through to_efg_exact (same tree, partition, payoffs and labels)."""
    g = game_from_efg(text)
    assert disagreements(our_summary(g), gambit_summary(text)) == []
    h = game_from_efg(to_efg_exact(g))
    assert disagreements(our_summary(h), our_summary(g)) == []
    assert [I.label for I in h.infosets] == [I.label for I in g.infosets]
    return g


# -- hand-made files: each rule of the grammar ----------------------------------------------

# Myerson's card game written as older Gambit versions save it: the second node of each set
# gives neither the set's name nor its actions ("p "" 2 1 0"), and outcome 2 is used again by
# number.  The same game with every list written out is FULL.
SHORT = '''EFG 2 R "A simple Poker game" { "Fred" "Alice" }
""
c "" 1 "" { "Red" 1/2 "Black" 1/2 } 0
p "" 1 1 "" { "Raise" "Fold" } 0
p "" 2 1 "" { "Meet" "Pass" } 0
t "" 1 "Win Big" { 2, -2 }
t "" 2 "Win" { 1, -1 }
t "" 2
p "" 1 2 "" { "Raise" "Fold" } 0
p "" 2 1 0
t "" 3 "Lose Big" { -2, 2 }
t "" 2
t "" 4 "Lose" { -1, 1 }
'''
FULL = SHORT.replace('p "" 2 1 0', 'p "" 2 1 "" { "Meet" "Pass" } 0').replace(
    't "" 2\n', 't "" 2 "Win" { 1, -1 }\n')


def test_repeated_sets_without_name_and_actions_and_outcomes_by_number():
    """Myerson (1991), Fig. 2.1 (pygambit's catalog, books/myerson1991/fig2_1.efg): Fred's
    value is 1/3 (raise on red; on black raise with probability 1/3; Alice meets with 2/3),
    as Gambit's exact LCP gives on the same text."""
    g, f = _agrees(SHORT), game_from_efg(FULL)
    assert our_summary(g) == our_summary(f)
    assert [I.label for I in g.infosets] == ["P1:1|", "P2:1|", "P1:2|"]
    assert g.payoffs[1] == (1, -1) and g.payoffs[2] == (1, -1)  # outcome 2, twice
    assert solve_lp(compile_game(g)).value == pytest.approx(1 / 3, abs=1e-9)
    game = gambit_read(SHORT)
    eq = gbt.nash.lcp_solve(game, rational=True).equilibria[0]
    assert eq.payoff(list(game.players)[0]) == sp.Rational(1, 3)


def test_chance_set_used_again_by_number():
    text = ('EFG 2 R "c" { "A" }\n""\nc "" 1 "" { "x" 1/3 "y" 2/3 } 0\n'
            'c "" 1 0\nt "" 1 "a" { 1 }\nt "" 0\nc "" 1 0\nt "" 0\nt "" 1\n')
    g = _agrees(text)
    reach = [r for r, _ in our_summary(g)["terminals"]]
    assert reach == [sp.Rational(1, 9), sp.Rational(2, 9), sp.Rational(2, 9), sp.Rational(4, 9)]


# Outcomes on a chance node (outcome 1: 1, 1) and on decision nodes (outcome 2: -3, 3 on
# player 1's node; outcome 3 on player 2's), added to the terminals' own outcomes as Gambit
# does (pygambit's terminal payoff is the sum over the path).
NONTERMINAL = '''EFG 2 R "outcomes inside" { "A" "B" }
""
c "" 1 "" { "h" 1/2 "t" 1/2 } 1 "ante" { 1, 1 }
p "" 1 1 "s" { "l" "r" } 2 "fee" { -3, 3 }
t "" 4 "x" { 5, -5 }
p "" 2 1 "u" { "a" "b" } 3 "" { 1/2, -1/2 }
t "" 0
t "" 4
p "" 1 2 "s" { "l" "r" } 0
t "" 0
t "" 2
'''


def test_payoffs_on_any_node_are_summed_along_the_path():
    g = _agrees(NONTERMINAL)
    R = sp.Rational
    assert [tuple(p) for p in g.payoffs] == [
        (1 - 3 + 5, 1 + 3 - 5),                      # ante, fee, x
        (1 - 3 + R(1, 2), 1 + 3 - R(1, 2)),          # ante, fee, outcome 3
        (1 - 3 + R(1, 2) + 5, 1 + 3 - R(1, 2) - 5),  # ante, fee, outcome 3, x
        (1, 1),                                      # ante only
        (1 - 3, 1 + 3)]                              # ante, outcome 2 at a terminal
    tree = read_efg(NONTERMINAL)
    assert [t.payoffs for t in tree.terminals] == [tuple(p) for p in g.payoffs]
    # two sets named "s" (player 1, sets 1 and 2) stay two sets
    assert [I.label for I in g.infosets] == ["P1:s|", "P2:u|", "P1:s|#2"]


def test_decimals_are_the_rationals_they_denote():
    """0.1 is 1/10 exactly (a float would be 3602879701896397/36028797018963968), in chance
    probabilities and in payoffs; D files (Gambit's floating-point flag) too."""
    text = ('EFG 2 D "dec" { "A" "B" }\n""\nc "" 1 "" { "a" 0.1 "b" .9 } 0\n'
            'p "" 1 1 "" { "x" "y" } 0\nt "" 1 "" { 0.1, -1e-1 }\nt "" 2 "" { 2.5e1, -25 }\n'
            'p "" 1 2 "" { "x" } 0\nt "" 3 "" { -0.30, 3/10 }\n')
    g = _agrees(text)
    R = sp.Rational
    assert g.edge_prob[1] == R(1, 10) and g.edge_prob[-2] == R(9, 10)
    assert [tuple(p) for p in g.payoffs] == [(R(1, 10), R(-1, 10)), (25, -25),
                                            (R(-3, 10), R(3, 10))]
    assert all(isinstance(x, sp.Rational) for p in g.payoffs for x in p)
    # forms Gambit's lexer takes but pygambit 16.7's number conversion refuses: read too
    h = game_from_efg(text.replace("2.5e1, -25", "2.5E+1, -25").replace("3/10 }", "+3/10 }"))
    assert h.payoffs == g.payoffs


def test_labels_are_made_unique_as_gambit_does():
    """file.cc, NormalizeLabels: an empty or repeated action label becomes label_1, label_2
    (skipping names already taken); a quote inside a name is written \\"."""
    assert normalize_labels(["a", "a", ""]) == ("a_1", "a_2", "_1")
    assert normalize_labels(["x", "x", "x_1"]) == ("x_2", "x_3", "x_1")
    text = ('EFG 2 R "say \\"hi\\"" { "A" "B" }\n""\n'
            'p "" 1 1 "" { "a" "a" "" } 0\nt "" 1 "" { 1, -1 }\nt "" 0\n'
            'p "" 2 1 "" { "c" } 0\nt "" 1\n')
    g = _agrees(text)
    assert g.infosets[0].actions == ("a_1", "a_2", "_1")
    actions = [a.label for a in gambit_read(text).root.infoset.actions]
    assert list(g.infosets[0].actions) == actions
    assert read_efg(text).title == 'say "hi"'


# An unnamed set 1 and a set named "1" (player 1 at both coin faces): keyed by label they were
# one set, and player 1 could not tell the faces apart (value 0); they are two sets, so player
# 1 plays l at heads and r at tails and wins 1.
TWO_SETS = '''EFG 2 R "one label, two sets" { "A" "B" }
""
c "" 1 "" { "h" 1/2 "t" 1/2 } 0
p "" 1 1 "" { "l" "r" } 0
t "" 1 "" { 1, -1 }
t "" 2 "" { -1, 1 }
p "" 1 2 "1" { "l" "r" } 0
t "" 2
t "" 1
'''


def test_sets_are_identified_by_player_and_number_value_1():
    g = _agrees(TWO_SETS)
    assert [I.label for I in g.infosets] == ["P1:1|", "P1:1|#2"]
    assert solve_lp(compile_game(g)).value == pytest.approx(1.0, abs=1e-12)
    # Gambit's LCP on the same text: player 1 gets 1
    game = gambit_read(TWO_SETS)
    eq = gbt.nash.lcp_solve(game, rational=True).equilibria[0]
    assert eq.payoff(list(game.players)[0]) == 1


IMPERFECT = '''EFG 2 R "forgetful" { "A" "B" }
""
p "" 1 1 "first" { "l" "r" } 0
p "" 1 2 "then" { "x" "y" } 0
t "" 1 "" { 1, -1 }
t "" 2 "" { 0, 0 }
p "" 1 2 0
t "" 2
t "" 1
'''


def test_imperfect_recall_is_refused_in_one_line(tmp_path):
    """Set 2 of player 1 is reached after l and after r: player 1 forgets her first move
    (pygambit: not perfect recall).  The library names the set by player and number; the
    CLI prints one line, exit 2, writes nothing."""
    assert not gambit_read(IMPERFECT).is_perfect_recall
    with pytest.raises(GameError) as exc:
        game_from_efg(IMPERFECT)
    msg = str(exc.value)
    assert msg.startswith("efg: line 7: imperfect recall at information set 2 of player 1 ")
    assert "lines 4 and 7" in msg and "\n" not in msg
    f = tmp_path / "forgetful.efg"
    f.write_text(IMPERFECT)
    run_bad(["solve", str(f)], ("imperfect recall at information set 2 of player 1",),
            tmp_path)


@pytest.mark.parametrize("text, words", [
    (SHORT.replace('p "" 2 1 0', 'p "" 2 9 0'), "information set 9 of player 2 has no actions"),
    (SHORT.replace('t "" 2\n', 't "" 7\n', 1), "outcome 7 is used before its payoffs"),
    (SHORT.replace('t "" 4 "Lose" { -1, 1 }', 't "" 0 "Lose" { -1, 1 }'),
     "outcome 0 means no outcome"),
    (SHORT.replace('p "" 2 1 0', 'p "" 2 1 "" { "Meet" } 0'), "listed with other actions"),
    (SHORT.replace('EFG 2 R', 'EFG 3 R'), "must start with 'EFG 2 R' or 'EFG 2 D'"),
])
def test_what_gambit_refuses_is_refused_in_one_line(text, words):
    with pytest.raises(GameError) as exc:
        game_from_efg(text)
    assert words in str(exc.value) and "\n" not in str(exc.value)


# -- .nfg: both bodies, either strategy header -------------------------------------------------

NFG_OUTCOMES = '''NFG 1 R "x" { "A" "B" } { { "T" "B" } { "L" "R" } }
""
{ { "" 1, -1 } { "w" 0.5 -1/2 } }
1 2 0 1
'''


@pytest.mark.parametrize("text", [
    NFG_OUTCOMES,
    NFG_OUTCOMES.replace('{ { "T" "B" } { "L" "R" } }', '{ 2 2 }'),   # counts, outcome list
    'NFG 1 D "x" { "A" "B" } { { "T" "B" } { "L" "R" } }\n1 -1 0.5 -0.5 0 0 1 -1\n',
    'NFG 1 R "x" { "A" "B" } { 2 2 } "a comment"\n1 -1 1/2 -1/2 0 0 1 -1\n',
])
def test_nfg_bodies_read_the_same_game_as_gambit(text):
    g = read_nfg(text)
    assert nfg_disagreements(g, text) == []
    R = sp.Rational
    assert [tuple(g.payoffs[i, j]) for j in range(2) for i in range(2)] == [
        (1, -1), (R(1, 2), R(-1, 2)), (0, 0), (1, -1)]   # player 1's strategy fastest
    h = read_nfg(write_nfg(g))
    assert (h.payoffs == g.payoffs).all() and h.strategies == g.strategies


# -- pygambit's catalog: every file, compared with pygambit, and round trips -------------------

def _catalog(suffix: str) -> list[str]:
    return sorted(str(p.relative_to(CATALOG)) for p in CATALOG.rglob(f"*{suffix}"))


@pytest.mark.parametrize("name", _catalog(".efg"))
def test_catalog_efg_agrees_with_pygambit(name):
    """Each of pygambit's catalog games is pygambit's game (players, sets per player,
    partition, exact terminal reach and payoffs) and survives read, write, read; the games
    without perfect recall (pygambit says so) are refused, naming imperfect recall."""
    text = (CATALOG / name).read_text(encoding="utf-8")
    if not gambit_read(text).is_perfect_recall:
        with pytest.raises(GameError, match="imperfect recall at information set"):
            game_from_efg(text)
        return
    _agrees(text)


@pytest.mark.parametrize("name", _catalog(".nfg"))
def test_catalog_nfg_agrees_with_pygambit(name):
    text = (CATALOG / name).read_text(encoding="utf-8")
    g = read_nfg(text)
    assert nfg_disagreements(g, text) == []
    h = read_nfg(write_nfg(g))
    assert (h.payoffs == g.payoffs).all() and h.strategies == g.strategies


def test_catalog_has_the_files_the_issue_counts():
    """Issue 34: pygambit's wheel ships 38 catalog games (32 .efg, 6 .nfg); at least the 10
    textbook files the old reader refused are read."""
    assert (len(_catalog(".efg")), len(_catalog(".nfg"))) == (32, 6)


# -- generated files: the whole grammar at random ----------------------------------------------

_PAYOFFS = ["0", "1", "-1", "1/3", "0.1", "2.5", "-7/2", "1e-2", "-0.30"]
_CHANCE = {1: [["1"]], 2: [["1/2", "0.5"], ["0.1", "9/10"]],
           3: [["1/3", "1/3", "1/3"], ["0.2", "0.3", "1/2"]]}


@st.composite
def efg_texts(draw) -> str:
    """A small .efg text with perfect recall: each decision node's set is keyed by its
    player, that player's own past (set, action) pairs and a random coarsening of the
    history; repeated sets omit name and actions at random, outcomes sit on any node and are
    used again by number, set names clash ("", "1", "s"), numbers are decimals or
    fractions."""
    n = draw(st.integers(1, 3))
    depth = draw(st.integers(2, 3))
    modulus = draw(st.sampled_from([1, 1, 1, 2]))  # 1: a player sees only her own moves
    sets: dict = {}
    chance_sets: dict = {}
    count = [0] * (n + 1)
    outcomes: dict[int, str] = {}
    lines = [f'EFG 2 R "g" {{ {" ".join(f"{chr(34)}P{i}{chr(34)}" for i in range(n))} }}',
             '""']

    def outcome(inner: bool) -> str:
        k = draw(st.integers(0, 3 if inner else 2))
        if k == 0 or (inner and k < 3):
            return "0"
        if k == 1 and outcomes:
            return str(draw(st.sampled_from(sorted(outcomes))))
        no = len(outcomes) + 1
        outcomes[no] = ", ".join(draw(st.sampled_from(_PAYOFFS)) for _ in range(n))
        return f'{no} "o{no}" {{ {outcomes[no]} }}'

    def node(history: tuple, own: tuple) -> None:
        root = not history
        kind = "t" if len(history) >= depth else draw(st.sampled_from("ccp" if root else "tcppp"))
        if kind == "t":
            lines.append(f't "" {outcome(False)}')
            return
        if kind == "c":
            k = draw(st.integers(1, 3))
            reuse = [c for c, (kk, _) in chance_sets.items() if kk == k]
            if reuse and draw(st.booleans()):
                no = draw(st.sampled_from(reuse))
                lines.append(f'c "" {no} {outcome(True)}')
            else:
                no = len(chance_sets) + 1
                probs = draw(st.sampled_from(_CHANCE[k]))
                chance_sets[no] = (k, probs)
                listed = " ".join(f'"e{i}" {p}' for i, p in enumerate(probs))
                lines.append(f'c "" {no} "" {{ {listed} }} {outcome(True)}')
            labels = [f"e{i}" for i in range(k)]
        else:
            p = draw(st.sampled_from([1, 1] + list(range(2, n + 1))))
            key = (p, own[p], zlib.crc32(repr(history).encode()) % modulus)
            if key in sets and draw(st.booleans()):
                no, labels, _ = sets[key]
                lines.append(f'p "" {p} {no} {outcome(True)}')
            else:
                if key not in sets:
                    count[p] += 1
                    sets[key] = (count[p], [f"a{i}" for i in range(draw(st.integers(1, 3)))],
                                 draw(st.sampled_from(["", "1", "s", f"n{count[p]}"])))
                no, labels, name = sets[key]
                acts = " ".join(f'"{a}"' for a in labels)
                lines.append(f'p "" {p} {no} "{name}" {{ {acts} }} {outcome(True)}')
        for i, a in enumerate(labels):
            past = own if kind == "c" else own[:p] + (own[p] + ((no, i),),) + own[p + 1:]
            node(history + ((kind, no, i),), past)

    node((), ((),) * (n + 1))
    return "\n".join(lines) + "\n"


@settings(max_examples=40, deadline=None)
@given(efg_texts())
def test_generated_files_are_gambits_games_and_round_trip(text):
    g = _agrees(text)
    back = read_efg(to_efg_exact(g))
    assert [t.payoffs for t in back.terminals] == [tuple(p) for p in g.payoffs]
