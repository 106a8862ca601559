"""Convergence as the hold'em paper measures it (sec. 3.4): its epsilon is the largest
single player's gain from deviating, not the sum over players (NashConv).  Iterations of
the paper's fictitious play until each falls below 0.01, on the small Mercer games (run
here), and on 3P-MMH without and with collusion (the paper: 3,600 and "up to" 8,500
iterations) from the logs of :func:`fp_epsilon_log` (``figures/mercer/data/fp_eps_*.json``;
``experiments/mercer_fp_epsilon.py`` is its command line; ``heavy`` runs the missing ones:
hours on a shared core).  Output: ``mercer_epsilon.md``.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

from pokerdyn.games import compile_game
from pokerdyn.games.catalog.registry import make_game

from pokerdyn.figures.base import FigureResult
from pokerdyn.figures.mercer.fig2 import fp_regrets
from pokerdyn.figures.mercer.render import DATA, write_md

NAME = "mercer_epsilon"
SMALL = {"mercer-smh(players=2)": 400, "mercer-mmh(players=2)": 6000,
         "mercer-smh(players=3)": 400}
QUICK_CAP = 2000   # quick runs stop 2P-MMH here (past its max-regret stop at 1,900)
LOGS = {"mercer-mmh(players=3)": ("fp_eps_mmh3.json", 3600),
        "mercer-mmh(players=3,collusion=weak,colluders=[1,2])": ("fp_eps_mmh3_weak12.json",
                                                                   8500)}
# our earlier run (issue 12, BENCHMARKS.md "Mercer Hold'em against the paper"): the paper's FP
# on 3P-MMH stopped at max regret < 0.01 after exactly this many iterations (1,131 s)
ISSUE12_MMH3 = 3600


def first_below(t, x, eps: float = 0.01):
    hit = np.nonzero(np.asarray(x) < eps)[0]
    return int(np.asarray(t)[hit[0]]) if len(hit) else None


def fp_epsilon_log(game: str, out: Path, eps: float = 0.01, check: int = 25, save: int = 250,
                   max_iterations: int = 20_000, progress: bool = False) -> dict:
    """Iterations of the paper's fictitious play (simultaneous, per-information-set
    averaging) on ``game`` (a spec) until its epsilon, the largest single player's regret,
    is below ``eps``: the regret is checked every ``check`` iterations (the max over
    players and the sum, NashConv) and the log written to ``out`` (JSON) after every check,
    the profile to ``out``'s ``.npy`` sibling every ``save`` iterations, so a killed run
    resumes where it stopped; at the first check under ``eps`` the last window is replayed
    one iteration at a time (``paper_fictitious_play(resume=...)``) for the exact stopping
    iteration; the profile at which the paper's ``run.sh`` epsilon 0.1 stops is saved on
    the way (``.eps0.1.npy``).  Returns the log (``progress``: print each check)."""
    from pokerdyn.games import compile_game
    from pokerdyn.games.catalog.registry import make_game
    from pokerdyn.games.strategy import uniform_strategy
    from pokerdyn.solvers.evaluation import regrets
    from pokerdyn.solvers.learning.fictitious_play import FictitiousPlay
    from pokerdyn.solvers.learning.paper_fp import paper_fictitious_play

    out = Path(out)
    cg = compile_game(make_game(game))
    npy = out.with_suffix(".npy")
    log = {"game": game, "eps": eps, "check": check, "t": [], "max_regret": [],
           "nash_conv": [], "seconds": 0.0, "stopped_at": None}
    fp = FictitiousPlay(schedule="simultaneous", averaging="infoset")
    t, sigma = 0, fp.init(cg, uniform_strategy(cg))
    if out.exists() and npy.exists():
        log = json.loads(out.read_text())
        t = int(np.load(npy.with_suffix(".t.npy")))
        sigma = np.load(npy)
        keep = [i for i, x in enumerate(log["t"]) if x <= t]
        for k in ("t", "max_regret", "nash_conv"):
            log[k] = [log[k][i] for i in keep]
    start = time.perf_counter() - log["seconds"]
    prev = (t, sigma.copy())
    while t < max_iterations:
        if t % check == 0:
            reg = regrets(cg, sigma)
            log["t"].append(t)
            log["max_regret"].append(float(reg.max()))
            log["nash_conv"].append(float(reg.sum()))
            log["seconds"] = time.perf_counter() - start
            if progress:
                print(t, f"{reg.max():.5f}", f"{reg.sum():.5f}", f"{log['seconds']:.0f}s",
                      flush=True)
            if reg.max() < 0.1 and "stopped_at_0.1" not in log:   # run.sh's epsilon
                r = paper_fictitious_play(cg, 0.1, max_iterations=t + 1, resume=prev)
                log["stopped_at_0.1"] = r.iterations
                np.save(out.with_suffix(".eps0.1.npy"), r.strategy)
            if reg.max() < eps:
                r = paper_fictitious_play(cg, eps, max_iterations=t + 1, resume=prev)
                log["stopped_at"] = r.iterations
                log["stop_max_regret"] = r.max_regret
                log["stop_nash_conv"] = r.nash_conv
                log["seconds"] = time.perf_counter() - start
                np.save(npy, r.strategy)
                np.save(npy.with_suffix(".t.npy"), np.array(r.iterations))
                out.write_text(json.dumps(log))
                if progress:
                    print("stopped at", r.iterations, flush=True)
                return log
            prev = (t, sigma.copy())
            out.write_text(json.dumps(log))
        if t % save == 0 and t:
            np.save(npy, sigma)
            np.save(npy.with_suffix(".t.npy"), np.array(t))
        fp.advance(cg, sigma, t, 1)
        t += 1
    out.write_text(json.dumps(log))
    return log


def main(out_dir: Path, seed: int = 0, quick: bool = False, heavy: bool = False) -> FigureResult:
    lines = ["## Convergence as the paper measures it", "",
             "The paper's epsilon: the largest single player's gain from deviating (max "
             "regret); NashConv: the sum over players.  Iterations of the paper's fictitious "
             "play until each is below 0.01 (t: the profile after t updates; the paper's "
             "stopping rule returns it after one more update, so its count is t + 1).", "",
             "| game | FP iterations to max regret < 0.01 | to NashConv < 0.01 | paper |",
             "|---|---:|---:|---:|"]
    numbers = {}
    for spec, cap in SMALL.items():
        r = fp_regrets(compile_game(make_game(spec)), min(cap, QUICK_CAP) if quick else cap)
        a, b = first_below(r[:, 0], r[:, 1]), first_below(r[:, 0], r[:, 2])
        fmt = [str(x) if x is not None else f"> {int(r[-1, 0])}" for x in (a, b)]
        lines.append(f"| {spec} | {fmt[0]} | {fmt[1]} | |")
        numbers[f"{spec}: iterations to max regret / NashConv < 0.01"] = " / ".join(fmt)
    for spec, (fname, paper) in LOGS.items():
        path = DATA / fname
        if heavy and not path.exists():
            path = Path(out_dir) / fname
            path.parent.mkdir(parents=True, exist_ok=True)
            fp_epsilon_log(spec, path)
        if path.exists():
            log = json.loads(path.read_text())
            a = log.get("stopped_at") or first_below(log["t"], log["max_regret"])
            b = first_below(log["t"], log["nash_conv"])
            last = (f"not reached: max regret {log['max_regret'][-1]:.4f}, NashConv "
                    f"{log['nash_conv'][-1]:.4f} at iteration {log['t'][-1]} "
                    f"({log['seconds']:.0f} s)")
            fa = str(a) if a else last
            fb = f"{b} (checked every {log['check']})" if b else "not reached"
        elif spec == "mercer-mmh(players=3)":
            fa, fb = f"{ISSUE12_MMH3} (issue 12 run, 1,131 s)", "not logged"
        else:
            fa = fb = "n/a (run --heavy)"
        lines.append(f"| {spec} | {fa} | {fb} | {paper:,} |")
        numbers[f"{spec}: iterations to max regret < 0.01"] = fa
    lines += ["", "At a stop on max regret < 0.01 NashConv is 1.5-3 times larger in the "
              "3-player games (3P-SMH: 0.0218, 3P-MMH: 0.0269 at the profile the paper's rule "
              "stops on; Tables 4-6 section), so the paper's 0.01-equilibria are "
              "0.02-0.03-equilibria in the summed measure.", ""]
    path = write_md(out_dir, NAME, "\n".join(lines))
    return FigureResult(NAME, (path,), "Iterations of the paper's fictitious play to its "
                        "epsilon (max single-player regret) and to NashConv below 0.01.",
                        numbers, "Mercer (hold'em paper) sec. 3.4")
