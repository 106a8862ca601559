"""Sequence-form LCP (solvers.sequence.lcp) against pygambit's ``lcp_solve`` in the same run on
the same games, and, on the blind-versus-blind ICM endgame, against fictitious play and
Freund-Schapire (hedge) on the same subgame.

    python benchmarks/bench_lcp.py [--classes 169] [--iterations 2000]
                                   [--out benchmarks/results/lcp.json]

Games: Kuhn (exact and float64 pivoting), a general-sum signalling game (tests/test_lcp.py's
shape, fixed payoffs), the blind-versus-blind endgame of a 3-seat table (stacks 20/12/8 big
blinds, ante 0.1, ICM payouts 50/30/20) with 6 and ``--compare`` equity buckets and with
``--classes`` hand
classes (169: the full preflop model), and the same endgame with chip payoffs.  For each:
LCP seconds (build of the LCP included, sequence form cached), pivots, NashConv, Gambit's
seconds (``lcp_solve(rational=False)``, .efg parse excluded; skipped above
``--gambit-max-nodes``) and the largest behaviour
difference from Gambit's equilibrium.  The endgame rows add the small blind's jam and the
big blind's call frequency (deal-weighted) under each solver.
"""
from __future__ import annotations

import argparse
import json
import platform
import tempfile
import time
from pathlib import Path

import numpy as np

from pokerdyn.benchmarking import Measurement, script_main

from pokerdyn.games import compile_game, get_game
from pokerdyn.games.arrays import game_from_arrays
from pokerdyn.games.tournament.buckets import bucket_model
from pokerdyn.games.tournament.endgame import blind_vs_blind
from pokerdyn.games.tree import Infoset
from pokerdyn.solvers import fictitious_play, hedge, nash_conv
from pokerdyn.solvers.sequence.gambit_check import gambit_lcp
from pokerdyn.solvers.sequence.lcp import solve_lcp

TABLE = dict(stacks=[20, 12, 8], blinds=(0.5, 1.0), ante=0.1)
PAYOUTS = [0.5, 0.3, 0.2]
QUICK = ["--classes", "6", "--compare", "6", "--iterations", "50",
         "--out", str(Path(tempfile.gettempdir()) / "pokerdyn-bench-lcp.json")]


def signalling():
    pay = np.zeros((2, 2, 2, 2))
    pay[0] = [[(3, 2), (0, 0)], [(1, 0), (1, 3)]]
    pay[1] = [[(0, 1), (2, 0)], [(2, 2), (-1, 1)]]
    infosets = [Infoset("P1:lo", 0, ("A", "B")), Infoset("P1:hi", 0, ("A", "B")),
                Infoset("P2:A", 1, ("L", "R")), Infoset("P2:B", 1, ("L", "R"))]
    return game_from_arrays("signal", 2, [1, 2, 2] + [2] * 4 + [0] * 8,
                            [-1, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6],
                            [0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1],
                            [-1, 0, 0, 1, 1, 1, 1] + [-1] * 8, [-1, 0, 1, 2, 3, 2, 3] + [-1] * 8,
                            infosets, [1, 2 / 3, 1 / 3] + [1] * 12, pay.reshape(8, 2))


def ranges(cg, sigma, K):
    """Deal-weighted jam frequency of the small blind and call frequency of the big blind."""
    deal = cg.chance_prob[1:1 + K * K].reshape(K, K)
    m = deal.sum(axis=1)
    return {"sb_jam": float(m @ sigma[:K, 1]), "bb_call": float(m @ sigma[K:2 * K, 1])}


