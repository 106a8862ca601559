"""Fictitious-play benchmark on ``kuhn3`` and ``kuhn3-third`` (P = 9).

Measures, in one run, pokerdyn (numba) against the plain-Python reference traversal of
solvers/reference.py and, when the optional ``open-spiel`` package is importable,
OpenSpiel's Python ``XFPSolver`` on 3-player Kuhn:

* fictitious-play iterations per second (simultaneous, reach-weighted averaging);
* time to NashConv <= 1e-3 (pokerdyn measured; the reference extrapolated from its
  measured time per iteration, marked "est.");
* time of one exact NashConv evaluation;
* NashConv at equal iterations (the same rule, so the numbers must agree).

    python benchmarks/bench_fp.py [--ref-iterations 200] [--os-iterations 100]
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from pokerdyn.benchmarking import Measurement, best_time, script_main
from pokerdyn.games import compile_game, get_game, uniform_strategy
from pokerdyn.solvers import fictitious_play, nash_conv
from pokerdyn.solvers.learning.fictitious_play import FictitiousPlay
from pokerdyn.solvers.reference import Reference

QUICK = ["--ref-iterations", "5", "--os-iterations", "2", "--tol", "0.1"]


def fp_per_iteration(cg, n: int) -> float:
    """Seconds per FP iteration of the numba loop alone (no NashConv checkpoints)."""
    m = FictitiousPlay()
    state = m.init(cg, uniform_strategy(cg))
    m.advance(cg, state, 0, 10)  # JIT warm-up
    t = time.perf_counter()
    m.advance(cg, state, 10, n)
    return (time.perf_counter() - t) / n


def as_array(cg, sigma_lists):
    out = np.zeros(cg.legal.shape)
    for i, row in enumerate(sigma_lists):
        out[i, :len(row)] = row
    return out


def bench_game(name: str, values: dict, ref_iters: int, tol: float) -> dict:
    cg = compile_game(get_game(name), values)
    ref = Reference(cg)
    sigma = uniform_strategy(cg)
    r = {"game": name + (f" (P={values['P']:g})" if values else ""), "nodes": cg.n_nodes,
         "infosets": cg.n_infosets}
    r["pd_iter"] = fp_per_iteration(cg, 20_000)
    t = time.perf_counter()
    ref_sigma = ref.fictitious_play(ref_iters)
    r["ref_iter"] = (time.perf_counter() - t) / ref_iters
    res = fictitious_play(cg, iterations=ref_iters)
    r["nc_pd"], r["nc_ref"] = res.nash_conv, ref.nash_conv(ref_sigma)
    r["strategy_diff"] = float(np.abs(as_array(cg, ref_sigma) - res.strategy).max())
    nash_conv(cg, sigma)
    r["pd_nc_eval"] = best_time(lambda: nash_conv(cg, sigma), number=200)
    u = ref.uniform()
    r["ref_nc_eval"] = best_time(lambda: ref.nash_conv(u), repeat=3, number=5)
    conv = fictitious_play(cg, iterations=5_000_000, tol=tol)
    r["tol_iters"], r["tol_pd_s"], r["tol_ok"] = conv.iterations, conv.seconds, conv.converged
    r["tol_ref_s_est"] = conv.iterations * r["ref_iter"]
    return r


def bench_openspiel(iters: int, cg_kuhn3) -> dict | None:
    try:
        import pyspiel
        from open_spiel.python.algorithms import exploitability
        from open_spiel.python.algorithms import fictitious_play as osfp
    except ImportError:
        return None
    game = pyspiel.load_game("kuhn_poker", {"players": 3})
    xfp = osfp.XFPSolver(game)
    t = time.perf_counter()
    for _ in range(iters):
        xfp.iteration()
    per = (time.perf_counter() - t) / iters
    pol = xfp.average_policy()
    t = time.perf_counter()
    nc = exploitability.nash_conv(game, pol)
    nc_eval = time.perf_counter() - t
    ours = fictitious_play(cg_kuhn3, iterations=iters).nash_conv
    return {"iter": per, "nash_conv": nc, "nc_eval": nc_eval, "ours": ours, "iters": iters}


def measurements(rows: list[dict], os_row: dict | None) -> list[Measurement]:
    """The harness's records of the rows (pokerdyn against the reference, same run)."""
    out = []
    for r in rows:
        g = r["game"]
        out += [Measurement(f"one FP iteration, {g}", "pokerdyn", r["pd_iter"],
                            "plain-Python reference", r["ref_iter"]),
                Measurement(f"one exact NashConv, {g}", "pokerdyn", r["pd_nc_eval"],
                            "plain-Python reference", r["ref_nc_eval"]),
                Measurement(f"FP to NashConv <= tol, {g}", "pokerdyn", r["tol_pd_s"],
                            "plain-Python reference", r["tol_ref_s_est"],
                            note=f"{r['tol_iters']:,} iterations; reference estimated"
                            + ("" if r["tol_ok"] else "; not reached"))]
    if os_row is not None:
        k3 = rows[0]
        out += [Measurement("one FP iteration, kuhn3", "pokerdyn", k3["pd_iter"],
                            "OpenSpiel XFPSolver (Python)", os_row["iter"]),
                Measurement("one NashConv, kuhn3", "pokerdyn", k3["pd_nc_eval"],
                            "OpenSpiel exploitability.nash_conv", os_row["nc_eval"])]
    return out


