"""Benchmark: equilibrium branches in P by pseudo-arclength continuation (issue 14) for the
N-card three-player Kuhn games, N = 4..7, and for kuhn3-third, against today's exact
enumeration of the one-third street game over the whole P axis (``equilibrium_pieces``),
measured in the same run as the baseline.

Each case runs in a fresh subprocess (caches cold; numba's on-disk cache warm) reporting
wall time, the number of branches, time per branch, the largest exact NashConv of the
certified branch points and peak resident memory.  Results: benchmarks/results/continuation.json.

    python benchmarks/bench_continuation.py [--cards 4,5,6,7] [--pots 2:10]
        [--start 5.3] [--max-branches 1000] [--jobs 2] [--records DIR]

``--jobs``: cases run that many at a time (each still in its own process); ``--records``:
each continuation's JSON (``ContinuationResult.to_json()``) is written there too, as
``<game>.json`` (the n_card_midrange figure's data is derived from those of N = 6, 7).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from pokerdyn.benchmarking import Measurement, script_main

QUICK = ["--cards", "4", "--pots", "4:6", "--max-branches", "20",
         "--out", os.path.join(tempfile.gettempdir(), "pokerdyn-bench-continuation.json")]

CHILD = r"""
import json, resource, sys, time
t0 = time.perf_counter()
from pokerdyn.games import get_game
from pokerdyn.solvers.continuation.api import continuation
from pokerdyn.solvers.continuation.trace import Options
game, a, b, start, mb, rec = (sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4],
                              int(sys.argv[5]), sys.argv[6])
g = get_game(game)
if start == "enumerate":
    from pokerdyn.solvers.symbolic.axis.piecewise import equilibrium_pieces
    t1, c1 = time.perf_counter(), time.process_time()
    n = len(equilibrium_pieces(g))
    out = {"pieces": n, "seconds": time.perf_counter() - t1, "cpu_seconds": time.process_time() - c1}
else:
    t1, c1 = time.perf_counter(), time.process_time()
    r = continuation(g, (a, b), start=float(start), opts=Options(max_branches=mb))
    s, cpu = time.perf_counter() - t1, time.process_time() - c1
    js = r.to_json()
    if rec:
        with open(rec, "w") as fh:
            json.dump(js, fh)
    from pokerdyn.figures.frontier.n_card import split_bets
    splits = split_bets(r) if game.startswith("kuhn3(") else []
    br = js["branches"]
    mv = sum(1 for x in br if x["pot_range"][1] - x["pot_range"][0] > 1e-9)
    out = {"seconds": s, "cpu_seconds": cpu, "branches": len(br),
           "seconds_per_branch": s / max(1, len(br)), "cpu_per_branch": cpu / max(1, len(br)),
           "max_nash_conv": js["max_nash_conv"], "start_method": js.get("start_method"),
           "pot_covered": [min(x["pot_range"][0] for x in br), max(x["pot_range"][1] for x in br)],
           "moving_branches": mv, "seconds_per_moving_branch": s / max(1, mv),
           "split_bets": [{k: v for k, v in b.items() if k != "branches"} for b in splits]}
out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
out["import_and_build_s"] = t1 - t0
print(json.dumps(out))
"""


def run(game: str, pots: tuple[float, float], start: str, max_branches: int,
        record: str = "") -> dict:
    proc = subprocess.run([sys.executable, "-c", CHILD, game, str(pots[0]), str(pots[1]), start,
                           str(max_branches), record], capture_output=True, text=True)
    if proc.returncode:
        return {"error": proc.stderr.strip().splitlines()[-1]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def measurements(rows: dict) -> list[Measurement]:
    """Each continuation's seconds; kuhn3-third's against the whole-axis enumeration of the
    same game (same run, each in its own process)."""
    base = rows.get("baseline: enumeration kuhn3-third (whole axis)", {})
    out = []
    for label, r in rows.items():
        if "error" in r or label.startswith("baseline"):
            continue
        third = label == "continuation kuhn3-third" and "seconds" in base
        out.append(Measurement(label, "pokerdyn continuation", r["seconds"],
                               "exact enumeration (equilibrium_pieces)" if third else None,
                               base["seconds"] if third else None,
                               note=f"{r['branches']} branches, peak {r['peak_mb']:.0f} MB"))
    return out


def main(argv=None) -> list[Measurement]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cards", default="4,5,6,7")
    ap.add_argument("--pots", default="2:10")
    ap.add_argument("--start", default="5.3")
    ap.add_argument("--max-branches", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--records", default="")
    ap.add_argument("--out", default="benchmarks/results/continuation.json")
    args = ap.parse_args(argv)
    a, b = (float(v) for v in args.pots.split(":"))
    cases = [("baseline: enumeration kuhn3-third (whole axis)", "kuhn3-third", "enumerate"),
             ("continuation kuhn3-third", "kuhn3-third", args.start)]
    cases += [(f"continuation kuhn3(cards={n})", f"kuhn3(cards={n})", args.start)
              for n in (int(c) for c in args.cards.split(","))]
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    if args.records:
        os.makedirs(args.records, exist_ok=True)
    rows: dict = {}

    def one(case):
        label, game, start = case
        rec = os.path.join(args.records, f"{game}.json") if args.records and \
            start != "enumerate" else ""
        return label, run(game, (a, b), start, args.max_branches, rec)

    with ThreadPoolExecutor(max(1, args.jobs)) as pool:   # threads wait on subprocesses
        for label, row in pool.map(one, cases):
            rows[label] = row
            print(f"{label:50s} {json.dumps(row)}", flush=True)
            with open(args.out, "w") as fh:   # after every row: a long run keeps what it has
                json.dump({"pots": [a, b], "start": args.start,
                           "max_branches": args.max_branches, "jobs": args.jobs,
                           "rows": rows}, fh, indent=1)
    return measurements(rows)


if __name__ == "__main__":
    script_main(main)
