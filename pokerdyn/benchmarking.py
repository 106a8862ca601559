"""The benchmark harness: one result format, the timers the benchmark scripts share, and the
BENCHMARKS.md tables generated from results.

A benchmark is a script in the repository's ``benchmarks/`` folder, registered by name in
``benchmarks/__init__.py`` (``BENCHMARKS``) and run by ``python -m benchmarks NAME|all
[--quick] [--out results.json] [--markdown BENCHMARKS.md]``, each in a process of its own
(:func:`run_script`).  Each script's ``main(argv)`` prints its own tables, as it always did,
and returns the list of :class:`Measurement` it made (or that list and an exit status): what
was timed, the candidate (pokerdyn) and its seconds, the baseline and its seconds measured
in the same process run, and their ratio.  Its ``QUICK`` list holds the smallest arguments
that still exercise every measurement (``--quick``); its ``__main__`` is
``script_main(main)``, so ``python benchmarks/bench_fp.py [flags]`` runs as before.

The result of a run (:class:`BenchmarkRun`) is JSON::

    {"format": "pokerdyn-benchmarks/1", "runs": [{"benchmark": "fp", "argv": [...],
      "quick": false, "date": "2026-11-29T11:40:00+00:00", "seconds": 14.2,
      "machine": {"python": ..., "cpus": 2, ...},
      "measurements": [{"timed": "one FP iteration, kuhn3", "candidate": "pokerdyn",
                        "candidate_s": 2.7e-05, "baseline": "plain-Python reference",
                        "baseline_s": 0.0015, "ratio": 55.4, "note": ""}, ...]}]}

``ratio`` is ``baseline_s / candidate_s`` (how many times faster the candidate is), absent
without a baseline.  :func:`update_markdown` rewrites the marked section of BENCHMARKS.md,
one table per benchmark, each from one run.

This module imports only the standard library (it reads the installed numpy and numba
versions from their metadata): the benchmark scripts import it, the package never does.
"""
from __future__ import annotations

import datetime as _dt
import json
import os
import platform
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

# Standard library only: `python -m benchmarks` runs from the repository root, where the
# source folder pokerdyn/ (without games/, solvers/, ...) is what `import pokerdyn` finds.
FORMAT = "pokerdyn-benchmarks/1"
BEGIN = "<!-- BEGIN GENERATED BENCHMARK TABLES (python -m benchmarks ... --markdown) -->"
END = "<!-- END GENERATED BENCHMARK TABLES -->"


# ----------------------------------------------------------------------------- timers

def best_time(f: Callable[[], Any], repeat: int = 5, number: int = 1) -> float:
    """Smallest mean time of ``number`` calls of ``f`` over ``repeat`` rounds (seconds per
    call)."""
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(number):
            f()
        out.append((time.perf_counter() - t) / number)
    return min(out)


def timed(f: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    """``(seconds, f(*args))`` of one call."""
    t = time.perf_counter()
    out = f(*args)
    return time.perf_counter() - t, out


def peak_rss_mb() -> float:
    """This process's peak resident memory so far, MiB (Linux reports KiB)."""
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# ----------------------------------------------------------------------------- result format

@dataclass(frozen=True)
class Measurement:
    """One timed thing: the candidate's seconds and, when one was measured in the same run,
    the baseline's.

    Parameters
    ----------
    timed : str
        What was timed ("one FP iteration, kuhn3").
    candidate : str
        Who ran it ("pokerdyn").
    candidate_s : float
        Its seconds.
    baseline, baseline_s : str and float, optional
        The comparison measured in the same process run.
    note : str
        Anything a reader needs (estimated, capped, not reached).
    """
    timed: str
    candidate: str
    candidate_s: float
    baseline: str | None = None
    baseline_s: float | None = None
    note: str = ""

    @property
    def ratio(self) -> float | None:
        """``baseline_s / candidate_s``: how many times faster the candidate is."""
        if self.baseline_s is None or not self.candidate_s:
            return None
        return self.baseline_s / self.candidate_s

    def to_dict(self) -> dict[str, Any]:
        out = {"timed": self.timed, "candidate": self.candidate,
               "candidate_s": float(self.candidate_s)}
        if self.baseline is not None:
            out["baseline"] = self.baseline
            out["baseline_s"] = None if self.baseline_s is None else float(self.baseline_s)
            out["ratio"] = self.ratio
        out["note"] = self.note
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Measurement":
        return cls(timed=d["timed"], candidate=d["candidate"], candidate_s=d["candidate_s"],
                   baseline=d.get("baseline"), baseline_s=d.get("baseline_s"),
                   note=d.get("note", ""))


@dataclass(frozen=True)
class BenchmarkRun:
    """One benchmark's run: its arguments, when and where, and what it measured."""
    benchmark: str
    argv: list[str]
    quick: bool
    date: str
    seconds: float
    machine: dict[str, Any]
    measurements: list[Measurement] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"benchmark": self.benchmark, "argv": list(self.argv), "quick": self.quick,
                "date": self.date, "seconds": self.seconds, "machine": dict(self.machine),
                "measurements": [m.to_dict() for m in self.measurements]}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "BenchmarkRun":
        return cls(benchmark=d["benchmark"], argv=list(d.get("argv", [])),
                   quick=bool(d.get("quick", False)), date=d["date"],
                   seconds=float(d.get("seconds", 0.0)), machine=dict(d.get("machine", {})),
                   measurements=[Measurement.from_dict(m) for m in d.get("measurements", [])])


