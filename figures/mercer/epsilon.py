"""Convergence as the hold'em paper measures it (sec. 3.4): its epsilon is the largest
single player's gain from deviating, not the sum over players (NashConv).  Iterations of
the paper's fictitious play until each falls below 0.01, on the small Mercer games (run
here), and on 3P-MMH without and with collusion (the paper: 3,600 and "up to" 8,500
iterations) from the logs of ``benchmarks/mercer_fp_epsilon.py``
(``figures/mercer/data/fp_eps_*.json``; ``heavy`` runs the missing ones: hours on a shared
core).  Output: ``mercer_epsilon.md``.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from pokerdyn.games import compile_game
from pokerdyn.games.catalog.registry import make_game

from pokerdyn.figures.base import FigureResult
from pokerdyn.figures.mercer.fig2 import fp_regrets
from pokerdyn.figures.mercer.render import BENCH, DATA, write_md

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
            subprocess.run([sys.executable, str(BENCH / "mercer_fp_epsilon.py"),
                            spec, "--out", str(path)], check=True)
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
