"""Issue 33, area B: Gambit files (.efg, .nfg) and the core's integer widths.

Every malformed, truncated, deep, wide, huge-valued or many-player file is either read or
refused with one line naming the file, the line and what is allowed (tests/hostile.py's
rule); the readers raise GameError only; deep trees are read without recursion; payoffs stay
within games.compiled.MAX_ABS_PAYOFF so that the float solvers never see inf or NaN.
"""
from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerdyn.games import GameBuilder, GameError, compile_game, get_game
from pokerdyn.games.arrays import game_from_arrays, game_to_arrays
from pokerdyn.games.compiled import MAX_ABS_PAYOFF
from pokerdyn.games.io import efg as efg_module
from pokerdyn.games.io.efg import game_from_efg, parse_number, read_efg, to_efg_exact
from pokerdyn.games.io.nfg import read_nfg
from pokerdyn.games.tree import MAX_ACTIONS, MAX_PLAYERS
from hostile import assert_refused, chain_efg, run_bad, run_cli
from pokerdyn.cli import main
from pokerdyn.solvers import solve_lp

KUHN_EFG = to_efg_exact(get_game("kuhn"))
KUHN_VALUE = -1 / 18  # Kuhn (1950): player 1's value

# a 3 x 2 game, outcome version (Gambit's file-format documentation), and the same game in
# the payoff version
SMALL_NFG = """NFG 1 R "small" { "Row" "Column" }

{ { "T" "M" "B" }
{ "L" "R" }
}
""

{
{ "" 1, -1 }
{ "" -1/2, 1/2 }
{ "" 0, 0 }
}
1 2 3 3 2 1
"""
SMALL_NFG_PAYOFFS = 'NFG 1 R "small" { "Row" "Column" } { 3 2 }\n""\n' \
                    "1 -1 -1/2 1/2 0 0 0 0 -1/2 1/2 1 -1\n"


def _refused(tmp_path: Path, text: str, line: int, argv=("games",), suffix=".efg") -> None:
    """``pokerdyn <argv> FILE`` refuses ``text`` with one line naming the file and ``line``."""
    path = tmp_path / f"in{suffix}"
    path.write_text(text)
    run = tmp_path / "run"
    run.mkdir(exist_ok=True)
    run_bad([*argv, str(path)], (f"'{path}', line {line}:",), run)


def _wide_efg(n_actions: int) -> str:
    acts = " ".join(f'"a{i}"' for i in range(n_actions))
    lines = ['EFG 2 R "wide" { "A" "B" }', '""', f'p "" 1 1 "s" {{ {acts} }} 0']
    lines += [f't "" {i + 1} "" {{ {i % 3}, {-(i % 3)} }}' for i in range(n_actions)]
    return "\n".join(lines) + "\n"


def _players_efg(n: int) -> str:
    names = " ".join(f'"P{i}"' for i in range(n))
    zeros = ", ".join("0" for _ in range(n))
    return (f'EFG 2 R "many" {{ {names} }}\n""\np "" 1 1 "s" {{ "a" "b" }} 0\n'
            f't "" 1 "" {{ {zeros} }}\nt "" 2 "" {{ {zeros} }}\n')


def _with_payoff(text: str, value: str) -> str:
    """Kuhn with player 1's payoff at the first terminal (line 6) replaced by ``value``."""
    assert 't "" 1 "" { -1, 1 }' in text.splitlines()[5]
    return text.replace('t "" 1 "" { -1, 1 }', f't "" 1 "" {{ {value}, 1 }}', 1)


# -- 1. truncated header ---------------------------------------------------------------------

@pytest.mark.parametrize("cut", range(len(KUHN_EFG.splitlines()[0]) + 1))
def test_every_truncation_of_the_header_is_one_line_naming_line_1(tmp_path, cut):
    """Was an IndexError for ``EFG 2 R "kuhn" { "Player 1"`` (the player list unclosed)."""
    _refused(tmp_path, KUHN_EFG.splitlines()[0][:cut], 1)


@pytest.mark.parametrize("text, line, words", [
    ('EFG 2 R "t" { "a"', 1, "the list of player names must end with '}'"),
    ('EFG 2 R "t" { "a" "b" } ""\np "" 1 1 "x" { "l"', 2, "the actions must end with '}'"),
    ('EFG 2 R "t" { "a" }\n""\np "" 1 1 "s" { "l" } 0\n', 3, "a node ('c', 'p' or 't') must"),
], ids=["players", "actions", "node"])
def test_truncated_files_say_what_must_follow(text, line, words):
    with pytest.raises(GameError) as exc:
        game_from_efg(text)
    assert str(exc.value).startswith(f"efg: line {line}: unexpected end of file: ")
    assert words in str(exc.value)