def machine_info() -> dict[str, Any]:
    """Where a run ran: Python, platform, processor, CPU count, numpy and numba versions."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            cpu = next((ln.split(":", 1)[1].strip() for ln in fh
                        if ln.startswith("model name")), cpu)
    except OSError:
        pass
    info: dict[str, Any] = {"python": platform.python_version(), "platform": platform.platform(),
                            "cpu": cpu, "cpus": os.cpu_count()}
    try:
        info["cpus_usable"] = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        pass
    from importlib.metadata import PackageNotFoundError, version
    for dist in ("numpy", "numba", "pokerdyn"):
        try:
            info[dist] = version(dist)
        except PackageNotFoundError:
            info[dist] = None
    return info


def save(runs: Iterable[BenchmarkRun], path: str | os.PathLike) -> None:
    """Write runs as one result file (the format of the module docstring)."""
    data = {"format": FORMAT, "runs": [r.to_dict() for r in runs]}
    Path(path).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def load(path: str | os.PathLike) -> list[BenchmarkRun]:
    """The runs of a result file."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if data.get("format") != FORMAT:
        raise ValueError(f"{path}: not a benchmark result file (format {data.get('format')!r},"
                         f" expected {FORMAT!r})")
    return [BenchmarkRun.from_dict(r) for r in data["runs"]]


# ----------------------------------------------------------------------------- running

OUT_ENV, QUICK_ENV, NAME_ENV = ("POKERDYN_BENCHMARK_OUT", "POKERDYN_BENCHMARK_QUICK",
                                "POKERDYN_BENCHMARK_NAME")


def _measurements(out: Any) -> tuple[list[Measurement], int]:
    """A script's ``main`` result: its measurements, or (measurements, exit status)."""
    status = 0
    if isinstance(out, tuple):
        out, status = out
    return [m for m in (out or []) if isinstance(m, Measurement)], int(status or 0)


def script_main(main: Callable[[list[str]], Any], argv: Sequence[str] | None = None) -> None:
    """The ``__main__`` of every benchmark script: ``main(argv)`` with the command line's
    arguments, as the script always ran.  Started by :func:`run_script`, it also puts the
    script's ``QUICK`` arguments first (``--quick``) and writes the run's record for the
    harness; these settings are taken out of the environment first, so that the script's own
    worker processes do not inherit them.  Exits with the status ``main`` returns, if any."""
    args = list(sys.argv[1:] if argv is None else argv)
    out_path = os.environ.pop(OUT_ENV, None)
    quick = os.environ.pop(QUICK_ENV, "") == "1"
    name = os.environ.pop(NAME_ENV, "") or Path(main.__code__.co_filename).stem
    if quick:
        args = list(main.__globals__.get("QUICK", [])) + args
    date = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    t0 = time.perf_counter()
    measured, status = _measurements(main(args))
    if out_path:
        save([BenchmarkRun(benchmark=name, argv=args, quick=quick, date=date,
                           seconds=time.perf_counter() - t0, machine=machine_info(),
                           measurements=measured)], out_path)
    if status:
        sys.exit(status)


