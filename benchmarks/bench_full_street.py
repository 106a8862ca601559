"""Benchmark: equilibrium enumeration of full-street simplified 3-player Kuhn poker
(``kuhn3-full-simplified``, Billingham arXiv 1707.01392) against today's one-third street
game (``kuhn3-third``, whole P axis), each job in a fresh subprocess reporting wall time and
peak resident memory (``ru_maxrss``).  Issue 14's goal for the full-street game: all P in
under 5 minutes and 4 GB.

Jobs:
- ``third``: ``equilibrium_pieces(kuhn3-third)`` (the whole axis; the baseline);
- ``dominance``: iterated weak dominance of the 36 frequencies over all P (13 stay free);
- ``walk``: the (a)/(b)/(c) case walk of the 13 over all P (symbolic P, cells of the axis),
  its generic leaves and the leaves recorded at isolated pots;
- ``pot:X``: every equilibrium at the exact pot X (walk + exact solve), each family's sample
  certified by an exact NashConv;
- ``axis`` (only with --axis): the whole-axis run of 2 <= P <= 20 by complete exact
  enumerations at rational pots (:mod:`solvers.symbolic.axis`, the path of
  ``pokerdyn equilibria kuhn3-full-simplified``); with --record it also writes the committed
  result figures/frontier/data/full_street_families.json.

    python benchmarks/bench_full_street.py [--jobs third,dominance,walk] [--pots 3,6,9]
        [--axis [--record] [--workers 2]] [--out FILE]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from pokerdyn.benchmarking import Measurement, script_main

QUICK = ["--jobs", "third,dominance", "--pots", "",
         "--out", str(Path(tempfile.gettempdir()) / "pokerdyn-bench-full-street.json")]

CHILD = r"""
import json, resource, sys, time
import sympy as sp
t0 = time.perf_counter()
from pokerdyn.games import get_game
from pokerdyn.solvers.symbolic import enumeration as en
from pokerdyn.solvers.symbolic.model.dominance import reduce_game
job = sys.argv[1]
out = {"job": job}
if job == "third":
    from pokerdyn.solvers.symbolic.axis.piecewise import equilibrium_pieces
    out["pieces"] = len(equilibrium_pieces(get_game("kuhn3-third")))
else:
    g = get_game("kuhn3-full-simplified")
    fixed = reduce_game(g)
    out["free"] = len(g.named) - len(fixed)
    if job == "walk":
        crit = {}
        conds = en.conditions(g, None, fixed)
        leaves = en._case_leaves(conds, en.pot_symbol(g), crit)
        out["generic_leaves"] = len(leaves)
        out["point_tasks"] = sum(len(t) for _, t in crit.values())
    elif job.startswith("pot:"):
        from pokerdyn.solvers.symbolic.model.nash_conv import exact_nash_conv
        from pokerdyn.solvers.symbolic.axis.piecewise import solutions_at
        pot = sp.Rational(job[4:])
        sols = solutions_at(g, pot, fixed)
        out["families"] = len(sols)
        out["free_dims"] = [len(s.free) for s in sols]
        out["nash_conv_zero"] = all(exact_nash_conv(g, pot, s.sample()) == 0 for s in sols)
    elif job.startswith("axis"):
        from pokerdyn.solvers.symbolic.axis.sweep import sweep, sweep_record
        from pokerdyn.commands.exact.equilibrium_axis import START
        lo, hi = sp.Integer(2), sp.Integer(20)
        workers = int(sys.argv[2]) if len(sys.argv) > 2 else 1
        from pokerdyn.figures.frontier.full_street import RECORD
        # the supports the completeness proof added (pokerdyn equilibria --prove-complete)
        extra = json.loads(RECORD.read_text()).get("extra_supports", []) \
            if RECORD.exists() else []
        res = sweep(g, fixed, lo, hi, start=START, workers=workers, extra=extra)
        out["workers"] = workers
        rec = sweep_record(g, fixed, res, lo, hi)
        out["pieces"] = len(rec["pieces"])
        out["pots_enumerated"] = len(rec["pots_enumerated"])
        out["supports"] = len(rec["supports"])
        out["coexistence"] = [c["p_set"] for c in rec["coexistence"]]
        out["sweep_seconds"] = rec["seconds"]
        if job == "axis:record":
            # the cross-checks of experiments/full_street_third.py stay in the record
            old = json.loads(RECORD.read_text()) if RECORD.exists() else {}
            rec.update({k: old[k] for k in ("quadratic_families", "grid_check") if k in old})
            RECORD.write_text(json.dumps(rec, indent=1) + "\n")
out["seconds"] = time.perf_counter() - t0
out["peak_mb"] = max(resource.getrusage(w).ru_maxrss
                    for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)) / 1024
print(json.dumps(out))
"""


def measure(job: str, timeout: float | None = None, *extra: str) -> dict:
    try:
        res = subprocess.run([sys.executable, "-c", CHILD, job, *extra], capture_output=True,
                             text=True, check=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"job": job, "timed_out_after_s": timeout}
    return json.loads(res.stdout.strip().splitlines()[-1])


def measurements(rows: list[dict]) -> list[Measurement]:
    """Each full-street job (whole process) against the kuhn3-third whole axis when that
    baseline ran in this run."""
    base = next((r["seconds"] for r in rows if r.get("job") == "third" and "seconds" in r),
                None)
    out = []
    for r in rows:
        if r.get("job") == "third" or "seconds" not in r:
            continue
        out.append(Measurement(f"kuhn3-full-simplified job {r['job']} (whole process)",
                               "pokerdyn", r["seconds"],
                               None if base is None else "kuhn3-third whole axis", base,
                               note=f"peak {r['peak_mb']:.0f} MB"))
    if base is not None and not out:
        out.append(Measurement("kuhn3-third whole axis (whole process)", "pokerdyn", base))
    return out


def main(argv: list[str] | None = None) -> list[Measurement]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pots", default="3,6,9", help="exact pots for the fixed-pot jobs")
    ap.add_argument("--axis", action="store_true", help="also try the whole-axis run")
    ap.add_argument("--axis-timeout", type=float, default=3600.0)
    ap.add_argument("--workers", type=int, default=1,
                    help="with --axis: processes for the pots of a round (default 1)")
    ap.add_argument("--record", action="store_true",
                    help="with --axis: write figures/frontier/data/full_street_families.json")
    ap.add_argument("--out", default="benchmarks/results/full_street.json")
    ap.add_argument("--jobs", default="third,dominance,walk",
                    help="which of third, dominance, walk to run (comma list; '' for none)")
    a = ap.parse_args(argv)
    jobs = [j for j in a.jobs.split(",") if j] + [f"pot:{x}" for x in a.pots.split(",") if x]
    rows = [measure(j) for j in jobs]
    if a.axis:
        rows.append(measure("axis:record" if a.record else "axis", a.axis_timeout,
                            str(a.workers)))
    for r in rows:
        print(json.dumps(r))
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps({"rows": rows}, indent=1) + "\n")
    return measurements(rows)


if __name__ == "__main__":
    script_main(main)
