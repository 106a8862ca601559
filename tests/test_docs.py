"""The documentation is tested (issue 36): the README's code runs as written, the Sphinx site
builds with warnings as errors and nitpicky references while executing every tutorial and
how-to notebook, a deliberately broken example fails that build, every public function has a
docstring, and the built pages render in headless Chromium (skipped, saying why, where
Debian's ``chromium`` is not installed).

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
