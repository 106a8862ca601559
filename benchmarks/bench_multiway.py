"""3-seat jam/fold over the 169 classes (solvers.tournament.classes): time, 3-way Monte
Carlo samples, exact NashConv and the largest threshold displacement; the ranges compared
with the sampled game (solvers.tournament.jamfold_equilibrium) at the same stacks; and one
class triple's 3-way outcomes exactly (every combo triple and board) against the table.

    python benchmarks/bench_multiway.py --stacks 10,10,10 [--sampled 200000] [--json out.json]
"""
from __future__ import annotations

import argparse
import json
import time

import numpy as np

from pokerdyn.benchmarking import Measurement, script_main

QUICK: list[str] = []   # the default table (no sampled game, no exact triple)


def _exact_triple(names=("AKs", "QQ", "76s"), samples=200_000, seed=0) -> dict:
    from pokerdyn.games.preflop.classes import class_index
    from pokerdyn.games.preflop.multiway import ThreeWayTable, exact_class_three_way
    tri = sorted(class_index(n) for n in names)
    t0 = time.perf_counter()
    exact = exact_class_three_way(tri)
    t1 = time.perf_counter()
    tw = ThreeWayTable(seed=seed)
    tw.ensure(np.array([tri]), samples)
    row = tw.slots(np.array([tri]))
    p = exact / exact.sum()
    mc = tw.probabilities(row)[0]
    se = np.sqrt(p * (1 - p) / samples)
    z = np.where(se > 0, (mc - p) / np.where(se > 0, se, 1), 0)
    return {"triple": [names[i] for i in np.argsort([class_index(n) for n in names])],
            "exact_counts": exact.tolist(), "exact_seconds": round(t1 - t0, 2),
            "mc": mc.round(6).tolist(), "samples": samples, "max_abs_z": float(np.abs(z).max())}


def run(argv=None) -> dict:
    """Prints the results; returns them (the JSON of ``--json``)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--stacks", default="10,10,10")
    ap.add_argument("--payouts", default=None)
    ap.add_argument("--sampled", type=int, default=0, help="also solve the sampled game with "
                    "this many deals (x 8 boards, CFR+ 1500 iterations)")
    ap.add_argument("--exact-triple", action="store_true")
    ap.add_argument("--json", default=None)
    a = ap.parse_args(argv)
    from pokerdyn.solvers.tournament.classes import class_jamfold_equilibrium
    stacks = [float(x) for x in a.stacks.split(",")]
    payouts = None if a.payouts is None else [float(x) for x in a.payouts.split(",")]
    eq = class_jamfold_equilibrium(stacks, payouts=payouts, progress=True)
    c = eq.certificate
    out = {"stacks": stacks, "payouts": payouts, "seconds": round(eq.seconds, 1),
           "nash_conv": eq.nash_conv, "max_displacement": eq.max_displacement,
           "mc_samples": eq.samples, "triples": eq.triples, "equity_se": eq.equity_se,
           "rounds": eq.rounds, "iterations": eq.iterations,
           "expected_payoffs": eq.expected_payoffs.tolist(),
           "displacement_by_node": {eq.game.game.labels[v] or "(root)":
                                    float(d.max()) for v, d in c.displacement.items()},
           "ranges_pct": {k: round(100 * float(np.mean(g)), 2) for k, g in eq.ranges.items()}}
    print(json.dumps({k: v for k, v in out.items() if k != "ranges"}, indent=1))
    if a.sampled:
        from pokerdyn.solvers.tournament import jamfold_equilibrium
        sa = jamfold_equilibrium(stacks, payouts=payouts, method="cfr", samples=a.sampled,
                                 boards=8, iterations=1500, progress=True)
        diffs = {}
        for k, g in eq.ranges.items():
            s = np.array([[np.nan if x is None else x for x in row] for row in sa.ranges[k]])
            diffs[k] = {"mean_abs": float(np.nanmean(np.abs(np.array(g) - s))),
                        "cells_over_half": int(np.nansum(np.abs(np.array(g) - s) > 0.5))}
        out["sampled"] = {"samples": a.sampled, "seconds": round(sa.build_seconds +
                                                                 sa.solve_seconds, 1),
                          "nash_conv": sa.nash_conv, "undetermined": sa.undetermined,
                          "expected_payoffs": sa.expected_payoffs.tolist(),
                          "standard_error": sa.standard_error.tolist(), "range_diff": diffs}
        print(json.dumps(out["sampled"], indent=1))
    if a.exact_triple:
        out["exact_triple"] = _exact_triple()
        print(json.dumps(out["exact_triple"], indent=1))
    out["ranges"] = eq.ranges
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f)
    return out


def main(argv=None) -> list[Measurement]:
    """The harness's records: the class game's solve, and the sampled game's (same stacks)
    as its baseline when ``--sampled`` ran; the exact class triple."""
    out = run(argv)
    sampled = out.get("sampled")
    ms = [Measurement(f"3-seat jam/fold over the 169 classes, stacks {out['stacks']}",
                      "pokerdyn class_jamfold_equilibrium", out["seconds"],
                      None if sampled is None else
                      f"sampled game, {sampled['samples']:,} deals x 8 boards, CFR+",
                      None if sampled is None else sampled["seconds"],
                      note=f"NashConv {out['nash_conv']:.1e}")]
    if "exact_triple" in out:
        t = out["exact_triple"]
        ms.append(Measurement(f"exact 3-way outcomes of {'/'.join(t['triple'])}", "pokerdyn",
                              t["exact_seconds"]))
    return ms


if __name__ == "__main__":
    script_main(main)
