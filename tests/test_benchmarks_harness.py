"""The benchmark harness (issue 35, point 8): one entry point that knows every benchmark
script, one result format that survives a round trip through JSON, BENCHMARKS.md's tables
generated from a result file, and no script that patches ``sys.path``.  Nothing here is
timed: the numbers in the tables come from the result files given."""
from __future__ import annotations

import ast
import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pokerdyn import benchmarking as bm

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks"


# ``python -m benchmarks`` runs from the repository root, whose folder the interpreter puts
# first on the path for -m; conftest's PYTHONSAFEPATH (the -P of the test run) would not.
ENTRY_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONSAFEPATH"}


def _registry() -> dict:
    """benchmarks/__init__.py's BENCHMARKS, read from its file (benchmarks/ is not an
    installed package)."""
    spec = importlib.util.spec_from_file_location("_benchmarks_registry", BENCH / "__init__.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.BENCHMARKS


def _run(tmp_path, name="fp", quick=False, seconds=(2.5e-5, 1.5e-3)) -> bm.BenchmarkRun:
    return bm.BenchmarkRun(
        benchmark=name, argv=["--ref-iterations", "5"], quick=quick,
        date="2026-11-29T12:00:00+00:00", seconds=14.25,
        machine={"python": "3.11.7", "cpu": "Test CPU", "cpus": 2, "numpy": "2.0"},
        measurements=[bm.Measurement("one FP iteration, kuhn3", "pokerdyn", seconds[0],
                                     "plain-Python reference", seconds[1]),
                      bm.Measurement("build | compile", "pokerdyn", 2.0, note="no baseline")])


def test_registry_lists_every_benchmark_script():
    """Every timing script of benchmarks/ is registered, and every registered file exists."""
    files = {v[0] for v in _registry().values()}
    on_disk = {p.name for p in BENCH.glob("bench_*.py")} | {"conformance_gambit.py"}
    assert files == on_disk
    assert len(set(_registry())) == len(files)


@pytest.mark.parametrize("file", sorted({v[0] for v in _registry().values()}))
def test_each_script_goes_through_the_harness(file):
    """Each registered script has main(argv), a QUICK argument list and runs as
    ``script_main(main)``, importing the harness from the installed package."""
    tree = ast.parse((BENCH / file).read_text(encoding="utf-8"))
    top = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert "main" in top and top["main"].args.args, "main(argv) expected"
    assigned = {t.id for n in tree.body if isinstance(n, (ast.Assign, ast.AnnAssign))
                for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
                if isinstance(t, ast.Name)}
    assert "QUICK" in assigned
    guard = [n for n in tree.body if isinstance(n, ast.If) and "__main__" in ast.unparse(n.test)]
    assert guard and ast.unparse(guard[-1].body[0]) == "script_main(main)"
    assert any(isinstance(n, ast.ImportFrom) and n.module == "pokerdyn.benchmarking"
               for n in tree.body)


def test_entry_point_lists_them():
    out = subprocess.run([sys.executable, "-m", "benchmarks", "list"], cwd=ROOT,
                         env=ENTRY_ENV, capture_output=True, text=True, check=True).stdout
    names = [line.split()[0] for line in out.splitlines() if line.strip()]
    assert names == list(_registry())


def test_measurement_ratio_and_dict():
    m = bm.Measurement("x", "pokerdyn", 0.5, "baseline", 2.0)
    assert m.ratio == 4.0
    assert m.to_dict() == {"timed": "x", "candidate": "pokerdyn", "candidate_s": 0.5,
                           "baseline": "baseline", "baseline_s": 2.0, "ratio": 4.0, "note": ""}
    alone = bm.Measurement("y", "pokerdyn", 1.0)
    assert alone.ratio is None and "ratio" not in alone.to_dict()


def test_result_format_round_trips(tmp_path):
    runs = [_run(tmp_path), _run(tmp_path, "cfr", quick=True)]
    path = tmp_path / "results.json"
    bm.save(runs, path)
    data = json.loads(path.read_text())
    assert data["format"] == bm.FORMAT
    assert set(data["runs"][0]) == {"benchmark", "argv", "quick", "date", "seconds",
                                    "machine", "measurements"}
    assert data["runs"][0]["measurements"][0]["ratio"] == pytest.approx(60.0)
    assert bm.load(path) == runs


def test_load_refuses_another_format(tmp_path):
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"rows": []}))
    with pytest.raises(ValueError, match="not a benchmark result file"):
        bm.load(path)


