"""Mercer scale benchmark: 3-player Multiround Mercer Hold'em (and SMH with 4, 5 players)
built and solved by CFR+.

One subprocess per case (so peak RSS is per case): nodes, information sets, compiled bytes
per node, build seconds (rules -> validated Game -> CompiledGame), then CFR+ until NashConv
(sum over players, chips = antes) <= ``--tol`` or ``--iterations``: iterations, solve
seconds (NashConv checkpoints included), final NashConv, expected payoffs per seat, seconds
per iteration, and the process's peak RSS (``getrusage``).

    python benchmarks/bench_mercer_scale.py                  # none, strong, weak, pot
    python benchmarks/bench_mercer_scale.py --case check     # the check=true variant
    python benchmarks/bench_mercer_scale.py --case strong --json out.json
    python benchmarks/bench_mercer_scale.py --collapse 3 4   # SMH with and without the board collapsed

The paper (Mercer, hold'em collusion report): 3P-MMH "about 5 million nodes", over 4 GB and
about 10 hours (3,600 fictitious-play iterations) on a 16-core server to a 0.01-equilibrium;
the check option overflowed a 32 GB memory cap.
"""
from __future__ import annotations

import argparse
import json
import logging
import resource
import subprocess
import sys
import time
from pathlib import Path

from pokerdyn.benchmarking import Measurement, script_main

QUICK = ["--collapse", "3", "--iterations", "2"]

CASES = {"none": "mercer-mmh(players=3)",
         "strong": "mercer-mmh(players=3,collusion=strong)",
         "weak": "mercer-mmh(players=3,collusion=weak)",
         "pot": "mercer-mmh(players=3,collusion=pot)",
         "check": "mercer-mmh(players=3,check=true)",
         # 4 and 5 players of SMH, the board collapsed (games.holdem.collapse)
         "smh4": "mercer-smh(players=4)",
         "smh5": "mercer-smh(players=5)"}


def _gb(kb: int) -> float:
    return kb / 1024 ** 2


