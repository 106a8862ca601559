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
from pathlib import Path

from pokerdyn.cli import main


# what every message says besides the value: what is allowed (or why nothing can be)
HINT = re.compile(r"allowed|available|choose from|range|one of|needs|must|not a number|"
                  r"not writable|does not exist|not valid TOML|no pot parameter|of the form|"
                  r"outside [\[({]|\(true or false\)|not a list of \d+ numbers")


def run_bad(argv: list[str], names: tuple[str, ...], tmp_root: Path) -> None:
    """Run the CLI in an empty folder and check the one-line, exit-2, nothing-written rule;
    ``names``: strings of which the message must contain one (the value or the option)."""
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
    lines = [ln for ln in err.getvalue().splitlines() if ln.strip()]
    msg = f"{argv}: exit {code}, stderr {err.getvalue()!r}, stdout {out.getvalue()!r}"
    assert code == 2, msg
    assert out.getvalue() == "", msg
    assert len(lines) == 1 and "Traceback" not in lines[0], msg
    assert lines[0].startswith("pokerdyn: error: "), msg
    assert any(n and n in lines[0] for n in names), msg
    assert HINT.search(lines[0]), msg
    assert written == [], f"{msg}; wrote {written}"


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file below ``folder`` with its size and modification time (ns)."""
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in sorted(Path(folder).rglob("*")) if p.is_file()}
