"""``pd.reproduce``: run the registered figure modules of :mod:`pokerdyn.figures` and write
their files plus ``report.md`` into one folder (what ``pokerdyn reproduce`` does).

Finished figures are recorded in ``<out>/done.json``, rewritten (atomically) after each
one: an interrupted run (Ctrl-C, SIGTERM), started again with the same ``out``, skips them
(``force=True`` redoes everything).  done.json is this call's cache: a file that is not a
record of finished figures (not JSON, not an object of figure records), or a record that is
not one, is discarded with a warning line on stderr and those figures are computed again.

Figures run in groups, one per figure package (figures.billingham.equilibria, ...), on up to
``jobs`` worker processes: a group shares its in-process caches (the equilibrium families of
the four equilibria figures) and its numba kernels, and the groups share nothing, so the
long exact enumeration runs beside the numeric figures.  Every figure is computed exactly as
in one process (its seed is its own), only the wall time differs.  On an interrupt the
workers are terminated at once, not waited for: the figures they were drawing are computed
again next time.

The figures are computed by the library (each module's ``main``, built on its ``figure``),
never by a script: ``heavy=True`` works from an installed wheel.  This module leaves
matplotlib's backend alone (the worker processes draw with Agg); the command line selects
Agg for itself."""
from __future__ import annotations

import contextlib
import importlib
import inspect
import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Sequence

from pokerdyn.api.result import Result, Stages
from pokerdyn.figures.registry import FIGURES, QUICK_SECONDS, load, paper_of


@dataclass(frozen=True, repr=False)
class Reproduced(Result):
    """What :func:`reproduce` wrote: the output folder ``out``, the done.json record of each
    figure asked (``figures``: name -> files, summary, numbers, source, seconds, mode,
    command; the figures of an earlier run with the same mode included), the number of
    worker processes ``jobs`` and the wall ``seconds`` of the run."""

    out: str
    figures: dict[str, dict[str, Any]]
    jobs: int = 1
    seconds: float = 0.0
    timings: dict[str, float] = field(default_factory=dict, compare=False)

    @property
    def report(self) -> Path:
        """The path of ``report.md``."""
        return Path(self.out) / "report.md"

    @property
    def files(self) -> list[Path]:
        """Every file the figures asked wrote, in order."""
        return [Path(self.out) / f for rec in self.figures.values() for f in rec["files"]]

    def to_dict(self) -> dict[str, Any]:
        """``pokerdyn reproduce --json``: ``{"out": folder, "figures": {name: record}}``."""
        return {"out": self.out, "figures": self.figures}

    def to_text(self) -> str:
        return (f"wrote {len(self.figures)} figure(s) and {self.report} in "
                f"{self.seconds:.1f} s ({self.jobs} process(es))")

    def to_frame(self):
        """One row per figure: its name, files, seconds, source and summary."""
        import pandas as pd

        return pd.DataFrame([{"figure": n, "files": ", ".join(r["files"]),
                              "seconds": r["seconds"], "source": r["source"],
                              "summary": r["summary"]} for n, r in self.figures.items()])

    def _summary(self) -> dict[str, Any]:
        return {"out": self.out, "figures": list(self.figures), "jobs": self.jobs,
                "seconds": round(self.seconds, 3)}


def figure_names(only: str | Sequence[str] | None) -> list[str]:
    """The registered figures ``only`` names (comma-separated text or a sequence; None:
    all, in registry order); GameError naming an unknown one."""
    from pokerdyn.games.errors import GameError

    if only is None:
        return list(FIGURES)
    parts = only.split(",") if isinstance(only, str) else list(only)
    names = [str(n).strip() for n in parts if str(n).strip()]
    if not names:
        raise GameError(f"only={only!r} names no figure; available: {', '.join(FIGURES)}")
    for n in names:
        if n not in FIGURES:
            raise GameError(f"unknown figure {n!r}; available: {', '.join(FIGURES)}")
    return names


