"""Parameter sweeps (issue 5): seeds fixed by the config, identical results on any number of
workers or a dask cluster, atomic per-cell storage, resume, never overwrite, bad keys."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerdyn.dynamics.sweep.spec import load_config, parse_config
from pokerdyn.dynamics.sweep.store import CONFIG_FILE, TIMING_COLUMNS, load_results, write_cell
from pokerdyn.dynamics.sweep.experiments import random_profile
from pokerdyn.dynamics.sweep.runner import run_sweep
from pokerdyn.games import GameError, compile_game, get_game
from pokerdyn.games.strategy import params_from_strategy
from pokerdyn.cli import main

ROOT = Path(__file__).resolve().parents[1]

TOY = """
[sweep]
experiment = "toy"
base_seed = 2024
replicates = 2
[fixed]
n = 5
[grid]
mu = [0, 1.5, -2]
sigma = [1, 0.5]
"""


def toml(tmp_path: Path, text: str = TOY, name: str = "toy.toml") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def frame(path) -> pd.DataFrame:
    df = load_results(path)
    return df.drop(columns=[c for c in TIMING_COLUMNS if c in df.columns])


def stats(path: Path) -> dict[str, tuple[int, int]]:
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in path.glob("cell-*")}


def test_cells_get_spawned_seeds_in_fixed_order(tmp_path):
    cfg = load_config(toml(tmp_path))
    df = frame(run_sweep(cfg, tmp_path / "a", workers=1, progress=False).output)
    assert len(df) == 12 and df.cell_id.is_unique
    seeds = np.random.SeedSequence(2024).spawn(12)
    # axes in sorted name order (mu, sigma), replicate innermost
    expect = [(mu, s, r) for mu in (0.0, 1.5, -2.0) for s in (1.0, 0.5) for r in (0, 1)]
    for i, row in df.iterrows():
        assert (row.mu, row.sigma, row.replicate) == expect[i]
        x = np.random.default_rng(seeds[i]).normal(row.mu, row.sigma, size=5)
        assert (row["first"], row["last"], row["mean"]) == (x[0], x[-1], x.mean())


def test_axis_order_in_file_does_not_change_cells(tmp_path):
    swapped = TOY.replace("mu = [0, 1.5, -2]\nsigma = [1, 0.5]", "sigma = [1, 0.5]\nmu = [0, 1.5, -2.0]")
    assert swapped != TOY
    a = load_config(toml(tmp_path)).cells()
    b = load_config(toml(tmp_path, swapped, "b.toml")).cells()
    assert [c.cell_id for c in a] == [c.cell_id for c in b]
    assert [c.seed.spawn_key for c in a] == [c.seed.spawn_key for c in b]


@settings(max_examples=30, deadline=None)
@given(st.dictionaries(st.sampled_from(["mu", "sigma", "n"]),
                       st.lists(st.integers(1, 50), min_size=1, max_size=3, unique=True),
                       max_size=3),
       st.integers(1, 3), st.integers(0, 2**63 - 1))
def test_grid_cells_are_the_product_with_spawned_seeds(grid, reps, base):
    cfg = parse_config({"sweep": {"experiment": "toy", "replicates": reps, "base_seed": base},
                        "grid": grid})
    cells = cfg.cells()
    assert len(cells) == cfg.n_cells() == reps * int(np.prod([len(v) for v in grid.values()]))
    assert len({c.cell_id for c in cells}) == len(cells)
    assert all(c.seed.spawn_key == (c.index,) and c.seed.entropy == base for c in cells)
    # the same grid written in another key order gives the same cells
    rev = parse_config({"sweep": {"experiment": "toy", "replicates": reps, "base_seed": base},
                        "grid": dict(reversed(list(grid.items())))})
    assert [c.cell_id for c in rev.cells()] == [c.cell_id for c in cells]


def test_one_and_two_workers_identical(tmp_path):
    cfg = load_config(toml(tmp_path))
    one = run_sweep(cfg, tmp_path / "one", workers=1, progress=False)
    two = run_sweep(cfg, tmp_path / "two", workers=2, progress=False)
    assert (one.computed, two.computed, two.executor) == (12, 12, "processes:2")
    pd.testing.assert_frame_equal(frame(one.output), frame(two.output), check_exact=True)


def test_fp_experiment_matches_direct_call_on_any_workers(tmp_path):
    text = ('[sweep]\nexperiment = "fp"\nbase_seed = 5\n[fixed]\niterations = 50\n'
            '[grid]\ngame = ["skp", "kuhn3-third"]\npot = [6, 9]\n')
    cfg = load_config(toml(tmp_path, text))
    one = frame(run_sweep(cfg, tmp_path / "one", workers=1, progress=False).output)
    two = frame(run_sweep(cfg, tmp_path / "two", workers=2, progress=False).output)
    pd.testing.assert_frame_equal(one, two, check_exact=True)
    # axes sorted by name (game, pot), values in the order written
    assert list(zip(one.game, one.pot)) == [("skp", 6.0), ("skp", 9.0), ("kuhn3-third", 6.0),
                                           ("kuhn3-third", 9.0)]
    from pokerdyn.solvers import fictitious_play
    for i, row in one.iterrows():
        cg = compile_game(get_game(row.game), P=row.pot)
        start = random_profile(cg, np.random.default_rng(np.random.SeedSequence(5).spawn(4)[i]))
        res = fictitious_play(cg, iterations=50, sigma0=start)
        assert row.nash_conv == res.nash_conv
        assert [row.payoff_1, row.payoff_2, row.payoff_3] == list(res.expected_payoffs)
        for name, x in params_from_strategy(cg, start).items():
            assert row[f"init_{name}"] == x
        for name, x in params_from_strategy(cg, res.strategy).items():
            assert row[f"final_{name}"] == x
    assert one[one.game == "skp"].init_b_Q.isna().all()  # skp has no b_Q: schemas unified


def test_interrupted_sweep_resumes_only_missing_cells(tmp_path):
    cfg = load_config(toml(tmp_path))
    out = tmp_path / "res"
    first: list[str] = []

    def stop_after_three(cell):
        first.append(cell.cell_id)
        if len(first) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_sweep(cfg, out, workers=2, progress=False, on_cell=stop_after_three)
    before = stats(out)
    assert len(before) == 3 and not list(out.glob(".tmp-*"))
    later: list[str] = []
    s = run_sweep(cfg, out, workers=1, progress=False, on_cell=lambda c: later.append(c.cell_id))
    assert (s.cells, s.skipped, s.computed) == (12, 3, 9)
    assert set(later) == {c.cell_id for c in cfg.cells()} - set(first)
    after = stats(out)
    assert {k: after[k] for k in before} == before  # finished files untouched
    again = run_sweep(cfg, out, workers=2, progress=False)
    assert (again.skipped, again.computed) == (12, 0) and stats(out) == after
    fresh = run_sweep(cfg, tmp_path / "fresh", workers=1, progress=False)
    pd.testing.assert_frame_equal(frame(out), frame(fresh.output), check_exact=True)


def test_never_overwrites_finished_results(tmp_path, capsys):
    path = toml(tmp_path)
    out = tmp_path / "res"
    assert main(["sweep", str(path), "--out", str(out), "--workers", "1", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["cells"], summary["computed"], summary["output"]) == (12, 12, str(out))
    before = stats(out)
    path.write_text(TOY.replace("sigma = [1, 0.5]", "sigma = [1, 0.25]"))
    assert main(["sweep", str(path), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "different sweep (changed: grid.sigma)" in err
    assert stats(out) == before
    # the per-cell write never replaces an existing file
    cfg = load_config(toml(tmp_path))
    cell = cfg.cells()[0]
    assert write_cell(out, cell, {"cell_id": "forged"}) is False
    assert stats(out) == before and frame(out).cell_id[0] == cell.cell_id
    # nor does a sweep write into a foreign non-empty directory
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("x")
    with pytest.raises(GameError, match="non-empty directory"):
        run_sweep(cfg, tmp_path / "other", workers=1, progress=False)


@pytest.mark.parametrize("text, message", [
    ('[sweep]\nexperiment = "toy"\nworkers = 2\n', "unknown key 'workers' in [sweep]; allowed: "
     "experiment, output, base_seed, replicates, description"),
    ('[sweep]\nexperiment = "toy"\n[grid]\nL = [6]\n', "unknown key 'L' in [grid] (experiment "
     "'toy'); allowed: mu, sigma, n"),
    ('[sweep]\nexperiment = "fp"\n[fixed]\nrounds = 3\n', "unknown key 'rounds' in [fixed] "
     "(experiment 'fp'); allowed: game, pot, iterations, schedule, averaging"),
    ('[sweep]\nexperiment = "toy"\n[grids]\nmu = [1]\n', "unknown key 'grids' in the sweep file "
     "(tables); allowed: sweep, fixed, grid"),
    ('[sweep]\nexperiment = "nope"\n', "unknown experiment 'nope'; available: toy, fp, simulate"),
    ('[sweep]\nexperiment = "toy"\n[grid]\nseed = [1, 2]\n', "use replicates = N"),
    ('[sweep]\nexperiment = "toy"\n[grid]\nsigma = [1, -1]\n', "sigma=-1 is outside the allowed "
     "range (0, inf]"),
    ('[sweep]\nexperiment = "toy"\n[grid]\nmu = [1, 1.0]\n', "lists the value 1.0 twice"),
    ('[sweep]\nexperiment = "toy"\n[fixed]\nmu = 1\n[grid]\nmu = [2]\n', "in both"),
    ('[sweep]\nexperiment = "simulate"\n[grid]\ninit = [[0.1, 0.2, 1.5]]\n',
     "init[2]=1.5 is outside the allowed range [0, 1]"),
    ('[sweep]\nexperiment = "simulate"\n[grid]\nL = [0]\n', "L=0 is outside the allowed range"),
    ('[sweep]\nexperiment = "simulate"\n[grid]\nk = [[0.1, -0.1, 0.1]]\n', "k[1]=-0.1 is outside"),
    ('[sweep]\nexperiment = "simulate"\n[fixed]\nestimator = "biased"\n', "estimator='biased' "
     "is not one of: unbiased, paper, corrected, ml"),
])
def test_bad_config_is_one_clear_error(tmp_path, capsys, text, message):
    with pytest.raises(GameError) as exc:
        load_config(toml(tmp_path, text))
    assert message in str(exc.value)
    assert main(["sweep", str(tmp_path / "toy.toml")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
    assert not (tmp_path / "toy.parquet").exists()


def test_store_is_a_parquet_dataset_pandas_opens(tmp_path):
    text = ('[sweep]\nexperiment = "simulate"\noutput = "sub/out.parquet"\n[fixed]\n'
            'init = [0.2, 0.3, 0.4]\n[grid]\nk = [0.01, [0.01, 0.02, 0.03]]\n')
    cfg = parse_config(__import__("tomllib").loads(text), tmp_path)
    assert cfg.output == tmp_path / "sub" / "out.parquet"
    assert cfg.json_columns() == {"k", "init"}
    cells = cfg.cells()
    assert [c.params["k"] for c in cells] == [0.01, [0.01, 0.02, 0.03]]
    # store two rows by hand (the simulate experiment itself is tested after merge)
    from pokerdyn.dynamics.sweep.store import cell_row, open_store
    assert open_store(cfg.output, cfg) == {}
    for c in cells:
        write_cell(cfg.output, c, cell_row(cfg, c, {"x": float(c.index)}, 0.0))
    direct = pd.read_parquet(cfg.output)
    assert sorted(direct.k) == ["0.01", "[0.01, 0.02, 0.03]"]
    assert list(load_results(cfg.output).x) == [0.0, 1.0]
    assert json.loads((cfg.output / CONFIG_FILE).read_text())["config"] == cfg.canonical()


def test_missing_pyarrow_gives_install_hint(tmp_path, capsys, monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    assert main(["sweep", str(toml(tmp_path))]) == 2
    err = capsys.readouterr().err
    assert err == "pokerdyn: error: pokerdyn sweep needs pyarrow: pip install 'pokerdyn[dask]'\n"


def test_dask_local_cluster_gives_the_local_results(tmp_path, capsys, monkeypatch):
    from distributed import LocalCluster

    path = toml(tmp_path)
    local = run_sweep(load_config(path), tmp_path / "local", workers=1, progress=False)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster:
        assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        argv = ["sweep", str(path), "--scheduler", cluster.scheduler_address,
                "--out", str(tmp_path / "dask"), "--json"]
        assert main(argv) == 0
        summary = json.loads(capsys.readouterr().out)
        assert summary["computed"] == 12
        assert summary["executor"] == f"dask:{cluster.scheduler_address}"
        assert main(argv) == 0  # resume: nothing left to do
        assert json.loads(capsys.readouterr().out)["computed"] == 0
    pd.testing.assert_frame_equal(frame(local.output), frame(tmp_path / "dask"), check_exact=True)
    assert main(["sweep", str(path), "--out", str(tmp_path / "x"), "--scheduler", "nonsense"]) == 2
    assert "scheduler address 'nonsense' is not of the form tcp://HOST:PORT" in \
        capsys.readouterr().err


def test_example_config_is_valid():
    cfg = load_config(ROOT / "examples" / "sweep_skp.toml")
    assert (cfg.experiment, cfg.n_cells()) == ("simulate", 3 * 2 * 3 * 2 * 2)
    assert cfg.output == ROOT / "examples" / "sweep_skp.parquet"
    assert cfg.cells()[0].params == {"game": "skp", "pot": 6.0, "k": 0.001, "L": 6,
                                     "rounds": 1_000_000, "init": [0.2, 0.3, 0.2], "deals": 12,
                                     "n_points": 100, "estimator": "unbiased"}
