"""Builder benchmark: hold'em-style games built from rules (games.holdem).

For one game spec per process (peak RSS is per process): nodes, information sets, build
seconds (rules -> validated Game, perfect-recall check included), compile seconds, compiled
bytes per node, peak RSS, and optionally the seconds of one CFR+ iteration after a warm-up.

    python benchmarks/bench_holdem.py mercer-mmh players=3 [check=true] [--cfr]
    python benchmarks/bench_holdem.py --all        # every game of the table, one process each
"""
from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

TABLE = [("mercer-smh", "players=2"), ("mercer-smh", "players=3"), ("mercer-mmh", "players=2"),
         ("mercer-mmh", "players=3"), ("mercer-mmh", "players=3", "check=true"),
         ("leduc", "players=2"), ("leduc", "players=3"), ("leduc", "players=3", "merge=false")]


def _value(v: str):
    return {"true": True, "false": False}.get(v, int(v) if v.isdigit() else v)


def one(name: str, options: list[str], cfr: bool) -> None:
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
    if cfr:
        from pokerdyn.solvers import cfr as run_cfr
        run_cfr(cg, iterations=1)          # warm-up: numba compilation, caches
        t = time.perf_counter()
        run_cfr(cg, iterations=1)
        row += f" cfr+ iteration {time.perf_counter() - t:.2f} s"
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 ** 2
    print(f"{row} peak RSS {rss:.2f} GB", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("spec", nargs="*")
    ap.add_argument("--cfr", action="store_true", help="also time one CFR+ iteration")
    ap.add_argument("--all", action="store_true", help="every game of the table")
    a = ap.parse_args()
    if a.all:
        for spec in TABLE:
            subprocess.run([sys.executable, __file__, *spec] + (["--cfr"] if a.cfr else []),
                           check=True)
    else:
        one(a.spec[0], a.spec[1:], a.cfr)


if __name__ == "__main__":
    main()