def command(out: str, seed: int, quick: bool, heavy: bool, name: str) -> str:
    """The command line that redoes figure ``name`` alone (a done.json record's)."""
    flags = (" --quick" if quick else "") + (" --heavy" if heavy else "")
    return f"pokerdyn reproduce{flags} --out {out} --seed {seed} --only {name}"


def reproduce(out: str | os.PathLike = "pokerdyn-out", only: str | Sequence[str] | None = None,
              *, quick: bool = False, heavy: bool = False, jobs: int | None = 1,
              force: bool = False, seed: int = 0, progress: bool = False) -> Reproduced:
    """Draw the papers' figures and tables into ``out`` with a report.

    Runs the figure modules of ``pokerdyn.figures.registry.FIGURES`` (each module's
    ``main``; its ``figure`` function returns the matplotlib Figure without saving it) and
    writes their files, ``done.json`` (a record per finished figure, so that an interrupted
    run resumes) and ``report.md``.

    Parameters
    ----------
    out : str or path
        Output folder (created; default ``pokerdyn-out``).
    only : str, sequence of str, or None
        Figure names (comma-separated text or a list); None: every registered figure.
    quick : bool
        Small runs (under a minute in all).
    heavy : bool
        Also compute what the figures keep cached (the Mercer paper's long solves: tens of
        minutes to hours); without it they read the committed results.
    jobs : int or None
        Worker processes (1: this process; None: the number of cores), at most one per
        figure package.
    force : bool
        Recompute figures that done.json records as finished.
    seed : int
        Random seed of every figure (0 to 2**32 - 1).
    progress : bool
        Show a progress bar and each figure's seconds.

    Returns
    -------
    Reproduced
        ``to_dict()`` is ``pokerdyn reproduce --json``'s output; ``report`` and ``files``
        are the paths written.

    Examples
    --------
    >>> import tempfile
    >>> import pokerdyn as pd
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     r = pd.reproduce(tmp, only="tournament_fp_hedge", quick=True)
    ...     print(r.figures["tournament_fp_hedge"]["files"], r.report.exists())
    ['tournament_fp_hedge.png'] True
    >>> r.to_dict()["figures"]["tournament_fp_hedge"]["command"]  # doctest: +ELLIPSIS
    'pokerdyn reproduce --quick --out ... --seed 0 --only tournament_fp_hedge'
    """
    from tqdm.auto import tqdm

    from pokerdyn.api.inputs import SEED_MAX, check_output_dir, check_output_file, parse_int
    from pokerdyn.games.io.files import write_atomically

    names = figure_names(only)
    seed = parse_int(str(seed), "seed", 0, SEED_MAX)
    if jobs is not None:
        jobs = parse_int(str(jobs), "jobs", 1, 64)
    out_text = os.fspath(out)
    path = check_output_dir(out_text, "out")  # before any work, and nothing made on bad input
    done_path = path / "done.json"
    for f in (done_path, path / "report.md"):  # the two files every run writes: not folders
        check_output_file(str(f), "out")
    path.mkdir(parents=True, exist_ok=True)
    mode: dict[str, Any] = {"quick": bool(quick), "seed": seed}
    if heavy:
        mode["heavy"] = True
    done = {} if force else read_done(done_path)
    todo = [n for n in names if not (done.get(n) and done[n]["mode"] == mode and all(
        (path / f).exists() for f in done[n]["files"]))]
    n_jobs = min(jobs or os.cpu_count() or 1, max(len(groups(todo)), 1))
    stages = Stages()
    start = time.perf_counter()
    # the bar advances by each figure's typical cost (QUICK_SECONDS), not by one per figure:
    # the figures differ 200-fold, so a count made the estimate of the time left useless
    weight = {n: max(round(10 * QUICK_SECONDS.get(n, 5.0)), 1) for n in todo}  # integers:
    with stages("figures"), tqdm(total=sum(weight.values()),  # the bar ends exactly full
                                 disable=not progress, unit="0.1 s of work",
                                 bar_format="{desc}{percentage:3.0f}%|{bar}| "
                                            "[{elapsed} elapsed, {remaining} left]") as bar, \
            contextlib.closing(_results(todo, path, mode, n_jobs)) as results:
        bar.set_description(f"figures 0/{len(todo)}")
        for k, (name, rec) in enumerate(results, 1):
            done[name] = {"mode": mode, **rec,
                          "command": command(out_text, seed, quick, heavy, name)}
            bar.set_description(f"figures {k}/{len(todo)}", refresh=False)
            bar.update(weight[name])
            if progress:  # per-figure cost, first-use numba compilation included
                tqdm.write(f"{name:<28} {rec['seconds']:8.2f} s")
            text = json.dumps(done, indent=2, default=str)
            write_atomically(done_path, lambda tmp: tmp.write_text(text))
    with stages("report"):
        _write_report(path, names, done, mode)
    return Reproduced(str(path), {n: done[n] for n in names}, n_jobs,
                      time.perf_counter() - start, stages.seconds)


