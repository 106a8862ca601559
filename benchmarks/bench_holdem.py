"""Builder benchmark: hold'em-style games built from rules (games.holdem).

For one game spec per process (peak RSS is per process): nodes, information sets, build
seconds (rules -> validated Game, perfect-recall check included), compile seconds, compiled
bytes per node, peak RSS, and optionally the seconds of one CFR+ iteration after a warm-up.

    python benchmarks/bench_holdem.py mercer-mmh players=3 [check=true] [--cfr]
    python benchmarks/bench_holdem.py --all        # every game of the table, one process each
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

from pokerdyn.benchmarking import Measurement, peak_rss_mb, script_main

QUICK = ["leduc", "players=2", "--cfr"]
MARK = "BENCH-JSON "   # a child's line with its records for the parent (not printed)

TABLE = [("mercer-smh", "players=2"), ("mercer-smh", "players=3"), ("mercer-mmh", "players=2"),
         ("mercer-mmh", "players=3"), ("mercer-mmh", "players=3", "check=true"),
         ("leduc", "players=2"), ("leduc", "players=3"), ("leduc", "players=3", "merge=false")]


def _value(v: str):
    return {"true": True, "false": False}.get(v, int(v) if v.isdigit() else v)


def one(name: str, options: list[str], cfr: bool) -> list[Measurement]:
    from pokerdyn.games import compile_game
    from pokerdyn.games.catalog.registry import make_game
    opts = {k: _value(v) for k, v in (o.split("=", 1) for o in options)}
    t = time.perf_counter()
    g = make_game(name, **opts)
    build = time.perf_counter() - t
    t = time.perf_counter()
    cg = compile_game(g)
    comp = time.perf_counter() - t
    row = (f"{name}({','.join(options)}): nodes {g.n_nodes:,} infosets {g.n_infosets:,} "
           f"build {build:.2f} s compile {comp:.2f} s bytes/node {cg.nbytes() / g.n_nodes:.1f}")
    game = f"{name}({','.join(options)})"
    out = [Measurement(f"build, {game}", "pokerdyn", build),
           Measurement(f"compile, {game}", "pokerdyn", comp)]
    if cfr:
        from pokerdyn.solvers import cfr as run_cfr
        run_cfr(cg, iterations=1)          # warm-up: numba compilation, caches
        t = time.perf_counter()
        run_cfr(cg, iterations=1)
        it = time.perf_counter() - t
        row += f" cfr+ iteration {it:.2f} s"
        out.append(Measurement(f"one CFR+ iteration, {game}", "pokerdyn", it))
    rss = peak_rss_mb() / 1024
    print(f"{row} peak RSS {rss:.2f} GB", flush=True)
    return out


def main(argv=None) -> list[Measurement]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("spec", nargs="*")
    ap.add_argument("--cfr", action="store_true", help="also time one CFR+ iteration")
    ap.add_argument("--all", action="store_true", help="every game of the table")
    ap.add_argument("--records", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if not a.all:
        out = one(a.spec[0], a.spec[1:], a.cfr)
        if a.records:
            print(MARK + json.dumps([m.to_dict() for m in out]), flush=True)
        return out
    out = []
    for spec in TABLE:
        text = subprocess.run([sys.executable, __file__, *spec, "--records"]
                              + (["--cfr"] if a.cfr else []), check=True,
                              stdout=subprocess.PIPE, text=True).stdout
        for line in text.splitlines():
            if line.startswith(MARK):
                out += [Measurement.from_dict(d) for d in json.loads(line[len(MARK):])]
            else:
                print(line, flush=True)
    return out


if __name__ == "__main__":
    script_main(main)
