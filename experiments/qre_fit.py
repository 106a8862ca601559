"""Estimation of the logit precision (solvers.qre.estimate): coverage of the
profile-likelihood 95% interval on counts drawn from a known QRE (100 seeded replications of
10^4 hands each), and the precision shown by the paper's estimator-based adaptive players
(dynamics.play, `pokerdyn simulate`) on SKP at P = 9 for k in {0.001, 0.01} and L in
{6, 48}.  Results go to benchmarks/results/qre_fit.json.

    python experiments/qre_fit.py [--rounds 10000000] [--reps 100]
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from pokerdyn.dynamics.play.repeated import simulate
from pokerdyn.games import compile_game, get_game
from pokerdyn.solvers.qre import qre_profiles, trace_branch
from pokerdyn.solvers.qre.estimate import counts_from_terminals, fit_lambda, sample_counts


def coverage(name: str, values: dict, lam: float, reps: int, hands: int, seed: int) -> dict:
    cg = compile_game(get_game(name), values)
    sigma = qre_profiles(cg, [lam])[0]
    t0 = time.perf_counter()
    branch = trace_branch(cg, tol=0.0, max_lambda=1e4)[0]
    rng = np.random.default_rng(seed)
    fits = [fit_lambda(cg, sample_counts(cg, sigma, hands, rng), branch=branch)
            for _ in range(reps)]
    secs = time.perf_counter() - t0
    lams = np.array([f.lam for f in fits])
    cov = sum(f.interval[0] <= lam <= f.interval[1] for f in fits)
    return {"game": name, "values": values, "lambda": lam, "replications": reps,
            "hands": hands, "covered": int(cov), "mean_estimate": float(lams.mean()),
            "sd_estimate": float(lams.std(ddof=1)), "seconds": secs}


def adaptive(pot: float, k: float, L: int, rounds: int, seed: int) -> dict:
    game = get_game("skp")
    cg = compile_game(game, {"P": pot})
    res = simulate("skp", pot=pot, k=k, L=L, rounds=rounds, seed=seed)
    C = counts_from_terminals(cg, res.terminal_counts)
    t0 = time.perf_counter()
    fit = fit_lambda(cg, C, max_lambda=1e6)
    return {"k": k, "L": L, "rounds": rounds, "seed": seed, **fit.to_json(),
            "final": res.final, "fit_seconds": time.perf_counter() - t0}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=10_000_000)
    ap.add_argument("--reps", type=int, default=100)
    ap.add_argument("--seeds", type=int, default=5, help="simulation seeds per (k, L)")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "benchmarks"
                                         / "results" / "qre_fit.json"))
    a = ap.parse_args(argv)
    out = {"coverage": [coverage("kuhn", {}, 2.0, a.reps, 10**4, 2026),
                        coverage("kuhn", {}, 10.0, a.reps, 10**4, 2027),
                        coverage("skp", {"P": 9.0}, 1.5, a.reps, 10**4, 2028)],
           "adaptive": [adaptive(9.0, k, L, a.rounds, seed) for k in (0.001, 0.01)
                        for L in (6, 48) for seed in range(a.seeds)]}
    for c in out["coverage"]:
        print(f"coverage {c['game']} {c['values']} lambda={c['lambda']}: {c['covered']}/"
              f"{c['replications']}  mean {c['mean_estimate']:.4f}  sd {c['sd_estimate']:.4f}"
              f"  ({c['seconds']:.1f} s)")
    for r in out["adaptive"]:
        lo, hi = r["interval"]
        print(f"skp P=9 k={r['k']} L={r['L']} seed={r['seed']}: lambda = {r['lambda']:.4g}  "
              f"[{lo:.4g}, {hi:.4g}]  ({r['observations']} actions, {r['rounds']} hands)")
    for k in (0.001, 0.01):
        for L in (6, 48):
            v = [r["lambda"] for r in out["adaptive"] if r["k"] == k and r["L"] == L]
            print(f"skp P=9 k={k} L={L}: lambda over {len(v)} seeds: mean {np.mean(v):.4g}"
                  f"  sd {np.std(v, ddof=1) if len(v) > 1 else 0:.3g}")
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
