"""Issue 33, area E: interrupts, resume files and atomic output outside the sweep.

SIGINT and SIGTERM stop a command within seconds, keep what it finished and exit 130 / 143
(pokerdyn.cli); `reproduce --jobs N` terminates its workers instead of waiting for the
figures they draw and records each figure as it finishes (done.json), so the next run
computes only the rest; a done.json or --state file of the wrong kind is named in one line
(done.json, a cache: discarded with a warning; --state: exit 2) before any work.

The subprocess tests use stand-in figure modules written to tmp_path (one that blocks until
it is killed): the assertions are on exit codes and files, the waits' timeouts only guard
against a hang.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from hostile import run_bad, snapshot
from pokerdyn.cli import main

ROOT = Path(__file__).resolve().parents[1]
HANG_GUARD_S = 180  # a hung command fails the test here; no assertion is on the time

FIGS = {  # stand-in figures, one package each, so that each is a group of its own
    "fake_a": "fakefigs.one.a", "fake_b": "fakefigs.two.b", "fake_hang": "fakefigs.three.hang",
}
FAKE = '''
import os
from pathlib import Path
from types import SimpleNamespace

from pokerdyn.games.io.files import write_atomically


def main(out_dir, seed=0, quick=False):
    path = Path(out_dir) / "{name}.png"
    write_atomically(path, lambda tmp: tmp.write_bytes(b"png {name}"))
    return SimpleNamespace(files=(path,), summary="{name}", numbers={{"seed": seed}}, source="")
'''
HANG = '''
import os
import time
from pathlib import Path

from pokerdyn.games.io.files import write_atomically


def main(out_dir, seed=0, quick=False):
    """Start writing its file, say so (a marker beside the output folder), and block there
    until killed: a figure in the middle of its work."""
    def write(tmp):
        tmp.write_bytes(b"half")
        (Path(out_dir).parent / "hang.started").write_text(str(os.getpid()))
        while True:
            time.sleep(0.05)
    write_atomically(Path(out_dir) / "fake_hang.png", write)
'''


@pytest.fixture
def fakefigs(tmp_path, monkeypatch):
    """The stand-in figure package on sys.path (here and in subprocesses) and registered."""
    import pokerdyn.figures.registry as registry

    pkg = tmp_path / "lib" / "fakefigs"
    for sub, mod in (("one", "a"), ("two", "b"), ("three", "hang")):
        (pkg / sub).mkdir(parents=True)
        (pkg / sub / "__init__.py").write_text("")
        (pkg / sub / f"{mod}.py").write_text(HANG if mod == "hang" else
                                             FAKE.format(name=f"fake_{mod}"))
    (pkg / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path / "lib"))
    for k, v in FIGS.items():
        monkeypatch.setitem(registry.FIGURES, k, v)
    return tmp_path / "lib"


def _env(lib: Path | None = None) -> dict:
    """The environment of a child python: the installed package (never the source tree,
    issue 35), plus the stand-in figure package ``lib`` when given."""
    return {**os.environ, "PYTHONPATH": str(lib) if lib else "", "PYTHONSAFEPATH": "1"}


def _wait_for(cond, proc, what: str) -> None:
    """Poll ``cond`` while the process runs (a hang guard, no assertion on the time)."""
    end = time.monotonic() + HANG_GUARD_S
    while not cond():
        assert proc.poll() is None, f"the command ended before {what}: {proc.communicate()}"
        assert time.monotonic() < end, f"no {what} within {HANG_GUARD_S} s"
        time.sleep(0.1)


def _done(out: Path) -> dict:
    try:
        return json.loads((out / "done.json").read_text())
    except (OSError, ValueError):
        return {}


@pytest.mark.parametrize("sig, code, word", [(signal.SIGINT, 130, "interrupted"),
                                             (signal.SIGTERM, 143, "terminated")])
def test_an_interrupted_reproduce_keeps_what_it_finished_and_resumes_the_rest(
        fakefigs, tmp_path, monkeypatch, sig, code, word):
    """Defect 1: two figures finish, the third is being drawn on a worker process; the
    signal stops the run (the worker is terminated, not waited for: that figure never
    ends), exit 130 / 143, done.json lists the two finished ones, no report and no
    temporary of the figure cut off; the next run computes that figure only."""
    out = tmp_path / "out"
    script = textwrap.dedent(f"""
        import sys
        import pokerdyn.figures.registry as r
        r.FIGURES.update({FIGS!r})
        sys.argv = ["pokerdyn", "reproduce", "--quick", "--only", "fake_a,fake_b,fake_hang",
                    "--jobs", "2", "--out", {str(out)!r}]
        from pokerdyn.cli import main
        sys.exit(main())
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], env=_env(fakefigs), text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        _wait_for(lambda: (tmp_path / "hang.started").exists()
                  and set(_done(out)) == {"fake_a", "fake_b"}, proc,
                  "two figures done and the third started")
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=HANG_GUARD_S)
    finally:
        proc.kill()
    assert proc.returncode == code, err
    assert err.strip().splitlines()[-1] == f"pokerdyn: {word}"
    assert set(_done(out)) == {"fake_a", "fake_b"}
    assert sorted(p.name for p in out.iterdir()) == ["done.json", "fake_a.png", "fake_b.png"]
    hang_pid = int((tmp_path / "hang.started").read_text())
    with pytest.raises(ProcessLookupError):  # the worker drawing it is gone
        os.kill(hang_pid, 0)

    import pokerdyn.api.reproduce as rp

    ran = []

    def fake_run(name, out_dir, seed, quick, heavy=False, module=None):
        ran.append(name)
        (Path(out_dir) / f"{name}.png").write_bytes(b"png")
        return {"files": [f"{name}.png"], "summary": name, "numbers": {}, "source": "",
                "seconds": 0.0}

    monkeypatch.setattr(rp, "run_figure", fake_run)
    assert main(["reproduce", "--quick", "--only", "fake_a,fake_b,fake_hang", "--jobs", "1",
                 "--out", str(out)]) == 0
    assert ran == ["fake_hang"]
    assert set(_done(out)) == set(FIGS) and (out / "report.md").exists()


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_figure_that_swallows_the_interrupt_still_stops_the_run(fakefigs, tmp_path, capsys):
    """Defect 4: Python cannot raise KeyboardInterrupt out of a weakref callback ("Exception
    ignored in ...") and the run went on to exit 0; now it stops before the next figure,
    keeps the one finished and exits 130."""
    mod = fakefigs / "fakefigs" / "swallow.py"
    mod.write_text(FAKE.format(name="fake_swallow").replace(
        "def main(out_dir, seed=0, quick=False):\n", textwrap.dedent('''
        def main(out_dir, seed=0, quick=False):
            import signal
            import weakref

            class Thing:
                pass

            thing = Thing()
            ref = weakref.ref(thing, lambda _: signal.getsignal(signal.SIGINT)(signal.SIGINT,
                                                                              None))
            del thing  # the callback runs the SIGINT handler: its exception is swallowed
            assert ref() is None
        ''')))
    import pokerdyn.figures.registry as registry

    registry.FIGURES["fake_swallow"] = "fakefigs.swallow"
    try:
        out = tmp_path / "out"
        code = main(["reproduce", "--only", "fake_swallow,fake_a", "--jobs", "1",
                     "--out", str(out)])
    finally:
        del registry.FIGURES["fake_swallow"]
    err = capsys.readouterr().err
    assert code == 130 and err.strip().splitlines()[-1] == "pokerdyn: interrupted"
    assert list(_done(out)) == ["fake_swallow"]
    assert not (out / "fake_a.png").exists() and not (out / "report.md").exists()


