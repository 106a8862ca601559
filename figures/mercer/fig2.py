"""The hold'em paper's Fig. 2: the regret of fictitious play per iteration on Mercer
Hold'em, (a) the whole run and (b) one cycle zoomed in ("dampened cyclic behavior"), with
CFR+ on the same axes.

Regret is measured both ways: the paper's epsilon (the largest single player's gain from
deviating) and NashConv (the sum over players).  Fictitious play is the paper's
(:mod:`solvers.learning.paper_fp`: uniform start, simultaneous 1/(t+1) updates per
information set), its regret measured after every iteration; CFR+ (average profile) at
geometric checkpoints.  Games: 2P-MMH and 3P-SMH (quick: fewer iterations); 3P-MMH adds
the logged run of ``epsilon.fp_epsilon_log`` when its JSON is committed.
Output: ``mercer_fig2.png``.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from pokerdyn.games import compile_game
from pokerdyn.games.catalog.registry import make_game
from pokerdyn.games.strategy import uniform_strategy
from pokerdyn.solvers.evaluation import regrets
from pokerdyn.solvers.learning.cfr_plus import CFR
from pokerdyn.solvers.learning.fictitious_play import FictitiousPlay
from pokerdyn.solvers.iterative import checkpoints

from pokerdyn.figures.base import Figure, FigureResult, described, finish, new_figure
from pokerdyn.figures.mercer.render import DATA

NAME = "mercer_fig2"
GAMES = {"mercer-mmh(players=2)": 3000, "mercer-smh(players=3)": 600}
LOG = DATA / "fp_eps_mmh3_weak12.json"


def fp_regrets(cg, iterations: int) -> np.ndarray:
    """Rows (t, max regret, NashConv) of the paper's FP profile after t = 0 .. iterations.

    The run is kept per game for the process and resumed where a longer one is asked for
    (``mercer_fig2`` and ``mercer_epsilon`` follow the same runs in one worker): fictitious
    play resumed from its profile at ``t0`` is the same to the bit as one run
    (``tests/test_fictitious_play.py``), so every row is the one a fresh run gives."""
    fp = FictitiousPlay(schedule="simultaneous", averaging="infoset")
    game = cg.game
    run = _RUNS.get(game.name)
    if run is None or run[0] is not game or game.params:  # a game with parameters: afresh
        run = (game, fp.init(cg, uniform_strategy(cg)), [])
        if not game.params:
            _RUNS[game.name] = run
    _, sigma, logs = run
    done = sum(len(r) for r in logs)
    if done < iterations + 1:
        r = np.empty((iterations + 1 - done, cg.n_players))
        fp.advance(cg, sigma, done, len(r), regrets=r)  # the regret before each update
        logs.append(r)
    r = np.concatenate(logs)[:iterations + 1]
    return np.column_stack([np.arange(iterations + 1), r.max(axis=1), r.sum(axis=1)])


# game name -> (the game, the FP profile after the logged iterations, the regret logs): games
# without parameters only, whose compiled form is the same every time
_RUNS: dict = {}


def cfr_regrets(cg, iterations: int) -> np.ndarray:
    """Rows (t, max regret, NashConv) of CFR+'s average profile at geometric checkpoints."""
    m = CFR(True, True, True, "cfr+")
    state = m.init(cg, uniform_strategy(cg))
    rows, done = [], 0
    for cp in checkpoints(iterations, 1.1):
        m.advance(cg, state, done, cp - done)
        done = cp
        r = regrets(cg, m.average(cg, state))
        rows.append((done, r.max(), r.sum()))
    return np.array(rows)


