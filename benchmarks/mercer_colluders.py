"""The hold'em paper's open question (sec. 5): how collusion pays as the number of colluders
grows.  For Mercer Hold'em with N players and k colluders (the last k seats, the paper's
"seats 2 and 3" for N = 3) under each constraint (strong, weak, pot), CFR+ solves the
collusion game and the game without collusion; the colluders' total gain per hand is the sum
over the colluders of (payoff with collusion - payoff without, same seats), the
non-colluders' loss the opposite sum over the others (the games are zero-sum, so the two
agree; both are printed as a check).  Each solve is cached in ``--out`` (JSON, one entry per
game), so an interrupted run resumes; ``--shard i/m`` solves every m-th game from the i-th
(run m shards in parallel, each to its own ``--out``, then merge the files with ``--merge``).

    python benchmarks/mercer_colluders.py --players 3 4 --out figures/mercer/data/mercer_colluders.json
    python benchmarks/mercer_colluders.py --players 5 --iterations 20 --growth 2 --shard 0/2 --out a.json
"""
from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pokerdyn.figures.mercer.colluders import KINDS, spec_of  # noqa: E402
from pokerdyn.games import compile_game  # noqa: E402
from pokerdyn.games.catalog.registry import make_game  # noqa: E402
from pokerdyn.solvers.iterative import run_iterative  # noqa: E402
from pokerdyn.solvers.learning.cfr_plus import CFR  # noqa: E402


def solve(spec: str, tol: float, iterations: int, growth: float = 1.1) -> dict:
    """CFR+ (NashConv measured at checkpoints growing by ``growth``) on ``spec``."""
    t0 = time.perf_counter()
    g = make_game(spec)
    cg = compile_game(g)
    t1 = time.perf_counter()
    built_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2 ** 20
    r = run_iterative(cg, CFR(), iterations=iterations, tol=tol, growth=growth)
    return {"spec": spec, "nodes": int(cg.n_nodes), "infosets": int(cg.n_infosets),
            "build_s": round(t1 - t0, 2), "solve_s": round(time.perf_counter() - t1, 2),
            "iterations": int(r.iterations), "nash_conv": float(r.nash_conv),
            "payoffs": [float(x) for x in r.expected_payoffs],
            "history": [[int(i), float(nc), round(float(s), 2)] for i, nc, s in r.history],
            "build_peak_rss_gb": round(built_rss, 2),
            "peak_rss_gb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2 ** 20,
                                 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="+", default=[3, 4])
    ap.add_argument("--game", default="smh", choices=("smh", "mmh"))
    ap.add_argument("--tol", type=float, default=0.002)
    ap.add_argument("--iterations", type=int, default=400)
    ap.add_argument("--growth", type=float, default=1.1,
                    help="NashConv checkpoints: 1..10 then geometric by this factor")
    ap.add_argument("--shard", default="0/1", help="i/m: every m-th game from the i-th")
    ap.add_argument("--merge", type=Path, nargs="*", default=[],
                    help="only merge these result files into --out")
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args()
    done = json.loads(a.out.read_text()) if a.out.exists() else {}
    if a.merge:
        for p in a.merge:
            done.update(json.loads(p.read_text()))
        a.out.write_text(json.dumps(done, indent=1))
        return
    i, m = (int(x) for x in a.shard.split("/"))
    for n in a.players:
        specs = [spec_of(a.game, n, None, 0)] + [spec_of(a.game, n, kind, k)
                                                for k in range(2, n) for kind in KINDS]
        for spec in specs[i::m]:
            if spec in done:
                continue
            done[spec] = solve(spec, a.tol, a.iterations, a.growth)
            print(json.dumps(done[spec]), flush=True)
            a.out.write_text(json.dumps(done, indent=1))


if __name__ == "__main__":
    main()