def run_figure(name: str, out: Path, seed: int, quick: bool, heavy: bool = False,
               module: str | None = None) -> dict:
    """Run one figure module (``module``, default the registered one); its done.json record
    (without mode and command).  ``heavy`` goes to the modules whose ``main`` takes it."""
    t0 = time.perf_counter()
    main = (importlib.import_module(module) if module else load(name)).main
    kw = {"heavy": heavy} if "heavy" in inspect.signature(main).parameters else {}
    res = main(out, seed=seed, quick=quick, **kw)
    return {"files": [Path(f).name for f in res.files], "summary": res.summary,
            "numbers": res.numbers, "source": res.source,
            "seconds": round(time.perf_counter() - t0, 3)}


def groups(names: list[str]) -> list[list[str]]:
    """The figures by package (registry order within a package), packages in the order of
    their first figure."""
    by_pkg: dict[str, list[str]] = {}
    for n in names:
        by_pkg.setdefault(FIGURES[n].rsplit(".", 1)[0], []).append(n)
    return list(by_pkg.values())


# the figure packages by their time in a quick run from an empty numba cache (2-core box:
# 39, 36, 22, 9, 6, 5, 4.5 and 3.6 s; the tournament figures last), longest first, so that
# the short ones fill in at the end (a long one last left a worker idle for 7 s)
LONGEST = ("pokerdyn.figures.mercer", "pokerdyn.figures.frontier", "pokerdyn.figures.billingham.play", "pokerdyn.figures.qre",
           "pokerdyn.figures.convergence", "pokerdyn.figures.billingham.ode", "pokerdyn.figures.river",
           "pokerdyn.figures.billingham.equilibria")


def _rank(module: str) -> int:
    """Start-order rank of a figure's group: its package's place in LONGEST, else last."""
    return next((k for k, pkg in enumerate(LONGEST) if module.startswith(pkg + ".")),
                len(LONGEST))


def _results(todo: list[str], out: Path, mode: dict, jobs: int
             ) -> Iterator[tuple[str, dict]]:
    """(name, record) of every figure in ``todo`` as it finishes: here, or by groups on
    ``jobs`` worker processes (:func:`_workers`)."""
    from pokerdyn.api.interrupts import check_interrupted

    seed, quick, heavy = mode["seed"], mode["quick"], mode.get("heavy", False)
    parts = groups(todo)
    if jobs == 1 or len(parts) < 2:
        for n in todo:
            check_interrupted()  # an interrupt a figure swallowed stops the run here
            yield n, run_figure(n, out, seed, quick, heavy)
        return
    # the longest groups start first (registry order otherwise), so that short ones fill in
    parts.sort(key=lambda g: _rank(FIGURES[g[0]]))
    with _workers(parts, out, seed, quick, heavy, jobs) as results:
        yield from results


