"""Benchmark: symbolic equilibrium enumeration over the whole P axis (issue 3).

Each game runs in a fresh subprocess (caches cold) that reports wall time and peak resident
memory (``resource.getrusage(...).ru_maxrss``).  Baseline measured in the same run: the
import of the package and symbolic payoffs of the game alone (what any symbolic work pays).
Goals: skp < 2 s, kuhn3-third < 30 s with peak memory < 1 GB.

Issue 11 adds whole-process timings of the command line (interpreter and CLI start
included; wall time and max RSS of the child from ``os.wait4``): ``pokerdyn equilibria
kuhn3-third --pot 9`` (goal < 2 s), the same at P* = (5+sqrt(73))/2, and the whole axis
(goal < 10 s), against the old path measured in the same run as the baseline (the whole
axis computed, then the piece holding the pot read: ``solutions_at_from_axis``).

    python benchmarks/bench_enumeration.py [--games skp,kuhn3-third] [--cli]
        [--before DIR]   (DIR: e.g. `git archive 3fe6132 | tar -x -C DIR`)
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

from pokerdyn.benchmarking import Measurement, script_main

QUICK = ["--games", "skp"]

CHILD = r"""
import json, resource, sys, time
t0 = time.perf_counter()
from pokerdyn.games import get_game
from pokerdyn.solvers.symbolic.model.payoffs import symbolic_payoffs
g = get_game(sys.argv[1])
symbolic_payoffs(g)
t1 = time.perf_counter()
n = 0
if sys.argv[2] == "full":
    from pokerdyn.solvers.symbolic.axis.piecewise import equilibrium_pieces
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


OLD_PATH = r"""
import sys
from pokerdyn.games import get_game
from pokerdyn.solvers.symbolic.axis.piecewise import solutions_at_from_axis
for s in solutions_at_from_axis(get_game(sys.argv[1]), sys.argv[2]):
    print(s.strategy)
"""

# (label, argv after the interpreter, goal in s or None)
CLI_RUNS = [
    ("old: axis then pot 9", ["-c", OLD_PATH, "kuhn3-third", "9"], None),
    ("equilibria --pot 9", ["-m", "pokerdyn", "equilibria", "kuhn3-third", "--pot", "9"], 2.0),
    ("equilibria --pot 19/2", ["-m", "pokerdyn", "equilibria", "kuhn3-third", "--pot", "19/2"],
     2.0),
    ("equilibria --pot P*", ["-m", "pokerdyn", "equilibria", "kuhn3-third", "--pot",
                             "(5+sqrt(73))/2"], None),
    ("equilibria (whole axis)", ["-m", "pokerdyn", "equilibria", "kuhn3-third"], 10.0),
    ("pokerdyn games (start)", ["-m", "pokerdyn", "games"], None),
]


def process(argv: list[str], path: str | None = None) -> tuple[float, float]:
    """Wall time (s) and max RSS (MB) of one whole child process (``path``: import the
    package from that source tree instead, e.g. an export of an older commit)."""
    env = dict(os.environ, PYTHONPATH=path) if path else None
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, *argv], stdout=subprocess.DEVNULL, env=env,
                            cwd=path)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise RuntimeError(f"{argv} exited with {proc.returncode}")
    return wall, usage.ru_maxrss / 1024


def cli_table(before: str | None = None, measured: list | None = None) -> bool:
    """The command-line runs, each against the first (``measured``: the harness's records
    are appended)."""
    ok = True
    runs = list(CLI_RUNS)
    if before:  # the same commands on an older source tree, for the record
        runs += [(f"before: {label}", argv, None) for label, argv, _ in CLI_RUNS
                 if argv[0] == "-m" and (argv[-1] in ("9", "kuhn3-third"))]  # old syntax
    print(f"\n{'command (whole process)':<26} {'wall s':>7} {'goal s':>7} {'vs old':>7} "
          f"{'max RSS MB':>10}")
    base = None
    for label, argv, goal in runs:
        wall, mb = process(argv, before if label.startswith("before") else None)
        if base is not None and measured is not None:
            measured.append(Measurement(f"whole process: {label}", "pokerdyn", wall,
                                        runs[0][0], base, note=f"max RSS {mb:.0f} MB"))
        base = wall if base is None else base
        print(f"{label:<26} {wall:>7.2f} {goal if goal else '-':>7} {wall / base:>7.2f} "
              f"{mb:>10.0f}")
        ok &= goal is None or wall < goal
    return ok


def main(argv=None) -> tuple[list[Measurement], int]:
    """Prints the tables; the harness's records and the exit status (1: a goal missed)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="skp,kuhn3-third")
    ap.add_argument("--cli", action="store_true", help="also time the command-line runs")
    ap.add_argument("--before", default=None,
                    help="source tree of an older commit (git archive) to time as well")
    args = ap.parse_args(argv)
    ok, measured = True, []
    print(f"{'game':<12} {'pieces':>6} {'enum s':>8} {'goal s':>7} {'baseline s':>10} "
          f"{'ratio':>6} {'peak MB':>8}")
    for game in args.games.split(","):
        r = measure(game)
        goal_s, goal_mb = GOALS.get(game, (float("inf"), float("inf")))
        ratio = r["enumeration_s"] / max(r["baseline_s"], 1e-9)
        print(f"{game:<12} {r['pieces']:>6} {r['enumeration_s']:>8.2f} {goal_s:>7.0f} "
              f"{r['baseline_s']:>10.2f} {ratio:>6.1f} {r['peak_mb']:>8.0f}")
        ok &= r["enumeration_s"] < goal_s and r["peak_mb"] < goal_mb
        measured.append(Measurement(f"whole P axis, {game} ({r['pieces']} pieces)",
                                    "equilibrium_pieces", r["enumeration_s"],
                                    "import + symbolic payoffs", r["baseline_s"],
                                    note=f"peak {r['peak_mb']:.0f} MB"))
    if args.cli:
        ok &= cli_table(args.before, measured)
    print("goals met" if ok else "goals NOT met")
    return measured, 0 if ok else 1


if __name__ == "__main__":
    script_main(main)
