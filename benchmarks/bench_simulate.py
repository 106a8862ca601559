"""Rounds per second of one repeated-play simulation of SKP on one core (Billingham sec. 4.2;
P = 9, k = 0.001, L = 6, 12 deals), against a straightforward pure-Python loop in the same run
(tree walk per hand, numpy Generator draws, deque windows with O(1) count updates, the same
estimators and the same lambdified gradient), plus the time of the paper's estimator study
(1.1e7 rounds at fixed S3, App. D) per L and for all seven L.

    python benchmarks/bench_simulate.py [--rounds 10000000] [--baseline 100000]

The kernel is timed with the default ("unbiased") and the "corrected" estimators (the same
kernel; only the weight tables differ).

Reports wall-clock and CPU (process) time: on a shared machine the CPU time is the fairer
single-core figure.  Goal: >= 4e7 rounds/s for the kernel.
"""
from __future__ import annotations

import argparse
import time
from collections import deque

import numpy as np
import sympy as sp

from pokerdyn.benchmarking import Measurement, script_main
from pokerdyn.dynamics.play.estimators import ratio_estimators, ratio_weights
from pokerdyn.dynamics.play.tables import payoff_gradients, simulated_deals, tree_tables
from pokerdyn.dynamics.play.repeated import estimator_study, simulate
from pokerdyn.dynamics.skp_points import skp_point
from pokerdyn.games import DECISION, get_game, param_symbols

GOAL = 4e7
QUICK = ["--rounds", "100000", "--baseline", "2000", "--repeats", "1", "--study-rounds",
         "1100000"]


def python_loop(rounds: int, pot=9.0, k=0.001, L=6, seed=0) -> float:
    """The straightforward implementation; returns rounds per second (wall)."""
    game = get_game("skp")
    names = [p.name for p in game.named]
    s3 = skp_point("S3", pot)
    x = {n: min(1.0, s3[n] + 0.01) for n in names}
    syms = param_symbols(game)
    grads = payoff_gradients(game, {"P": pot})
    gfun = {n: sp.lambdify([syms[v] for v in names], grads[n]) for n in names}
    par_of = {game.infoset_index(p.infoset): (p.name, game.infosets[
        game.infoset_index(p.infoset)].actions.index(p.action)) for p in game.named}
    ests = ratio_estimators(game, "unbiased")
    weights = [ratio_weights(e, game) for e in ests]
    tabs = tree_tables(game, {"P": pot}, 12)
    deals = game.children(0)[simulated_deals(game, 12)]
    children = {n: list(game.children(n)) for n in range(game.n_nodes) if game.kind[n] != 0}
    term_index = {int(t): i for i, t in enumerate(game.terminal_node)}
    rng = np.random.default_rng(seed)
    windows = [deque() for _ in range(3)]
    num = [0] * len(ests)
    den = [0] * len(ests)
    est = [dict(x) for _ in range(3)]
    owner = {n: game.owner(n) for n in names}
    payoff = np.zeros(3)
    t0 = time.perf_counter()
    for _ in range(rounds):
        node = int(deals[rng.integers(len(deals))])
        while game.kind[node] == DECISION:
            I = int(game.infoset[node])
            a = 0
            if I in par_of:
                name, act = par_of[I]
                p_act = x[name]
                took = rng.random() < p_act
                a = act if took else 1 - act
            node = int(children[node][a])
        t = term_index[node]
        payoff += tabs.exshow[t]
        for p in range(3):
            windows[p].append(t)
            old = windows[p].popleft() if len(windows[p]) > L else None
            for e, est_def in enumerate(ests):
                if est_def.observer != p:
                    continue
                wn, wd = weights[e]
                num[e] += wn[t] - (wn[old] if old is not None else 0)
                den[e] += wd[t] - (wd[old] if old is not None else 0)
                if den[e] > 0:
                    est[p][est_def.target] = num[e] / den[e]
        for n in names:
            p = owner[n]
            g = gfun[n](*[est[p][v] for v in names])
            x[n] = min(1.0, max(0.0, x[n] + k * g))
    return rounds / (time.perf_counter() - t0)


def kernel(rounds: int, repeats: int = 3, estimator: str = "unbiased") -> tuple[float, float]:
    """Best of ``repeats``: (wall rounds/s, CPU rounds/s) of simulate()."""
    simulate(rounds=1000, estimator=estimator)  # load the compiled kernel
    wall, cpu = 0.0, 0.0
    for _ in range(repeats):
        c0 = time.process_time()
        r = simulate(pot=9.0, k=0.001, L=6, rounds=rounds, seed=0, estimator=estimator)
        c1 = time.process_time()
        wall = max(wall, r.rounds_per_second)
        cpu = max(cpu, rounds / max(c1 - c0, 1e-9))  # includes the cheap table lookups
    return wall, cpu


def main(argv=None) -> list[Measurement]:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=10_000_000)
    ap.add_argument("--baseline", type=int, default=100_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--study-rounds", type=int, default=11_000_000,
                    help="rounds of the estimator study (the paper's 1.1e7)")
    args = ap.parse_args(argv)
    base = python_loop(args.baseline)
    wall, cpu = kernel(args.rounds, args.repeats)
    print(f"straightforward Python loop: {base:.3g} rounds/s ({args.baseline} rounds; 1e7 "
          f"rounds would take {1e7 / base:.0f} s)")
    print(f"numba kernel, {args.rounds} rounds: {wall:.3g} rounds/s wall, {cpu:.3g} rounds/s "
          f"CPU  -> {wall / base:.0f}x the Python loop; goal 4e7: "
          f"{'met' if max(wall, cpu) >= GOAL else 'NOT met'}")
    wall_c, cpu_c = kernel(args.rounds, args.repeats, "corrected")
    print(f"numba kernel, estimator 'corrected' (Figs. 11-15): {wall_c:.3g} rounds/s wall, "
          f"{cpu_c:.3g} CPU -> {wall_c / base:.0f}x the Python loop")
    t0 = time.perf_counter()
    one = estimator_study(L=(96,), rounds=args.study_rounds)
    t1 = time.perf_counter()
    allL = estimator_study(L=(6, 12, 24, 48, 96, 192, 384), rounds=args.study_rounds)
    t2 = time.perf_counter()
    print(f"estimator study, {args.study_rounds:.2g} rounds at S3, L=96: kernel "
          f"{one.seconds:.2f} s (call {t1 - t0:.2f} s); all 7 L: kernel {allL.seconds:.2f} s "
          f"(call {t2 - t1:.2f} s)")
    return [Measurement("one SKP round (P = 9, k = 0.001, L = 6), wall", "pokerdyn kernel",
                        1 / wall, "pure-Python loop", 1 / base,
                        note=f"{wall:.3g} rounds/s; CPU {cpu:.3g} rounds/s"),
            Measurement("one SKP round, estimator 'corrected', wall", "pokerdyn kernel",
                        1 / wall_c, "pure-Python loop", 1 / base),
            Measurement(f"estimator study, {args.study_rounds:.2g} rounds at S3, L = 96",
                        "pokerdyn (kernel)", one.seconds),
            Measurement(f"estimator study, {args.study_rounds:.2g} rounds at S3, all 7 L",
                        "pokerdyn (kernel)", allL.seconds)]


if __name__ == "__main__":
    script_main(main)
