"""Billingham Table 1 (sec. 4.2) as a ``pokerdyn reproduce`` module: the quick run's table
has every (k, L, estimator) row with three zero-sum payoffs and replays bit for bit."""
import csv
import json
from itertools import product

import numpy as np

from pokerdyn.dynamics.play.estimators import ESTIMATORS
from pokerdyn.dynamics.play.tables import tree_tables
from pokerdyn.figures.billingham.play import table1
from pokerdyn.figures.registry import FIGURES, load
from pokerdyn.games import get_game


def test_exshowdown_payoffs_sum_to_zero_per_terminal():
    """The model's payoffs: chips minus the check-down payoff of the deal, both zero-sum,
    so every terminal's ex-showdown payoffs sum to exactly 0 (P = 9, 12 deals)."""
    tabs = tree_tables(get_game("skp"), {"P": 9.0}, 12)
    assert np.all(tabs.exshow.sum(axis=1) == 0) and np.all(tabs.payoffs.sum(axis=1) == 0)


def test_table1_quick_rows_zero_sum_and_bit_identical_replay(tmp_path):
    assert FIGURES["billingham_table1"] == "pokerdyn.figures.billingham.play.table1"
    res = load("billingham_table1").main(tmp_path / "a", seed=0, quick=True)
    files = {f.suffix: f for f in res.files}
    assert set(files) == {".png", ".json", ".csv"} and all(f.exists() for f in res.files)
    table = json.loads(files[".json"].read_text())
    rows = table["rows"]
    assert table["rounds_per_seed"] == table1.QUICK_ROUNDS and table["seeds"] == 3
    # exactly 2 k x 6 L x 4 estimators (Billingham sec. 4.2 grid), 3 payoffs each
    assert len(rows) == 2 * 6 * 4
    assert {(r["k"], r["L"], r["estimator"]) for r in rows} == \
        set(product((0.001, 0.01), (6, 12, 24, 48, 96, 192), ESTIMATORS))
    assert set(ESTIMATORS) == {"unbiased", "paper", "corrected", "ml"}
    for r in rows:
        assert len(r["payoffs"]) == 3 and np.shape(r["seeds"]) == (3, 3)
        assert abs(sum(r["payoffs"])) < 1e-12  # zero-sum (test above)
        assert all(lo <= m <= hi for lo, m, hi in zip(r["min"], r["payoffs"], r["max"]))
        assert r["payoffs"][2] > 0 > r["payoffs"][0]  # Player 3 (last to act) wins
    with files[".csv"].open() as fh:
        assert len(list(csv.DictReader(fh))) == len(rows)
    assert "the mean payoffs differ between all four estimators up to" in res.summary
    again = table1.main(tmp_path / "b", seed=0, quick=True)
    assert (tmp_path / "b" / "billingham_table1.json").read_text() == files[".json"].read_text()
    assert again.numbers == res.numbers
    other = table1.run_table(200, seed=1)
    assert other != table1.run_table(200, seed=0)