class _WorkerTraceback(Exception):
    """The traceback of a figure that failed in a worker process (the cause shown)."""


def _worker(tasks, conn, out: Path, seed: int, quick: bool, heavy: bool) -> None:
    """A worker process: figure groups ({name: module}) from ``tasks`` until None; after
    each figure ``("done", name, record)`` to ``conn``, on a failure ``("error", name,
    (exception, traceback))`` and stop.  Single-threaded (a pipe, not a Queue with its
    feeder thread), so the exact enumeration may still fork its own workers
    (solvers.symbolic.axis.forked_map.can_fork)."""
    import pickle
    import signal
    import traceback

    # a process group of its own, with the processes it forks: the parent stops them all
    # at once (os.killpg); Ctrl-C reaches the parent alone, and SIGTERM (default action)
    # ends this process at once, a figure half drawn or not
    if hasattr(os, "setpgrp"):
        os.setpgrp()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    import matplotlib

    matplotlib.use("agg")  # a worker draws into files only (its own process)
    while (group := tasks.get()) is not None:
        for name, module in group.items():
            try:
                rec = run_figure(name, out, seed, quick, heavy, module)
            except BaseException as exc:  # noqa: BLE001 (sent to the parent, raised there)
                try:
                    pickle.dumps(exc)
                except Exception:  # noqa: BLE001
                    exc = RuntimeError(f"{type(exc).__name__}: {exc}")
                conn.send(("error", name, (exc, traceback.format_exc())))
                return
            conn.send(("done", name, rec))


@contextlib.contextmanager
def _workers(parts: list[list[str]], out: Path, seed: int, quick: bool, heavy: bool,
             jobs: int):
    """The groups on ``jobs`` spawned worker processes (each takes the next group when it
    is free); yields the iterator of (name, record) as figures finish.  Whichever way the
    block ends (done, a failed figure, an interrupt), the workers are terminated, not
    waited for (a concurrent.futures pool would wait for the figures running), and the
    temporaries of the files they were writing removed."""
    import multiprocessing as mp
    import signal
    from multiprocessing.connection import wait

    from pokerdyn.games.io.files import remove_temporaries

    ctx = mp.get_context("spawn")
    tasks = ctx.SimpleQueue()
    for g in parts:
        tasks.put({n: FIGURES[n] for n in g})
    n = min(jobs, len(parts))
    for _ in range(n):
        tasks.put(None)
    pipes = [ctx.Pipe(duplex=False) for _ in range(n)]
    procs = {r: ctx.Process(target=_worker, name=f"pokerdyn-figures-{k}",
                            args=(tasks, w, out, seed, quick, heavy))
             for k, (r, w) in enumerate(pipes)}

    def finished() -> Iterator[tuple[str, dict]]:
        from pokerdyn.api.interrupts import check_interrupted

        left, open_ = sum(len(g) for g in parts), set(procs)
        while left:
            check_interrupted()  # an interrupt swallowed somewhere stops the run here
            if not open_:
                raise RuntimeError(f"the figure worker processes ended with {left} "
                                   "figure(s) not done")
            for r in wait(list(open_), timeout=0.2):
                try:
                    kind, name, payload = r.recv()
                except EOFError:  # the worker ended: its groups done, or it died
                    open_.discard(r)
                    procs[r].join(5)
                    if procs[r].exitcode:
                        raise RuntimeError(f"a figure worker process died (exit code "
                                           f"{procs[r].exitcode}) with {left} figure(s) "
                                           "not done") from None
                    continue
                if kind == "error":
                    exc, tb = payload
                    raise exc from _WorkerTraceback(f"figure {name}, in a worker "
                                                    f"process:\n{tb}")
                left -= 1
                yield name, payload

    try:
        for (r, w) in pipes:
            procs[r].start()
            w.close()  # the worker holds the sending end: its exit is EOF here
        yield finished()
    finally:
        started = [p for p in procs.values() if p.pid is not None]
        for p in started:
            if p.is_alive():
                try:  # the worker and whatever it forked
                    os.killpg(p.pid, signal.SIGTERM)
                except (AttributeError, OSError):  # no group of its own (yet): itself
                    p.terminate()
        for p in started:
            p.join(5)
            if p.is_alive():  # pragma: no cover (SIGTERM's default action ends it)
                p.kill()
                p.join()
            remove_temporaries(out, p.pid)  # a file a terminated worker was writing
        for r, w in pipes:
            r.close()
            w.close()


