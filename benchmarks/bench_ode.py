"""Benchmark: a phase portrait of 64 skp trajectories to t = 500 (P = 9, k = 1).

pokerdyn: one solve_ivp call on the stacked system with the vectorised right-hand side
compiled from the symbolic model (``dynamics.simulate_batch``).
Baseline (same run, same method and tolerances): plain ``solve_ivp`` once per trajectory
with a hand-written Python right-hand side of Billingham (21)-(23).

Run: python benchmarks/bench_ode.py [--repeat 3]
"""
from __future__ import annotations

import argparse
import time

import numpy as np
from scipy.integrate import solve_ivp

from pokerdyn.benchmarking import Measurement, script_main
from pokerdyn.dynamics import ode_model, simulate_batch
from pokerdyn.games import get_game

P, T_END, N, RTOL, ATOL = 9.0, 500.0, 64, 1e-8, 1e-10
QUICK = ["--repeat", "1"]


def python_rhs(t, y):
    b, c, d = y
    return [b * (1 - b) * ((P - 5) / (P + 1) - d - c + d * c),
            c * (1 - c) * (b - 2 / P),
            d * (1 - d) * ((c - 2) / (P + 1) + b * (1 - c))]


def baseline(Y0, t_eval):
    return np.array([solve_ivp(python_rhs, (0, T_END), y0, method="DOP853", t_eval=t_eval,
                               rtol=RTOL, atol=ATOL).y[:, -1] for y0 in Y0])


def ours(model, Y0, t_eval):
    trs = simulate_batch(model, Y0, T_END, t_eval=t_eval, rtol=RTOL, atol=ATOL,
                         payoffs=False)
    return np.array([tr.states[-1] for tr in trs])


def best_of(fn, repeat):
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def main(argv=None) -> list[Measurement]:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    model = ode_model(get_game("skp"), {"P": 9}, k=1)
    build = time.perf_counter() - t0
    Y0 = np.random.default_rng(0).uniform(0.05, 0.95, (N, 3))
    t_eval = np.linspace(0, T_END, 501)
    t_ours, y_ours = best_of(lambda: ours(model, Y0, t_eval), args.repeat)
    t_base, y_base = best_of(lambda: baseline(Y0, t_eval), args.repeat)
    print(f"model build (symbolic + compile): {build:.3f} s")
    print(f"pokerdyn simulate_batch ({N} traj., t={T_END:g}): {t_ours:.3f} s")
    print(f"baseline solve_ivp + Python RHS, per trajectory: {t_base:.3f} s")
    print(f"speed-up: {t_base / t_ours:.1f}x; goal < 2 s: {'met' if t_ours < 2 else 'MISSED'}")
    print(f"max |final state difference|: {np.max(np.abs(y_ours - y_base)):.1e}")
    return [Measurement(f"{N} skp trajectories to t = {T_END:g} (P = 9, k = 1)",
                        "pokerdyn simulate_batch", t_ours,
                        "solve_ivp per trajectory, Python right-hand side", t_base),
            Measurement("ODE model build (symbolic + compile)", "pokerdyn", build)]


if __name__ == "__main__":
    script_main(main)
