"""Figures as a library (issue 35, points 7 and 10): the figure modules compute through the
library, never a script in a subprocess (so ``reproduce --heavy`` runs from an installed
wheel); importing any module of pokerdyn leaves matplotlib's backend alone (a notebook keeps
its inline plots); every figure module's ``figure()`` returns its matplotlib Figure, which
``main`` saves; ``pd.reproduce`` is what ``pokerdyn reproduce --json`` prints."""
from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import textwrap
import typing
from pathlib import Path

import matplotlib.figure
import pytest

import pokerdyn as pd
import pokerdyn.figures
from pokerdyn.cli import main
from pokerdyn.figures.registry import FIGURES, load

ROOT = Path(__file__).resolve().parents[1]
# registered modules that write tables (markdown) only: no picture, no figure()
TABLES = {"mercer_tables_2p", "mercer_tables_3p", "mercer_table7", "mercer_table8",
          "mercer_epsilon", "mercer_pot", "mercer_strong", "mercer_report"}


def _sources() -> list[Path]:
    """The installed package's figure modules (wherever pokerdyn.figures was installed)."""
    return sorted(p for d in pokerdyn.figures.__path__ for p in Path(d).rglob("*.py"))


def _code_strings(tree: ast.AST) -> list[str]:
    """String constants of ``tree`` other than docstrings."""
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and n.body and isinstance(n.body[0], ast.Expr)
            and isinstance(n.body[0].value, ast.Constant)}
    return [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
            and isinstance(n.value, str) and id(n) not in docs]


def test_no_figure_module_runs_a_subprocess_or_a_benchmark_script():
    """Issue 35 point 7: render.py ran benchmarks/*.py through subprocess (a path into the
    source checkout, absent from a wheel)."""
    sources = _sources()
    assert len(sources) > 40
    for path in sources:
        tree = ast.parse(path.read_text())
        imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import)
                    for a in n.names}
        imported |= {(n.module or "").split(".")[0] for n in ast.walk(tree)
                     if isinstance(n, ast.ImportFrom)}
        assert not imported & {"subprocess", "multiprocessing"}, path
        assert not [s for s in _code_strings(tree) if "benchmarks" in s], path
        assert "sys.executable" not in path.read_text(), path


def test_the_research_scripts_are_thin_and_patch_no_path():
    for name in ("mercer_colluders", "mercer_fp_epsilon", "mercer_strong_readings",
                 "mercer_paper"):
        text = (ROOT / "experiments" / f"{name}.py").read_text()
        assert "sys.path" not in text and not (ROOT / "benchmarks" / f"{name}.py").exists()


def test_importing_every_module_leaves_the_backend_alone():
    """Issue 35 point 10: figures.base forced Agg on import, which turned off a notebook's
    inline plots.  A backend chosen first (svg here; MPLBACKEND unset) stays after every
    module of pokerdyn is imported."""
    script = textwrap.dedent("""
        import importlib, pkgutil, sys
        import matplotlib
        matplotlib.use("svg")
        import pokerdyn
        failed = []
        for m in pkgutil.walk_packages(pokerdyn.__path__, "pokerdyn."):
            if m.name.rsplit(".", 1)[-1] == "__main__":
                continue  # runs the command line
            try:
                importlib.import_module(m.name)
            except ImportError as exc:  # an optional dependency absent here
                failed.append(f"{m.name}: {exc}")
        import matplotlib.pyplot as plt
        print(matplotlib.get_backend(), len(sys.modules), failed, sep="\\n")
    """)
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
    env["PYTHONSAFEPATH"] = "1"  # the installed package, not the source tree
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       env=env, cwd=ROOT, timeout=600)
    assert p.returncode == 0, p.stderr
    backend, n_modules, failed = p.stdout.splitlines()[-3:]
    assert backend == "svg" and int(n_modules) > 300
    assert failed == "[]", failed


@pytest.mark.parametrize("name", list(FIGURES))
def test_every_picture_module_has_a_figure_function_returning_a_figure(name):
    """Static check: ``figure(seed=0, quick=False, ...)`` annotated to return a Figure, and a
    ``main(out_dir, seed, quick)`` beside it; table modules have ``main`` only."""
    import inspect

    mod = load(name)
    assert list(inspect.signature(mod.main).parameters)[:3] == ["out_dir", "seed", "quick"]
    if name in TABLES:
        assert not hasattr(mod, "figure")
        return
    hints = typing.get_type_hints(mod.figure)
    assert issubclass(hints["return"], matplotlib.figure.Figure)
    params = list(typing.get_type_hints(mod.figure))
    assert params[:2] == ["seed", "quick"], params


FAST = ("tournament_fp_hedge", "tournament_chart", "kuhn3_p4_curves", "skp_solutions",
        "mercer_colluders")


@pytest.mark.parametrize("name", FAST)
def test_figure_returns_the_figure_unsaved_and_main_saves_it(name, tmp_path):
    import matplotlib.pyplot as plt

    fig = load(name).figure(quick=True)
    try:
        assert isinstance(fig, matplotlib.figure.Figure)
        assert fig.name and fig.summary and fig.axes
        assert list(tmp_path.iterdir()) == []  # nothing written
        for fmt in ("svg", "pdf"):  # the caller's choice of format
            fig.savefig(tmp_path / f"f.{fmt}")
            assert (tmp_path / f"f.{fmt}").stat().st_size > 1000
    finally:
        plt.close(fig)
    res = load(name).main(tmp_path / "out", quick=True)
    assert res.files[0] == tmp_path / "out" / f"{fig.name}.png" and res.files[0].exists()
    assert (res.name, res.summary, res.source) == (fig.name, fig.summary, fig.source)
    if name != "skp_solutions":  # its numbers hold the seconds the figure took
        assert json.dumps(res.numbers, default=str) == json.dumps(fig.numbers, default=str)