# -- 2. deep trees -----------------------------------------------------------------------------

def test_a_tree_of_3000_levels_is_read_and_solved_without_recursion(tmp_path):
    """Was a RecursionError in the parser.  The chain's value for player 1 is 1 (take at
    once); the LP finds it on the tree read back."""
    depth = 3000
    g = game_from_efg(chain_efg(depth), "deep")
    assert g.n_nodes == 2 * depth + 1 and g.n_infosets == depth
    levels, node = 0, g.n_nodes - 1  # the last terminal lies below every decision
    while node > 0:
        node, levels = int(g.parent[node]), levels + 1
    assert levels == depth
    assert solve_lp(compile_game(g)).value == pytest.approx(1.0, abs=1e-9)
    tree = read_efg(chain_efg(1500))  # the terminals' paths: quadratic in the depth
    assert len(tree.terminals) == 1501 and len(tree.terminals[-1].path) == 1500
    path = tmp_path / "deep.efg"
    path.write_text(chain_efg(depth))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["games", str(path), "--json"]) == 0
    assert json.loads(out.getvalue())["nodes"] == 2 * depth + 1


# -- 3. integer widths -------------------------------------------------------------------------

def test_an_information_set_of_32768_actions_is_refused_with_the_limit(tmp_path):
    """Was an OverflowError (edge indices are int16)."""
    _refused(tmp_path, _wide_efg(MAX_ACTIONS + 1), 3)
    with pytest.raises(GameError, match=r"32768 actions .*allowed: at most 32767"):
        GameBuilder("wide", 2).decision(0, "P1:|", [str(i) for i in range(MAX_ACTIONS + 1)])


def test_32767_actions_are_the_widest_set_and_compile():
    b = GameBuilder("wide", 2)
    acts = [f"a{i}" for i in range(MAX_ACTIONS)]
    d = b.decision(0, "P1:|", acts)
    for i, a in enumerate(acts):
        b.terminal((i % 3, -(i % 3)), parent=d, via=a)
    cg = compile_game(b.build())
    assert cg.max_actions == MAX_ACTIONS == 32767 and int(cg.n_actions[0]) == 32767
    assert int(cg.edge.max()) == 32766  # no wrap-around


def test_a_chance_node_of_32768_outcomes_is_refused():
    b = GameBuilder("wide", 1)
    r = b.chance()
    for i in range(MAX_ACTIONS):
        b.terminal((0,), parent=r, via=str(i), prob=0)
    with pytest.raises(GameError, match=r"chance node 0 has 32768 .*at most 32767"):
        b.terminal((0,), parent=r, via="last", prob=1)


def test_200_players_are_refused_and_127_read(tmp_path):
    """Was an OverflowError (players are int8)."""
    _refused(tmp_path, _players_efg(200), 1)
    with pytest.raises(GameError, match=r"n_players=200 is outside the allowed range \[1, 127\]"):
        GameBuilder("many", 200)
    g = game_from_efg(_players_efg(MAX_PLAYERS))
    cg = compile_game(g)
    assert cg.n_players == 127 and cg.payoffs.shape == (2, 127)


def test_arrays_out_of_their_width_are_refused_not_wrapped():
    """game_from_arrays casts to int16/int8; an edge of 40000 used to become -25536."""
    a = dict(game_to_arrays(get_game("kuhn")))
    edge = np.asarray(a["edge"], dtype=np.int64).copy()
    edge[5] = 40_000
    with pytest.raises(GameError, match=r"edge holds 40000, outside the allowed range "
                                        r"\[-32768, 32767\]"):
        game_from_arrays(**{**a, "edge": edge})
    with pytest.raises(GameError, match=r"n_players=200 is outside the allowed range"):
        game_from_arrays(**{**a, "n_players": 200})
    ok = game_from_arrays(**{**a, "edge": np.asarray(a["edge"], dtype=np.int64)})
    assert ok.edge.dtype == np.int16 and np.array_equal(ok.edge, a["edge"])


# -- 4. payoff magnitudes ----------------------------------------------------------------------

@pytest.mark.parametrize("value", ["1e308", "1e400", "-1e999999999", "1.0000001e150",
                                   "-" + "9" * 200, "1e99999999999999999999"])
