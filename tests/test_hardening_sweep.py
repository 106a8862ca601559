"""Hardening of ``pokerdyn sweep`` (issue 33): the TOML schema, the size guard, the messages
for games without a pot, the resume files, interrupts, and a fuzz test of sweep files.

Every bad input is one stderr line ``pokerdyn: error: ...`` naming the file, the key and
what is allowed, exit 2, and nothing written (tests/hostile.py)."""
from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerdyn.dynamics.sweep import experiments as E
from pokerdyn.dynamics.sweep import spec
from pokerdyn.dynamics.sweep.runner import run_sweep
from pokerdyn.dynamics.sweep.spec import SweepConfig, load_config
from pokerdyn.dynamics.sweep.store import CONFIG_FILE, TIMING_COLUMNS, load_results
from pokerdyn.games import GameError
from hostile import run_bad, snapshot
from pokerdyn.cli import main


TOY = ('[sweep]\nexperiment = "toy"\nbase_seed = 7\n[fixed]\nn = 4\n'
       '[grid]\nmu = [0, 1, 2]\nsigma = [1, 2]\n')


def write(folder: Path, text: str, name: str = "s.toml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    p = folder / name
    p.write_text(text)
    return p


def bad_file(tmp_path: Path, text: str, names: tuple[str, ...], *extra: str) -> None:
    """A sweep file that must be refused: one line naming it, exit 2, nothing written in the
    work folder nor beside the file."""
    path = write(tmp_path / "in", text)
    before = snapshot(tmp_path / "in")
    run_bad(["sweep", str(path), "--workers=1", *extra], names, tmp_path)
    assert snapshot(tmp_path / "in") == before


def frame(path) -> pd.DataFrame:
    df = load_results(path)
    return df.drop(columns=[c for c in TIMING_COLUMNS if c in df.columns])


# --- 1. the schema -----------------------------------------------------------------------

SCHEMA_CASES = [
    # the reported crashes: TypeError, OverflowError, a table where a string belongs
    ('[sweep]\nexperiment = "toy"\noutput = 5\n', "[sweep] output = 5 is an integer",
     "allowed: a non-empty path"),
    ('[sweep]\nexperiment = "toy"\n[fixed]\nn = 1' + "0" * 400 + "\n",
     "n=<an integer of about 401 digits> is outside", "allowed range [1, 10000]"),
    ('[sweep]\nexperiment = "fp"\n[grid]\ngame = ["skp", {name = "kuhn"}]\n',
     "[grid] game[1] = {'name': 'kuhn'} is a table", "allowed: one of: kuhn"),
    ('[sweep]\nexperiment = "toy"\nbase_seed = -1' + "0" * 400 + "\n", "base_seed=-<an integer",
     "allowed range [0, 2^63)"),
    ('[sweep]\nexperiment = "toy"\nreplicates = 2.5\n', "[sweep] replicates = 2.5 is a float",
     "allowed: an integer in [1, 1000000]"),
    ('[sweep]\nexperiment = ["toy"]\n', "[sweep] experiment = ['toy'] is a list",
     "allowed: a string, one of: toy, fp, simulate"),
    ('[sweep]\nexperiment = "toy"\ndescription = {a = 1}\n', "[sweep] description",
     "allowed: a string"),
    ('[sweep]\nexperiment = "toy"\noutput = ""\n', "[sweep] output = '' is empty",
     "allowed: a non-empty path"),
    ('sweep = 3\n', "[sweep] must be a table", "allowed: a table"),
    ('[sweep]\nexperiment = "toy"\n[grid]\nmu = 3\n', "[grid] mu = 3 is an integer",
     "allowed: a non-empty list"),
    ('[sweep]\nexperiment = "toy"\n[grid]\nmu = []\n', "[grid] mu is a list of 0 values",
     "allowed: a non-empty list"),
    ('[sweep]\nexperiment = "toy"\n[fixed]\nmu = 1979-05-27\n', "[fixed] mu = datetime.date",
     "allowed: numbers in [-inf, inf]"),
    ('[sweep]\nexperiment = "simulate"\n[fixed]\nk = [[0.1], 0.2, 0.3]\n',
     "[fixed] k[0] = [0.1] is a list", "allowed: numbers in [0, inf] or a list of 3"),
    ('[sweep]\nexperiment = "simulate"\n[grid]\nk = [[0.1, 0.2, 1e999]]\n', "k[2]=inf is outside",
     "allowed range [0, inf]"),
    ('[sweep]\nexperiment = "simulate"\n[fixed]\ngame = "' + "x" * 5000 + '"\n',
     "[fixed] game is a string of 5,000 characters", "allowed: one of"),
    ('[sweep]\nexperiment = "toy"\n[fixed]\nn = true\n', "n=True is not a number",
     "allowed: integers in [1, 10000]"),
    ('[sweep]\nexperiment = "toy"\n[fixed]\nmu = 1e400\n', "mu=inf is outside",
     "allowed range [-inf, inf]"),
]


@pytest.mark.parametrize("text, key, allowed", SCHEMA_CASES,
                         ids=[c[1][:30].replace(" ", "_") for c in SCHEMA_CASES])
def test_bad_types_sizes_and_numbers_are_one_line(tmp_path, text, key, allowed):
    """Each message names the file, the key (with the bad value) and the allowed
    type/range; before the fix these were TypeError, OverflowError or AttributeError."""
    path = write(tmp_path, text)
    with pytest.raises(GameError) as exc:
        load_config(path)
    msg = str(exc.value)
    assert msg.startswith(f"sweep file {str(path)!r}: ") and key in msg and allowed in msg
    bad_file(tmp_path, text, (key,))


def test_too_many_digits_and_too_deep_are_one_line(tmp_path):
    """Integers beyond Python's 4300-digit conversion limit and deeply nested arrays make
    tomllib raise ValueError/RecursionError, not TOMLDecodeError."""
    bad_file(tmp_path / "a", '[sweep]\nexperiment = "toy"\nbase_seed = 1' + "0" * 5000 + "\n",
             ("s.toml",))
    bad_file(tmp_path / "b", '[sweep]\nexperiment = "toy"\n[fixed]\nmu = ' + "[" * 5000 +
             "]" * 5000 + "\n", ("s.toml",))


def test_huge_file_is_refused_before_it_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(spec, "MAX_FILE_BYTES", 100)
    path = write(tmp_path, TOY + "# " + "x" * 200 + "\n")
    monkeypatch.setattr(tomllib, "loads", lambda *a: pytest.fail("read a file over the limit"))
    with pytest.raises(GameError) as exc:
        load_config(path)
    assert str(exc.value) == f"sweep file {str(path)!r} has {path.stat().st_size:,} bytes; " \
                             f"allowed: at most 100"


def test_valid_file_still_loads(tmp_path):
    cfg = load_config(write(tmp_path, TOY))
    assert (cfg.n_cells(), cfg.fixed, cfg.grid) == (6, {"n": 4},
                                                   {"mu": [0.0, 1.0, 2.0], "sigma": [1.0, 2.0]})


# --- 2. the size guard -------------------------------------------------------------------

MANY = ('[sweep]\nexperiment = "simulate"\nreplicates = 1000\n[grid]\n'
        f'pot = [{", ".join(str(p) for p in range(2, 2002))}]\n')  # 2,000,000 cells


def test_millions_of_cells_are_refused_before_any_work(tmp_path, monkeypatch):
    """The count and the limit, before any cell, seed or game check: the guard refuses
    before the experiment's check or the cell list is built."""
    def never(*a, **k):
        raise AssertionError("work started before the size guard")

    monkeypatch.setattr(SweepConfig, "cells", never)
    monkeypatch.setattr(SweepConfig, "combinations", never)
    path = write(tmp_path, MANY)
    with pytest.raises(GameError) as exc:
        load_config(path)
    assert "the sweep has 2,000,000 cells, over the limit of 100,000" in str(exc.value)
    assert "--force" in str(exc.value)
    bad_file(tmp_path, MANY, ("2,000,000",))


def test_costly_cells_are_refused_with_the_estimate(tmp_path):
    """Few cells, each long: cells x cost = 10 x 1e12 rounds x 1e-7 s, about 278 hours."""
    text = ('[sweep]\nexperiment = "simulate"\n[fixed]\nrounds = 1_000_000_000_000\n'
            '[grid]\npot = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11]\n')
    with pytest.raises(GameError) as exc:
        load_config(write(tmp_path, text))
    msg = str(exc.value)
    assert "the sweep has 10 cells of about 1e+05 core-seconds each, about 278 " \
           "core-hours in all, over the limit of 100 core-hours" in msg
    bad_file(tmp_path, text, ("core-hours",))
    # fp's cost grows with the game's size: skp (90 nodes) vs river (145)
    fp = load_config(write(tmp_path, '[sweep]\nexperiment = "fp"\n[fixed]\niterations = 1000\n'
                                     '[grid]\ngame = ["kuhn", "river"]\n'))
    from pokerdyn.games import get_game

    nodes = [get_game(g).n_nodes for g in ("kuhn", "river")]
    expect = sum(E.CELL_OVERHEAD_S + 1000 * n * E.FP_NODE_ITERATION_S for n in nodes)
    assert fp.estimated_seconds() == pytest.approx(expect)


def test_force_lifts_the_guard_but_not_the_hard_limit(tmp_path, monkeypatch, capsys):
    path = write(tmp_path, MANY)
    assert load_config(path, force=True).n_cells() == 2_000_000
    from pokerdyn.dynamics.sweep.runner import SweepSummary
    from pokerdyn.commands.dynamics import sweep as cmd

    seen = []

    def runner(config, output=None, **kw):  # stands in for the 2,000,000 cells
        seen.append(config.n_cells())
        return SweepSummary(Path(output), config.experiment, config.n_cells(), 0, 0, 0.0, "-")

    monkeypatch.setattr("pokerdyn.dynamics.sweep.runner.run_sweep", runner)
    argv = ["sweep", str(path), "--out", str(tmp_path / "o"), "--workers=1", "--json"]
    assert main(argv + ["--force"]) == 0 and seen == [2_000_000]
    assert json.loads(capsys.readouterr().out)["cells"] == 2_000_000
    # the command reads args.force, the CLI-wide flag
    args = argparse.Namespace(config=str(path), out=str(tmp_path / "o"), workers=1,
                              scheduler=None, json=True)
    with pytest.raises(GameError, match="the sweep has 2,000,000 cells, over the limit"):
        cmd.run(args)
    assert seen == [2_000_000]
    huge = MANY.replace("replicates = 1000", "replicates = 1000000")
    with pytest.raises(GameError, match=r"2,000,000,000 cells; allowed: at most 10,000,000 "
                                        r"even with --force"):
        load_config(write(tmp_path, huge, "h.toml"), force=True)


# --- 3. games without a pot ----------------------------------------------------------------

@pytest.mark.parametrize("text, message", [
    ('[sweep]\nexperiment = "simulate"\n[fixed]\ngame = "kuhn"\n',
     "game='kuhn' has no pot parameter P; allowed for experiment 'simulate': games with a pot"),
    ('[sweep]\nexperiment = "simulate"\n[fixed]\ngame = "river"\ndeals = 16\n',
     "game='river' has no pot parameter P"),
    ('[sweep]\nexperiment = "fp"\n[fixed]\ngame = "river"\npot = 2\n',
     "pot=2.0 is set, but game 'river' has no pot parameter P; allowed: leave pot out"),
    ('[sweep]\nexperiment = "fp"\n[grid]\ngame = ["skp", "kuhn"]\npot = [6, 9]\n',
     "pot=6.0 is set, but game 'kuhn' has no pot parameter P"),
    ('[sweep]\nexperiment = "fp"\n[fixed]\ngame = "skp"\n',
     "game 'skp' needs a pot: set pot in [fixed] or [grid]"),
    ('[sweep]\nexperiment = "simulate"\n[fixed]\ngame = "kuhn3"\n',
     "deals=12 (the default, skp's; set deals in [fixed]) is not allowed for game 'kuhn3'; "
     "allowed: 24"),
])
def test_game_without_pot_names_the_cause(tmp_path, text, message):
    """Before: "deals=12 is not allowed for game 'kuhn'" (and deals = 6 then "is not one of:
    12, 24"), or "game 'river' has no parameter 'P'" for the key pot."""
    with pytest.raises(GameError) as exc:
        load_config(write(tmp_path, text))
    assert message in str(exc.value)
    bad_file(tmp_path, text, ("pot",) if "deals=12" not in message else ("deals",))


def test_deal_counts_follow_the_game(tmp_path):
    """kuhn3-third's informative deals are 18 (refused before by a fixed choice of 12, 24)."""
    cfg = load_config(write(tmp_path, '[sweep]\nexperiment = "simulate"\n[fixed]\n'
                                      'game = "kuhn3-third"\ndeals = 18\n'))
    assert cfg.cells()[0].params["deals"] == 18


# --- 4. resume files -----------------------------------------------------------------------

@pytest.fixture
def store(tmp_path) -> tuple[Path, Path]:
    """A finished sweep of 6 toy cells: (config file, store)."""
    path = write(tmp_path / "cfg", TOY)
    out = tmp_path / "store"
    assert run_sweep(load_config(path), out, workers=1, progress=False).computed == 6
    return path, out


STATE_CASES = [
    (b"[]", "holds a JSON list, not an object"),
    (b"", "is empty"),
    (b'{"format": 1, "config":', "is not valid JSON"),
    (b"\xff\xfe{}", "is not UTF-8 text"),
    (b'{"format": "1", "config": {}}', "has format '1'"),
    (b'{"format": 1, "config": [1]}', "has no config object"),
    (b'{"format": 1, "config": 1' + b"0" * 5000 + b"}", "is not valid JSON"),
]


@pytest.mark.parametrize("content, why", STATE_CASES, ids=[f"{i}-{c[1][:20]}".replace(" ", "_")
                                                           for i, c in enumerate(STATE_CASES)])
def test_corrupt_state_file_is_one_line_naming_it(store, tmp_path, content, why):
    path, out = store
    (out / CONFIG_FILE).write_bytes(content)
    before = snapshot(out)
    run_bad(["sweep", str(path), "--out", str(out), "--workers=1"], (why,), tmp_path)
    with pytest.raises(GameError) as exc:
        load_results(out)
    assert f"sweep state file {str(out / CONFIG_FILE)!r} {why}" in str(exc.value)
    assert snapshot(out) == before


@pytest.mark.parametrize("damage", ["empty", "truncated", "garbage"])
def test_unfinished_cell_file_is_recomputed_not_taken_as_done(store, tmp_path, damage):
    path, out = store
    good = frame(out)
    cell = sorted(out.glob("cell-*.parquet"))[2]
    data = cell.read_bytes()
    cell.write_bytes({"empty": b"", "truncated": data[: len(data) // 2],
                      "garbage": b"PAR1" + b"x" * 100}[damage])
    with pytest.raises(GameError) as exc:  # before: a bare pyarrow error, forever
        load_results(out)
    assert f"cell file {str(cell)!r} is not a finished cell" in str(exc.value)
    s = run_sweep(load_config(path), out, workers=1, progress=False)
    assert (s.skipped, s.computed, s.invalid) == (5, 1, 1)
    assert (out / f".invalid-{cell.name}").exists()  # set aside, not deleted
    pd.testing.assert_frame_equal(frame(out), good, check_exact=True)
    assert run_sweep(load_config(path), out, workers=1, progress=False).computed == 0


def test_cell_file_of_another_cell_is_not_taken_as_done(store):
    path, out = store
    a, b = sorted(out.glob("cell-*.parquet"))[:2]
    b.unlink()
    b.write_bytes(a.read_bytes())  # right size and format, wrong cell
    s = run_sweep(load_config(path), out, workers=1, progress=False)
    assert (s.computed, s.invalid) == (1, 1)
    assert frame(out).cell_id.is_unique


def test_cell_and_state_writes_are_atomic(tmp_path, monkeypatch):
    """A write that fails half-way leaves neither a cell file nor a temporary (the cell is
    computed again on the next run); state and cells go through write_atomically."""
    import pyarrow.parquet as pq

    real = pq.write_table
    calls = []

    def failing(table, where, **kw):
        calls.append(where)
        if len(calls) == 3:
            Path(where).write_bytes(b"PAR1 partial")
            raise OSError(28, "No space left on device")
        return real(table, where, **kw)

    monkeypatch.setattr(pq, "write_table", failing)
    path = write(tmp_path, TOY)
    out = tmp_path / "out"
    with pytest.raises(OSError):
        run_sweep(load_config(path), out, workers=1, progress=False)
    assert sorted(p.name for p in out.iterdir() if p.name.startswith(".")) == []
    assert len(list(out.glob("cell-*.parquet"))) == 2
    assert all(Path(w).name.startswith(".cell-") and ".tmp-" in Path(w).name for w in calls)
    monkeypatch.setattr(pq, "write_table", real)
    s = run_sweep(load_config(path), out, workers=1, progress=False)
    assert (s.skipped, s.computed, s.invalid) == (2, 4, 0)


# --- 5. interrupts -------------------------------------------------------------------------

# An experiment whose last two cells never finish while SWEEP_TEST_HANG is set (the results
# do not depend on it): an interrupted run can exit only by terminating its workers.
SLOW = '''
import os, time
import numpy as np
from pokerdyn.dynamics.sweep import experiments as E

def _slow(cell, seed):
    if os.environ.get("SWEEP_TEST_HANG"):
        time.sleep(3600 if cell["t"] >= 100 else cell["t"])
    return {"x": float(np.random.default_rng(seed).random())}

E.EXPERIMENTS["slow"] = E.Experiment("slow", {"t": E.Param(0.0, E.number(0, 1e6))}, _slow)
'''
SLOW_TOML = ('[sweep]\nexperiment = "slow"\nbase_seed = 3\n[grid]\n'
             't = [0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 1000, 1001]\n')


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_interrupt_keeps_finished_cells_and_resume_completes(tmp_path, monkeypatch, sig, code):
    path = write(tmp_path, SLOW_TOML)
    out = tmp_path / "store"
    script = SLOW + "import sys\nfrom pokerdyn.cli import main\nsys.exit(main(sys.argv[1:]))\n"
    env = {**os.environ, "SWEEP_TEST_HANG": "1"}  # the installed package, not the source tree
    proc = subprocess.Popen([sys.executable, "-c", script, "sweep", str(path), "--out",
                             str(out), "--workers", "2", "--json"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # poll for the six quick cells; the last two hang until the workers are terminated
        for _ in range(6000):
            if len(list(out.glob("cell-*.parquet"))) == 6 or proc.poll() is not None:
                break
            time.sleep(0.02)
        assert proc.poll() is None, proc.communicate()
        done = snapshot(out)
        proc.send_signal(sig)
        stdout, stderr = proc.communicate(timeout=120)  # a hang guard, not a time limit
    finally:
        proc.kill()
        proc.wait()
    lines = stderr.strip().splitlines()
    assert proc.returncode == code, stderr
    assert "Traceback" not in stderr and len(lines) == 1 and lines[0].startswith("pokerdyn: ")
    assert stdout == ""
    cells = sorted(k for k in snapshot(out) if k.startswith("cell-"))
    assert len(cells) == 6 and {k: snapshot(out)[k] for k in cells} == \
        {k: v for k, v in done.items() if k.startswith("cell-")}
    assert not [p for p in out.iterdir() if ".tmp-" in p.name]
    # the next run computes the two missing cells only; the results are the uninterrupted ones
    exec(compile(SLOW, "slow", "exec"), {})  # registers "slow" in this process
    monkeypatch.setitem(E.EXPERIMENTS, "slow", E.EXPERIMENTS["slow"])
    s = run_sweep(load_config(path), out, workers=2, progress=False)
    assert (s.cells, s.skipped, s.computed, s.invalid) == (8, 6, 2, 0)
    assert {k: snapshot(out)[k] for k in cells} == {k: done[k] for k in cells}
    fresh = run_sweep(load_config(path), tmp_path / "fresh", workers=1, progress=False)
    pd.testing.assert_frame_equal(frame(out), frame(fresh.output), check_exact=True)


def test_worker_pool_is_terminated_on_keyboard_interrupt(tmp_path, monkeypatch):
    """In-process: a KeyboardInterrupt in the consumer terminates the running workers at
    once (they would otherwise sleep for an hour) and the sweep resumes later."""
    exec(compile(SLOW, "slow", "exec"), {})
    monkeypatch.setitem(E.EXPERIMENTS, "slow", E.EXPERIMENTS["slow"])
    monkeypatch.setenv("SWEEP_TEST_HANG", "1")
    import concurrent.futures as cf

    procs = []

    class Recording(cf.ProcessPoolExecutor):
        def shutdown(self, *a, **k):  # the workers, as the interrupted sweep shuts down
            procs.extend((self._processes or {}).values())
            super().shutdown(*a, **k)

    monkeypatch.setattr(cf, "ProcessPoolExecutor", Recording)
    n = []

    def stop(cell):
        n.append(cell)
        if len(n) == 6:
            raise KeyboardInterrupt

    path = write(tmp_path, SLOW_TOML)
    with pytest.raises(KeyboardInterrupt):
        run_sweep(load_config(path), tmp_path / "o", workers=2, progress=False, on_cell=stop)
    assert len(procs) == 2
    for p in procs:
        p.join(timeout=60)  # a hang guard: terminated workers exit at once
    assert all(p.exitcode == -signal.SIGTERM for p in procs)
    assert len(list((tmp_path / "o").glob("cell-*.parquet"))) == 6


# --- 6. fuzz -------------------------------------------------------------------------------

def toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return ("inf" if v > 0 else "-inf") if math.isinf(v) else repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, (datetime.date, datetime.time)):
        return v.isoformat()
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(x)}" for k, x in v.items()) + "}"


def to_toml(data: dict) -> str:
    """TOML text of a dict (tables as [headers], anything else as a top-level key)."""
    top = [f"{json.dumps(k)} = {toml_value(v)}" for k, v in data.items()
           if not isinstance(v, dict)]
    tables = [f"[{json.dumps(k)}]\n" + "".join(f"{json.dumps(a)} = {toml_value(b)}\n"
                                              for a, b in v.items())
              for k, v in data.items() if isinstance(v, dict)]
    return "\n".join(top) + "\n" + "\n".join(tables)


NAME = st.text("abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=10)
SCALAR = st.one_of(st.integers(-10**6, 10**6), st.floats(allow_nan=False), NAME, st.booleans())
GARBAGE = st.recursive(SCALAR, lambda c: st.lists(c, max_size=3) |
                       st.dictionaries(NAME, c, max_size=3), max_leaves=6)
# beyond every bound: 10**19 > 2^63 and every finite upper bound; 10**309 > every float
HUGE = st.integers(19, 1000).flatmap(lambda k: st.sampled_from([10**k, -10**k, 10**k + 1]))
BEYOND_FLOATS = st.integers(309, 1000).flatmap(lambda k: st.sampled_from([10**k, -10**k]))
UNBOUNDED = {"mu", "sigma", "pot", "k"}  # ranges up to inf: a huge integer is a float ...
# values no key accepts: a table, a date, a list holding a table or a nested list, a number
# beyond every range (> 1e308: not even a float), a boolean (typed keys refuse it)
ALWAYS_BAD = st.one_of(
    st.dictionaries(NAME, GARBAGE, max_size=3),
    st.dates(),
    st.lists(GARBAGE, max_size=2).flatmap(
        lambda xs: st.sampled_from([xs + [{"a": 1}], [[xs, [1]]], [{"k": xs}]])),
    st.integers(309, 1000).map(lambda k: 10**k),
    st.booleans(),
)
VALID = {"toy": {"mu": [0, 1.5], "sigma": [1.0], "n": [3, 5]},
         "fp": {"game": ["skp", "kuhn3-third"], "pot": [6, 9], "iterations": [10],
                "schedule": ["alternating"], "averaging": ["infoset"]},
         "simulate": {"pot": [6, 9], "k": [0.01, [0.01, 0.02, 0.03]], "L": [6],
                      "rounds": [1000], "init": [[0.2, 0.3, 0.4]], "n_points": [10],
                      "estimator": ["paper"]}}
NUMERIC = {"toy": ["mu", "sigma", "n"], "fp": ["pot", "iterations"],
           "simulate": ["pot", "k", "L", "rounds", "n_points"]}


@st.composite
def bad_sweep(draw) -> tuple[dict, str]:
    """A valid sweep file with one defect, and a word the message must contain."""
    exp = draw(st.sampled_from(sorted(VALID)))
    keys = draw(st.lists(st.sampled_from(sorted(VALID[exp])), max_size=3, unique=True))
    fixed = {k: VALID[exp][k][0] for k in keys[:1]}
    grid = {k: VALID[exp][k] for k in keys[1:]}
    data: dict = {"sweep": {"experiment": exp, "base_seed": 1}, "fixed": fixed, "grid": grid}
    kind = draw(st.sampled_from(["sweep", "fixed", "grid", "grid_element", "unknown_key",
                                 "unknown_table", "not_table", "huge", "wrong_string"]))
    params = sorted(E.EXPERIMENTS[exp].params)
    if kind == "sweep":
        key = draw(st.sampled_from(["experiment", "output", "base_seed", "replicates",
                                    "description"]))
        data["sweep"][key] = draw(ALWAYS_BAD)
    elif kind in ("fixed", "grid", "grid_element"):
        key = draw(st.sampled_from(params))
        for t in ("fixed", "grid"):
            data[t].pop(key, None)
        bad = draw(ALWAYS_BAD)
        if kind == "fixed":
            data["fixed"][key] = bad
        elif kind == "grid":
            data["grid"][key] = bad if not isinstance(bad, list) else [bad]
        else:
            good = VALID[exp].get(key, [])[:1]
            data["grid"][key] = good + [bad] if draw(st.booleans()) else [bad] + good
    elif kind == "unknown_key":
        table = draw(st.sampled_from(["sweep", "fixed", "grid"]))
        key = draw(NAME.filter(lambda k: k not in params and k not in spec.SWEEP_KEYS))
        data[table][key] = draw(GARBAGE)
    elif kind == "unknown_table":
        key = draw(NAME.filter(lambda k: k not in spec.TABLES))
        data[key] = draw(GARBAGE)
    elif kind == "not_table":
        key = draw(st.sampled_from(["sweep", "fixed", "grid"]))
        data[key] = draw(st.one_of(SCALAR, st.lists(GARBAGE, max_size=3)))
    elif kind == "huge":
        key = draw(st.sampled_from(["base_seed", "replicates"] + NUMERIC[exp]))
        where = "sweep" if key in ("base_seed", "replicates") else draw(
            st.sampled_from(["fixed", "grid"]))
        for t in ("fixed", "grid"):
            data[t].pop(key, None)
        big = draw(BEYOND_FLOATS if key in UNBOUNDED else HUGE)  # ... unless beyond them
        data[where][key] = [big] if where == "grid" else big
    else:  # a string where a number belongs
        key = draw(st.sampled_from(NUMERIC[exp]))
        for t in ("fixed", "grid"):
            data[t].pop(key, None)
        data["grid"][key] = [draw(NAME)]
    return data, key


@settings(max_examples=200, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=bad_sweep())
def test_fuzzed_sweep_files_are_one_line_exit_2(case, tmp_path):
    data, key = case
    text = to_toml(data)
    assert tomllib.loads(text) == data  # the file says what the case means
    inputs = tmp_path / "fuzz"
    inputs.mkdir(exist_ok=True)
    for p in inputs.iterdir():
        p.unlink()
    path = inputs / "f.toml"
    path.write_text(text)
    before = snapshot(inputs)
    run_bad(["sweep", str(path), "--workers=1"], (key,), tmp_path)
    assert snapshot(inputs) == before