def one(case: str, tol: float, iterations: int, growth: float, progress: bool) -> dict:
    from pokerdyn.games import compile_game
    from pokerdyn.games.catalog.registry import make_game
    from pokerdyn.solvers.iterative import run_iterative
    from pokerdyn.solvers.learning.cfr_plus import CFR
    spec = CASES[case]
    if progress:  # the builder's stage messages (logging) on stderr
        logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    t = time.perf_counter()
    cg = compile_game(make_game(spec))
    build = time.perf_counter() - t
    built_rss = _gb(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    res = run_iterative(cg, CFR(), iterations=iterations, tol=tol, growth=growth,
                        progress=progress)
    h = res.history
    # seconds per iteration from the last stretch between two checkpoints (one NashConv
    # evaluation included in each stretch, so this is an upper bound)
    per_it = (h[-1, 2] - h[-2, 2]) / (h[-1, 0] - h[-2, 0]) if len(h) > 1 else h[-1, 2]
    return {"case": case, "spec": spec, "nodes": cg.n_nodes, "infosets": cg.n_infosets,
            "bytes_per_node": cg.nbytes() / cg.n_nodes, "build_s": build,
            "build_peak_rss_gb": built_rss, "iterations": res.iterations,
            "solve_s": res.seconds, "s_per_iteration": per_it,
            "nash_conv": res.nash_conv, "converged": res.converged,
            "payoffs": [float(x) for x in res.expected_payoffs],
            "peak_rss_gb": _gb(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)}


def collapse_ratios(n: int, iterations: int, seed: int = 0) -> dict:
    """N-player SMH built with the board collapsed and in full, in one process: nodes, build
    seconds, CFR+ seconds per iteration (after one warm-up iteration), and the largest
    differences of expected payoffs and NashConv at the collapsed game's CFR+ profile and at
    a seeded random profile (the collapse is exact: both should be ~1e-15)."""
    import numpy as np
    from pokerdyn.games import compile_game
    from pokerdyn.games.catalog.registry import make_game
    from pokerdyn.games.strategy import uniform_strategy
    from pokerdyn.solvers.evaluation import expected_payoffs, nash_conv
    from pokerdyn.solvers.learning.cfr_plus import CFR
    out, cgs = {"players": n, "iterations": iterations}, {}
    for key, spec in (("collapsed", f"mercer-smh(players={n})"),
                      ("full", f"mercer-smh(players={n},collapse=false)")):
        t = time.perf_counter()
        cg = compile_game(make_game(spec))
        out[f"{key}_build_s"] = time.perf_counter() - t
        out[f"{key}_nodes"] = cg.n_nodes
        method = CFR()
        state = method.init(cg, uniform_strategy(cg))
        method.advance(cg, state, 0, 1)
        t = time.perf_counter()
        method.advance(cg, state, 1, iterations)
        out[f"{key}_s_per_iteration"] = (time.perf_counter() - t) / iterations
        cgs[key] = (cg, method.average(cg, state))
    (a, sigma), (b, _) = cgs["collapsed"], cgs["full"]
    rand = np.random.default_rng(seed).random(a.legal.shape) * a.legal
    du = dn = 0.0
    for s in (sigma, rand / rand.sum(axis=1, keepdims=True)):
        du = max(du, float(np.abs(expected_payoffs(a, s) - expected_payoffs(b, s)).max()))
        dn = max(dn, abs(nash_conv(a, s) - nash_conv(b, s)))
    out.update(max_payoff_diff=du, max_nash_conv_diff=dn, nash_conv=nash_conv(a, sigma),
               infosets_equal=[i.label for i in a.game.infosets] ==
               [i.label for i in b.game.infosets],
               peak_rss_gb=_gb(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))
    return out


def collapse_row(r: dict) -> str:
    f = {k: r[f"full_{k}"] / r[f"collapsed_{k}"] for k in ("nodes", "build_s", "s_per_iteration")}
    return (f"| {r['players']}P-SMH | {r['full_nodes']:,} / {r['collapsed_nodes']:,} "
            f"({f['nodes']:.1f}x) | {r['full_build_s']:.1f} / {r['collapsed_build_s']:.1f} s "
            f"({f['build_s']:.1f}x) | {r['full_s_per_iteration']:.3f} / "
            f"{r['collapsed_s_per_iteration']:.3f} s ({f['s_per_iteration']:.1f}x) | "
            f"{r['max_payoff_diff']:.1e} | {r['max_nash_conv_diff']:.1e} | "
            f"{r['infosets_equal']} | {r['peak_rss_gb']:.2f} GB |")


COLLAPSE_HEADER = ("| game | nodes full / collapsed | build | CFR+ s/iteration | max payoff diff "
                   "| max NashConv diff | same infosets | peak RSS |\n"
                   "|---|---:|---:|---:|---:|---:|---|---:|")


def row(r: dict) -> str:
    pay = ", ".join(f"{x:+.3f}" for x in r["payoffs"])
    stop = "NashConv <= tol" if r["converged"] else "iteration budget"
    return (f"| {r['spec']} | {r['nodes']:,} | {r['infosets']:,} | {r['bytes_per_node']:.1f} | "
            f"{r['build_s']:.1f} s | {r['iterations']} ({stop}) | {r['solve_s']:.0f} s | "
            f"{r['s_per_iteration']:.2f} s | {r['nash_conv']:.4f} | ({pay}) | "
            f"{r['peak_rss_gb']:.2f} GB |")


HEADER = ("| game | nodes | infosets | bytes/node | build | CFR+ iterations | solve | "
          "s/iteration | NashConv | payoffs (seats 1-N) | peak RSS |\n"
          "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|")


def measurements(rows: list[dict], collapse: bool) -> list[Measurement]:
    """The harness's records: per case build, solve and one iteration; per collapse row
    the collapsed game against the full one (same process)."""
    out = []
    for r in rows:
        if collapse:
            g = f"{r['players']}P-SMH"
            out += [Measurement(f"build, {g}", "board collapsed", r["collapsed_build_s"],
                                "full board", r["full_build_s"]),
                    Measurement(f"one CFR+ iteration, {g}", "board collapsed",
                                r["collapsed_s_per_iteration"], "full board",
                                r["full_s_per_iteration"])]
            continue
        out += [Measurement(f"build, {r['spec']}", "pokerdyn", r["build_s"]),
                Measurement(f"CFR+ to NashConv <= tol, {r['spec']}", "pokerdyn", r["solve_s"],
                            note=f"{r['iterations']} it., NashConv {r['nash_conv']:.4f}"
                            + ("" if r["converged"] else ", budget")),
                Measurement(f"one CFR+ iteration (upper bound), {r['spec']}", "pokerdyn",
                            r["s_per_iteration"])]
    return out


def main(argv=None) -> list[Measurement]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--case", choices=sorted(CASES), action="append",
                    help="case(s) to run (default: none, strong, weak, pot)")
    ap.add_argument("--tol", type=float, default=0.01)
    ap.add_argument("--iterations", type=int, default=5_000, help="iteration budget")
    ap.add_argument("--growth", type=float, default=1.1,
                    help="NashConv checkpoints grow geometrically by this factor")
    ap.add_argument("--progress", action="store_true", help="progress bars on stderr")
    ap.add_argument("--json", type=Path, help="also write the rows as JSON")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    ap.add_argument("--collapse", type=int, nargs="*",
                    help="compare SMH with these player counts collapsed and in full")
    a = ap.parse_args(argv)
    if a.collapse:
        print(COLLAPSE_HEADER, flush=True)
        rows = []
        for n in a.collapse:
            rows.append(collapse_ratios(n, min(a.iterations, 10)))
            print(collapse_row(rows[-1]), flush=True)
        if a.json:
            a.json.write_text(json.dumps(rows, indent=1) + "\n")
        return measurements(rows, True)
    if a.one:
        print(json.dumps(one(a.one, a.tol, a.iterations, a.growth, a.progress)), flush=True)
        return []
    rows = []
    print(HEADER, flush=True)
    for case in a.case or ["none", "strong", "weak", "pot"]:
        out = subprocess.run([sys.executable, __file__, "--one", case, "--tol", str(a.tol),
                              "--iterations", str(a.iterations), "--growth", str(a.growth)]
                             + (["--progress"] if a.progress else []),
                             check=True, stdout=subprocess.PIPE, text=True).stdout
        rows.append(json.loads(out.strip().splitlines()[-1]))
        print(row(rows[-1]), flush=True)
    if a.json:
        a.json.write_text(json.dumps(rows, indent=1) + "\n")
    return measurements(rows, False)


if __name__ == "__main__":
    script_main(main)
