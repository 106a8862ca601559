"""Hostile values for the options the per-command fuzz files leave out (issue 33): the
resource guard's ``--max-memory`` on every command that has it, ``reproduce --jobs`` and
``--seed``, ``sweep --workers``.  Each generated value gives exit 2, one stderr line naming
the option or the value, no traceback and no file written (tests/hostile.py), before any
game is built or figure run."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pokerdyn.cli as cli
from hostile import JUNK, NOT_FINITE, WORDS, outside, run_bad

FUZZ = settings(max_examples=200, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow,
                                       HealthCheck.function_scoped_fixture])

# sizes: not a number with an optional unit K, M, G or T, or below one byte
BAD_SIZES = st.one_of(NOT_FINITE, WORDS, JUNK.filter(lambda t: t.strip() not in ("", "1/2")),
                      st.sampled_from(["0", "0.5", "-1", "-4G", "1X", "4GG", "G", "1e3G",
                                       "0.0001K", "9" * 5000 + "Q"]))


def _commands_with_guard() -> list[str]:
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    return sorted(n for n, p in sub.choices.items() if "--max-memory" in p._option_string_actions)


@pytest.fixture(scope="module")
def toml(tmp_path_factory):
    d = tmp_path_factory.mktemp("sweep")
    f = d / "ok.toml"
    f.write_text('[sweep]\nexperiment = "toy"\noutput = "ok.parquet"\n')
    return f


def test_every_game_command_has_the_guard():
    """--max-memory on every command but reproduce (its --force recomputes figures)."""
    assert set(_commands_with_guard()) == set(cli.COMMANDS) - {"reproduce"}


@FUZZ
@given(command=st.sampled_from(["games", "payoffs", "solve", "equilibria", "export", "sweep",
                                "ode", "simulate", "qre", "pushfold", "icm"]),
       size=BAD_SIZES)
def test_max_memory(command, size, tmp_path):
    run_bad([command, f"--max-memory={size}"], ("max-memory",), tmp_path)


@FUZZ
@given(data=st.data())
def test_reproduce_and_sweep_options(data, toml, tmp_path):
    argv, bad, option = data.draw(st.sampled_from([
        (["reproduce", "--out=figs", "--only=river_strategy_tree", "--jobs={}"],
         outside(1, 64, integer=True), "jobs"),
        (["reproduce", "--out=figs", "--only=river_strategy_tree", "--seed={}"],
         outside(0, 2**32 - 1, integer=True), "seed"),
        (["sweep", str(toml), "--workers={}"], outside(1, 1024, integer=True), "workers"),
    ]))
    value = data.draw(bad, label="bad value")
    run_bad([a.replace("{}", value) for a in argv], (value.strip()[:20], option), tmp_path)
