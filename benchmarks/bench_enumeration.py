"""Benchmark: symbolic equilibrium enumeration over the whole P axis (issue 3).

Each game runs in a fresh subprocess (caches cold) that reports wall time and peak resident
memory (``resource.getrusage(...).ru_maxrss``).  Baseline measured in the same run: the
import of the package and symbolic payoffs of the game alone (what any symbolic work pays).
Goals: skp < 2 s, kuhn3-third < 30 s with peak memory < 1 GB.

    PYTHONPATH=. python benchmarks/bench_enumeration.py [--games skp,kuhn3-third]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys

CHILD = r"""
import json, resource, sys, time
t0 = time.perf_counter()
from games import get_game
from solvers.symbolic.payoffs import symbolic_payoffs
g = get_game(sys.argv[1])
symbolic_payoffs(g)
t1 = time.perf_counter()
n = 0
if sys.argv[2] == "full":
    from solvers.symbolic.piecewise import equilibrium_pieces
    pieces = equilibrium_pieces(g)
    n = len(pieces)
t2 = time.perf_counter()
print(json.dumps({"baseline_s": t1 - t0, "enumeration_s": t2 - t1, "pieces": n,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

GOALS = {"skp": (2.0, 1024.0), "kuhn3-third": (30.0, 1024.0)}


def measure(game: str) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, game, "full"], capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="skp,kuhn3-third")
    args = ap.parse_args(argv)
    ok = True
    print(f"{'game':<12} {'pieces':>6} {'enum s':>8} {'goal s':>7} {'baseline s':>10} "
          f"{'ratio':>6} {'peak MB':>8}")
    for game in args.games.split(","):
        r = measure(game)
        goal_s, goal_mb = GOALS.get(game, (float("inf"), float("inf")))
        ratio = r["enumeration_s"] / max(r["baseline_s"], 1e-9)
        print(f"{game:<12} {r['pieces']:>6} {r['enumeration_s']:>8.2f} {goal_s:>7.0f} "
              f"{r['baseline_s']:>10.2f} {ratio:>6.1f} {r['peak_mb']:>8.0f}")
        ok &= r["enumeration_s"] < goal_s and r["peak_mb"] < goal_mb
    print("goals met" if ok else "goals NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
