"""Game spec strings (OpenSpiel's convention, games.catalog.spec) and the registry and CLI
that take them."""
import json
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerdyn.games import GameError, compile_game
from pokerdyn.games.catalog.registry import get_game, make_game
from pokerdyn.games.catalog.spec import format_spec, parse_spec
from pokerdyn.cli import main

_words = st.from_regex(r"[A-Za-z_][A-Za-z0-9_.\-]{0,8}", fullmatch=True).filter(
    lambda w: w not in ("true", "false"))
_scalars = st.one_of(
    st.integers(-10**12, 10**12), st.booleans(), _words,
    st.floats(allow_nan=False, allow_infinity=False),
    st.fractions().filter(lambda f: f.denominator != 1))
_values = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=4).map(tuple),
                       max_leaves=8)
_options = st.dictionaries(st.from_regex(r"[a-z_][a-z0-9_]{0,6}", fullmatch=True), _values,
                           max_size=5)


@settings(max_examples=200, deadline=None)
@given(name=st.from_regex(r"[a-z][a-z0-9_\-]{0,10}", fullmatch=True), opts=_options)
def test_format_then_parse_is_the_identity(name, opts):
    text = format_spec(name, opts)
    back_name, back = parse_spec(text)
    assert back_name == name and back == opts
    # types survive too (1 is not 1.0, true is not 1, 1/2 stays a Fraction)
    assert [type(v) for v in back.values()] == [type(opts[k]) for k in back]
    assert format_spec(back_name, back) == text  # canonical: one text per variant
    # whitespace and brackets are tolerated and give the same options
    spaced = text.replace(",", " , ").replace("=", " = ").replace("(", " ( ")
    assert parse_spec(spaced) == (name, opts)


def test_values_are_typed():
    name, opts = parse_spec("g( a=3, b=-0.5, c=1/2, d=true, e=half, f=(2,3), "
                            "g=[0.25,0.25,0.25,0.25], h=1e-3, i=[] )")
    assert name == "g" and opts == {"a": 3, "b": -0.5, "c": Fraction(1, 2), "d": True,
                                    "e": "half", "f": (2, 3), "g": (0.25,) * 4,
                                    "h": 0.001, "i": ()}
    assert isinstance(opts["c"], Fraction) and opts["d"] is True
    assert format_spec("g", {"z": False, "a": 1}) == "g(a=1,z=false)"
    assert parse_spec("kuhn3-third-full") == ("kuhn3-third-full", {})
    assert parse_spec("openspiel:leduc_poker(players=3)") == (
        "openspiel:leduc_poker(players=3)", {})


@pytest.mark.parametrize("text, fragment", [
    ("", "empty game name"),
    ("   ", "empty game name"),
    ("river(street)", "option 'street' has no '=value'"),
    ("river(street=half", "expected ',' or ')' closing the options"),
    ("river(street=half))", "unexpected text after the game spec (unbalanced"),
    ("river(dist1=(0.5,0.5)", "closing the options"),
    ("river(dist1=[0.5,0.5)", "expected ',' or ']' closing the list"),
    ("river(a=1,a=2)", "duplicate option 'a'"),
    ("river(=1)", "missing option name"),
    ("river(a=)", "missing value"),
    ("river(a=1/0)", "rational '1/0' has denominator 0"),
    ("river(a=#x)", "value '#x' is not a number"),
    ("(a=1)", "missing game name"),
])
def test_bad_specs_name_the_text_and_what_is_expected(text, fragment):
    with pytest.raises(GameError) as e:
        parse_spec(text)
    msg = str(e.value)
    assert fragment in msg and repr(text) in msg and "expected name or name(key=value" in msg
    assert "\n" not in msg


def test_spec_equals_keywords_same_arrays():
    a = make_game("river(street=half,max_bets=2)")
    b = make_game("river", street="half", max_bets=2)
    assert a is b and a.name == "river(max_bets=2,street=half)"
    ca, cb = compile_game(a), compile_game(get_game(" river ( max_bets = 2 , street = half ) "))
    for f in ("kind", "parent", "edge", "infoset", "chance_prob", "payoffs", "legal"):
        assert np.array_equal(getattr(ca, f), getattr(cb, f))
    # spec lists are tuples, and equal the keyword form; options at their defaults drop out
    d = make_game("river(dist1=[0.25,0.25,0.25,0.25],bet_size=1/2,street=full)")
    assert d is make_game("river", dist1=(0.25,) * 4)
    assert d.name == "river(dist1=(0.25,0.25,0.25,0.25))"
    assert make_game("river(street=full)") is get_game("river")
    # a half-street game differs from the full one (the spec reached the factory)
    assert a.n_nodes != make_game("river(max_bets=2)").n_nodes