# what a done.json record holds (run_figure's record, the mode and the command)
RECORD = {"mode": dict, "files": list, "summary": str, "numbers": dict, "source": str,
          "seconds": (int, float), "command": str}


def read_done(path: Path) -> dict[str, dict]:
    """The figure records of ``path`` (done.json) that can be used: a file that is no JSON
    object, and each record that is not one of :data:`RECORD` (or names a file outside
    the folder), is discarded with one warning line on stderr, and those figures are
    computed again (the file is this command's cache, rewritten as figures finish)."""
    from pokerdyn.api.inputs import read_json_file
    from pokerdyn.games.errors import GameError

    if not path.exists():
        return {}

    def discard(why: str) -> dict:
        print(f"pokerdyn: warning: {why}; discarded, the figures are computed again",
              file=sys.stderr)
        return {}

    try:
        data = read_json_file(path, "done")
    except GameError as exc:
        return discard(str(exc).split("; allowed")[0])
    if not isinstance(data, dict):
        return discard(f"done={str(path)!r} holds a JSON {type(data).__name__}, not an object "
                       "of figure records")
    good = {n: r for n, r in data.items() if _is_record(r)}
    if len(good) < len(data):
        bad = sorted(set(data) - set(good))
        discard(f"done={str(path)!r} has invalid records of {', '.join(map(repr, bad[:5]))}"
                + (f" and {len(bad) - 5} more" if len(bad) > 5 else ""))
    return good


def _is_record(r) -> bool:
    """Whether ``r`` is a figure record: the keys and types of RECORD, its files plain
    names in the output folder."""
    return (isinstance(r, dict)
            and all(isinstance(r.get(k), t) and not isinstance(r.get(k), bool)
                    for k, t in RECORD.items())
            and all(isinstance(f, str) and f not in ("", ".", "..") and Path(f).name == f
                    for f in r["files"]))


def _write_report(out: Path, names, done, mode: dict) -> None:
    from pokerdyn.figures.base import numbers_table  # matplotlib: loaded for a report only
    from pokerdyn.games.io.files import write_atomically

    lines = ["# pokerdyn reproduce report", "",
             f"Mode: {'quick' if mode['quick'] else 'full'}"
             f"{', heavy' if mode.get('heavy') else ''}, seed {mode['seed']}.", ""]
    papers: dict[str, list[str]] = {}
    for n in names:
        papers.setdefault(paper_of(n), []).append(n)
    for paper, members in papers.items():
        lines += [f"# {paper}", ""]
        for n in members:
            d = done[n]
            title = d["summary"].split(". ")[0].split(": ")[0].split(" (")[0].rstrip(".")
            if len(title) > 90:  # a human title: the summary's first clause, cut at a word
                title = title[:90].rsplit(" ", 1)[0] + " ..."
            lines += [f"## {n}: {title}" if title else f"## {n}", "",
                      f"Source: {d['source']}" if d["source"] else "", "", d["summary"], ""]
            lines += [f"![{n}]({f})" if f.endswith(".png") else f"Table: [{f}]({f})"
                      for f in d["files"]] + [""]
            if d["numbers"]:
                lines += [numbers_table(d["numbers"]), ""]
            lines += [f"Command: `{d['command']}` ({float(d['seconds']):.1f} s)", ""]
    write_atomically(out / "report.md", lambda tmp: tmp.write_text("\n".join(lines)))
