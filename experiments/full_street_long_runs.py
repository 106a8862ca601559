"""Long Benettin runs of the full-street simplified 3-player Kuhn ODE (issue 14): is the
positive Lyapunov estimate converged, or a long chaotic transient?

Each job integrates ``random_starts(model, 3, seed=0)[start]`` at pot P to ``t_end`` with the
tangent flow (first ``t_skip`` not counted) and stores, every ``grid`` time units, the
cumulative log growth of the tangent and the cumulative payoffs, plus the section crossings
(section chosen by :func:`dynamics.chaos.classify.auto_section` on a pilot run to t = 2000).
One ``.npz`` per job under ``--out`` (skipped when present, so the script resumes);
``--summary`` writes the JSON the figure and the README read
(``figures/frontier/data/full_street_long_runs.json``).

Run (nice'd, in the background; about 0.15 s per 1000 time units per job on one core):
  nice -n 10 python experiments/full_street_long_runs.py --out /tmp/fsdyn_runs \\
      --jobs main [--workers 2]
  python experiments/full_street_long_runs.py --out /tmp/fsdyn_runs --summary
"""
from __future__ import annotations

import argparse
import json
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

GAME = "kuhn3-full-simplified"
DATA = Path(__file__).resolve().parents[1] / "figures/frontier/data/full_street_long_runs.json"
GRID = 100.0

# (pot, start, t_end, t_skip, tau, rtol)
JOBS = {
    "p6": [(6.0, s, 5e5, 1e4, 1.0, 1e-9) for s in (0, 1, 2)],
    "tol": [(6.0, 0, 2e5, 1e4, 1.0, 1e-11), (6.0, 0, 2e5, 1e4, 10.0, 1e-9),
            (3.0, 0, 3e5, 1e4, 1.0, 1e-11), (3.0, 0, 3e5, 1e4, 10.0, 1e-9)],
    "main": [(p, 0, 3e5, 1e4, 1.0, 1e-9) for p in (3.0, 7.0, 10.0, 12.0)],
    "scan": [(p, s, 5e4, 5e3, 1.0, 1e-9) for p in (2.5, 3.5, 4.0, 4.5, 5.0, 8.0, 9.0, 15.0,
                                                    20.0) for s in (0, 1, 2)],
    "p4": [(4.0, s, 3e5, 1e4, 1.0, 1e-9) for s in (0, 1, 2)],
    "long": [(6.0, s, 2e6, 1e4, 1.0, 1e-9) for s in (0, 2)]
    + [(p, 0, 2e6, 1e4, 1.0, 1e-9) for p in (3.0, 12.0)],
    "more": [(p, s, 3e5, 1e4, 1.0, 1e-9) for p in (3.0, 7.0, 10.0, 12.0) for s in (1, 2)],
}


def job_name(job) -> str:
    p, s, t_end, _, tau, rtol = job
    return f"P{p:g}_s{s}_t{t_end:g}_tau{tau:g}_rtol{rtol:g}"


def run_job(args):
    job, out = args
    from pokerdyn.games import get_game
    from pokerdyn.dynamics import ode_model
    from pokerdyn.dynamics.chaos.classify import auto_section
    from pokerdyn.dynamics.chaos.lyapunov import random_starts, run_chaos

    path = Path(out) / (job_name(job) + ".npz")
    if path.exists():
        return str(path)
    p, s, t_end, t_skip, tau, rtol = job
    m = ode_model(get_game(GAME), {"P": p}, fixed="dominance")
    y = random_starts(m, 3, seed=0)[s]
    section = auto_section(run_chaos(m, y, 2000.0, 500.0), t_from=500.0)
    w0 = time.perf_counter()
    r = run_chaos(m, y, t_end, t_skip, tau, section, dt_out=GRID, rtol=rtol,
                  atol=rtol * 1e-3)
    wall = time.perf_counter() - w0
    logsum = r.lyap_running * (r.lyap_times - r.meta["t_count"])
    grid = np.arange(t_skip + GRID, t_end + GRID / 2, GRID)
    logs = np.interp(grid, r.lyap_times, logsum)
    tr = r.trajectory
    np.savez_compressed(path, pot=p, start=s, t_end=t_end, t_skip=t_skip, tau=tau, rtol=rtol,
                        t_count=r.meta["t_count"], grid=grid, logs=logs,
                        sample_times=tr.times, states=tr.states, payoffs=tr.payoffs,
                        crossing_times=r.crossing_times, crossings=r.crossings,
                        section_name=section[0], section_value=section[1],
                        names=np.array(tr.names), profit_rates=r.profit_rates,
                        steps=r.meta["steps"], wall=wall)
    print(f"{job_name(job)}: lambda {r.exponent:.5f} wall {wall:.0f} s", flush=True)
    return str(path)


