"""Run every registered figure module of figures/ and write the PNGs plus report.md.

Finished figures are recorded in ``<out>/done.json``, rewritten (atomically) after each
one: an interrupted run (Ctrl-C, SIGTERM: exit 130, 143), started again with the same --out,
skips them (use --force to redo everything).  done.json is this command's cache: a file
that is not a record of finished figures (not JSON, not an object of figure records), or a
record that is not one, is discarded with a warning line on stderr and those figures are
computed again.

Figures run in groups, one per figure package (figures.billingham.equilibria, ...), on up to
--jobs worker processes: a group shares its in-process caches (the equilibrium families of
the four equilibria figures) and its numba kernels, and the groups share nothing, so the
long exact enumeration runs beside the numeric figures.  Every figure is computed exactly as
in one process (its seed is its own), only the wall time differs.  On an interrupt the
workers are terminated at once, not waited for: the figures they were drawing are computed
again next time."""
from __future__ import annotations

import contextlib
import importlib
import inspect
import json
import os
import sys
import time
from pathlib import Path
from typing import Iterator

from tqdm.auto import tqdm

from pokerdyn.figures.registry import FIGURES, load
from pokerdyn.games import GameError
from pokerdyn.games.io.files import remove_temporaries, write_atomically

from pokerdyn.cli import check_interrupted
from pokerdyn.commands.common import (SEED_MAX, check_output_dir, check_output_file, emit_json,
                                     int_arg, read_json_file)


def add_arguments(p) -> None:
    p.add_argument("--quick", action="store_true", help="small runs (under a minute in all)")
    p.add_argument("--heavy", action="store_true",
                   help="also compute what the figures keep cached (the Mercer paper's long "
                        "solves: tens of minutes); without it they read cached results")
    p.add_argument("--out", default="pokerdyn-out", help="output folder (default: pokerdyn-out)")
    p.add_argument("--seed", type=int_arg("seed", 0, SEED_MAX), default=0,
                   help="random seed (default 0)")
    p.add_argument("--only", default=None, help="comma-separated figure names to run")
    p.add_argument("--jobs", type=int_arg("jobs", 1, 64), default=None,
                   help="worker processes (default: the number of cores, at most the number "
                        "of figure groups; 1: run in this process)")
    p.add_argument("--force", action="store_true", help="recompute finished figures")
    p.add_argument("--json", action="store_true", help="print a JSON summary")


def _command(args, name: str) -> str:
    quick = (" --quick" if args.quick else "") + (" --heavy" if getattr(args, "heavy", False)
                                                   else "")
    return f"pokerdyn reproduce{quick} --out {args.out} --seed {args.seed} --only {name}"


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


def _results(todo: list[str], out: Path, args, jobs: int) -> Iterator[tuple[str, dict]]:
    """(name, record) of every figure in ``todo`` as it finishes: here, or by groups on
    ``jobs`` worker processes (:func:`_workers`)."""
    parts = groups(todo)
    if jobs == 1 or len(parts) < 2:
        for n in todo:
            check_interrupted()  # an interrupt a figure swallowed stops the run here
            yield n, run_figure(n, out, args.seed, args.quick, args.heavy)
        return
    # the longest groups start first (registry order otherwise), so that short ones fill in
    parts.sort(key=lambda g: _rank(FIGURES[g[0]]))
    with _workers(parts, out, args, jobs) as results:
        yield from results


class _WorkerTraceback(Exception):
    """The traceback of a figure that failed in a worker process (the cause shown)."""


