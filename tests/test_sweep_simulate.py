"""Sweeps of the repeated-play simulation (issue 5).  Needs dynamics.play.repeated (built in
parallel): enable after merging it.  Each row must be exactly what a direct call of
``simulate`` with the cell's spawned seed returns, on 1 or 2 workers."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from pokerdyn.dynamics.play.repeated import simulate
from pokerdyn.dynamics.sweep.spec import load_config
from pokerdyn.dynamics.sweep.store import TIMING_COLUMNS, load_results
from pokerdyn.dynamics.sweep.runner import run_sweep

CONFIG = """
[sweep]
experiment = "simulate"
base_seed = 99
[fixed]
rounds = 20000
n_points = 10
init = [0.3, 0.6, 0.4]
[grid]
pot = [6, 9]
L = [6, [6, 12, 24]]
"""


def frame(path) -> pd.DataFrame:
    df = load_results(path)
    return df.drop(columns=[c for c in TIMING_COLUMNS if c in df.columns])


def test_simulate_sweep_matches_direct_runs_on_any_workers(tmp_path: Path):
    (tmp_path / "s.toml").write_text(CONFIG)
    cfg = load_config(tmp_path / "s.toml")
    one = frame(run_sweep(cfg, tmp_path / "one", workers=1, progress=False).output)
    two = frame(run_sweep(cfg, tmp_path / "two", workers=2, progress=False).output)
    pd.testing.assert_frame_equal(one, two, check_exact=True)
    assert len(one) == 4
    seeds = np.random.SeedSequence(99).spawn(4)
    for cell, (_, row) in zip(cfg.cells(), one.iterrows()):
        p = cell.params
        res = simulate(game="skp", pot=p["pot"], k=p["k"],
                       L=tuple(p["L"]) if isinstance(p["L"], list) else p["L"],
                       rounds=20000, init=(0.3, 0.6, 0.4), seed=seeds[cell.index], deals=12,
                       n_points=10)
        assert [row[f"mean_payoffs_{i}"] for i in (1, 2, 3)] == [float(x) for x in res.mean_payoffs]
        assert {k: row[f"final_{k}"] for k in ("b_J", "c_K", "d_Q")} == \
            {k: float(v) for k, v in res.final.items()}
        assert row["rounds"] == 20000


def test_example_config_runs_a_cell(tmp_path: Path):
    cfg = load_config(Path(__file__).resolve().parents[1] / "examples" / "sweep_skp.toml")
    cell = cfg.cells()[0]
    from pokerdyn.dynamics.sweep.experiments import run_cell
    out = run_cell("simulate", {**cell.params, "rounds": 1000}, cell.seed)
    assert set(out) >= {"mean_payoffs_1", "mean_payoffs_2", "mean_payoffs_3", "final_b_J",
                        "final_c_K", "final_d_Q", "seconds", "rounds_per_second"}


def test_sweep_estimator_corrected_is_the_direct_run(tmp_path: Path):
    """``estimator = "corrected"`` in a sweep TOML runs simulate(estimator="corrected")
    (Billingham (44), (45), (47) as printed, (46) with the unbiased denominator): each row is
    the direct run with the cell's spawned seed, and differs from the printed estimators'."""
    (tmp_path / "s.toml").write_text(
        '[sweep]\nexperiment = "simulate"\nbase_seed = 5\n[fixed]\nrounds = 20000\n'
        'n_points = 10\nk = 0.01\n[grid]\nestimator = ["paper", "corrected"]\n')
    cfg = load_config(tmp_path / "s.toml")
    df = frame(run_sweep(cfg, tmp_path / "out", workers=1, progress=False).output)
    seeds = np.random.SeedSequence(5).spawn(2)
    finals = []
    for cell, (_, row) in zip(cfg.cells(), df.iterrows()):
        res = simulate(rounds=20000, n_points=10, k=0.01, seed=seeds[cell.index],
                       estimator=cell.params["estimator"])
        assert row["estimator"] == cell.params["estimator"]
        assert [row[f"mean_payoffs_{i}"] for i in (1, 2, 3)] == [float(x) for x in res.mean_payoffs]
        finals.append(res.final)
    assert finals[0] != finals[1]