def test_the_heavy_runs_are_library_calls(tmp_path):
    """What `reproduce --heavy` runs, with tiny settings: the colluder count's CFR+ solves
    (resumable JSON, read as the figure reads it), the paper's FP epsilon log and one
    reading of footnote 6."""
    from pokerdyn.figures.mercer import colluders, epsilon, strong
    from pokerdyn.figures.mercer.render import heavy_results

    path, res = heavy_results(colluders.RESULTS, tmp_path, True,
                              lambda p: colluders.run(p, players=(3,), iterations=2, growth=2))
    assert path == tmp_path / "mercer_colluders.json"
    assert set(res) == set(colluders.specs("smh", 3)) and len(res) == 4
    rows = colluders.gains(res, "smh", 3)
    assert [r["kind"] for r in rows] == list(colluders.KINDS)
    for r in rows:  # zero-sum: the colluders' gain is the others' loss
        assert r["gain"] == pytest.approx(r["loss"], abs=1e-9)
    again = colluders.run(path, players=(3,), iterations=2)  # resumes: nothing solved again
    assert again == res
    log = epsilon.fp_epsilon_log("mercer-smh(players=2)", tmp_path / "e.json", check=10,
                                 save=20, max_iterations=30)
    assert log["t"] == [0, 10, 20] and json.loads((tmp_path / "e.json").read_text()) == log
    r = strong.readings("as built", "cfr+", 1.0, ("cards",))
    assert set(r) == {"rules", "method", "none", "cards 1,2", "cards 1,3", "cards 2,3"}
    for pair in ("1,2", "1,3", "2,3"):  # no win sharing: the game stays zero-sum
        assert sum(r[f"cards {pair}"]["payoffs"]) == pytest.approx(0, abs=1e-9)


def test_reproduce_json_is_the_api_result(tmp_path, capsys):
    """`pokerdyn reproduce --json` prints ``pd.reproduce(...).to_dict()``: the API call on
    the same folder resumes from its done.json, so its records are the command's."""
    out = tmp_path / "out"
    args = ["reproduce", "--quick", "--only", "tournament_fp_hedge,mercer_report",
            "--jobs", "1", "--seed", "3", "--out", str(out), "--json"]
    assert main(args) == 0
    printed = json.loads(capsys.readouterr().out)
    r = pd.reproduce(str(out), "tournament_fp_hedge,mercer_report", quick=True, jobs=1, seed=3)
    assert printed == json.loads(json.dumps(r.to_dict()))
    assert r.files == [out / "tournament_fp_hedge.png", out / "mercer_paper.md"]
    assert r.to_text().startswith("wrote 2 figure(s) and ") and len(repr(r)) < 2000
    assert list(r.to_frame()["figure"]) == ["tournament_fp_hedge", "mercer_report"]
    with pytest.raises(pd.GameError, match=r"^unknown figure 'nope'; available: "):
        pd.reproduce(str(out), ["nope"])
    with pytest.raises(pd.GameError, match=r"^only='' names no figure"):
        pd.reproduce(str(out), "")


def test_main_with_heavy_calls_the_library_runs(tmp_path, monkeypatch):
    """The ``heavy`` wiring of the three Mercer modules that ran scripts: each calls its
    library run into the output folder and reads what it wrote (the runs themselves stood in
    for by tiny ones here)."""
    from pokerdyn.figures.mercer import colluders, epsilon, strong

    calls, real = [], colluders.run

    def tiny_colluders(path, players=(3, 4), **kw):
        calls.append(("colluders", tuple(players)))
        if players == (3, 4):  # the 3- and 4-player solves: 3P-SMH, 2 iterations, here
            real(path, players=(3,), iterations=2, growth=2)

    monkeypatch.setattr(colluders, "run", tiny_colluders)
    res = colluders.main(tmp_path, quick=True, heavy=True)
    assert calls == [("colluders", (3, 4)), ("colluders", (5,))]
    assert "Read from mercer_colluders.json" in res.summary
    assert set(json.loads((tmp_path / "mercer_colluders.json").read_text())) == \
        set(colluders.specs("smh", 3))
    assert len(res.numbers) == 3  # 3P-SMH, k = 2, three constraints

    def tiny_strong(path):
        Path(path).write_text(json.dumps({"as built / cfr+": strong.readings(
            "as built", "cfr+", 1.0, ())}))
    monkeypatch.setattr(strong, "run", tiny_strong)
    res = strong.main(tmp_path, heavy=True)
    assert "read from strong_readings.json" in res.summary
    assert (tmp_path / "strong_readings.json").exists()

    logged = []

    def tiny_log(spec, path):
        logged.append(spec)
        Path(path).write_text(json.dumps({"t": [0, 25], "max_regret": [0.5, 0.005],
                                          "nash_conv": [1.0, 0.02], "seconds": 1.0,
                                          "check": 25, "stopped_at": 20}))
    monkeypatch.setattr(epsilon, "fp_epsilon_log", tiny_log)
    res = epsilon.main(tmp_path, quick=True, heavy=True)
    missing = [s for s, (f, _) in epsilon.LOGS.items() if not (epsilon.DATA / f).exists()]
    assert logged == missing and missing
    assert res.numbers[f"{missing[0]}: iterations to max regret < 0.01"] == "20"
