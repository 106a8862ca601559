"""Dynamics of the full-street simplified 3-player Kuhn poker ODE (Billingham, arXiv
1707.01392, sec. 4): time series at a pot with a periodic solution and at one with an
irregular (chaotic) one, their Poincare sections, and the convergence of the largest
Lyapunov exponent (Benettin's method, several seeded starts per pot).  The bottom row reads
the committed long runs (``data/full_street_long_runs.json``, written by
``experiments/full_street_long_runs.py``): windowed exponents over time with their batch-means
estimate (:mod:`dynamics.chaos.convergence`), so ``quick`` shows them too."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

import numpy as np

from pokerdyn.dynamics import ode_model
from pokerdyn.dynamics.chaos.classify import classify_run
from pokerdyn.dynamics.chaos.lyapunov import ChaosRun, random_starts, run_chaos
from pokerdyn.games import get_game

from pokerdyn.figures.base import Figure, FigureResult, described, finish, new_figure

GAME = "kuhn3-full-simplified"
# (pot, section) of the periodic and of the irregular example (see README, issue 14 numbers)
PERIODIC = (2.5, ("b3_Q", 0.5))
CHAOTIC = (6.0, ("c1_K_kkb", 0.5))
LONG_RUNS = Path(__file__).with_name("data") / "full_street_long_runs.json"


def long_runs(path: Path = LONG_RUNS) -> list[dict]:
    """The committed long runs (empty when the file is absent)."""
    return json.loads(path.read_text())["runs"] if path.exists() else []


def windows_panel(ax, runs: Sequence[dict], **kw):
    """Windowed Lyapunov exponents of long runs (steps over time), with the batch-means
    estimate +- 2 standard errors over each run's judged windows."""
    for r in runs:
        c = r["convergence"]
        w = np.array(c["windows"])
        lab = (f"P = {r['pot']:g}, start {r['start']}"
               + ("" if r["rtol"] == 1e-9 and r["tau"] == 1 else
                  f", rtol {r['rtol']:g}, tau {r['tau']:g}"))
        (line,) = ax.step(w[:, 0], w[:, 2], where="post", lw=1,
                          label=f"{lab}: {c['verdict']}", **kw)
        a = w[-c["judged_windows"], 0]
        lo, hi = c["estimate"] - 2 * c["stderr"], c["estimate"] + 2 * c["stderr"]
        ax.fill_between([a, w[-1, 1]], lo, hi, color=line.get_color(), alpha=0.2)
    ax.axhline(0.0, color="k", lw=0.6)
    ax.set_xlabel("t")
    ax.set_ylabel("windowed largest Lyapunov exponent")
    if runs:
        ax.legend(fontsize=6)
    return ax


def lyapunov_panel(ax, runs: Sequence[ChaosRun], label: str = "", **kw):
    """Running Lyapunov estimates against time, one line per run."""
    for i, r in enumerate(runs):
        ax.plot(r.lyap_times, r.lyap_running, lw=1, label=f"{label}start {i}", **kw)
    ax.axhline(0.0, color="k", lw=0.6)
    ax.set_xlabel("t")
    ax.set_ylabel("running largest Lyapunov estimate")
    return ax


def _spread(v: np.ndarray, name: str) -> tuple[np.ndarray, str]:
    """Section coordinates as plotted: as they are, or, where the points agree to within a
    millionth but not to rounding (a periodic orbit's one cluster), their deviation from the mean in a power of
    ten named in the axis label (matplotlib's offset text would sit on the label)."""
    scale = max(1.0, abs(float(v.mean())))
    if len(v) < 2 or not 1e-12 * scale < np.ptp(v) < 1e-6 * scale:  # spread, or rounding only
        return v, name
    e = int(np.floor(np.log10(np.ptp(v))))
    return (v - v.mean()) / 10.0 ** e, f"({name} - {v.mean():.7f}) / 1e{e}"


def section_panel(ax, run: ChaosRun, axes: tuple[str, str] | None = None, **kw):
    """Poincare-section points of ``run`` projected on two frequencies (default: the two
    that vary most over the section)."""
    P = run.crossings[run.crossing_times >= run.meta["t_skip"]]
    names = run.trajectory.names
    if axes is None:
        order = np.argsort(-P.std(axis=0)) if len(P) else np.arange(len(names))
        axes = (names[order[0]], names[order[1]])
    i, j = names.index(axes[0]), names.index(axes[1])
    (x, xlabel), (y, ylabel) = _spread(P[:, i], axes[0]), _spread(P[:, j], axes[1])
    ax.plot(x, y, ".", ms=3, **kw)
    ax.ticklabel_format(useOffset=False)  # the labels say what is subtracted, not an offset
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    sec = run.section
    ax.set_title(f"section {sec[0]} = {sec[1]:g} (upward), {len(P)} points", fontsize=9)
    return ax


