"""Run every registered figure module of figures/ and write the PNGs plus report.md.

Finished figures are recorded in ``<out>/done.json``: an interrupted run, started again
with the same --out, skips them (use --force to redo everything)."""
from __future__ import annotations

import json
import time
from pathlib import Path

from tqdm.auto import tqdm

from figures.registry import FIGURES, load
from games.files import write_atomically

from .common import SEED_MAX, check_output_dir, emit_json, int_arg


def add_arguments(p) -> None:
    p.add_argument("--quick", action="store_true", help="small runs (under a minute in all)")
    p.add_argument("--out", default="pokerdyn-out", help="output folder (default: pokerdyn-out)")
    p.add_argument("--seed", type=int_arg("seed", 0, SEED_MAX), default=0,
                   help="random seed (default 0)")
    p.add_argument("--only", default=None, help="comma-separated figure names to run")
    p.add_argument("--force", action="store_true", help="recompute finished figures")
    p.add_argument("--json", action="store_true", help="print a JSON summary")


def _command(args, name: str) -> str:
    quick = " --quick" if args.quick else ""
    return f"pokerdyn reproduce{quick} --out {args.out} --seed {args.seed} --only {name}"


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
    done = json.loads(done_path.read_text()) if done_path.exists() and not args.force else {}
    start = time.perf_counter()
    bar = tqdm(names, desc="figures", disable=args.json)
    for name in bar:
        prev = done.get(name)
        if prev and prev.get("mode") == mode and all((out / f).exists() for f in prev["files"]):
            continue
        bar.set_postfix_str(name)
        t0 = time.perf_counter()
        res = load(name).main(out, seed=args.seed, quick=args.quick)
        done[name] = {"mode": mode, "files": [Path(f).name for f in res.files],
                      "summary": res.summary, "numbers": res.numbers, "source": res.source,
                      "seconds": round(time.perf_counter() - t0, 3),
                      "command": _command(args, name)}
        if not args.json:  # per-figure cost, first-use numba compilation included
            tqdm.write(f"{name:<28} {done[name]['seconds']:8.2f} s")
        text = json.dumps(done, indent=2, default=str)
        write_atomically(done_path, lambda tmp: tmp.write_text(text))
    _write_report(out, names, done, args)
    if args.json:
        emit_json({"out": str(out), "figures": {n: done[n] for n in names}})
    else:
        print(f"wrote {len(names)} figure(s) and {out / 'report.md'} in "
              f"{time.perf_counter() - start:.1f} s")
    return 0


def _write_report(out: Path, names, done, args) -> None:
    lines = ["# pokerdyn reproduce report", "",
             f"Mode: {'quick' if args.quick else 'full'}, seed {args.seed}.", ""]
    for n in names:
        d = done[n]
        lines += [f"## {n}", "", f"Source: {d['source']}" if d["source"] else "", "",
                  d["summary"], ""]
        lines += [f"![{n}]({f})" for f in d["files"]] + [""]
        if d["numbers"]:
            lines += ["| quantity | value |", "|---|---|"]
            lines += [f"| {k} | {v} |" for k, v in d["numbers"].items()] + [""]
        lines += [f"Command: `{d['command']}` ({d['seconds']} s)", ""]
    write_atomically(out / "report.md", lambda tmp: tmp.write_text("\n".join(lines)))
