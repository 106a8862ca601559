"""N-seat ICM jam/fold equilibria over sampled deals (issue 13): nodes, build time, solve
time, NashConv, sampling standard error, and how much the ranges move between two deal
samples (seeds).

    python benchmarks/bench_jamfold.py [--samples 50000] [--boards 8] [--seconds 60]
        [--methods fp,cfr,hedge] [--seats 3,6]

Tables: 3-handed 10,10,10 bb and 6-handed 10,12,8,15,9,11 bb, blinds 0.5/1, payouts
0.5,0.3,0.2, button seat 0.  ``range move`` is the mean over information sets of
|push/call probability, seed 0 - seed 1| (both with the same method and budget), a direct
measure of what the sampling does to the ranges; ``undetermined`` the share of information
sets whose push/call-over-fold gain lies within 2 standard errors of zero.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from pokerdyn.benchmarking import Measurement, script_main
from pokerdyn.games.compiled import compile_game
from pokerdyn.games.tournament.sampled import (action_gains, deal_values, sample_deals,
                                               sampled_jamfold_game, standard_error)
from pokerdyn.solvers.tournament import _solver

QUICK = ["--samples", "500", "--boards", "2", "--seconds", "2", "--iterations", "200",
         "--methods", "fp,cfr", "--seats", "3"]

TABLES = {3: [10, 10, 10], 6: [10, 12, 8, 15, 9, 11]}
PAYOUTS = (0.5, 0.3, 0.2)


def solve(stacks, samples, seed, method, seconds, iterations, boards):
    t0 = time.perf_counter()
    deals = sample_deals(len(stacks), samples, seed, boards)
    t1 = time.perf_counter()
    sj = sampled_jamfold_game(deals, stacks, (0.5, 1.0), 0.0, 0, PAYOUTS)
    cg = compile_game(sj.game)
    t2 = time.perf_counter()
    res = _solver(method)(cg, iterations=iterations, seconds=seconds)
    t3 = time.perf_counter()
    vals = deal_values(sj, res.strategy)
    gain, se = action_gains(sj, res.strategy)
    labels = {info.label: i for i, info in enumerate(sj.game.infosets)}
    return dict(nodes=sj.game.kind.size, sample_s=t1 - t0, build_s=t2 - t1, solve_s=t3 - t2,
                iterations=res.iterations, nash_conv=res.nash_conv,
                payoff=vals.mean(axis=0), se=standard_error(vals),
                undetermined=float(np.mean(np.abs(gain) < 2 * se)),
                probs={k: res.strategy[i, 1] for k, i in labels.items()})


def main(argv=None) -> list[Measurement]:
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", type=int, default=50_000)
    ap.add_argument("--boards", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--iterations", type=int, default=100_000)
    ap.add_argument("--methods", default="fp,cfr,hedge")
    ap.add_argument("--seats", default="3,6")
    a = ap.parse_args(argv)
    out = []
    for n in (int(x) for x in a.seats.split(",")):
        for method in a.methods.split(","):
            r0 = solve(TABLES[n], a.samples, 0, method, a.seconds, a.iterations, a.boards)
            r1 = solve(TABLES[n], a.samples, 1, method, a.seconds, a.iterations, a.boards)
            common = set(r0["probs"]) & set(r1["probs"])
            move = np.mean([abs(r0["probs"][k] - r1["probs"][k]) for k in common])
            print(f"{n} seats {TABLES[n]}, {method}, M={a.samples} x {a.boards} boards: "
                  f"nodes {r0['nodes']:,}, "
                  f"sample {r0['sample_s']:.1f} s, build {r0['build_s']:.1f} s, solve "
                  f"{r0['solve_s']:.1f} s ({r0['iterations']} it), NashConv "
                  f"{r0['nash_conv']:.2e}; seed 1: NashConv {r1['nash_conv']:.2e}; "
                  f"undetermined {r0['undetermined']:.0%} / {r1['undetermined']:.0%}")
            print("   payoffs seed 0 " + " ".join(f"{v:+.4f}" for v in r0["payoff"])
                  + "  se " + " ".join(f"{v:.4f}" for v in r0["se"]))
            print("   payoffs seed 1 " + " ".join(f"{v:+.4f}" for v in r1["payoff"])
                  + f"  range move {move:.3f} over {len(common)} infosets", flush=True)
            what = f"{n} seats, M={a.samples} x {a.boards} boards"
            out += [Measurement(f"sample deals, {what}", "pokerdyn", r0["sample_s"]),
                    Measurement(f"build, {what}", "pokerdyn", r0["build_s"]),
                    Measurement(f"solve, {what}", f"pokerdyn {method}", r0["solve_s"],
                                note=f"{r0['iterations']} it., NashConv {r0['nash_conv']:.2e}")]
    return out


if __name__ == "__main__":
    script_main(main)
