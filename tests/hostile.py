"""The hostile-input rule shared by the bad-input and fuzz tests (issues 11 and 33): a
command given bad input prints exactly one stderr line ``pokerdyn: error: ...`` naming the
value and what is allowed, exits 2, prints nothing on stdout and writes no file.

``run_bad`` runs the CLI in-process in an empty working folder that must stay empty;
``snapshot`` records a folder's files (name, size, mtime) so a test can show that files
outside that folder (inputs, resume state) were not created or changed either.
"""
from __future__ import annotations

import contextlib
import io
import os
import re
from dataclasses import dataclass
from pathlib import Path

from pokerdyn.cli import main


# what every message says besides the value: what is allowed (or why nothing can be)
HINT = re.compile(r"allowed|available|choose from|range|one of|needs|must|not a number|"
                  r"not writable|does not exist|not valid TOML|no pot parameter|of the form|"
                  r"outside [\[({]|\(true or false\)|not a list of \d+ numbers")


@dataclass(frozen=True)
class CliRun:
    """One in-process run of the CLI: exit code, stdout, stderr, files it wrote."""

    code: int | str | None
    out: str
    err: str
    written: list[str]


def run_cli(argv: list[str], tmp_root: Path) -> CliRun:
    """Run the CLI in an empty folder below ``tmp_root`` (removed afterwards)."""
    workdir = tmp_root / f"w{os.getpid()}"
    workdir.mkdir()
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.chdir(workdir), contextlib.redirect_stdout(out), \
                contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as exc:  # argparse's usage errors
                code = exc.code
        written = sorted(str(p.relative_to(workdir)) for p in workdir.rglob("*"))
    finally:
        for p in sorted(workdir.rglob("*"), reverse=True):
            p.unlink() if p.is_file() else p.rmdir()
        workdir.rmdir()
    return CliRun(code, out.getvalue(), err.getvalue(), written)


def assert_refused(run: CliRun, argv: list[str], names: tuple[str, ...]) -> None:
    """The one-line, exit-2, nothing-written rule; ``names``: strings of which the message
    must contain one (the value or the option)."""
    lines = [ln for ln in run.err.splitlines() if ln.strip()]
    msg = f"{argv}: exit {run.code}, stderr {run.err!r}, stdout {run.out!r}"
    assert run.code == 2, msg
    assert run.out == "", msg
    assert len(lines) == 1 and "Traceback" not in lines[0], msg
    assert lines[0].startswith("pokerdyn: error: "), msg
    assert any(n and n in lines[0] for n in names), msg
    assert HINT.search(lines[0]), msg
    assert run.written == [], f"{msg}; wrote {run.written}"


def run_bad(argv: list[str], names: tuple[str, ...], tmp_root: Path) -> None:
    """Run the CLI in an empty folder and check the one-line, exit-2, nothing-written rule
    (:func:`assert_refused`)."""
    assert_refused(run_cli(argv, tmp_root), argv, names)


def chain_efg(depth: int) -> str:
    """A Gambit file of ``depth`` decisions in a chain, players alternating: the mover either
    takes 1 from the other (x) or passes (y); after the last pass both get 0.  Taking at
    once is optimal, so player 1's value is 1."""
    lines = ['EFG 2 R "deep" { "A" "B" }', '""']
    for i in range(depth):
        p = 1 + i % 2
        lines.append(f'p "" {p} {i // 2 + 1} "s{i}" {{ "x" "y" }} 0')
        lines.append(f't "" {i + 1} "" {{ {1 if p == 1 else -1}, {-1 if p == 1 else 1} }}')
    lines.append(f't "" {depth + 1} "" {{ 0, 0 }}')
    return "\n".join(lines) + "\n"


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file below ``folder`` with its size and modification time (ns)."""
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in sorted(Path(folder).rglob("*")) if p.is_file()}
