"""Time and peak memory of the equilibrium set of 3-player Kuhn poker (kuhn3, 4 cards) at
P = 3 by the support method (solvers.symbolic.learned), with today's one-third street run
(kuhn3-third: the exact case search, piecewise over every P) as the baseline.

    python benchmarks/bench_kuhn3_set.py [--seeds 20] [--pots 3] [--tol 2e-5]
        [--sweep 2:10 --sweep-seeds 2] [--out FILE]

Each stage runs in a fresh process so that its peak resident memory is its own.  Writes
benchmarks/results/kuhn3_set.json: per run seconds by stage, peak RSS (MB), families,
largest distance of a CFR+ / FP limit to its nearest family, and the baseline.  ``--tol``
stops each run once its NashConv is at most that (refinements at a quarter of it);
``--sweep A:B`` also times ``pokerdyn equilibria kuhn3 --pots A:B`` (P symbolic) and writes
its JSON record beside the results.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import resource
import tempfile
import time
from pathlib import Path

from pokerdyn.benchmarking import Measurement, script_main

QUICK = ["--seeds", "2", "--rounds", "0", "--tol", "1e-3", "--workers", "1",
         "--out", str(Path(tempfile.gettempdir()) / "pokerdyn-bench-kuhn3-set.json")]


def _kuhn3(pot: str, seeds: int, workers, rounds: int, tol, q) -> None:
    import sympy as sp

    from pokerdyn.games.catalog.kuhn import kuhn3
    from pokerdyn.solvers.symbolic.learned.equilibrium_set import equilibrium_set, set_record

    t = time.perf_counter()
    res = equilibrium_set(kuhn3(), sp.Rational(pot), seeds=seeds, workers=workers,
                          rounds=rounds, tol=tol)
    rec = set_record(res)
    by = {m: max(d for r, (d, _) in zip(res.runs, res.distances) if r.method == m)
          for m in ("cfr+", "fp")}
    near = [min([d, *res.curve_distances[k:k + 1]]) for k, (d, _) in enumerate(res.distances)]
    by_curves = {m: max(d for r, d in zip(res.runs, near) if r.method == m)
                 for m in ("cfr+", "fp")}
    own, kids = (resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    q.put({"pot": pot, "seconds": time.perf_counter() - t, "stages": res.seconds,
           "cpu_seconds": own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime,
           "workers": workers, "tol": tol,
           "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
           "families": len(res.families), "curves": len(res.curves), "runs": len(res.runs),
           "max_distance": by, "max_distance_families_or_curves": by_curves, "record": rec})


def _sweep(pots: str, seeds: int, workers, tol, q) -> None:
    from pokerdyn.games.catalog.kuhn import kuhn3
    from pokerdyn.solvers.symbolic.learned.pot_sweep import pot_sweep, sweep_records

    a, b = pots.split(":")
    t = time.perf_counter()
    res = pot_sweep(kuhn3(), a, b, seeds=seeds, workers=workers, tol=tol, progress=False)
    own, kids = (resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    q.put({"pots": pots, "seconds": time.perf_counter() - t, "stages": res.seconds,
           "cpu_seconds": own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime,
           "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
           "families": len(res.families), "pieces": len(res.pieces),
           "record": sweep_records(res)})


def _third(q) -> None:
    from pokerdyn.games.catalog.kuhn import kuhn3_third
    from pokerdyn.solvers.symbolic.axis.piecewise import equilibrium_pieces

    t = time.perf_counter()
    pieces = equilibrium_pieces(kuhn3_third())
    q.put({"seconds": time.perf_counter() - t,
           "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
           "pieces": len(pieces), "families": sum(len(p.solutions) for p in pieces)})


def _in_process(fn, *args) -> dict:
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    p = ctx.Process(target=fn, args=(*args, q))
    p.start()
    while True:
        try:
            out = q.get(timeout=5)
            break
        except Exception:  # queue.Empty: still working, or the child died
            if not p.is_alive():
                return {"error": f"exit code {p.exitcode}"}
    p.join()
    return out


def measurements(out: dict) -> list[Measurement]:
    """Each kuhn3 set (support method, in its own process) against the kuhn3-third whole
    axis (case search) measured in the same run."""
    b = out.get("baseline_kuhn3_third") or {}
    base = b.get("seconds")
    ms = [Measurement(f"kuhn3 equilibrium set at P = {r['pot']}", "support method",
                      r["seconds"], None if base is None else "kuhn3-third case search, all P",
                      base, note=f"{r['families']} families, {r['curves']} curves, "
                      f"{r['runs']} runs, peak {r['peak_rss_mb']:.0f} MB")
          for r in out["kuhn3"] if "error" not in r]
    if "sweep" in out and "seconds" in out["sweep"]:
        r = out["sweep"]
        ms.append(Measurement(f"kuhn3 P-symbolic sweep over {r['pots']}", "pot_sweep",
                              r["seconds"], note=f"{r['families']} families"))
    return ms


def main(argv=None) -> list[Measurement]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--pots", default="3", help="comma-separated exact pots, e.g. 2,5/2,3,4,6")
    ap.add_argument("--out", default="benchmarks/results/kuhn3_set.json")
    ap.add_argument("--workers", type=int, default=None, help="processes for the runs "
                    "(default: one per CPU)")
    ap.add_argument("--no-baseline", action="store_true")
    ap.add_argument("--rounds", type=int, default=2, help="refinements of far runs (default 2)")
    ap.add_argument("--tol", type=float, default=None, help="stop each run at this NashConv")
    ap.add_argument("--sweep", default=None, help="also time the P-symbolic sweep over A:B")
    ap.add_argument("--sweep-seeds", type=int, default=2)
    ap.add_argument("--sweep-out", default="figures/frontier/data/kuhn3_pot.json")
    args = ap.parse_args(argv)
    out = {"kuhn3": []}
    if not args.no_baseline:
        b = out["baseline_kuhn3_third"] = _in_process(_third)
        print(f"kuhn3-third (case search, all P): {b['seconds']:.1f} s, "
              f"{b['peak_rss_mb']:.0f} MB, {b['families']} families in {b['pieces']} pieces")
    for pot in args.pots.split(","):
        r = _in_process(_kuhn3, pot.strip(), args.seeds, args.workers, args.rounds, args.tol)
        out["kuhn3"].append(r)
        Path(args.out).write_text(json.dumps(out, indent=1))
        if "error" in r:
            print(f"kuhn3 at P = {pot}: failed ({r['error']})")
            continue
        st = ", ".join(f"{k} {v:.1f} s" for k, v in r["stages"].items())
        print(f"kuhn3 at P = {pot}: {r['seconds']:.1f} s ({st}; CPU {r['cpu_seconds']:.0f} s, "
              f"{r['workers'] or 'all'} workers), {r['peak_rss_mb']:.0f} MB, "
              f"{r['families']} families and {r['curves']} curves, largest distance CFR+ "
              f"{r['max_distance']['cfr+']:.1e} FP {r['max_distance']['fp']:.1e} over "
              f"{r['runs']} runs (to a family or curve: CFR+ "
              f"{r['max_distance_families_or_curves']['cfr+']:.1e} FP "
              f"{r['max_distance_families_or_curves']['fp']:.1e})")
    if args.sweep:
        r = _in_process(_sweep, args.sweep, args.sweep_seeds, args.workers, args.tol or 1e-5)
        if "record" in r:
            Path(args.sweep_out).write_text(json.dumps(r.pop("record"), indent=1))
            print(f"kuhn3 sweep over P in [{args.sweep}]: {r['seconds']:.1f} s (CPU "
                  f"{r['cpu_seconds']:.0f} s), {r['peak_rss_mb']:.0f} MB, {r['families']} "
                  f"families in {r['pieces']} pieces")
        out["sweep"] = r
    Path(args.out).write_text(json.dumps(out, indent=1))
    return measurements(out)


if __name__ == "__main__":
    script_main(main)
