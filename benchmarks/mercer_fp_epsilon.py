"""Iterations of the hold'em paper's fictitious play to its epsilon (the largest single
player's regret) on 3P-MMH, without and with collusion (the paper, sec. 3.4: 3,600 and
"up to" 8,500 iterations to a 0.01-equilibrium).

Checks the regret every ``--check`` iterations (both the paper's max over players and the
sum, NashConv), writes the log to ``--out`` (JSON) after every check and the profile to
``--out``'s ``.npy`` sibling every ``--save`` iterations, so a killed run resumes where it
stopped; at the first check under epsilon the last window is replayed one iteration at a
time (``paper_fictitious_play(resume=...)``) for the exact stopping iteration; the profile
at which the paper's ``run.sh`` epsilon 0.1 stops is saved on the way (``.eps0.1.npy``).

    python benchmarks/mercer_fp_epsilon.py 'mercer-mmh(players=3,collusion=weak,colluders=[1,2])' \
        --out figures/mercer/data/fp_eps_mmh3_weak12.json
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pokerdyn.games import compile_game  # noqa: E402
from pokerdyn.games.catalog.registry import make_game  # noqa: E402
from pokerdyn.games.strategy import uniform_strategy  # noqa: E402
from pokerdyn.solvers.evaluation import regrets  # noqa: E402
from pokerdyn.solvers.learning.fictitious_play import FictitiousPlay  # noqa: E402
from pokerdyn.solvers.learning.paper_fp import paper_fictitious_play  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--eps", type=float, default=0.01)
    ap.add_argument("--check", type=int, default=25)
    ap.add_argument("--save", type=int, default=250)
    ap.add_argument("--max-iterations", type=int, default=20_000)
    a = ap.parse_args()
    cg = compile_game(make_game(a.game))
    npy = a.out.with_suffix(".npy")
    log = {"game": a.game, "eps": a.eps, "check": a.check, "t": [], "max_regret": [],
           "nash_conv": [], "seconds": 0.0, "stopped_at": None}
    fp = FictitiousPlay(schedule="simultaneous", averaging="infoset")
    t, sigma = 0, fp.init(cg, uniform_strategy(cg))
    if a.out.exists() and npy.exists():
        log = json.loads(a.out.read_text())
        t = int(np.load(npy.with_suffix(".t.npy")))
        sigma = np.load(npy)
        keep = [i for i, x in enumerate(log["t"]) if x <= t]
        for k in ("t", "max_regret", "nash_conv"):
            log[k] = [log[k][i] for i in keep]
    start = time.perf_counter() - log["seconds"]
    prev = (t, sigma.copy())
    while t < a.max_iterations:
        if t % a.check == 0:
            reg = regrets(cg, sigma)
            log["t"].append(t)
            log["max_regret"].append(float(reg.max()))
            log["nash_conv"].append(float(reg.sum()))
            log["seconds"] = time.perf_counter() - start
            print(t, f"{reg.max():.5f}", f"{reg.sum():.5f}", f"{log['seconds']:.0f}s", flush=True)
            if reg.max() < 0.1 and "stopped_at_0.1" not in log:   # run.sh's epsilon
                r = paper_fictitious_play(cg, 0.1, max_iterations=t + 1, resume=prev)
                log["stopped_at_0.1"] = r.iterations
                np.save(a.out.with_suffix(".eps0.1.npy"), r.strategy)
            if reg.max() < a.eps:
                r = paper_fictitious_play(cg, a.eps, max_iterations=t + 1, resume=prev)
                log["stopped_at"] = r.iterations
                log["stop_max_regret"] = r.max_regret
                log["stop_nash_conv"] = r.nash_conv
                log["seconds"] = time.perf_counter() - start
                np.save(npy, r.strategy)
                np.save(npy.with_suffix(".t.npy"), np.array(r.iterations))
                a.out.write_text(json.dumps(log))
                print("stopped at", r.iterations, flush=True)
                return
            prev = (t, sigma.copy())
            a.out.write_text(json.dumps(log))
        if t % a.save == 0 and t:
            np.save(npy, sigma)
            np.save(npy.with_suffix(".t.npy"), np.array(t))
        fp.advance(cg, sigma, t, 1)
        t += 1
    a.out.write_text(json.dumps(log))


if __name__ == "__main__":
    main()