@pytest.mark.parametrize("method", ["lp", "fp"])
def test_huge_payoffs_are_refused_with_the_allowed_range(tmp_path, value, method):
    """1e308 gave inf/NaN in the LP, 1e400 NashConv NaN with exit 0, -1e999999999 hung."""
    _refused(tmp_path, _with_payoff(KUHN_EFG, value), 6,
             argv=("solve", "--method", method, "--iterations", "5"))


def test_a_huge_exponent_is_refused_before_any_exact_arithmetic(monkeypatch):
    """The exponent is checked on the text: sympy never sees 1e999999999 (it would build a
    billion-digit integer)."""
    def boom(*args, **kw):
        raise AssertionError(f"exact arithmetic on {args}")

    monkeypatch.setattr(efg_module.sp, "Rational", boom)
    monkeypatch.setattr(efg_module.sp, "Integer", boom)
    for text in ("-1e999999999", "1e-999999999", "1" * 2000, "2.5e1001"):
        with pytest.raises(GameError, match="allowed"):
            parse_number.__wrapped__(text)


def test_payoffs_at_the_bound_are_read_exactly_and_compiled():
    text = KUHN_EFG.replace("{ -1, 1 }", "{ -1e150, 1e150 }", 1)
    g = game_from_efg(text)
    assert g.payoffs[0] == (-sp.Integer(10) ** 150, sp.Integer(10) ** 150)
    assert compile_game(g).payoffs[0, 1] == MAX_ABS_PAYOFF


@pytest.mark.parametrize("bad", [1e200, float("inf"), float("nan"), sp.Integer(10) ** 400])
def test_compile_game_refuses_payoffs_beyond_the_bound(bad):
    """The backstop for games from any source (a builder, a factory's parameters)."""
    b = GameBuilder("g", 2)
    d = b.decision(0, "P1:|", ("a", "b"))
    b.terminal((bad, 0), parent=d, via="a")
    b.terminal((0, 0), parent=d, via="b")
    with pytest.raises(GameError, match=r"payoff .* of player 1 at terminal 0 .*outside the "
                                        r"allowed range \[-1e\+150, 1e\+150\]"):
        compile_game(b.build())


@pytest.mark.parametrize("scale", ["e100", "e-100"])
def test_lp_solves_kuhn_at_any_allowed_payoff_scale(scale):
    """HiGHS refused 1e149-sized entries (model error) and, its tolerances being absolute,
    returned a wrong value at 1e-100; the LP now solves an exactly rescaled matrix."""
    text = re.sub(r"\{ (-?\d+), (-?\d+) \}", lambda m: f"{{ {m[1]}{scale}, {m[2]}{scale} }}",
                  KUHN_EFG)
    factor = float("1" + scale)
    res = solve_lp(compile_game(game_from_efg(text)))
    assert res.value / factor == pytest.approx(KUHN_VALUE, abs=1e-9)
    from pokerdyn.solvers import nash_conv
    assert nash_conv(compile_game(get_game("kuhn")), res.strategies) < 1e-9


# -- 5. .nfg outcome numbers -------------------------------------------------------------------

@pytest.mark.parametrize("number", ["-1", "4", "99", "1.5", "x"])
def test_nfg_outcome_numbers_outside_the_outcomes_are_refused(number):
    """-1 used to pick the last outcome (a Python negative index)."""
    text = SMALL_NFG.replace("1 2 3 3 2 1", f"1 2 {number} 3 2 1")
    with pytest.raises(GameError) as exc:
        read_nfg(text)
    assert str(exc.value) == (f"nfg: line 13: outcome {number} is outside the allowed range: "
                              "integers in [0, 3]")


def test_nfg_versions_read_the_same_game_and_outcome_0_pays_0():
    g, h = read_nfg(SMALL_NFG), read_nfg(SMALL_NFG_PAYOFFS)
    assert g.strategies == (("T", "M", "B"), ("L", "R")) and h.strategies == (("1", "2", "3"),
                                                                               ("1", "2"))
    assert (g.payoffs == h.payoffs).all()
    assert tuple(g.payoffs[1, 0]) == (-sp.Rational(1, 2), sp.Rational(1, 2))
    z = read_nfg(SMALL_NFG.replace("1 2 3 3 2 1", "0 2 3 3 2 1"))
    assert tuple(z.payoffs[0, 0]) == (0, 0)


