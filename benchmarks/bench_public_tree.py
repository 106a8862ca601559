"""Public tree against history tree (issue 37): per-iteration CFR+ time and peak memory of
both engines on the same game, in the same run, one subprocess per engine (so each peak RSS
and each traced peak is its own).

Per engine: build seconds (rules -> public form, or rules -> Game -> CompiledGame), the
form's bytes, traced peak bytes (tracemalloc: every numpy allocation of build and
iterations, without the interpreter and numba), peak RSS, and the mean seconds of one CFR+
iteration (alternating, RM+, linear averaging; measured after one warm-up iteration, so numba
compilation is not counted) over the first ``--iterations`` and over a later stretch
(reach vectors get zeros as strategies turn pure, and the public kernels skip them).

    python benchmarks/bench_public_tree.py --game "mercer-mmh(players=3)" --iterations 20
    python benchmarks/bench_public_tree.py --game "mercer-mmh(players=4)" --engines public
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
import tracemalloc

from pokerdyn.benchmarking import Measurement, script_main

QUICK = ["--game", "mercer-mmh(players=2)", "--iterations", "10"]


def one(engine: str, spec: str, iterations: int, later: int) -> dict:
    tracemalloc.start()
    t = time.perf_counter()
    if engine == "history":
        from pokerdyn.games import compile_game, get_game
        from pokerdyn.games.strategy import uniform_strategy
        from pokerdyn.solvers.learning.cfr_plus import CFR
        from pokerdyn.solvers.evaluation import nash_conv
        game = compile_game(get_game(spec, force=True))
        method = CFR()
        state = method.init(game, uniform_strategy(game))
        size = {"nodes": game.n_nodes, "infosets": game.n_infosets}
    else:
        from pokerdyn.games.public import public_game
        from pokerdyn.solvers.public import PublicCFR
        from pokerdyn.solvers.public import nash_conv
        game = public_game(spec)
        method = PublicCFR()
        state = method.init(game, game.uniform())
        size = game.size()
    build = time.perf_counter() - t
    method.advance(game, state, 0, 1)                     # numba compilation / cache load
    t = time.perf_counter()
    method.advance(game, state, 1, iterations)
    first = (time.perf_counter() - t) / iterations
    done = 1 + iterations
    per_later = None
    if later:
        method.advance(game, state, done, later)          # run on, then time a stretch
        done += later
        t = time.perf_counter()
        method.advance(game, state, done, iterations)
        per_later = (time.perf_counter() - t) / iterations
        done += iterations
    nc = nash_conv(game, method.average(game, state))
    traced = tracemalloc.get_traced_memory()[1]
    return {"engine": engine, "game": spec, "build_s": build, "bytes": int(game.nbytes()),
            "traced_peak_mb": traced / 2**20,
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "per_iteration_s": first, "per_iteration_later_s": per_later,
            "iterations": done, "nash_conv": nc, **size}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="mercer-mmh(players=3)")
    ap.add_argument("--iterations", type=int, default=20)
    ap.add_argument("--later", type=int, default=0,
                    help="iterations run before a second timed stretch (0: none)")
    ap.add_argument("--engines", nargs="+", default=["history", "public"])
    ap.add_argument("--one", nargs=2, metavar=("ENGINE", "GAME"), help=argparse.SUPPRESS)
    ap.add_argument("--json", default=None)
    a = ap.parse_args(argv)
    if a.one:
        print(json.dumps(one(a.one[0], a.one[1], a.iterations, a.later)))
        return []
    rows = {}
    for engine in a.engines:
        out = subprocess.run([sys.executable, __file__, "--one", engine, a.game,
                              "--iterations", str(a.iterations), "--later", str(a.later)],
                             check=True, stdout=subprocess.PIPE, text=True).stdout
        r = rows[engine] = json.loads(out.strip().splitlines()[-1])
        later = (f", later {r['per_iteration_later_s'] * 1e3:.2f} ms"
                 if r["per_iteration_later_s"] else "")
        print(f"{engine:8s} {a.game}: build {r['build_s']:.1f} s, {r['bytes'] / 2**20:.1f} MB "
              f"arrays, traced peak {r['traced_peak_mb']:.0f} MB, peak RSS "
              f"{r['peak_rss_mb']:.0f} MB, CFR+ iteration {r['per_iteration_s'] * 1e3:.2f} ms"
              f"{later}, NashConv {r['nash_conv']:.4g} after {r['iterations']}", flush=True)
    if "history" in rows and "public" in rows:
        h, p = rows["history"], rows["public"]
        print(f"ratios: time {h['per_iteration_s'] / p['per_iteration_s']:.1f}x, traced peak "
              f"{h['traced_peak_mb'] / p['traced_peak_mb']:.1f}x, peak RSS "
              f"{h['peak_rss_mb'] / p['peak_rss_mb']:.1f}x, arrays "
              f"{h['bytes'] / p['bytes']:.1f}x", flush=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    p = rows.get("public")
    h = rows.get("history")
    return [Measurement(f"one CFR+ iteration, {a.game}", "public tree",
                        p["per_iteration_s"] if p else float("nan"), "history tree",
                        h["per_iteration_s"] if h else None,
                        note=(f"traced peak {p['traced_peak_mb']:.0f} MB" if p else "") +
                        (f" vs {h['traced_peak_mb']:.0f} MB" if h else ""))]


if __name__ == "__main__":
    script_main(main)
