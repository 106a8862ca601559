"""CFR+ speed and convergence against fictitious play (same run) and, when `open-spiel` is
importable, OpenSpiel's C++ CFRPlusSolver on the same games (3-player Kuhn from OpenSpiel's
own implementation; the river game exported through games.io.efg.to_efg).

    python benchmarks/bench_cfr.py [--iterations 10000] [--fp-cap 20]

Reports per game: microseconds per iteration (kernel only, no NashConv), NashConv after
``--iterations``, and the wall-clock time to NashConv <= 1e-4 (including the NashConv
checkpoints of run_iterative; fictitious play is capped at ``--fp-cap`` seconds).
"""
from __future__ import annotations

import argparse
import time

from pokerdyn.benchmarking import Measurement, script_main
from pokerdyn.games import compile_game, get_game
from pokerdyn.games.io.efg import to_efg
from pokerdyn.solvers import nash_conv
from pokerdyn.solvers.learning.cfr_plus import CFR
from pokerdyn.solvers.learning.fictitious_play import FictitiousPlay
from pokerdyn.solvers.iterative import run_iterative
from pokerdyn.games.strategy import uniform_strategy

TARGET = 1e-4
QUICK = ["--iterations", "50", "--fp-cap", "1"]


def per_iteration(cg, method, n):
    """Seconds per iteration of ``method.advance`` (after a warm-up), and the NashConv of
    the output after ``n`` iterations."""
    warm = method.init(cg, uniform_strategy(cg))
    method.advance(cg, warm, 0, 2)
    state = method.init(cg, uniform_strategy(cg))
    t0 = time.perf_counter()
    method.advance(cg, state, 0, n)
    dt = time.perf_counter() - t0
    return dt / n, nash_conv(cg, method.average(cg, state))


def time_to_target(cg, method, cap_s):
    res = run_iterative(cg, method, iterations=10**9, tol=TARGET, seconds=cap_s)
    return res.seconds, res.iterations, res.nash_conv, res.converged


def openspiel_run(game, n, check_every=50):
    """OpenSpiel CFRPlusSolver: seconds per iteration over n iterations (no NashConv in the
    loop), final NashConv, and in a second run the first multiple of ``check_every``
    iterations reaching TARGET with its elapsed time (NashConv checks included)."""
    import pyspiel
    solver = pyspiel.CFRPlusSolver(game)
    t0 = time.perf_counter()
    for _ in range(n):
        solver.evaluate_and_update_policy()
    dt = time.perf_counter() - t0
    final = pyspiel.nash_conv(game, solver.average_policy())
    solver, hit = pyspiel.CFRPlusSolver(game), None
    t0 = time.perf_counter()
    for i in range(1, n + 1):
        solver.evaluate_and_update_policy()
        if i % check_every == 0 and pyspiel.nash_conv(game, solver.average_policy()) <= TARGET:
            hit = (i, time.perf_counter() - t0)
            break
    return dt / n, final, hit


def measurements(rows: list[dict]) -> list[Measurement]:
    """The harness's records: CFR+ against FP (and OpenSpiel's C++ CFR+), same run."""
    out = []
    for r in rows:
        g = r["game"]
        out.append(Measurement(f"one iteration, {g}", "pokerdyn CFR+", r["cfr_us"] * 1e-6,
                               "pokerdyn FP", r["fp_us"] * 1e-6))
        (tc, ic, _, okc), (tf, itf, ncf, okf) = r["cfr_t"], r["fp_t"]
        out.append(Measurement(f"to NashConv {TARGET:g}, {g}", "pokerdyn CFR+", tc,
                               "pokerdyn FP", tf,
                               note=f"CFR+ {ic} it.{'' if okc else ' (not reached)'}; FP {itf}"
                               f" it.{'' if okf else f' (not reached, capped; {ncf:.1e})'}"))
        if "os" in r:
            out.append(Measurement(f"one iteration, {g}", "pokerdyn CFR+", r["cfr_us"] * 1e-6,
                                   "OpenSpiel C++ CFRPlusSolver", r["os"][0]))
    return out


def main(argv=None) -> list[Measurement]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=10_000)
    ap.add_argument("--fp-cap", type=float, default=20.0)
    args = ap.parse_args(argv)
    try:
        import pyspiel
    except ImportError:
        pyspiel = None
    rows = []
    for name in ("kuhn3", "river"):
        cg = compile_game(get_game(name))
        us_cfr, nc_cfr = per_iteration(cg, CFR(), args.iterations)
        us_fp, nc_fp = per_iteration(cg, FictitiousPlay(), args.iterations)
        t_cfr = time_to_target(cg, CFR(), 60.0)
        t_fp = time_to_target(cg, FictitiousPlay(), args.fp_cap)
        row = {"game": name, "nodes": cg.n_nodes, "cfr_us": us_cfr * 1e6, "cfr_nc": nc_cfr,
               "fp_us": us_fp * 1e6, "fp_nc": nc_fp, "cfr_t": t_cfr, "fp_t": t_fp}
        if pyspiel is not None:
            game = (pyspiel.load_game("kuhn_poker(players=3)") if name == "kuhn3"
                    else pyspiel.load_efg_game(to_efg(cg)))
            row["os"] = openspiel_run(game, args.iterations)
        rows.append(row)
    n = args.iterations
    print(f"CFR+ vs fictitious play{' vs OpenSpiel C++ CFRPlusSolver' if pyspiel else ''}, "
          f"{n} iterations{'' if pyspiel else ' (open-spiel not importable: not measured)'}\n")
    print("| game | nodes | method | us/iteration | NashConv after N | time to NashConv 1e-4 |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        t, it, nc, ok = r["cfr_t"]
        print(f"| {r['game']} | {r['nodes']} | pokerdyn CFR+ | {r['cfr_us']:.1f} | "
              f"{r['cfr_nc']:.2e} | {t:.3f} s ({it} it.) |")
        t, it, nc, ok = r["fp_t"]
        reach = f"{t:.3f} s ({it} it.)" if ok else f"not in {t:.0f} s ({it} it., {nc:.1e})"
        print(f"| {r['game']} | {r['nodes']} | pokerdyn FP | {r['fp_us']:.1f} | "
              f"{r['fp_nc']:.2e} | {reach} |")
        if "os" in r:
            us, nc, hit = r["os"]
            reach = f"{hit[1]:.3f} s ({hit[0]} it.)" if hit else "not reached"
            print(f"| {r['game']} | {r['nodes']} | OpenSpiel CFR+ (C++) | {us * 1e6:.1f} | "
                  f"{nc:.2e} | {reach} |")
    print()
    for r in rows:
        line = f"{r['game']}: time per iteration FP/CFR+ = {r['fp_us'] / r['cfr_us']:.2f}"
        if "os" in r:
            line += f"; OpenSpiel C++ CFR+/pokerdyn CFR+ = {r['os'][0] * 1e6 / r['cfr_us']:.0f}"
        print(line)
    return measurements(rows)


if __name__ == "__main__":
    script_main(main)