@pytest.mark.parametrize("text, line, words", [
    (SMALL_NFG.replace("1 2 3 3 2 1", "1 2 3 3 2"), 13, "6 profiles but 5 outcome numbers"),
    (SMALL_NFG + "1\n", 14, "'1' found after the last profile"),
    (SMALL_NFG.replace('{ "" 0, 0 }', '{ "" 0, 0, 0 }'), 11, "an outcome has 3 payoffs"),
    (SMALL_NFG.replace('{ "" 0, 0 }', '{ "" 0, 1e151 }'), 11, "payoff '1e151' is outside"),
    (SMALL_NFG_PAYOFFS.replace("{ 3 2 }", "{ 3 2 2 }"), 1, "3 strategy lists for 2 players"),
    (SMALL_NFG_PAYOFFS.replace("{ 3 2 }", "{ 100000 100000 }"), 3, "10000000000 profiles"),
    (SMALL_NFG_PAYOFFS.replace("{ 3 2 }", "{ 0 2 }"), 1, "strategy count 0 is outside"),
    ("NFG 1 R", 1, "unexpected end of file: the title"),
    ('NFG 1 R "x" { ' + '"p" ' * 64 + "}", 1, "the file lists 64 players; allowed: 1 to 63"),
], ids=lambda x: x[:30] if isinstance(x, str) and len(x) < 60 else None)
def test_nfg_errors_name_the_line(text, line, words):
    with pytest.raises(GameError) as exc:
        read_nfg(text)
    assert str(exc.value).startswith(f"nfg: line {line}: ") and words in str(exc.value)


# -- 6. audit: other malformed files -----------------------------------------------------------

_K = KUHN_EFG


@pytest.mark.parametrize("text, line, words", [
    (_K.replace('t "" 2 "" { -1, 1 }', 't "" -1 "" { -1, 1 }'), 8, "outcome -1 is outside"),
    (_K.replace('t "" 2 "" { -1, 1 }', 't "" 99 ""'), 8, "outcome 99 is used before"),
    (_K.replace('t "" 2 "" { -1, 1 }', 't "" 1 "" { -1, 2 }'), 8, "an outcome's payoffs must"),
    (_K.replace('p "" 1 1 "P1:J|"', 'p "" 0 1 "P1:J|"', 1), 4, "player 0 is outside"),
    (_K.replace('p "" 1 1 "P1:J|"', 'p "" 1 0 "P1:J|"', 1), 4, "information set 0 is outside"),
    (_K.replace('"JQ" 1/6', '"JQ" 7/6'), 3, "chance probability 7/6"),
    (_K.replace('"JQ" 1/6', '"JQ" 1/7'), 3, "sum to 41/42; they must sum to 1"),
    (_K.replace('"JQ" 1/6', '"JQ" 1/0'), 3, "not a number (denominator 0)"),
    (_K.replace('"KQ" 1/6 } 0', '"KQ" 1/6 } 0 "" { 1, 1 }'), 3, "outcome 0 means no outcome"),
    (_K.replace('t "" 3 ""', 'x "" 3 ""'), 9, "unknown node type 'x'"),
    (_K.replace('{ "k" "b" }', '{ }', 1), 4, "has no actions; allowed: one or more"),
    (_K.replace('p "" 1 1 "P1:J|" { "k" "b" } 0', 'p "" 1 9 "P1:J|" 0', 1), 4,
     "information set 9 of player 1 has no actions"),
    (_K.replace('p "" 1 4 "P1:Q|kb"', 'p "" 1 2 "P1:J|kb"'), 25,
     "imperfect recall at information set 2 of player 1"),
    (_K.replace('{ -1, 1 }', '{ -1, 1, 3 }', 1), 6, "outcome 1 has 3 payoffs"),
    (_K.replace('{ -1, 1 }', '{ { -1, 1 } }', 1), 6, "'{' is not a number"),
    (_K + 't "" 1 ""\n', 58, "found after the tree"),
    (_K.replace('{ "Player 1" "Player 2" }', "{ }"), 1, "lists 0 players; allowed: 1 to 127"),
    (_K.replace('"JQ" 1/6', '"JQ 1/6'), 57, "unbalanced '\"'"),
], ids=lambda x: x[:30] if isinstance(x, str) and len(x) < 60 else None)
def test_malformed_efg_names_the_line_and_what_is_allowed(tmp_path, text, line, words):
    with pytest.raises(GameError) as exc:
        game_from_efg(text)
    msg = str(exc.value)
    assert msg.startswith(f"efg: line {line}: ") and words in msg
    _refused(tmp_path, text, line)


