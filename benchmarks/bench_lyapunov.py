"""Benchmark: one Benettin run (state + tangent + payoff integrals) of the full-street
simplified 3-player Kuhn ODE (13 free frequencies, P = 6, t = 2000, rtol 1e-9).

pokerdyn: ``dynamics.chaos.run_chaos`` (numba Dormand-Prince 5(4) over sparse monomials,
logit coordinates).  Baseline: scipy ``solve_ivp`` (RK45, same tolerances) on the same
state + tangent system with the model's compiled numpy field and Jacobian.

Run: python benchmarks/bench_lyapunov.py [--t-end 2000]
"""
from __future__ import annotations

import argparse
import time

import numpy as np
from scipy.integrate import solve_ivp

from pokerdyn.benchmarking import Measurement, script_main
from pokerdyn.dynamics import ode_model
from pokerdyn.dynamics.chaos.lyapunov import random_starts, run_chaos
from pokerdyn.games import get_game

QUICK = ["--t-end", "50"]


def scipy_run(m, y, t_end: float) -> float:
    n = m.n

    def fun(t, z):
        x, v = z[:n], z[n:]
        return np.concatenate([m._f(x), m._jac(x) @ v])
    z0 = np.concatenate([y, np.ones(n) / np.sqrt(n)])
    res = solve_ivp(fun, (0, t_end), z0, rtol=1e-9, atol=1e-12)
    return float(np.log(np.linalg.norm(res.y[n:, -1])) / t_end)


def main(argv=None) -> list[Measurement]:
    ap = argparse.ArgumentParser()
    ap.add_argument("--t-end", type=float, default=2000.0)
    a = ap.parse_args(argv)
    m = ode_model(get_game("kuhn3-full-simplified"), {"P": 6.0}, fixed="dominance")
    y = random_starts(m, 1, seed=0)[0]
    run_chaos(m, y, 10.0)  # compile (or load the numba cache)
    t0 = time.perf_counter()
    r = run_chaos(m, y, a.t_end, coords="x")
    t1 = time.perf_counter()
    lam = scipy_run(m, y, a.t_end)
    t2 = time.perf_counter()
    print(f"pokerdyn run_chaos: {t1 - t0:.2f} s ({r.meta['steps']} steps), "
          f"lambda(t_end) = {r.exponent:.5f}")
    print(f"scipy RK45 + numpy field/Jacobian: {t2 - t1:.2f} s, lambda(t_end) = {lam:.5f}")
    return [Measurement(f"one Benettin run, kuhn3-full-simplified P = 6, t = {a.t_end:g}",
                        "pokerdyn run_chaos (numba)", t1 - t0,
                        "scipy solve_ivp RK45, numpy field and Jacobian", t2 - t1)]


if __name__ == "__main__":
    script_main(main)