def test_sigterm_raises_in_the_command_and_the_handlers_are_put_back(monkeypatch, capsys):
    """Defect 4: SIGTERM is a KeyboardInterrupt-like exception in the command (its finally
    blocks run), exit 143; main() leaves the process's handlers as it found them."""
    import pokerdyn.commands.games as games_cmd

    seen = []

    def run(args):
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(10**6):  # the handler raises at the next bytecode
                time.sleep(0)
        finally:
            seen.append("finally")
        return 0

    before = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    monkeypatch.setattr(games_cmd, "run", run)
    assert main(["games"]) == 143
    assert seen == ["finally"]
    assert capsys.readouterr().err.strip().splitlines()[-1] == "pokerdyn: terminated"
    assert (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)) == before


def test_a_signal_during_a_native_call_still_ends_the_process(tmp_path):
    """Defect 4: the Python handler cannot run while native code holds the interpreter (a
    numba kernel; here a long builtin sum): the watchdog kills the process GRACE_S seconds
    after the signal (here 1) instead of minutes later, when the call returns."""
    # "started" is written from inside the native loop (os.write called by sum's iterator,
    # no Python bytecode between them), so the signal comes while it runs
    script = textwrap.dedent("""
        import itertools, os, sys
        sys.argv = ["pokerdyn", "games"]
        import pokerdyn.commands.games as g
        g.run = lambda args: sum(itertools.chain(
            itertools.starmap(os.write, [(1, b"started\\n")]), range(10**13)))
        import pokerdyn.cli as cli
        cli.GRACE_S = 1.0
        sys.exit(cli.main())
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], env=_env(), text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdout.readline().strip() == "started"
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=HANG_GUARD_S)
    finally:
        proc.kill()
        proc.communicate()
    assert proc.returncode == -signal.SIGKILL


def test_a_normal_run_leaves_no_watchdog_behind():
    """The watchdog process of an entry-point run is reaped when the command ends."""
    script = ("import os, sys; sys.argv = ['pokerdyn', 'games']; from pokerdyn.cli import main\n"
              "code = main()\n"
              "try:\n    os.waitpid(-1, os.WNOHANG); print('a child is left')\n"
              "except ChildProcessError:\n    print('no child')\n"
              "sys.exit(code)")
    res = subprocess.run([sys.executable, "-c", script], env=_env(), text=True,
                         capture_output=True, timeout=HANG_GUARD_S)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip().splitlines()[-1] == "no child"


# --- resume files of the wrong kind (defect 2) -------------------------------------------

BAD_JSON = [b'{"fake_a": 5}', b"5", b"[1, 2]", b"", b"\xff\xfe{", b"{not json",
            b'{"fake_a": {"mode": {"quick": false, "seed": 0}, "files": ["../x.png"], '
            b'"summary": "", "numbers": {}, "source": "", "seconds": 1, "command": ""}}']


@pytest.mark.parametrize("content", BAD_JSON)
def test_a_done_json_of_the_wrong_kind_is_discarded_with_a_warning(fakefigs, tmp_path, capsys,
                                                                   content):
    """A done.json that is no record of finished figures (wrong type, not JSON, not
    UTF-8, empty, a file outside the folder) crashed reproduce or gave a bare JSON error:
    it is this command's cache, so it is discarded with one warning line naming it and the
    figures are computed again."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "done.json").write_bytes(content)
    assert main(["reproduce", "--only", "fake_a", "--jobs", "1", "--out", str(out)]) == 0
    err = [ln for ln in capsys.readouterr().err.splitlines() if "warning" in ln]
    assert len(err) == 1 and str(out / "done.json") in err[0] and "computed again" in err[0]
    rec = _done(out)["fake_a"]
    assert rec["files"] == ["fake_a.png"] and rec["mode"] == {"quick": False, "seed": 0}


def test_a_done_json_keeps_its_good_records(fakefigs, tmp_path, monkeypatch, capsys):
    """Only the invalid record is dropped: the figure with a good one is not redone."""
    import pokerdyn.api.reproduce as rp

    out = tmp_path / "out"
    assert main(["reproduce", "--only", "fake_a", "--jobs", "1", "--out", str(out)]) == 0
    done = _done(out)
    done["fake_b"] = {"mode": "quick"}
    (out / "done.json").write_text(json.dumps(done))
    ran = []
    real = rp.run_figure
    monkeypatch.setattr(rp, "run_figure", lambda n, *a, **k: ran.append(n) or real(n, *a, **k))
    assert main(["reproduce", "--only", "fake_a,fake_b", "--jobs", "1", "--out", str(out)]) == 0
    assert ran == ["fake_b"] and "'fake_b'" in capsys.readouterr().err


BAD_STATES = ["5", "[]", "", "\ufeff{", '"pots"', '{"pots": 5}', '{"pots": {"abc": []}}',
              '{"pots": {"-1": []}}', '{"pots": {"5/2": [1]}}', '{"pots": {"5/2": "ab"}}',
              '{"pots": {}, "undecided": []}', '{"pots": {}, "undecided": {"3": [["a"]]}}',
              '{"pots": {}, "undecided": {}, "extra": [1]}', '{"pots": {}, "other": 1}',
              '{"5/2": 7}']


@pytest.fixture
def no_build(monkeypatch):
    """A game build is an error here: the checks must come before it."""
    import pokerdyn.api.inputs as inputs
    import pokerdyn.commands.common as common

    for module in (common, inputs):  # the command line's name and the front door's own
        monkeypatch.setattr(module, "load_game", lambda *a, **k: pytest.fail("game built"))


@pytest.mark.parametrize("content", BAD_STATES)
def test_a_state_file_of_the_wrong_kind_is_one_line_before_any_work(tmp_path, no_build,
                                                                    content):
    """A --state of the wrong JSON type crashed equilibria (5: TypeError) or gave a bare
    JSON error: one line naming the file and what is allowed, exit 2, before the game's
    build, and the file is left as it was."""
    state = tmp_path / "in" / "state.json"
    state.parent.mkdir()
    state.write_text(content, encoding="utf-8")
    before = snapshot(state.parent)
    run_bad(["equilibria", "kuhn3-full-simplified", "--state", str(state)], (str(state),),
            tmp_path)
    assert snapshot(state.parent) == before


def test_a_state_file_that_is_not_utf8_is_named(tmp_path, no_build):
    state = tmp_path / "state.json"
    state.write_bytes(b"\xff\xfe\x00")
    run_bad(["equilibria", "kuhn3-full-simplified", "--state", str(state)], (str(state),),
            tmp_path)


def test_a_bad_proof_state_is_one_line_before_any_work(tmp_path, no_build):
    """--prove-complete resumes from STATE.complete.json: checked up front as well."""
    proof = tmp_path / "s.json.complete.json"
    proof.write_text('{"leaves": 3}')
    run_bad(["equilibria", "kuhn3-full-simplified", "--prove-complete", "--state",
             str(tmp_path / "s.json")], (str(proof),), tmp_path)


@pytest.mark.parametrize("where", ["file/state.json", "dir"])
def test_a_state_path_that_cannot_be_written_is_refused_up_front(tmp_path, no_build, where):
    """Defect 3: a --state that cannot be written failed only after the first pot."""
    (tmp_path / "file").write_text("x")
    (tmp_path / "dir").mkdir()
    run_bad(["equilibria", "kuhn3-full-simplified", "--state", str(tmp_path / where)],
            ("state",), tmp_path)


def test_the_state_is_written_atomically_into_a_new_folder_and_resumed(tmp_path, monkeypatch):
    """Defect 3: --state in a missing folder works (the folder is made on the first
    write, as for every output file); each pot's state is written atomically as it is
    done, so an interrupted run leaves the state of its finished pots and no temporary,
    and the next run starts from them."""
    import pokerdyn.solvers.symbolic.model.dominance as dominance
    import pokerdyn.solvers.symbolic.axis.sweep as sw

    from pokerdyn.commands.exact.equilibrium_axis import run_axis

    game = SimpleNamespace(name="fake", named=list("abcdefghijklmnopqrstuvwxyz"))
    monkeypatch.setattr(dominance, "reduce_game", lambda g: dict.fromkeys(g.named, 0))
    seen = []

    def interrupted_sweep(game, fixed, low, high, start, progress, done, **kw):
        seen.append(dict(done))
        done["5/2"] = ["cab"]
        progress("5/2")
        raise KeyboardInterrupt

    monkeypatch.setattr(sw, "sweep", interrupted_sweep)
    state = tmp_path / "new" / "deeper" / "state.json"
    args = SimpleNamespace(pots=None, state=str(state), json=True, workers=1,
                           prove_complete=False)
    for _ in range(2):
        with pytest.raises(KeyboardInterrupt):
            run_axis(game, args)
    assert seen == [{}, {"5/2": ["cab"]}]
    assert json.loads(state.read_text())["pots"] == {"5/2": ["cab"]}
    assert [p.name for p in state.parent.iterdir()] == ["state.json"]


# --- outputs written together or not at all (defect 5) -----------------------------------

@pytest.mark.parametrize("name", ["report.md", "done.json"])
def test_reproduce_refuses_an_output_it_cannot_write_before_any_figure(tmp_path, monkeypatch,
                                                                       name):
    """The report (written last) or done.json being a folder failed after every figure
    was drawn: refused before the first, one line, exit 2."""
    import pokerdyn.api.reproduce as rp

    monkeypatch.setattr(rp, "run_figure", lambda *a, **k: pytest.fail("a figure ran"))
    out = tmp_path / "out"
    (out / name).mkdir(parents=True)
    before = snapshot(out)
    run_bad(["reproduce", "--only", "river_strategy_tree", "--out", str(out)], (name,),
            tmp_path)
    assert snapshot(out) == before


def test_the_temporaries_of_a_killed_writer_are_removed(tmp_path):
    """A worker killed between write and rename leaves `.NAME.tmp-PID.SUFFIX`: reproduce
    removes those of its terminated workers (games.io.files.remove_temporaries), and only
    those."""
    from pokerdyn.games.io.files import remove_temporaries, write_atomically

    (tmp_path / "sub").mkdir()
    mine = [tmp_path / ".fig.tmp-4242.png", tmp_path / "sub" / ".p.tmp-4242.npy",
            tmp_path / ".noext.tmp-4242"]
    others = [tmp_path / ".fig.tmp-42420.png", tmp_path / "fig.png", tmp_path / ".x.tmp-1.png"]
    for p in mine + others:
        p.write_text("x")
    assert sorted(remove_temporaries(tmp_path, 4242)) == sorted(mine)
    assert all(p.exists() for p in others) and not any(p.exists() for p in mine)
    # the names are those write_atomically gives its temporaries
    names = []
    write_atomically(tmp_path / "a.b.json", lambda tmp: names.append(tmp.name) or
                     tmp.write_text("{}"))
    assert names == [f".a.b.tmp-{os.getpid()}.json"]


def test_an_interrupted_forked_map_does_not_wait_for_its_running_items(tmp_path):
    """The whole-axis enumeration's forked workers (an exact solve runs minutes) are
    terminated on an interrupt, not waited for: no item finishes after it."""
    script = textwrap.dedent(f"""
        import os, signal, sys, time
        from pathlib import Path
        from pokerdyn.solvers.symbolic.axis.forked_map import forked_map

        # Python keeps SIGINT ignored when it starts with it ignored (a job started with &
        # from a script: the suite run in the background); pokerdyn.cli sets its handler
        signal.signal(signal.SIGINT, signal.default_int_handler)

        def slow(k):
            Path({str(tmp_path)!r}, f"started-{{os.getpid()}}").write_text("")
            time.sleep(60)
            Path({str(tmp_path)!r}, "finished").write_text("")

        try:
            list(forked_map(slow, [1, 2, 3, 4], 2))
        except KeyboardInterrupt:
            sys.exit(130)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], env=_env(), text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        _wait_for(lambda: len(list(tmp_path.glob("started-*"))) == 2, proc, "two items started")
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=HANG_GUARD_S)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert not (tmp_path / "finished").exists()
    for p in tmp_path.glob("started-*"):
        with pytest.raises(ProcessLookupError):
            os.kill(int(p.name.split("-")[1]), 0)