def test_repeated_set_names_stay_distinct_sets():
    """Two sets of one player with the same name were merged into one information set."""
    text = ('EFG 2 R "t" { "A" "B" }\n""\nc "" 1 "" { "h" 1/2 "t" 1/2 } 0\n'
            'p "" 1 1 "s" { "l" "r" } 0\nt "" 1 "" { 1, -1 }\nt "" 2 "" { -1, 1 }\n'
            'p "" 1 2 "s" { "l" "r" } 0\nt "" 3 "" { -1, 1 }\nt "" 4 "" { 1, -1 }\n')
    g = game_from_efg(text)
    assert [I.label for I in g.infosets] == ["P1:s|", "P1:s|#2"]


# -- 7. fuzzing --------------------------------------------------------------------------------

_TOKEN_SPAN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}]|[^\s{},"]+')
_HOSTILE = ["1e400", "-1e999999999", "1e308", "9" * 40, "1/0", "0", "-1", "-7", "32768",
            "200", "nan", "inf", '"', "{", "}", '"x"', "p", "t", "c", "0.5", "1/3", "{ {",
            "{" * 300, "}" * 50]


@st.composite
def _mutated(draw, text: str) -> str:
    """``text`` after one to three mutations: truncation, token deletion, duplication,
    replacement and insertion (hostile tokens: huge numbers, negative and zero indices,
    unbalanced quotes and braces, deep nesting)."""
    for _ in range(draw(st.integers(1, 3))):
        spans = [m.span() for m in _TOKEN_SPAN.finditer(text)] or [(0, 0)]
        a, b = spans[draw(st.integers(0, len(spans) - 1))]
        op = draw(st.sampled_from(["truncate", "delete", "duplicate", "replace", "insert"]))
        if op == "truncate":
            text = text[:draw(st.integers(0, len(text)))]
        elif op == "delete":
            text = text[:a] + text[b:]
        elif op == "duplicate":
            text = text[:b] + " " + text[a:b] + text[b:]
        else:
            new = draw(st.sampled_from(_HOSTILE))
            text = text[:a] + new + (text[b:] if op == "replace" else " " + text[a:])
    return text


def _read_or_refuse(argv: list[str], path: Path, run: Path) -> None:
    """The CLI reads the file (exit 0, nothing written) or refuses it by the hostile-input
    rule (the message naming the file)."""
    r = run_cli(argv, run)
    if r.code == 0:
        assert r.err == "" and r.written == [], (argv, r.err, r.written)
        return
    assert_refused(r, argv, (f"'{path}'",))


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory):
    """A folder for the fuzzed files; meanwhile the CLI's argument parser is built once
    (building it, 20 subcommands, costs more than reading a fuzzed file)."""
    import functools

    import pokerdyn.cli

    d = tmp_path_factory.mktemp("fuzz")
    (d / "run").mkdir()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pokerdyn.cli, "build_parser",
                   functools.lru_cache(maxsize=1)(pokerdyn.cli.build_parser))
        yield d


@settings(max_examples=200, deadline=None, derandomize=True)
@given(text=_mutated(KUHN_EFG))
def test_fuzzed_efg_is_read_or_refused_in_one_line(fuzz_dir, text):
    path = fuzz_dir / "fuzz.efg"
    path.write_text(text)
    _read_or_refuse(["games", str(path)], path, fuzz_dir / "run")


@settings(max_examples=200, deadline=None, derandomize=True)
@given(text=_mutated(KUHN_EFG))
def test_fuzzed_efg_readers_raise_game_error_only(text):
    for read in (lambda: compile_game(game_from_efg(text)), lambda: read_efg(text)):
        try:
            read()
        except GameError as exc:
            msg = str(exc)
            assert msg.startswith("efg: line ") and "\n" not in msg.strip(), msg


@settings(max_examples=200, deadline=None, derandomize=True)
@given(text=st.one_of(_mutated(SMALL_NFG), _mutated(SMALL_NFG_PAYOFFS)))
def test_fuzzed_nfg_reader_raises_game_error_only(text):
    try:
        g = read_nfg(text)
    except GameError as exc:
        msg = str(exc)
        assert msg.startswith("nfg: line ") and "\n" not in msg.strip(), msg
        return
    n = len(g.players)
    assert g.payoffs.shape == tuple(len(s) for s in g.strategies) + (n,)
    assert all(abs(x) <= sp.Integer(10) ** 150 for x in g.payoffs.flat)