def main(argv=None) -> list[Measurement]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ref-iterations", type=int, default=200)
    ap.add_argument("--os-iterations", type=int, default=100)
    ap.add_argument("--tol", type=float, default=1e-3)
    args = ap.parse_args(argv)
    rows = [bench_game("kuhn3", {}, args.ref_iterations, args.tol),
            bench_game("kuhn3-third", {"P": 9.0}, args.ref_iterations, args.tol)]
    print(f"Fictitious play (simultaneous, reach-weighted averaging); reference = plain-Python "
          f"recursive traversal ({args.ref_iterations} iterations measured)\n")
    print("| game | nodes | pokerdyn ms/iter | reference ms/iter | speed-up | pokerdyn it/s |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['game']} | {r['nodes']} | {r['pd_iter'] * 1e3:.4f} | "
              f"{r['ref_iter'] * 1e3:.2f} | {r['ref_iter'] / r['pd_iter']:.0f}x | "
              f"{1 / r['pd_iter']:,.0f} |")
    print("\n| game | one NashConv: pokerdyn | reference | speed-up |")
    print("|---|---|---|---|")
    for r in rows:
        print(f"| {r['game']} | {r['pd_nc_eval'] * 1e6:.1f} us | {r['ref_nc_eval'] * 1e3:.2f} ms"
              f" | {r['ref_nc_eval'] / r['pd_nc_eval']:.0f}x |")
    print(f"\n| game | iterations to NashConv <= {args.tol:g} | pokerdyn time | reference time "
          f"(est.) | speed-up |")
    print("|---|---|---|---|---|")
    for r in rows:
        it = f"{r['tol_iters']:,}" + ("" if r["tol_ok"] else " (not reached)")
        print(f"| {r['game']} | {it} | {r['tol_pd_s']:.2f} s | {r['tol_ref_s_est']:.0f} s | "
              f"{r['tol_ref_s_est'] / r['tol_pd_s']:.0f}x |")
    print(f"\nCross-check at {args.ref_iterations} iterations (same rule):")
    for r in rows:
        print(f"  {r['game']}: NashConv pokerdyn {r['nc_pd']:.12f}, reference {r['nc_ref']:.12f}"
              f", max |strategy difference| {r['strategy_diff']:.1e}")
    k3 = compile_game(get_game("kuhn3"))
    res = fictitious_play(k3, iterations=2058)
    print(f"  kuhn3 after 2,058 iterations (the issue's OpenSpiel XFP run: 60 s, NashConv 0.010):"
          f" NashConv {res.nash_conv:.4f} in {res.seconds:.2f} s")
    os_row = bench_openspiel(args.os_iterations, k3)
    if os_row is None:
        print("\nOpenSpiel: not installed (pip install open-spiel==2.0.2 to include XFPSolver).")
        return measurements(rows, None)
    k3 = rows[0]
    print(f"\nOpenSpiel XFPSolver, 3-player Kuhn, {os_row['iters']} iterations: "
          f"{os_row['iter'] * 1e3:.2f} ms/iter (pokerdyn {k3['pd_iter'] * 1e3:.4f} ms/iter: "
          f"{os_row['iter'] / k3['pd_iter']:,.0f}x faster); one NashConv: "
          f"{os_row['nc_eval'] * 1e3:.1f} ms (pokerdyn {k3['pd_nc_eval'] * 1e6:.1f} us: "
          f"{os_row['nc_eval'] / k3['pd_nc_eval']:,.0f}x)")
    print(f"NashConv after {os_row['iters']} iterations: OpenSpiel {os_row['nash_conv']:.12f}, "
          f"pokerdyn {os_row['ours']:.12f}")
    return measurements(rows, os_row)


if __name__ == "__main__":
    script_main(main)