@pytest.mark.parametrize("spec, fragment", [
    ("river(foo=1)", "game 'river' has no option 'foo' (options: dist1, dist2, street, "
                     "max_bets, bet_size)"),
    ("kuhn(players=3)", "game 'kuhn' has no option 'players' (options: none)"),
    ("river(max_bets=0)", "max_bets=0 is outside the allowed range [1, inf)"),
    ("river(street=quarter)", "street='quarter' is not one of full, half"),
    ("river(dist1=0.5)", "dist1=0.5 is not a list of 4 numbers"),
    ("river(bet_size=abc)", "bet_size='abc' is not a number"),
    ("nope(a=1)", "unknown game 'nope'"),
])
def test_bad_options_are_one_line(spec, fragment):
    with pytest.raises(GameError) as e:
        make_game(spec)
    assert fragment in str(e.value) and "\n" not in str(e.value)


def test_keyword_and_spec_must_agree():
    assert make_game("river(street=half)", street="half") is make_game("river(street=half)")
    with pytest.raises(GameError, match="street given twice"):
        make_game("river(street=half)", street="full")


def _cli(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_cli_solve_takes_a_spec(capsys):
    rc, out, _ = _cli(capsys, "solve", "river(street=half)", "--method", "cfr+",
                      "--iterations", "10", "--json")
    d = json.loads(out)
    assert rc == 0 and d["game"] == "river(street=half)" and d["iterations"] == 10
    # the same game through the flag alias gives the same name and the same run
    rc, out2, _ = _cli(capsys, "solve", "river", "--street", "half", "--method", "cfr+",
                       "--iterations", "10", "--json")
    d2 = json.loads(out2)
    assert d2["game"] == d["game"] and d2["expected_payoffs"] == d["expected_payoffs"]


def test_cli_flag_and_spec_conflict_is_one_line_exit_2(capsys):
    rc, out, err = _cli(capsys, "solve", "river(street=half)", "--street", "full")
    assert rc == 2 and out == "" and err.count("\n") == 1
    assert "street given twice" in err and "street=half in the spec" in err
    rc, _, _ = _cli(capsys, "solve", "river(street=half)", "--street", "half",
                    "--method", "lp", "--json")
    assert rc == 0


def test_cli_solve_tol_stops_and_says_so(capsys):
    for method in ("cfr+", "fp", "lp"):
        rc, out, _ = _cli(capsys, "solve", "kuhn", "--method", method, "--tol", "0.01",
                          "--json")
        d = json.loads(out)
        assert rc == 0 and d["converged"] is True and d["nash_conv"] <= 0.01 and d["tol"] == 0.01
        if method != "lp":  # stopped at the target, far below the cap of 10000
            assert d["iterations"] < 10_000
    rc, out, _ = _cli(capsys, "solve", "kuhn", "--method", "cfr", "--tol", "1e-9",
                      "--iterations", "5", "--json")
    d = json.loads(out)
    assert d["converged"] is False and d["iterations"] == 5 and d["nash_conv"] > 1e-9


def test_cli_games_describes_a_variant(capsys):
    rc, out, _ = _cli(capsys, "games", "river(street=half)", "--json")
    d = json.loads(out)
    assert rc == 0 and d["game"] == "river(street=half)"
    assert d["nodes"] == make_game("river", street="half").n_nodes
    assert d["options"]["street"] == "full" and d["options"]["max_bets"] == "1"
    rc, out, _ = _cli(capsys, "games")
    assert rc == 0 and "options (defaults): dist1=(0.1,0.2,0.3,0.4)" in out
    assert "name(key=value,...)" in out
    rc, _, err = _cli(capsys, "games", "river(street")
    assert rc == 2 and err.count("\n") == 1 and "has no '=value'" in err


def test_payoffs_and_export_take_specs(capsys, tmp_path):
    rc, out, _ = _cli(capsys, "payoffs", "river(street=half)", "--json")
    assert rc == 0 and json.loads(out)["game"] == "river(street=half)"
    path = tmp_path / "r.efg"
    rc, _, _ = _cli(capsys, "export", "river(max_bets=2)", "--format", "efg", str(path))
    assert rc == 0 and 'EFG 2 R "river(max_bets=2)"' in path.read_text()


def test_non_finite_float_cannot_be_written():
    with pytest.raises(GameError, match="finite numbers"):
        format_spec("g", {"a": math.inf})


def test_openspiel_prefix_passes_the_string_verbatim(monkeypatch):
    import sys
    import types

    seen = []
    fake = types.ModuleType("fake_openspiel")
    fake.openspiel_game = lambda text: seen.append(text) or get_game("kuhn")
    monkeypatch.setitem(sys.modules, "pokerdyn.games.io.openspiel", fake)
    text = "leduc_poker(players=3,betting_abstraction=fcpa)"
    g = get_game("openspiel:" + text)
    assert seen == ["openspiel:" + text] and g is get_game("kuhn")
    with pytest.raises(GameError, match="give its options inside OpenSpiel's game string"):
        make_game("openspiel:" + text, players=2)


def test_sweep_takes_a_spec():
    from pokerdyn.dynamics.sweep.experiments import game_name

    assert game_name("river(street=half)", "game") == "river(street=half)"
    with pytest.raises(GameError, match="game: game 'river' has no option 'x'"):
        game_name("river(x=1)", "game")
