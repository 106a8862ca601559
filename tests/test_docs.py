"""The documentation is tested (issue 36): the README's code runs as written, the Sphinx site
builds with warnings as errors and nitpicky references while executing every tutorial and
how-to notebook, a deliberately broken example fails that build, every public function has a
docstring, the built pages render in headless Chromium (skipped, saying why, where
Debian's ``chromium`` is not installed), and every code block of the project notes says what
it is: run here (its output checked where the page shows it), or not run with its flags
checked against today's command line, or recorded output; BENCHMARKS.md keeps the current
tables and its history is a page of the docs.

The site build needs the ``docs`` extra (``pip install ".[docs]"``, as ``.ci/run`` does);
without Sphinx and MyST-NB those tests are skipped with that message.
"""
from __future__ import annotations

import importlib
import inspect
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = ROOT / "README.md"
SCREENSHOTS = Path(os.environ.get("POKERDYN_SCREENSHOTS", ROOT / "docs" / "_build" / "screenshots"))

# the former README's sections (up to 2026-11-29), each now a page of the project notes
FORMER_SECTIONS = (
    'From Python: `import pokerdyn as pd`',
    'On a fresh machine',
    'The command line',
    'The Python API',
    'Layout',
    'Tournament endgames: ICM and jam/fold (issue 13)',
    "Selby's preflop hold'em (issue 13)",
    "Games from rules: the hold'em builder (issue 12)",
    "Mercer Hold'em against the paper",
    'The river game, LP, hedge and CFR+ (issue 6)',
    'Parameter sweeps (issue 5)',
    'ODE dynamics of adaptive players (issue 4)',
    'Repeated play with estimator-based players (issue 5)',
    'Repeated play and agent-based experiments (issue 5)',
    'Equilibrium enumeration (issue 3)',
    'Dominance, export to Gambit, maxmin (issue 3)',
    'Equilibria over all pot sizes (issue 3)',
    'Dynamics of full-street simplified 3-player Kuhn poker (issue 14)',
    'Quantal response: the logit QRE branch and the equilibrium it selects',
    'Learning dynamics and the precision of observed play (issue 15)',
    'Equilibrium branches in the pot by continuation (issue 14)',
    'Two-player general-sum games: the sequence-form LCP',
    "The reduced normal form and Gambit's .nfg (issue 16)",
    '3-seat jam/fold over the 169 classes: multi-way equities certified (issue 13)',
    'Full-street simplified 3-player Kuhn poker (issue 14, in progress)',
    'The equilibrium set of 3-player Kuhn poker (issue 14)',
    "Mercer's hold'em paper, whole (issue 16)",
    'N-card continuation over the whole pot range; the mid-range bet (issue 14)',
    'Issue 16, loose ends: footnote 6, blind versus blind, every Lemke start, tournament figures',
    'Full-street simplified 3-player Kuhn poker: the ODE claims settled with numbers (issue 14)',
    'Quantal response on kuhn3: precision far out, the end game, the pot axis, stability (issue 15)',
    "Mercer Hold'em with 5 players: the board collapse and the colluder count (issue 16)",
    'Full-street simplified 3-player Kuhn poker: every equilibrium piecewise in P (issue 14)',
)