def _worker(tasks, conn, out: Path, seed: int, quick: bool, heavy: bool) -> None:
    """A worker process: figure groups ({name: module}) from ``tasks`` until None; after
    each figure ``("done", name, record)`` to ``conn``, on a failure ``("error", name,
    (exception, traceback))`` and stop.  Single-threaded (a pipe, not a Queue with its
    feeder thread), so the exact enumeration may still fork its own workers
    (solvers.symbolic.fullaxis.forked.can_fork)."""
    import pickle
    import signal
    import traceback

    # a process group of its own, with the processes it forks: the parent stops them all
    # at once (os.killpg); Ctrl-C reaches the parent alone, and SIGTERM (default action)
    # ends this process at once, a figure half drawn or not
    if hasattr(os, "setpgrp"):
        os.setpgrp()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
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
def _workers(parts: list[list[str]], out: Path, args, jobs: int):
    """The groups on ``jobs`` spawned worker processes (each takes the next group when it
    is free); yields the iterator of (name, record) as figures finish.  Whichever way the
    block ends (done, a failed figure, an interrupt), the workers are terminated, not
    waited for (a concurrent.futures pool would wait for the figures running), and the
    temporaries of the files they were writing removed."""
    import multiprocessing as mp
    import signal
    from multiprocessing.connection import wait

    ctx = mp.get_context("spawn")
    tasks = ctx.SimpleQueue()
    for g in parts:
        tasks.put({n: FIGURES[n] for n in g})
    n = min(jobs, len(parts))
    for _ in range(n):
        tasks.put(None)
    pipes = [ctx.Pipe(duplex=False) for _ in range(n)]
    procs = {r: ctx.Process(target=_worker, name=f"pokerdyn-figures-{k}",
                            args=(tasks, w, out, args.seed, args.quick, args.heavy))
             for k, (r, w) in enumerate(pipes)}

    def finished() -> Iterator[tuple[str, dict]]:
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


def run(args) -> int:
    names = list(FIGURES) if args.only is None else \
        [n.strip() for n in args.only.split(",") if n.strip()]
    if not names:
        raise ValueError(f"only={args.only!r} names no figure; available: {', '.join(FIGURES)}")
    for n in names:
        if n not in FIGURES:
            raise ValueError(f"unknown figure {n!r}; available: {', '.join(FIGURES)}")
    out = check_output_dir(args.out, "out")  # before any work, and nothing made on bad input
    done_path = out / "done.json"
    for f in (done_path, out / "report.md"):  # the two files every run writes: not folders
        check_output_file(str(f), "out")
    out.mkdir(parents=True, exist_ok=True)
    mode = {"quick": bool(args.quick), "seed": args.seed}
    if args.heavy:
        mode["heavy"] = True
    done = {} if args.force else read_done(done_path)
    todo = [n for n in names if not (done.get(n) and done[n]["mode"] == mode and all(
        (out / f).exists() for f in done[n]["files"]))]
    jobs = min(args.jobs or os.cpu_count() or 1, max(len(groups(todo)), 1))
    start = time.perf_counter()
    with tqdm(total=len(todo), desc="figures", disable=args.json) as bar, \
            contextlib.closing(_results(todo, out, args, jobs)) as results:
        for name, rec in results:
            done[name] = {"mode": mode, **rec, "command": _command(args, name)}
            bar.update()
            if not args.json:  # per-figure cost, first-use numba compilation included
                tqdm.write(f"{name:<28} {rec['seconds']:8.2f} s")
            text = json.dumps(done, indent=2, default=str)
            write_atomically(done_path, lambda tmp: tmp.write_text(text))
    _write_report(out, names, done, args)
    if args.json:
        emit_json({"out": str(out), "figures": {n: done[n] for n in names}})
    else:
        print(f"wrote {len(names)} figure(s) and {out / 'report.md'} in "
              f"{time.perf_counter() - start:.1f} s ({jobs} process(es))")
    return 0


# what a done.json record holds (run_figure's record, the mode and the command)
RECORD = {"mode": dict, "files": list, "summary": str, "numbers": dict, "source": str,
          "seconds": (int, float), "command": str}


def read_done(path: Path) -> dict[str, dict]:
    """The figure records of ``path`` (done.json) that can be used: a file that is no JSON
    object, and each record that is not one of :data:`RECORD` (or names a file outside
    the folder), is discarded with one warning line on stderr, and those figures are
    computed again (the file is this command's cache, rewritten as figures finish)."""
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


def _write_report(out: Path, names, done, args) -> None:
    lines = ["# pokerdyn reproduce report", "",
             f"Mode: {'quick' if args.quick else 'full'}{', heavy' if args.heavy else ''}, "
             f"seed {args.seed}.", ""]
    for n in names:
        d = done[n]
        lines += [f"## {n}", "", f"Source: {d['source']}" if d["source"] else "", "",
                  d["summary"], ""]
        lines += [f"![{n}]({f})" if f.endswith(".png") else f"Table: [{f}]({f})"
                  for f in d["files"]] + [""]
        if d["numbers"]:
            lines += ["| quantity | value |", "|---|---|"]
            lines += [f"| {k} | {v} |" for k, v in d["numbers"].items()] + [""]
        lines += [f"Command: `{d['command']}` ({d['seconds']} s)", ""]
    write_atomically(out / "report.md", lambda tmp: tmp.write_text("\n".join(lines)))