def one_cycle(r: np.ndarray, w: int = 10) -> tuple[int, int]:
    """Iteration window of one cycle of fictitious play: between two consecutive peaks of
    the log-regret above its moving average (past the first tenth of the run), the pair
    with the deepest dip between them."""
    n = len(r)
    lr = np.log(np.maximum(r, 1e-300))
    k = 4 * w + 1
    trend = np.convolve(lr, np.ones(k) / k, mode="same")
    d = lr - trend
    peaks = [i for i in range(max(n // 10, k), n - k) if d[i] == d[i - w:i + w + 1].max()
             and d[i] > 0]
    if len(peaks) < 2:
        return max(0, n - 50), n - 1
    a, b = max(zip(peaks, peaks[1:]), key=lambda p: min(d[p[0]], d[p[1]]) - d[p[0]:p[1]].min())
    return max(a - w // 2, 0), min(b + w // 2, n - 1)


def figure(seed: int = 0, quick: bool = False) -> Figure:
    runs = {}
    for spec, iters in GAMES.items():
        cg = compile_game(make_game(spec))
        n = iters // 2 if quick else iters
        runs[spec] = (fp_regrets(cg, n), cfr_regrets(cg, n))
    if LOG.exists():
        log = json.loads(LOG.read_text())
        runs["3P-MMH, weak collusion of seats 1, 2 (logged every 25)"] = (np.column_stack(
            [log["t"], log["max_regret"], log["nash_conv"]]), None)
    fig, axes = new_figure(len(runs), 2, size=(11, 3.6 * len(runs)), squeeze=False)
    numbers = {}
    for (spec, (fp, cf)), (a, b) in zip(runs.items(), axes):
        t = np.maximum(fp[:, 0], 1)
        a.loglog(t, fp[:, 1], lw=0.8, label="FP: max regret (paper's epsilon)")
        a.loglog(t, fp[:, 2], lw=0.8, alpha=0.7, label="FP: NashConv (sum)")
        if cf is not None:
            a.loglog(cf[:, 0], cf[:, 1], "k--", lw=1, label="CFR+: max regret")
            a.loglog(cf[:, 0], cf[:, 2], "k:", lw=1, label="CFR+: NashConv")
        a.axhline(0.01, color="r", lw=0.7, label="the paper's epsilon, 0.01")
        a.set_title(f"{spec}: whole run", fontsize=9)
        if cf is None:          # a logged run: too coarse to zoom into one cycle
            b.axis("off")
            b.text(0.02, 0.5, "This run was logged every 25 iterations (it is the\n"
                   "hours-long 3P-MMH collusion run of Table 7), too coarse\n"
                   "to zoom into one cycle of fictitious play.\n\n"
                   "Left: fictitious play's largest single-player regret\n"
                   "(the paper's stopping rule) and NashConv, against the\n"
                   "paper's epsilon 0.01 (red).", transform=b.transAxes, va="center",
                   fontsize=9)
            a.set_xlabel("iteration")
            a.set_ylabel("regret (antes per hand)")
            a.legend(fontsize=8)
            continue
        lo, hi = one_cycle(fp[:, 1])
        b.plot(fp[lo:hi + 1, 0], fp[lo:hi + 1, 1], ".-", lw=0.8, label="FP: max regret")
        b.plot(fp[lo:hi + 1, 0], fp[lo:hi + 1, 2], ".-", lw=0.8, label="FP: NashConv")
        if cf is not None:  # CFR+ is checkpointed more sparsely: its nearest checkpoints
            i0 = max(int(np.searchsorted(cf[:, 0], fp[lo, 0])) - 1, 0)  # either side too,
            i1 = min(int(np.searchsorted(cf[:, 0], fp[hi, 0], "right")) + 1, len(cf))
            b.plot(cf[i0:i1, 0], cf[i0:i1, 1], "k--o", ms=3,  # so that it is a line
                   label="CFR+: max regret (at its checkpoints)")
            b.set_xlim(fp[lo, 0] - 1, fp[hi, 0] + 1)
        b.set_title(f"{spec}: one cycle (iterations {int(fp[lo, 0])}-{int(fp[hi, 0])})",
                    fontsize=9)
        for ax in (a, b):
            ax.set_xlabel("iteration")
            ax.set_ylabel("regret (antes per hand)")
        a.legend(fontsize=8)
        b.legend(fontsize=8, loc="center right")  # clear of CFR+'s line along the bottom
        hit = np.nonzero(fp[:, 1] < 0.01)[0]
        numbers[f"{spec}: FP first iteration with max regret < 0.01"] = \
            int(fp[hit[0], 0]) if len(hit) else f"> {int(fp[-1, 0])}"
        numbers[f"{spec}: FP max regret / NashConv at the end"] = \
            f"{fp[-1, 1]:.4f} / {fp[-1, 2]:.4f} (iteration {int(fp[-1, 0])})"
        if cf is not None:
            numbers[f"{spec}: CFR+ max regret / NashConv at the end"] = \
                f"{cf[-1, 1]:.2e} / {cf[-1, 2]:.2e}"
    return described(fig, NAME,
                     "Regret of the paper's fictitious play per iteration (its epsilon, the "
                     "largest single player's gain from deviating, and the sum over players), "
                     "the whole run and one zoomed cycle, with CFR+'s average profile on the "
                     "same axes: fictitious play's regret falls in damped cycles, CFR+'s "
                     "steadily and far faster.", numbers, "Mercer (hold'em paper) Fig. 2")


def main(out_dir: Path, seed: int = 0, quick: bool = False, heavy: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/mercer_fig2.png``; its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick), Path(out_dir))
