"""Issue 33 (hardening), area A: game spec strings, option values and the resource guard.

Every refusal follows the hostile-input rule of tests/hostile.py (one stderr line
``pokerdyn: error: ...`` naming the value and what is allowed, exit 2, nothing written);
the guard refuses from an estimate before the builder runs (checked by replacing the
builder with one that fails the test if called), and the estimate is checked against the
measured size of games that fit.
"""
from __future__ import annotations

import contextlib
import io
from collections import OrderedDict

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerdyn.games import GameError, compile_game
from pokerdyn.games.catalog import registry
from pokerdyn.games.catalog.registry import GAME_OPTIONS, GAMES, OPTION_RULES, make_game
from pokerdyn.games.catalog.spec import MAX_DEPTH, MAX_INT_DIGITS, MAX_SPEC_CHARS, parse_spec
from pokerdyn.games.size import available_memory, parse_memory, resource_limits
from pokerdyn.cli import main
from hostile import run_bad


def _one_line(argv, tmp_path, names):
    """run_bad, and the line itself (for checks of its length and content)."""
    run_bad(argv, names, tmp_path)
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        main(argv)
    return err.getvalue().strip()


def _no_build(monkeypatch):
    """The hold'em builder and the OpenSpiel walk fail the test if they are called."""
    import pokerdyn.games.holdem.standard as standard
    import pokerdyn.games.io.openspiel as ospiel

    def boom(*a, **k):
        raise AssertionError("the builder ran: the guard must refuse before building")

    monkeypatch.setattr(standard, "build_game", boom)
    monkeypatch.setattr(ospiel, "_traverse", boom)
    monkeypatch.setattr(registry, "_BUILT", OrderedDict())


# ---- defects 1-5: one line, exit 2 -------------------------------------------------------

def test_deep_brackets_are_refused_with_the_depth_limit(tmp_path):
    spec = "river(street=" + "[" * 400 + "1" + "]" * 400 + ")"
    line = _one_line(["games", spec], tmp_path, (f"allowed {MAX_DEPTH} levels",))
    assert "RecursionError" not in line and len(line) < 400


def test_a_huge_spec_is_not_echoed_whole(tmp_path):
    spec = "river(street=" + "x" * 100_000 + ")"
    line = _one_line(["games", spec], tmp_path, ("100,014 characters",))
    assert f"{MAX_SPEC_CHARS:,} characters" in line and len(line) < 300


def test_a_word_for_an_integer_option_names_option_value_and_range(tmp_path):
    line = _one_line(["games", "river(max_bets=half)"], tmp_path, ("max_bets='half'",))
    assert "invalid literal" not in line and "integers in [1, 100]" in line


def test_a_5000_digit_integer_gets_the_allowed_range(tmp_path):
    spec = "river(max_bets=" + "9" * 5000 + ")"
    line = _one_line(["games", spec], tmp_path, ("5,000 digits",))
    assert f"at most {MAX_INT_DIGITS} digits" in line
    assert "set_int_max_str_digits" not in line and len(line) < 500


def test_many_orbits_of_five_players_are_refused_before_building(tmp_path, monkeypatch):
    _no_build(monkeypatch)
    line = _one_line(["games", "mercer-smh(players=5,max_bets=40)"], tmp_path, ("nodes",))
    assert "--force cannot override" in line  # more nodes than int32 indices hold


@pytest.mark.parametrize("spec", ["leduc(players=half)", "leduc(merge=2)",
                                  "mercer-smh(bet=1e300)", "mercer-smh(colluders=1.5)",
                                  "selby(sb=0)", "selby(sb=2)",
                                  "kuhn3(cards=[1])", "blind-vs-blind(buckets=1000)",
                                  "blind-vs-blind(payouts=half)", "river(dist1=half)",
                                  "mercer-smh(copies=99999999999)", "river(street=quarter)"])
def test_bad_option_values_name_the_option_and_the_allowed_values(spec, tmp_path):
    key = spec.split("(")[1].split("=")[0]
    line = _one_line(["games", spec], tmp_path, (f"{key}=",))
    assert "invalid literal" not in line and "object is not" not in line


def test_option_rules_name_real_options():
    for game, rules in OPTION_RULES.items():
        assert set(rules) <= set(GAME_OPTIONS[game]), game


# ---- the resource guard ------------------------------------------------------------------

@pytest.mark.parametrize("spec", ["leduc(players=10,ranks=13,suits=4,merge=false)",
                                  "mercer-smh(players=5,ranks=13)"])
def test_the_guard_refuses_huge_builder_games_before_building(spec, tmp_path, monkeypatch):
    _no_build(monkeypatch)
    line = _one_line(["games", spec], tmp_path, ("nodes",))
    assert "limit" in line or "int32" in line


def test_the_guard_gives_estimate_limit_and_force(tmp_path, monkeypatch):
    _no_build(monkeypatch)
    line = _one_line(["payoffs", "mercer-smh(players=4)", "--max-memory", "10M"], tmp_path,
                     ("1,342,771 nodes",))  # test_mercer_whole's exact count
    assert "10.0 MiB" in line and "--force" in line and "--max-memory" in line


def test_the_guard_refuses_a_huge_openspiel_game_before_the_walk(tmp_path, monkeypatch):
    pytest.importorskip("pyspiel")
    _no_build(monkeypatch)
    from pokerdyn.games.catalog.registry import _OPENSPIEL_LOADED
    assert "leduc_poker(players=10)" not in _OPENSPIEL_LOADED
    _one_line(["games", "openspiel:leduc_poker(players=10)"], tmp_path, ("nodes",))
    _one_line(["games", "openspiel:leduc_poker(players=4)", "--max-memory", "100M"], tmp_path,
              ("nodes",))