def figure(seed: int = 0, quick: bool = False) -> Figure:
    g = get_game(GAME)
    t_end = 1500.0 if quick else 20000.0
    n_starts = 1 if quick else 3
    fig, axes = new_figure(3, 3, size=(15, 12.5))
    numbers = {}
    for row, (pot, section) in zip(axes[:2], (PERIODIC, CHAOTIC)):
        m = ode_model(g, {"P": pot}, fixed="dominance")
        runs = [run_chaos(m, y, t_end, t_end / 5, 1.0, section)
                for y in random_starts(m, n_starts, seed)]
        r = runs[0]
        tr = r.trajectory
        last = tr.times >= t_end - 300
        for k in np.argsort(-tr.states[last].std(axis=0))[:4]:
            row[0].plot(tr.times[last], tr.states[last, k], lw=1, label=tr.names[k])
        row[0].legend(fontsize=7)
        row[0].set_xlabel("t")
        row[0].set_title(f"P = {pot:g}: frequencies (last 300 time units)", fontsize=9)
        section_panel(row[1], r)
        lyapunov_panel(row[2], runs)
        row[2].legend(fontsize=7)
        cls = [classify_run(x) for x in runs]
        numbers[f"P = {pot:g}"] = {
            "kinds": [c.kind for c in cls],
            "convergence": [x.convergence(n_windows=10).verdict() for x in runs],
            "lyapunov": [round(c.exponent, 5) for c in cls],
            "spread last quarter": [float(f"{c.spread:.2g}") for c in cls],
            "section clusters": [c.clusters for c in cls],
            "periods": [None if c.period is None else round(c.period, 3) for c in cls],
            "profit rates": [np.round(x.profit_rates, 5).tolist() for x in runs]}
    numbers["long runs"] = _long_row(axes[2], long_runs())
    return described(
        fig, "full_street_dynamics",
        "Adaptive-play ODE of full-street simplified 3-player Kuhn poker on the 13 "
        "frequencies that iterated dominance leaves free, integrated in logit coordinates. "
        f"Top: P = {PERIODIC[0]:g}, a periodic orbit (one cluster on the section, exponent "
        f"tending to 0). Bottom: P = {CHAOTIC[0]:g}, an irregular orbit (scattered section "
        "points). Right: running Benettin estimates of the largest Lyapunov exponent. Bottom row: "
        "windowed exponents of the committed long runs (P = 6; other pots) and their "
        "batch-means estimates +- 2 standard errors against the pot.",
        numbers, "Billingham, arXiv 1707.01392, sec. 4")


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/<name>.png``; its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick), out_dir)


def _long_row(row, runs: list[dict]) -> dict:
    """Bottom row: windowed exponents at P = 6 and at the other pots of the long runs, and
    the estimates +- 2 standard errors against the pot; the numbers behind them."""
    p6 = [r for r in runs if r["pot"] == CHAOTIC[0]]
    longest = max((r["t_end"] for r in runs), default=0.0)
    windows_panel(row[0], [r for r in p6 if r["t_end"] == longest or r["rtol"] != 1e-9
                           or r["tau"] != 1])
    row[0].set_title(f"P = {CHAOTIC[0]:g}: windowed exponents", fontsize=9)
    windows_panel(row[1], [r for r in runs if r["pot"] != CHAOTIC[0] and r["t_end"] == longest])
    row[1].set_title("other pots, longest runs: windowed exponents", fontsize=9)
    for r in (r for r in runs if r["t_end"] >= 1e5):
        c = r["convergence"]
        color = "C3" if c["positive"] else "C0"
        row[2].errorbar(r["pot"] + 0.08 * r["start"], c["estimate"], 2 * c["stderr"],
                        fmt="o" if c["positive"] else "s", color=color, ms=3)
    row[2].axhline(0.0, color="k", lw=0.6)
    row[2].set_xlabel("pot P")
    row[2].set_ylabel("judged-window estimate +- 2 s.e.")
    row[2].set_title("runs of t >= 1e5; red: converged positive, blue: not (or regular)",
                     fontsize=9)
    return {f"P = {r['pot']:g} start {r['start']} t = {r['t_end']:g} rtol {r['rtol']:g} "
            f"tau {r['tau']:g}": [r["convergence"]["verdict"],
                                  round(r["convergence"]["estimate"], 5),
                                  float(f"{r['convergence']['stderr']:.2g}")] for r in runs}
