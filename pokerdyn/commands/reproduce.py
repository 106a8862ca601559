"""Run every registered figure module of figures/ and write the PNGs plus report.md.

Finished figures are recorded in ``<out>/done.json``: an interrupted run, started again
with the same --out, skips them (use --force to redo everything)."""
from __future__ import annotations

import json
import time
from pathlib import Path

from .common import emit_json


def add_arguments(p) -> None:
    p.add_argument("--quick", action="store_true", help="small runs (under a minute in all)")
    p.add_argument("--out", default="pokerdyn-out", help="output folder (default: pokerdyn-out)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--only", default=None, help="comma-separated figure names to run")
    p.add_argument("--force", action="store_true", help="recompute finished figures")
    p.add_argument("--json", action="store_true", help="print a JSON summary")


def _command(args, name: str) -> str:
    quick = " --quick" if args.quick else ""
    return f"pokerdyn reproduce{quick} --out {args.out} --seed {args.seed} --only {name}"


def run(args) -> int:
    # imported here, not at module level: figures pull in matplotlib and numba, which every
    # other command (built into the same parser) would otherwise pay for at start-up
    from tqdm.auto import tqdm

    from figures.registry import FIGURES, load

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    names = list(FIGURES) if not args.only else [n.strip() for n in args.only.split(",")]
    for n in names:
        if n not in FIGURES:
            raise ValueError(f"unknown figure {n!r}; available: {', '.join(FIGURES)}")
    done_path = out / "done.json"
    mode = {"quick": bool(args.quick), "seed": args.seed}
    done = json.loads(done_path.read_text()) if done_path.exists() and not args.force else {}
    for name in tqdm(names, desc="figures", disable=args.json):
        prev = done.get(name)
        if prev and prev.get("mode") == mode and all((out / f).exists() for f in prev["files"]):
            continue
        t0 = time.perf_counter()
        res = load(name).main(out, seed=args.seed, quick=args.quick)
        done[name] = {"mode": mode, "files": [Path(f).name for f in res.files],
                      "summary": res.summary, "numbers": res.numbers, "source": res.source,
                      "seconds": round(time.perf_counter() - t0, 3),
                      "command": _command(args, name)}
        tmp = done_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(done, indent=2, default=str))
        tmp.replace(done_path)
    _write_report(out, names, done, args)
    if args.json:
        emit_json({"out": str(out), "figures": {n: done[n] for n in names}})
    else:
        print(f"wrote {len(names)} figure(s) and {out / 'report.md'}")
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
    (out / "report.md").write_text("\n".join(lines))