def run_script(name: str, path: str | os.PathLike, argv: Sequence[str] = (),
               quick: bool = False) -> BenchmarkRun:
    """Run one benchmark script in a process of its own (as ``python SCRIPT ARGS``: cold
    caches, its own peak memory, nothing left behind for the next one), its output going to
    this process's, and return its record.  RuntimeError when it fails."""
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run.json"
        env = {**os.environ, OUT_ENV: str(out), QUICK_ENV: "1" if quick else "",
               NAME_ENV: name}
        code = subprocess.run([sys.executable, str(path), *argv], env=env).returncode
        if not out.exists():
            raise RuntimeError(f"benchmark {name} ({Path(path).name}) exited with status "
                               f"{code} and no result")
        return load(out)[0]


# ----------------------------------------------------------------------------- tables

def _seconds(s: float | None) -> str:
    if s is None:
        return ""
    if s >= 1:
        return f"{s:.2f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.2f} ms"
    return f"{s * 1e6:.2f} us"


def _ratio(r: float | None) -> str:
    if r is None:
        return ""
    return f"{r:,.0f}x" if r >= 100 else f"{r:.2f}x" if r < 10 else f"{r:.1f}x"


def _cell(s: str) -> str:
    return str(s).replace("|", "\\|").replace("\n", " ")


def markdown(run: BenchmarkRun) -> str:
    """One run as Markdown: a heading line and a table, one row per measurement (no
    timing of its own: the numbers are the run's)."""
    m = run.machine
    args = " ".join(run.argv)
    head = (f"**{run.benchmark}** (`python -m benchmarks {run.benchmark}"
            f"{' --quick' if run.quick else ''}{' -- ' + args if args and not run.quick else ''}`"
            f"; {run.date}; {m.get('cpu', '?')}, {m.get('cpus_usable', m.get('cpus', '?'))} "
            f"CPUs, Python {m.get('python', '?')}; {run.seconds:.1f} s)")
    lines = [head, "", "| timed | candidate | seconds | baseline | seconds | ratio | note |",
             "|---|---|---|---|---|---|---|"]
    for x in run.measurements:
        lines.append("| " + " | ".join(_cell(c) for c in (
            x.timed, x.candidate, _seconds(x.candidate_s), x.baseline or "",
            _seconds(x.baseline_s), _ratio(x.ratio), x.note)) + " |")
    if not run.measurements:
        lines.append("| (nothing timed) | | | | | | |")
    return "\n".join(lines) + "\n"


def _block(name: str) -> tuple[str, str]:
    return f"<!-- benchmark:{name} -->", f"<!-- /benchmark:{name} -->"


def update_markdown(text: str, runs: Iterable[BenchmarkRun]) -> str:
    """``text`` (BENCHMARKS.md) with each run's table written into the generated section
    (added at the end when the file has none); a benchmark's earlier table there is
    replaced, the others are kept, so each table stays the numbers of one run."""
    if BEGIN not in text:
        text = (text.rstrip("\n") + "\n\n## Generated tables (benchmark harness)\n\n"
                "Written by `python -m benchmarks NAME|all --markdown BENCHMARKS.md` (or "
                "`--table RESULTS.json`) from the harness's result JSON; every ratio is a "
                "baseline and a candidate timed in the same process run.\n\n"
                f"{BEGIN}\n{END}\n")
    start, stop = text.index(BEGIN) + len(BEGIN), text.index(END)
    section = text[start:stop]
    for run in runs:
        open_, close = _block(run.benchmark)
        block = f"{open_}\n{markdown(run)}{close}\n"
        if open_ in section and close in section:
            a, b = section.index(open_), section.index(close) + len(close)
            section = section[:a] + block.rstrip("\n") + section[b:]
        else:
            section = section.rstrip("\n") + "\n\n" + block
    section = "\n" + section.strip("\n") + "\n"
    return text[:start] + section + text[stop:]


__all__ = ["BEGIN", "END", "FORMAT", "BenchmarkRun", "Measurement", "best_time", "load",
           "machine_info", "markdown", "peak_rss_mb", "run_script", "save", "script_main",
           "timed", "update_markdown"]