def test_markdown_table_from_a_result():
    table = bm.markdown(_run(None))
    lines = table.splitlines()
    assert lines[0].startswith("**fp** (`python -m benchmarks fp -- --ref-iterations 5`; "
                               "2026-11-29T12:00:00+00:00; Test CPU, 2 CPUs, Python 3.11.7;"
                               " 14.2 s)")
    assert lines[2] == "| timed | candidate | seconds | baseline | seconds | ratio | note |"
    assert lines[4] == ("| one FP iteration, kuhn3 | pokerdyn | 25.00 us | plain-Python "
                        "reference | 1.50 ms | 60.0x |  |")
    assert lines[5] == "| build \\| compile | pokerdyn | 2.00 s |  |  |  | no baseline |"


def test_generator_rewrites_only_the_marked_section(tmp_path):
    """A file without the section gets it at the end; a second result replaces that
    benchmark's table and keeps the others; text outside the markers is untouched."""
    doc = "# pokerdyn benchmarks\n\nHand-written text.\n"
    first = bm.update_markdown(doc, [_run(tmp_path), _run(tmp_path, "cfr")])
    assert first.startswith(doc.rstrip("\n"))
    section = first[first.index(bm.BEGIN):first.index(bm.END)]
    assert section.count("<!-- benchmark:fp -->") == 1 and "<!-- benchmark:cfr -->" in section
    again = bm.update_markdown(first + "\nAfter.\n", [_run(tmp_path, seconds=(1e-5, 1e-3))])
    assert again.count("<!-- benchmark:fp -->") == 1
    assert "| 100x |" in again and "| 60.0x |" in again   # fp replaced, cfr kept
    assert again.endswith("\nAfter.\n") and again.startswith(doc.rstrip("\n"))
    assert bm.update_markdown(again, []) == again


def test_entry_point_writes_tables_from_a_result_file(tmp_path):
    results, md = tmp_path / "r.json", tmp_path / "B.md"
    bm.save([_run(tmp_path)], results)
    md.write_text("# B\n")
    subprocess.run([sys.executable, "-m", "benchmarks", "--table", str(results), "--markdown",
                    str(md)], cwd=ROOT, env=ENTRY_ENV, check=True, capture_output=True)
    text = md.read_text()
    assert bm.markdown(_run(tmp_path)) in text and text.startswith("# B\n")


def test_run_script_collects_a_scripts_measurements(tmp_path):
    """A script run through the harness (own process, QUICK first) hands back its record;
    the same script run alone prints and writes nothing else."""
    script = tmp_path / "bench_tiny.py"
    script.write_text(textwrap.dedent('''
        from pokerdyn.benchmarking import Measurement, script_main

        QUICK = ["--n", "3"]


        def main(argv=None):
            n = int(argv[argv.index("--n") + 1]) if argv and "--n" in argv else 1
            print("tiny", argv)
            return [Measurement(f"n={n}", "pokerdyn", 0.5, "baseline", 1.0)]


        if __name__ == "__main__":
            script_main(main)
    '''))
    run = bm.run_script("tiny", script, ["--extra"], quick=True)
    assert run.benchmark == "tiny" and run.quick and run.argv == ["--n", "3", "--extra"]
    assert run.measurements == [bm.Measurement("n=3", "pokerdyn", 0.5, "baseline", 1.0)]
    assert run.machine["python"] == ".".join(map(str, sys.version_info[:3]))
    alone = subprocess.run([sys.executable, str(script), "--n", "2"], capture_output=True,
                           text=True, check=True)
    assert alone.stdout == "tiny ['--n', '2']\n"


def _path_patches(path: Path) -> list[str]:
    """Every statement of a file that changes sys.path (insert, append, extend, assignment,
    site.addsitedir)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        text = ast.unparse(node) if isinstance(node, (ast.Call, ast.Assign, ast.AugAssign)) \
            else ""
        if isinstance(node, ast.Call) and (text.startswith(("sys.path.", "site.addsitedir"))):
            out.append(f"{path.name}:{node.lineno}: {text}")
        elif isinstance(node, (ast.Assign, ast.AugAssign)) and "sys.path" in text.split("=")[0]:
            out.append(f"{path.name}:{node.lineno}: {text}")
    return out


def test_nothing_patches_sys_path():
    files = sorted(BENCH.rglob("*.py")) + sorted((ROOT / "experiments").rglob("*.py"))
    assert len(files) > 20
    assert [p for f in files for p in _path_patches(f)] == []


def test_the_check_sees_a_patch(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import sys\nsys.path.insert(0, '..')\nsys.path += ['x']\n")
    assert len(_path_patches(bad)) == 2