def test_the_openspiel_estimate_is_close():
    pytest.importorskip("pyspiel")
    from pokerdyn.games.io.openspiel import estimate_openspiel
    est = estimate_openspiel("leduc_poker")
    assert 9457 / 2 < est.nodes < 9457 * 2          # OpenSpiel's leduc_poker: 9,457 histories
    assert estimate_openspiel("leduc_poker") == est  # seeded: the same estimate every time


def _measured_bytes(game) -> int:
    """Bytes of the distinct arrays of the built game and its compiled form."""
    seen = {}
    for obj in (game, compile_game(game)):
        for v in vars(obj).values():
            if isinstance(v, np.ndarray):
                seen[v.__array_interface__["data"][0]] = v.nbytes
    return sum(seen.values())


@pytest.mark.parametrize("spec", ["leduc", "leduc(merge=false)", "mercer-smh",
                                  "mercer-mmh", "mercer-smh(players=3)"])
def test_the_estimate_is_within_2x_of_the_built_game(spec):
    name, opts = parse_spec(spec)
    est = registry.SIZES[name](None, **opts)
    game = make_game(spec)
    assert est.nodes == game.n_nodes                 # the node count is exact
    assert est.terminals == len(game.terminal_node)
    measured = _measured_bytes(game)
    assert measured / 2 <= est.bytes <= 2 * measured


def test_force_bypasses_the_guard(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(registry, "_BUILT", OrderedDict())
    run_bad(["games", "leduc", "--max-memory", "1K"], ("leduc",), tmp_path)
    assert main(["games", "leduc", "--max-memory", "1K", "--force", "--json"]) == 0
    assert '"nodes": 1939' in capsys.readouterr().out


def test_the_python_api_refuses_too_and_takes_force(monkeypatch):
    import pokerdyn.games.holdem.standard as standard
    monkeypatch.setattr(registry, "_BUILT", OrderedDict())
    calls = []
    real = standard.build_game
    monkeypatch.setattr(standard, "build_game", lambda *a, **k: calls.append(1) or real(*a, **k))
    with pytest.raises(GameError, match="--force"):
        make_game("leduc(players=3)", max_memory="1M")
    with resource_limits("100K"), pytest.raises(GameError, match="100.0 KiB"):
        registry.get_game("leduc")
    assert calls == []                                # refused before the builder ran
    assert make_game("leduc", max_memory="1K", force=True).n_nodes == 1939
    with resource_limits("1K", force=True):
        assert make_game("mercer-smh").n_nodes == 1141
    assert len(calls) == 2


def test_sizes_and_the_available_memory():
    assert parse_memory("4G") == 4 * 2**30 and parse_memory("500M") == 500 * 2**20
    assert parse_memory("1.5GB") == 3 * 2**29 and parse_memory("1024") == 1024
    for bad in ("", "4X", "-1G", "0", "G", "1e3G"):
        with pytest.raises(GameError, match="allowed"):
            parse_memory(bad)
    assert 2**20 < available_memory()


def test_every_game_command_has_the_guard_options_but_reproduce_keeps_its_own():
    from pokerdyn.cli import build_parser
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    for name, p in sub.choices.items():
        opts = p._option_string_actions
        assert "--force" in opts, name
        assert ("--max-memory" in opts) == (name != "reproduce"), name
    assert "recompute" in sub.choices["reproduce"]._option_string_actions["--force"].help


# ---- the fuzz test -----------------------------------------------------------------------

_GAMES = sorted(GAMES)
_OPTIONED = sorted(GAME_OPTIONS)
_tail = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_", max_size=8)


@st.composite
def _bad_spec(draw):
    """A spec that must be refused before anything is built, and what its message names."""
    kind = draw(st.sampled_from(["garbage", "deep", "huge", "key", "value", "number",
                                 "long", "unknown"]))
    game = draw(st.sampled_from(_OPTIONED))
    key = draw(st.sampled_from(GAME_OPTIONS[game]))
    if kind == "garbage":  # any text after a known name, then "(": never a valid spec
        junk = draw(st.text(max_size=40))
        return f"{draw(st.sampled_from(_GAMES))}({junk}(", ("game spec", "game ")
    if kind == "deep":
        d = draw(st.integers(2, 400))
        return f"{game}({key}={'[' * d}1{']' * d})", ("nest", f"{key}=", f"{key} ")
    if kind == "huge":
        n = draw(st.integers(MAX_INT_DIGITS + 1, 5000))
        sign = draw(st.sampled_from(["", "-", "+"]))
        return f"{game}({key}={sign}{'7' * n})", ("digits",)
    if kind == "key":
        bad = "zz" + draw(_tail)
        return f"{game}({bad}=1)", (f"option '{bad}'",)
    # the message names the option (a seat-count or seat message names the seat)
    names = (f"{key}=", f"{key} ", "seat")
    if kind == "value":  # a word no option takes
        return f"{game}({key}=zz{draw(_tail)})", names
    if kind == "number":  # a number beyond every option's range
        sign = draw(st.sampled_from(["", "-"]))
        return f"{game}({key}={sign}1{'0' * draw(st.integers(12, 90))})", names
    if kind == "long":
        return f"{game}({key}={'1' * MAX_SPEC_CHARS})", ("characters",)
    return f"zz{draw(_tail)}", ("unknown game",)


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz")


@settings(max_examples=200, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(case=_bad_spec(), command=st.sampled_from(["games", "payoffs"]))
def test_fuzz_bad_specs_are_one_line_refusals(case, command, fuzz_dir):
    spec, names = case
    run_bad([command, spec], names, fuzz_dir)
