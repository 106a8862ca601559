"""Run every registered figure module of figures/ and write the PNGs plus report.md.

Finished figures are recorded in ``<out>/done.json``: an interrupted run, started again
with the same --out, skips them (use --force to redo everything).

Figures run in groups, one per figure package (figures.billingham.equilibria, ...), on up to
--jobs worker processes: a group shares its in-process caches (the equilibrium families of
the four equilibria figures) and its numba kernels, and the groups share nothing, so the
long exact enumeration runs beside the numeric figures.  Every figure is computed exactly as
in one process (its seed is its own), only the wall time differs."""
from __future__ import annotations

import inspect
import json
import os
import time
from pathlib import Path

from tqdm.auto import tqdm

from figures.registry import FIGURES, load
from games.io.files import write_atomically

from pokerdyn.commands.common import SEED_MAX, check_output_dir, emit_json, int_arg


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


def run_figure(name: str, out: Path, seed: int, quick: bool, heavy: bool = False) -> dict:
    """Run one figure module; its done.json record (without mode and command).  ``heavy``
    goes to the modules whose ``main`` takes it."""
    t0 = time.perf_counter()
    main = load(name).main
    kw = {"heavy": heavy} if "heavy" in inspect.signature(main).parameters else {}
    res = main(out, seed=seed, quick=quick, **kw)
    return {"files": [Path(f).name for f in res.files], "summary": res.summary,
            "numbers": res.numbers, "source": res.source,
            "seconds": round(time.perf_counter() - t0, 3)}


def _run_group(names: list[str], out: Path, seed: int, quick: bool,
               heavy: bool = False) -> dict[str, dict]:
    return {n: run_figure(n, out, seed, quick, heavy) for n in names}


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
LONGEST = ("figures.mercer", "figures.frontier", "figures.billingham.play", "figures.qre",
           "figures.convergence", "figures.billingham.ode", "figures.river",
           "figures.billingham.equilibria")


def _rank(module: str) -> int:
    """Start-order rank of a figure's group: its package's place in LONGEST, else last."""
    return next((k for k, pkg in enumerate(LONGEST) if module.startswith(pkg + ".")),
                len(LONGEST))


def _results(todo: list[str], out: Path, args, jobs: int):
    """(name, record) of every figure in ``todo`` as they finish."""
    parts = groups(todo)
    if jobs == 1 or len(parts) < 2:
        for n in todo:
            yield n, run_figure(n, out, args.seed, args.quick, args.heavy)
        return
    import multiprocessing as mp
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    # the longest groups start first (registry order otherwise), so that short ones fill in
    parts.sort(key=lambda g: _rank(FIGURES[g[0]]))
    with ProcessPoolExecutor(min(jobs, len(parts)), mp.get_context("spawn")) as pool:
        pending = {pool.submit(_run_group, g, out, args.seed, args.quick, args.heavy)
                   for g in parts}
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in finished:
                yield from f.result().items()


def run(args) -> int:
    names = list(FIGURES) if args.only is None else \
        [n.strip() for n in args.only.split(",") if n.strip()]
    if not names:
        raise ValueError(f"only={args.only!r} names no figure; available: {', '.join(FIGURES)}")
    for n in names:
        if n not in FIGURES:
            raise ValueError(f"unknown figure {n!r}; available: {', '.join(FIGURES)}")
    out = check_output_dir(args.out, "out")  # before any work, and nothing made on bad input
    out.mkdir(parents=True, exist_ok=True)
    done_path = out / "done.json"
    mode = {"quick": bool(args.quick), "seed": args.seed}
    if args.heavy:
        mode["heavy"] = True
    done = json.loads(done_path.read_text()) if done_path.exists() and not args.force else {}
    todo = [n for n in names if not (done.get(n) and done[n].get("mode") == mode and all(
        (out / f).exists() for f in done[n]["files"]))]
    jobs = min(args.jobs or os.cpu_count() or 1, max(len(groups(todo)), 1))
    start = time.perf_counter()
    with tqdm(total=len(todo), desc="figures", disable=args.json) as bar:
        for name, rec in _results(todo, out, args, jobs):
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
