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
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

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


# --- hypothesis strategies of hostile option values ----------------------------------------

def float_or_none(text: str) -> float | None:
    try:
        return float(text)
    except (ValueError, OverflowError):
        return None


def allowed_text(text: str, low: float, high: float, low_open: bool, high_open: bool,
             integer: bool) -> bool:
    """Whether pokerdyn.commands.common.parse_float accepts ``text`` (the guard against a
    vacuous case: every generated parse-level value must be refused)."""
    x = float_or_none(text)
    if x is None or not math.isfinite(x):
        return False
    ok = (x > low if low_open else x >= low) and (x < high if high_open else x <= high)
    return ok and (not integer or x.is_integer())


NOT_FINITE = st.sampled_from(["nan", "NaN", "-nan", "inf", "-inf", "+Infinity", "1e309",
                              "-1e309", "1e400", "-1E999"])
WORDS = st.from_regex(r"[a-zA-Z][a-zA-Z_.]{0,7}", fullmatch=True).filter(
    lambda t: float_or_none(t) is None)
JUNK = st.sampled_from(["", " ", "1e", "e5", "0x10", "1..2", "2 3", "--", "1_0_", "+-1", "1/2",
                        "(1)", "1e5e5", ".", "-"])  # (no commas: lists would split them)
DIGITS_5000 = st.tuples(st.integers(1, 9), st.sampled_from(["", "-"])).map(
    lambda t: t[1] + str(t[0]) * 5000)
HUGE_INT = st.integers(10**20, 10**400).map(str)


def outside(low: float = -math.inf, high: float = math.inf, low_open: bool = False,
            high_open: bool = False, integer: bool = False) -> st.SearchStrategy[str]:
    """Texts an option with this range refuses at parse time: non-numbers, non-finite
    numbers, 5000-digit integers, and numbers below or above the range (non-integers too
    for an integer option)."""
    parts = [NOT_FINITE, WORDS, JUNK, DIGITS_5000]
    if math.isfinite(low):
        parts += [st.floats(max_value=low, allow_nan=False, allow_infinity=False).map(repr),
                  st.integers(max_value=math.ceil(low)).map(str),
                  st.just("-" + "9" * 5000), HUGE_INT.map(lambda t: "-" + t)]
    if math.isfinite(high):
        parts += [st.floats(min_value=high, allow_nan=False, allow_infinity=False).map(repr),
                  st.integers(min_value=math.floor(high)).map(str), HUGE_INT]
    if integer:
        lo = low if math.isfinite(low) else -1e6
        hi = high if math.isfinite(high) else 1e6
        parts.append(st.floats(lo, hi).filter(lambda x: not x.is_integer()).map(repr))
    return st.one_of(parts).filter(
        lambda t: not allowed_text(t, low, high, low_open, high_open, integer))


def in_band(low: float, high: float, integer: bool = False) -> st.SearchStrategy[str]:
    """In-range values that a memory or work budget must refuse (``[low, high]``)."""
    if integer:
        return st.integers(int(low), int(high)).map(str)
    return st.floats(low, high).map(repr)


def in_list(bad: st.SearchStrategy[str], good: str) -> st.SearchStrategy[str]:
    """A comma-separated list holding one bad value among good ones."""
    return st.tuples(bad.filter(lambda t: "," not in t and t.strip()), st.integers(0, 2),
                     st.booleans()).map(
        lambda t: ",".join([good] * t[1] + [t[0]] + [good] * int(t[2])))