def _blocks(text: str, lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", text, re.S | re.M)


# --- the README ------------------------------------------------------------------------------

def test_readme_is_short_and_gives_the_two_fresh_machine_commands():
    text = README.read_text()
    assert len(text.splitlines()) <= 250
    bash = "\n".join(_blocks(text, "bash"))
    assert "pip install . && pokerdyn reproduce --quick" in bash
    assert 'pip install ".[test,docs]" && python -P -m pytest -q -n auto --dist loadfile' in bash
    ci = (ROOT / ".ci" / "run").read_text()
    assert "python -P -m pytest -q -p no:cacheprovider -n auto --dist loadfile" in ci
    assert '"$repo[test,docs]"' in ci


def test_readme_python_runs_as_written(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    blocks = _blocks(README.read_text(), "python")
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {"__name__": "__readme__"})  # noqa: S102
    out = capsys.readouterr().out
    assert "P = 5:" in out and "b_J free in [0, 1/3]" in out  # what its comments promise
    assert "32.2" in out


def test_readme_commands_run_as_written(tmp_path):
    lines = [ln[2:] for b in _blocks(README.read_text(), "console") for ln in b.splitlines()
             if ln.startswith("$ ")]
    assert len(lines) >= 5
    exe = Path(sys.executable).with_name("pokerdyn")
    for line in lines:
        argv = line.split()
        assert argv[0] == "pokerdyn", line
        run = subprocess.run([str(exe) if exe.exists() else "pokerdyn", *argv[1:]], cwd=tmp_path,
                             capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, f"{line}: {run.stderr[-500:]}"
        assert run.stdout.strip(), line


def test_every_former_readme_section_is_a_notes_page():
    titles = {p.read_text().splitlines()[0][2:] for p in (DOCS / "explanation" / "notes").glob("*.md")
              if p.name != "index.md"}
    missing = [t for t in FORMER_SECTIONS if t not in titles]
    assert not missing, missing
    index = (DOCS / "explanation" / "notes" / "index.md").read_text()
    pages = [p.stem for p in (DOCS / "explanation" / "notes").glob("*.md") if p.name != "index.md"]
    assert all(f"\n{p}\n" in index for p in pages)


def test_benchmarks_md_keeps_the_current_tables_and_its_history_is_a_docs_page():
    """BENCHMARKS.md: the current measurement of each benchmark and the harness's generated
    tables; the earlier runs are the documentation's benchmark history (issue 36)."""
    from pokerdyn.benchmarking import BEGIN, END

    text = (ROOT / "BENCHMARKS.md").read_text()
    assert text.count(BEGIN) == 1 and text.count(END) == 1 and text.index(BEGIN) < text.index(END)
    assert "docs/explanation/benchmark_history.md" in text
    assert len(text.splitlines()) < 1000
    history = (DOCS / "explanation" / "benchmark_history.md").read_text()
    assert history.startswith("# Benchmark history\n") and BEGIN not in history
    assert "\nexplanation/benchmark_history\n" in (DOCS / "index.md").read_text()


def test_the_three_jobs_are_one_click_from_the_home_page():
    home = (DOCS / "index.md").read_text()
    for page in ("tutorials/kuhn3_third", "tutorials/adaptive_players", "tutorials/agent_based"):
        assert f"{{doc}}`{page}`" in home.split("```{toctree}")[0], page


# --- docstrings ------------------------------------------------------------------------------

def _public(module_name: str) -> list[tuple[str, object]]:
    mod = importlib.import_module(module_name)
    return [(f"{module_name}.{n}", getattr(mod, n)) for n in getattr(mod, "__all__", [])
            if not n.startswith("_")]


def test_every_public_function_has_a_docstring():
    """The front door, and the names the subpackages export: a docstring each; the front
    door's with parameters, returns and an example (the reference renders them)."""
    import pokerdyn as pd

    names = [(f"pokerdyn.{n}", getattr(pd, n)) for n in pd.__all__ if n != "__version__"]
    for sub in ("pokerdyn.games", "pokerdyn.solvers", "pokerdyn.dynamics"):
        names += _public(sub)
    bare = [n for n, obj in names if (inspect.isfunction(obj) or inspect.isclass(obj))
            and not (obj.__doc__ or "").strip()]
    assert not bare, f"no docstring: {bare}"
    for n in pd.__all__:
        obj = getattr(pd, n)
        if inspect.isfunction(obj):
            for section in ("Parameters", "Returns", "Examples"):
                assert f"{section}\n    ---" in obj.__doc__, f"pokerdyn.{n}: no {section}"


def test_every_command_is_in_the_reference():
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        import pokerdyn_docs
    finally:
        sys.path.pop(0)
    from pokerdyn.cli import COMMANDS

    page = pokerdyn_docs.cli_page()
    assert all(f"## `pokerdyn {c}`" in page for c in COMMANDS)
    assert set(pokerdyn_docs.EXAMPLES) == set(COMMANDS)
    api = (DOCS / "reference" / "api.md").read_text()
    import pokerdyn as pd
    assert all(f"pokerdyn.{n}\n" in api for n in pd.__all__ if n != "__version__")


# --- the site --------------------------------------------------------------------------------

def _sphinx(src: Path, out: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    pytest.importorskip("sphinx", reason="the docs build needs the docs extra: pip install '.[docs]'")
    pytest.importorskip("myst_nb", reason="the docs build needs the docs extra: pip install '.[docs]'")
    return subprocess.run([sys.executable, "-m", "sphinx", "-W", "-n", "-q", "-b", "html",
                           str(src), str(out)], capture_output=True, text=True, timeout=1500,
                          env={**os.environ, **(env or {})})


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The whole site, built once with -W -n (every notebook executed)."""
    src = tmp_path_factory.mktemp("docs-src") / "docs"
    shutil.copytree(DOCS, src, ignore=shutil.ignore_patterns("_build", "jupyter_execute",
                                                             "generated"))
    out = tmp_path_factory.mktemp("docs-html")
    run = _sphinx(src, out)
    assert run.returncode == 0, (run.stdout + run.stderr)[-4000:]
    return out


def test_the_site_builds_with_every_tutorial_executed(site):
    for page in ("index", "tutorials/first_steps", "tutorials/kuhn3_third",
                 "tutorials/adaptive_players", "tutorials/agent_based",
                 "tutorials/games_from_rules", "tutorials/tournaments",
                 "tutorials/quantal_response", "reference/api", "reference/cli",
                 "reference/catalog", "reference/json_keys", "explanation/papers",
                 "explanation/papers/billingham", "explanation/papers/mercer"):
        assert (site / f"{page}.html").exists(), page
    kuhn = (site / "tutorials" / "kuhn3_third.html").read_text()
    assert "(5 + sqrt(73))/2" in kuhn and "b_J free in [0, 1/3]" in kuhn  # executed output
    adaptive = (site / "tutorials" / "adaptive_players.html").read_text()
    assert "Floquet" in adaptive
    assert "<img" in adaptive  # the phase portrait, drawn inline
    assert "<img" in kuhn  # the families against P
    assert "pokerdyn equilibria" in (site / "reference" / "cli.html").read_text()
    assert "mercer-smh" in (site / "reference" / "catalog.html").read_text()
    mercer = (site / "explanation" / "papers" / "mercer.html").read_text()
    assert "<img" in mercer and ">mercer_fig2<" in mercer  # its figures, executed
    # long text outputs wrap inside their boxes (docs/_static/pokerdyn.css)
    assert "_static/pokerdyn.css" in kuhn
    assert "pre-wrap" in (site / "_static" / "pokerdyn.css").read_text()
    assert (site / "explanation" / "benchmark_history.html").exists()


def test_a_broken_example_fails_the_build(tmp_path):
    """A copy of one tutorial with a cell that raises: the build fails and names the error."""
    src = tmp_path / "docs"
    src.mkdir()
    shutil.copy(DOCS / "conf.py", src / "conf.py")
    shutil.copytree(DOCS / "_ext", src / "_ext")
    (src / "_static").mkdir()
    text = (DOCS / "tutorials" / "first_steps.md").read_text()
    cut = text.index("## Exact payoffs")  # the first cells, then a broken one
    broken = text[:cut] + ("```{code-cell} ipython3\nraise RuntimeError('deliberately broken "
                           "example')\n```\n")
    (src / "index.md").write_text(broken.replace("{doc}`", "`"))
    run = _sphinx(src, tmp_path / "html", env={"POKERDYN_DOCS_GENERATE": "0"})
    assert run.returncode != 0
    out = run.stdout + run.stderr
    assert "ExecutionError" in out and "index.md" in out, out[-2000:]
    saved = re.search(r"traceback has been saved in:\s*(\S+)", out)  # Sphinx keeps the cell's
    if saved and Path(saved.group(1)).exists():                      # error in its log file
        out += Path(saved.group(1)).read_text()
    assert "deliberately broken example" in out


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="headless page check needs Debian's chromium "
                                             "package (apt-get install chromium)")
def test_pages_render_in_headless_chromium(site):
    """The home page, every tutorial and every reproduction page: a body with text, every image
    present, no console error; a screenshot of each is kept in docs/_build/screenshots."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    pages = ["index", *(f"explanation/papers/{p.stem}" for p in
                        sorted((DOCS / "explanation" / "papers").glob("*.md"))),
             *(f"tutorials/{p.stem}" for p in sorted((DOCS / "tutorials").glob("*.md")))]
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--enable-logging=stderr", "--v=0", "--hide-scrollbars"]
    for page in pages:
        html = site / f"{page}.html"
        for src in re.findall(r'<img[^>]+src="([^"]+)"', html.read_text()):
            if not src.startswith(("data:", "http")):
                assert (html.parent / src).exists(), f"{page}: missing image {src}"
        profile = Path(os.environ.get("TMPDIR", "/tmp")) / f"pokerdyn-chromium-{os.getpid()}"
        dom = subprocess.run([CHROMIUM, *flags, f"--user-data-dir={profile}", "--dump-dom",
                              html.as_uri()], capture_output=True, text=True, timeout=120)
        body = re.sub(r"<[^>]+>", " ", dom.stdout.split("<body", 1)[-1])
        assert len(body.split()) > 50, f"{page}: empty body"
        errors = [ln for ln in dom.stderr.splitlines() if "CONSOLE" in ln and
                  ("Uncaught" in ln or "error" in ln.lower())]
        assert not errors, f"{page}: console errors {errors[:3]}"
        shot = SCREENSHOTS / f"{page.replace('/', '_')}.png"
        subprocess.run([CHROMIUM, *flags, f"--user-data-dir={profile}", f"--screenshot={shot}",
                        "--window-size=1280,2000", html.as_uri()], capture_output=True,
                       timeout=120)
        assert shot.exists() and shot.stat().st_size > 10_000, f"{page}: no screenshot"


# --- the code blocks of the notes pages ----------------------------------------------------
# Every fenced block of the project notes (docs/explanation/notes/) and of the benchmark
# history carries a MyST comment right above its fence saying what it is:
#
#   % docs-test: run [exact]     runs here: a ``console`` block's ``$ `` lines, a ``bash``
#                                block's lines, a ``python`` block as a script; exit code 0
#                                (2 where the page shows ``pokerdyn: error:``); ``exact``: the
#                                output shown under each ``$ `` line is the program's, line
#                                for line
#   % docs-test: expect TEXT     (after ``run``) TEXT is in the block's output
#   % docs-test: flags           not run (minutes to hours, a cluster, a new environment; the
#                                sentence above the block says which): the commands' flags
#                                exist today (``pokerdyn`` parses them, a script defines them),
#                                Python code compiles and its imports resolve
#   % docs-test: recorded        (a ``text`` fence) the recorded output of a heavy run
#   % docs-test: listing         (a ``text`` fence) a listing, not code
#   % docs-test: file PATH       the block is the repository file PATH, byte for byte

NOTE_PAGES = sorted((DOCS / "explanation" / "notes").glob("*.md")) + [
    DOCS / "explanation" / "benchmark_history.md"]
MARK = "% docs-test:"
RUN_TIMEOUT = 600


class _Block:
    def __init__(self, page: Path, line: int, lang: str, body: str, marks: list[str]):
        self.page, self.line, self.lang, self.body = page, line, lang, body
        first = marks[0].split() if marks else [""]
        self.kind, self.options = first[0], first[1:]
        self.expects = [m[len("expect "):] for m in marks[1:] if m.startswith("expect ")]
        self.extra = [m for m in marks[1:] if not m.startswith("expect ")]

    def __repr__(self) -> str:
        return f"{self.page.relative_to(DOCS)}:{self.line} ({self.lang or 'no language'})"


def _marked_blocks(page: Path) -> list[_Block]:
    """The page's fenced code blocks (directives such as ``{toctree}`` left out), each with
    the ``% docs-test:`` lines right above its fence."""
    lines, blocks, i = page.read_text().splitlines(), [], 0
    while i < len(lines):
        fence = re.match(r"^(`{3,}|~{3,})(.*)$", lines[i])
        if not fence:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not lines[j].startswith(fence.group(1)):
            j += 1
        lang = fence.group(2).strip()
        if not lang.startswith("{"):
            k, marks = i, []
            while k > 0 and lines[k - 1].startswith(MARK):
                k -= 1
                marks.insert(0, lines[k][len(MARK):].strip())
            blocks.append(_Block(page, i + 1, lang, "\n".join(lines[i + 1:j]) + "\n", marks))
        i = j + 1
    return blocks


def _all_marked_blocks() -> list[_Block]:
    return [b for page in NOTE_PAGES for b in _marked_blocks(page)]


def _commands(block: _Block) -> list[tuple[str, str]]:
    """(command line, the output the page shows under it): a ``console`` block's ``$ ``
    lines, or every line of a ``bash`` block (backslash continuations joined)."""
    if block.lang == "console":
        out: list[tuple[str, list[str]]] = []
        for ln in block.body.splitlines():
            if ln.startswith("$ "):
                out.append((ln[2:], []))
            elif out:
                out[-1][1].append(ln)
        return [(c, "\n".join(s).strip("\n")) for c, s in out]
    text = block.body.replace("\\\n", " ")
    return [(ln.strip(), "") for ln in text.splitlines()
            if ln.strip() and not ln.strip().startswith("#")]


def test_every_notes_code_block_says_what_it_is():
    """No block pretends to be runnable code that the suite does not run (issue 36)."""
    blocks = _all_marked_blocks()
    assert len(blocks) > 30
    kinds = {"run": ("console", "bash", "python"), "flags": ("console", "bash", "python"),
             "recorded": ("text",), "listing": ("text",), "file": ("toml", "text", "python")}
    bad = [f"{b}: {b.kind or 'no docs-test mark'}" for b in blocks
           if b.lang not in kinds.get(b.kind, ())]
    assert not bad, bad
    assert not [b for b in blocks if b.extra or (b.options and b.options != ["exact"]
                                                 and b.kind != "file")]
    for b in blocks:
        if b.kind == "file":
            assert b.body == (ROOT / b.options[0]).read_text(), f"{b}: not {b.options[0]}"
    # indented code blocks cannot carry the mark: none in the notes
    for page in NOTE_PAGES[:-1]:
        text, inside = page.read_text().splitlines(), False
        for n, ln in enumerate(text):
            inside ^= ln.startswith("```")
            if (not inside and n and not text[n - 1].strip() and ln.startswith("    ")
                    and ln.strip() and not re.match(r"\s*([-*+]|\d+\.|\|)", ln)):
                k = n - 2
                while k >= 0 and not text[k].strip():
                    k -= 1
                assert k >= 0 and re.match(r"\s*([-*+]|\d+\.)\s|\s{2,}", text[k]), \
                    f"{page.name}:{n + 1}: an indented code block; fence it and mark it"


def _strip_wrappers(argv: list[str]) -> list[str]:
    """``nice -n 10``, ``/usr/bin/time -v``, ``time``, ``VAR=value`` before a command."""
    while argv:
        if re.match(r"^[A-Z_]+=", argv[0]):
            argv = argv[1:]
        elif argv[0] == "nice":
            argv = argv[3:] if argv[1:2] == ["-n"] else argv[1:]
        elif argv[0] in ("time", "/usr/bin/time"):
            argv = argv[2:] if argv[1:2] == ["-v"] else argv[1:]
        else:
            return argv
    return argv


def _check_flags(cmd: str, where: str) -> None:
    """A command that is not run: ``pokerdyn`` parses it; a script exists and defines every
    ``--flag`` given; ``pip install ".[x]"`` names extras that exist."""
    import shlex

    from pokerdyn.cli import build_parser

    for part in cmd.split("&&"):
        argv = _strip_wrappers(shlex.split(part, comments=True))
        if not argv:
            continue
        if argv[0] == "pokerdyn":
            try:
                build_parser([argv[1]]).parse_args(argv[1:])
            except SystemExit as exc:
                pytest.fail(f"{where}: `{part.strip()}` does not parse today (exit {exc.code})")
        elif argv[0] == "python" and argv[1:2] and argv[1].endswith(".py"):
            script = ROOT / argv[1]
            assert script.exists(), f"{where}: no {argv[1]}"
            source = script.read_text()
            for flag in (a.split("=")[0] for a in argv[2:] if a.startswith("--")):
                assert f'"{flag}"' in source, f"{where}: {argv[1]} has no {flag}"
        elif argv[0] == "pip" and argv[1:2] == ["install"]:
            pyproject = (ROOT / "pyproject.toml").read_text()
            for extra in re.findall(r"\[([\w,]+)\]", " ".join(argv[2:])):
                for name in extra.split(","):
                    assert f"\n{name} = [" in pyproject, f"{where}: no extra {name!r}"


def _check_python_imports(code: str, where: str) -> None:
    import ast

    tree = ast.parse(code, where)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            mod = importlib.import_module(node.module)
            missing = [a.name for a in node.names if not hasattr(mod, a.name)]
            assert not missing, f"{where}: {node.module} has no {missing}"
        elif isinstance(node, ast.Import):
            for a in node.names:
                importlib.import_module(a.name)


def test_notes_commands_not_run_use_todays_flags():
    blocks = [b for b in _all_marked_blocks() if b.kind == "flags"]
    assert blocks
    for b in blocks:
        if b.lang == "python":
            _check_python_imports(b.body, repr(b))
        else:
            for cmd, _ in _commands(b):
                _check_flags(cmd, repr(b))


# One process per page runs its blocks in order (a block may read what the one before it
# wrote): a ``pokerdyn ...`` line through the command's entry point, pokerdyn.cli.main (what
# the installed ``pokerdyn`` script calls), a Python block as a script, anything else in
# bash; each item's exit code, stdout and stderr are written as JSON.  One process saves
# the interpreter start and imports of every command (a second or two each).
RUNNER = r"""
import contextlib, io, json, os, shlex, subprocess, sys, traceback
items, out_file = json.load(sys.stdin), sys.argv[1]
results = []
for kind, text in items:
    out, err, rc = io.StringIO(), io.StringIO(), 0
    if kind == "bash":
        run = subprocess.run(["bash", "-c", text], capture_output=True, text=True)
        results.append([run.returncode, run.stdout, run.stderr])
        continue
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            if kind == "python":
                exec(compile(text, "<docs block>", "exec"), {"__name__": "__main__"})
            else:
                from pokerdyn.cli import main
                rc = main(shlex.split(text, comments=True)[1:])
        except SystemExit as exc:
            rc = exc.code if isinstance(exc.code, int) else 1
        except BaseException:
            traceback.print_exc()
            rc = 1
    results.append([rc, out.getvalue(), err.getvalue()])
with open(out_file, "w") as f:
    json.dump(results, f)
"""


def _run_page_blocks(page: Path, blocks: list[_Block], tmp: Path) -> list[str]:
    """Run a page's ``run`` blocks in order in one folder; the failures, as lines."""
    import json
    import shlex

    tmp.mkdir(parents=True)
    shutil.copytree(ROOT / "examples", tmp / "examples",
                    ignore=shutil.ignore_patterns("*.parquet"))
    items, owners = [], []
    for b in blocks:
        if b.lang == "python":
            items.append(("python", b.body))
            owners.append((b, None, ""))
        else:
            for cmd, shown in _commands(b):
                first = shlex.split(cmd, comments=True)[:1]
                items.append(("pokerdyn" if first == ["pokerdyn"] else "bash", cmd))
                owners.append((b, cmd, shown))
    env = {**os.environ, "MPLBACKEND": "Agg",
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    run = subprocess.run([sys.executable, "-P", "-c", RUNNER, str(tmp / "results.json")],
                         input=json.dumps(items), cwd=tmp, env=env, capture_output=True,
                         text=True, timeout=RUN_TIMEOUT)
    if run.returncode != 0:
        return [f"{page.name}: the runner failed: {run.stderr[-2000:]}"]
    results = json.loads((tmp / "results.json").read_text())
    failures, outputs = [], {}
    for (b, cmd, shown), (rc, stdout, stderr) in zip(owners, results):
        outputs.setdefault(id(b), []).append(stdout + stderr)
        what = f"{b}: `{cmd}`" if cmd else f"{b}"
        want = 2 if "pokerdyn: error:" in shown else 0
        if rc != want:
            failures.append(f"{what} exit {rc}, want {want}: {stderr[-1500:]}")
        elif want and shown.strip() not in stderr:
            failures.append(f"{what}: stderr {stderr!r}, the page shows {shown!r}")
        elif "exact" in b.options and cmd and not want:
            got = "\n".join(ln.rstrip() for ln in stdout.strip("\n").splitlines())
            page_out = "\n".join(ln.rstrip() for ln in shown.splitlines())
            if got != page_out:
                failures.append(f"{what} prints\n{got}\nthe page shows\n{page_out}")
    for b in blocks:
        text = "\n".join(outputs.get(id(b), []))
        failures += [f"{b}: {e!r} not in the output" for e in b.expects if e not in text]
    return failures


def test_notes_code_blocks_run_as_written(tmp_path):
    """Every ``run`` block of the notes, its output checked where the page shows it; the
    pages run two at a time."""
    from concurrent.futures import ThreadPoolExecutor

    by_page: dict[Path, list[_Block]] = {}
    for b in _all_marked_blocks():
        if b.kind == "run":
            by_page.setdefault(b.page, []).append(b)
    assert len(by_page) >= 15
    with ThreadPoolExecutor(2) as pool:
        jobs = [pool.submit(_run_page_blocks, page, blocks, tmp_path / page.stem)
                for page, blocks in by_page.items()]
        failures = [f for job in jobs for f in job.result()]
    assert not failures, "\n\n".join(failures)
