"""Why the hold'em paper's footnote 6 finds strong-collusion gains "on the order of 1e-4" in
3P-SMH where we find +0.080 antes per hand (seats 2 and 3): every reading the text and the
Java code allow, computed from the rules.

Readings of the collusion (the Java: ``PokerGames.newSMHCollGame(3, team, strong)`` wraps the
evaluator in ``CollusionEvaluator(..., zeroSum=true)`` -- win sharing -- in every collusion
game, and ``strong`` adds ``addStronglyColludingPlayers``: each colluder's information-set
label contains the partner's hole cards):

- ``strong``: shared hole cards and win sharing (the Java's strong collusion, our default);
- ``weak``: win sharing only (the Java's ``strong=false``, which ``ComputeNash.main`` hard-codes);
- ``cards``: shared hole cards without win sharing (the text's "look at each other's hands"
  alone; the strong game's tree with the no-collusion payoffs).

Measures of the gain (all per hand, antes): the colluders' summed payoff in the collusion
game minus their summed payoff at the same seats without collusion (public collusion, and
private: the non-colluder keeps her no-collusion strategy); per colluder (half of it); each
colluder's own change; strong over weak (the value of the shared cards alone); and the
dealer-rotation average (seats (1, 2), (1, 3), (2, 3); the no-collusion part averages to 0).

Rules: as built (one orbit of bet 4; the tables' reading) and the two readings that give the
paper's printed 3P-SMH payoffs (two orbits; one orbit with a bet of 8; README issue 12).
Solvers: CFR+ to NashConv ``--tol``, and the paper's fictitious play stopped at max regret
0.01 (its stopping rule) on the rules as built.

    nice python benchmarks/mercer_strong_readings.py --out figures/mercer/data/strong_readings.json
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pokerdyn.games import compile_game  # noqa: E402
from pokerdyn.games.catalog.registry import make_game  # noqa: E402
from pokerdyn.solvers import cfr  # noqa: E402
from pokerdyn.solvers.evaluation import expected_payoffs, nash_conv  # noqa: E402
from pokerdyn.solvers.collusion import transplant  # noqa: E402
from pokerdyn.solvers.learning.paper_fp import paper_fictitious_play  # noqa: E402

RULES = {"as built": "", "two orbits": ",max_bets=2", "bet 8": ",bet=8"}
SEATINGS = ((1, 2), (1, 3), (2, 3))


def spec(rules: str, kind: str | None = None, pair=None) -> str:
    base = f"mercer-smh(players=3{RULES[rules]}"
    if kind is None:
        return base + ")"
    k = "strong" if kind == "cards" else kind
    return base + f",collusion={k},colluders=[{pair[0]},{pair[1]}])"


def game(rules: str, kind: str | None, pair=None):
    g = make_game(spec(rules, kind, pair))
    if kind == "cards":   # the strong game's information sets, no win sharing
        g0 = make_game(spec(rules))
        idx = [s - 1 for s in pair]
        p0 = np.asarray(g0.payoffs, dtype=np.float64)
        shared = p0.copy()
        shared[:, idx] = p0[:, idx].mean(axis=1, keepdims=True)
        if not np.array_equal(shared, np.asarray(g.payoffs, dtype=np.float64)):
            raise AssertionError("the strong and plain games' terminals are not aligned")
        g = dataclasses.replace(g, payoffs=g0.payoffs, name=g.name + "[cards only]")
    return compile_game(g)


def solve(cg, method: str, tol: float):
    t = time.perf_counter()
    if method == "cfr+":
        r = cfr(cg, iterations=5000, tol=tol)
        s, it = r.strategy, r.iterations
    else:
        r = paper_fictitious_play(cg, epsilon=0.01)
        s, it = r.strategy, r.iterations
    return s, {"iterations": int(it), "nash_conv": float(nash_conv(cg, s)),
               "seconds": round(time.perf_counter() - t, 1)}


def readings(rules: str, method: str, tol: float, kinds) -> dict:
    g0 = game(rules, None)
    s0, info0 = solve(g0, method, tol)
    u0 = expected_payoffs(g0, s0)
    out = {"rules": rules, "method": method, "none": {**info0, "payoffs": u0.tolist()}}
    for kind in kinds:
        for pair in SEATINGS:
            gc = game(rules, kind, pair)
            sc, info = solve(gc, method, tol)
            c = ({1, 2, 3} - set(pair)).pop() - 1
            private = transplant(gc, sc, g0, s0, c)
            out[f"{kind} {pair[0]},{pair[1]}"] = {
                **info, "payoffs": expected_payoffs(gc, sc).tolist(),
                "private": expected_payoffs(gc, private).tolist()}
            print(rules, method, kind, pair, out[f"{kind} {pair[0]},{pair[1]}"], flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tol", type=float, default=2e-4)
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args()
    done = json.loads(a.out.read_text()) if a.out.exists() else {}
    jobs = [("as built", "cfr+", ("strong", "weak", "cards")),
            ("as built", "paper-fp", ("strong", "weak")),
            ("bet 8", "cfr+", ("strong", "weak")),
            ("two orbits", "cfr+", ("strong", "weak"))]
    for rules, method, kinds in jobs:
        key = f"{rules} / {method}"
        if key in done:
            continue
        done[key] = {"tol": a.tol if method == "cfr+" else None,
                     **readings(rules, method, a.tol, kinds)}
        a.out.write_text(json.dumps(done, indent=1))


if __name__ == "__main__":
    main()