def _round(x, digits: int = 7):
    """``x`` with every float rounded to ``digits`` significant digits (a smaller record)."""
    if isinstance(x, dict):
        return {k: _round(v, digits) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_round(v, digits) for v in x]
    if isinstance(x, (float, np.floating)):
        return float(f"{float(x):.{digits}g}")
    return x


def _windowed(d, n: int) -> dict:
    """Time averages of the state and profit rates over ``n`` equal windows after t_skip
    (from the samples every ``GRID``)."""
    t, S, pay = d["sample_times"], d["states"], d["payoffs"]
    edges = np.linspace(float(d["t_skip"]), float(d["t_end"]), n + 1)
    idx = np.searchsorted(t, edges)
    idx[-1] = len(t) - 1
    avgs = [S[a:b].mean(axis=0).tolist() for a, b in zip(idx[:-1], idx[1:])]
    rates = [((pay[b] - pay[a]) / (t[b] - t[a])).tolist() for a, b in zip(idx[:-1], idx[1:])]
    return {"window_averages": avgs, "window_rates": rates}


def summary(out: Path, path: Path = DATA, n_windows: int = 50) -> dict:
    """Per job: windowed exponents, the convergence verdict, profit rates (JSON)."""
    from pokerdyn.dynamics.chaos.classify import correlation_dimension, section_clusters
    from pokerdyn.dynamics.chaos.convergence import lyapunov_convergence

    runs = []
    for f in sorted(Path(out).glob("*.npz")):
        d = np.load(f)
        c = lyapunov_convergence(d["grid"], d["logs"], float(d["t_count"]),
                                 n_windows=n_windows)
        ct, cp = d["crossing_times"], d["crossings"]
        t_end = float(d["t_end"])
        late = cp[ct >= t_end - 0.2 * (t_end - float(d["t_skip"]))]
        runs.append({
            "pot": float(d["pot"]), "start": int(d["start"]), "t_end": t_end,
            "t_skip": float(d["t_skip"]), "tau": float(d["tau"]), "rtol": float(d["rtol"]),
            "section": [str(d["section_name"]), float(d["section_value"])],
            "crossings": int(len(ct)), "late_crossings": int(len(late)),
            "late_clusters": section_clusters(late) if len(late) else 0,
            "late_dimension": correlation_dimension(late),
            "profit_rates": np.asarray(d["profit_rates"]).tolist(),
            "time_average": dict(zip(map(str, d["names"]), np.asarray(
                d["states"][d["sample_times"] >= float(d["t_skip"])].mean(axis=0)).tolist())),
            **_windowed(d, 10),
            "steps": int(d["steps"]), "wall_s": float(d["wall"]),
            "convergence": c.to_json()})
    doc = {"game": GAME, "starts": "random_starts(model, 3, seed=0)", "grid": GRID,
           "script": "experiments/full_street_long_runs.py", "runs": runs}
    path.write_text(json.dumps(_round(doc)) + "\n")
    return doc


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="/tmp/fsdyn_runs")
    ap.add_argument("--jobs", nargs="*", default=["main"], choices=sorted(JOBS))
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--summary", action="store_true")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    if a.summary:
        summary(out)
        return
    todo = [(j, str(out)) for k in a.jobs for j in JOBS[k]]
    if a.workers > 1:
        with Pool(a.workers) as pool:
            list(pool.imap_unordered(run_job, todo))
    else:
        for t in todo:
            run_job(t)


if __name__ == "__main__":
    main()