def row(name, cg, exact, K=None, iterations=0, gambit_max_nodes=10**9):
    lcp = solve_lcp(cg, exact=exact)
    eq = lcp.equilibria[0]
    out = {"game": name, "nodes": int(cg.n_nodes), "infosets": int(cg.n_infosets),
           "exact": lcp.exact, "lcp_s": lcp.seconds, "pivots": eq.pivots,
           "nash_conv": eq.nash_conv, "payoffs": [float(v) for v in eq.payoffs],
           "gambit_s": None, "max_diff_vs_gambit": None, "gambit_nash_conv": None}
    if cg.n_nodes <= gambit_max_nodes:
        theirs, g_s = gambit_lcp(cg)
        out.update(gambit_s=g_s,
                   max_diff_vs_gambit=float(np.abs(eq.strategies - theirs[0]).max()),
                   gambit_nash_conv=nash_conv(cg, theirs[0]))
    if eq.exact_nash_conv is not None:
        out["exact_nash_conv"] = str(eq.exact_nash_conv)
        out["exact_payoffs"] = [str(v) for v in eq.exact_payoffs]
    if K is not None:
        out["ranges"] = {"lcp": ranges(cg, eq.strategies, K)}
        for label, fn in (("fp", fictitious_play), ("hedge", hedge)):
            if iterations:
                r = fn(cg, iterations=iterations)
                out[f"{label}_nash_conv"] = r.nash_conv
                out[f"{label}_s"] = r.seconds
                out["ranges"][label] = ranges(cg, r.strategy, K)
    print(json.dumps(out))
    return out


def measurements(rows: list[dict]) -> list[Measurement]:
    """Our LCP against pygambit's (same run, same game), and against FP and hedge where they
    ran on the endgame."""
    out = []
    for r in rows:
        g = r["game"]
        out.append(Measurement(f"one equilibrium, {g} ({r['nodes']:,} nodes)", "pokerdyn LCP",
                               r["lcp_s"], None if r["gambit_s"] is None else
                               "pygambit lcp_solve", r["gambit_s"],
                               note=f"{r['pivots']} pivots"))
        for label, who in (("fp", "pokerdyn FP"), ("hedge", "pokerdyn hedge")):
            if f"{label}_s" in r:
                out.append(Measurement(f"{g}: LCP against {who}", "pokerdyn LCP", r["lcp_s"],
                                       who, r[f"{label}_s"],
                                       note=f"{who} NashConv {r[f'{label}_nash_conv']:.1e}"))
    return out


def main(argv=None) -> list[Measurement]:
    ap = argparse.ArgumentParser()
    ap.add_argument("--classes", type=int, default=169, help="169 or a bucket count")
    ap.add_argument("--iterations", type=int, default=2000)
    ap.add_argument("--compare", type=int, default=40,
                    help="bucket count of the endgame compared with Gambit (default 40)")
    ap.add_argument("--gambit-max-nodes", type=int, default=20_000,
                    help="skip Gambit above this many nodes (its solve time grows about as "
                         "nodes^1.9: 2.9 s at 8,001 nodes)")
    ap.add_argument("--out", default="benchmarks/results/lcp.json")
    a = ap.parse_args(argv)
    rows = [row("kuhn (exact)", compile_game(get_game("kuhn")), True),
            row("kuhn (float)", compile_game(get_game("kuhn")), False),
            row("signalling (exact)", compile_game(signalling()), True)]
    b6 = bucket_model(6, samples=10, seed=0).model
    rows.append(row("bvb 6 buckets ICM", compile_game(blind_vs_blind(b6, payouts=PAYOUTS,
                                                                   **TABLE)), False, 6,
                    a.iterations))
    bk = bucket_model(a.compare, samples=10, seed=0).model
    rows.append(row(f"bvb {a.compare} buckets ICM",
                    compile_game(blind_vs_blind(bk, payouts=PAYOUTS, **TABLE)), False, a.compare,
                    a.iterations))
    if a.classes == 169:
        from pokerdyn.games.tournament.hands import preflop_model
        model = preflop_model()
    else:
        model = bucket_model(a.classes, samples=10, seed=0).model
    K = len(model.names)
    for pay, tag in ((PAYOUTS, "ICM"), (None, "chip EV")):
        cg = compile_game(blind_vs_blind(model, payouts=pay, **TABLE))
        rows.append(row(f"bvb {K} classes {tag}", cg, False, K, a.iterations,
                        a.gambit_max_nodes))
    meta = {"machine": platform.processor() or platform.machine(), "python":
            platform.python_version(), "date": time.strftime("%Y-%m-%d"), "table": TABLE,
            "payouts": PAYOUTS, "iterations": a.iterations}
    Path(a.out).write_text(json.dumps({"meta": meta, "rows": rows}, indent=1) + "\n")
    return measurements(rows)


if __name__ == "__main__":
    script_main(main)
