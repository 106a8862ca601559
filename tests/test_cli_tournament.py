"""``pokerdyn icm`` and ``pokerdyn pushfold``: JSON keys of issue 13, values, the chart's
consistency with per-stack solves, and bad input (one line, exit 2).

Until the 169-class equity table (games.preflop) is part of the package, pushfold runs on a
stand-in model: the exact card-removal pair probabilities with a made-up equity matrix
(antisymmetric, monotone in a crude hand strength)."""
from __future__ import annotations

import contextlib
import io
import json
from fractions import Fraction as F

import numpy as np
import pytest

import pokerdyn.games.tournament.hands as hands
from pokerdyn.games.preflop.classes import CLASSES, RANKS, grid_cell, pair_probabilities
from pokerdyn.games.tournament.showdown import HandModel
from pokerdyn.cli import main


def fake_model() -> HandModel:
    names = CLASSES
    st = np.array([(26 - RANKS.index(n[0]) - RANKS.index(n[1]) + 13 * (n[0] == n[1])
                    + 2 * n.endswith("s")) / 40 for n in names])
    eq = 0.5 + 0.45 * np.tanh(2 * (st[:, None] - st[None, :]))
    return HandModel(names, pair_probabilities(), eq)


@pytest.fixture(autouse=True)
def stand_in(monkeypatch):
    model = fake_model()
    monkeypatch.setattr(hands, "preflop_model", lambda: model)


def cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exc:
            code = exc.code
    return code, out.getvalue(), err.getvalue()


def test_icm_json():
    code, out, _ = cli("icm", "--stacks", "50,30,20", "--payouts", "0.5,0.3,0.2", "--json")
    assert code == 0
    eq = json.loads(out)["equity"]
    assert eq[0] == pytest.approx(float(F(43, 112)), abs=1e-15)     # tests/test_icm.py
    assert sum(eq) == pytest.approx(1.0)


def test_pushfold_heads_up_lp_json():
    code, out, _ = cli("pushfold", "--stacks", "10,10", "--blinds", "0.5,1", "--json")
    assert code == 0
    d = json.loads(out)
    assert set(d) >= {"ranges", "nash_conv", "seconds"}
    assert set(d["ranges"]) == {"SB push []", "BB call [p]"}
    push = np.array(d["ranges"]["SB push []"])
    assert push.shape == (13, 13)
    assert push[0, 0] == 1                        # AA always pushed
    assert d["nash_conv"] < 1e-9 and d["method"] == "lp"


def test_pushfold_fp_matches_lp_and_icm_heads_up():
    """Heads-up ICM is chips scaled by (p1 - p2) / S: the same equilibrium, NashConv scaled."""
    _, out, _ = cli("pushfold", "--stacks", "6,6", "--method", "fp", "--iterations", "300",
                    "--json")
    fp = json.loads(out)
    _, out, _ = cli("pushfold", "--stacks", "6,6", "--method", "fp", "--iterations", "300",
                    "--payouts", "0.65,0.35", "--json")
    icm_fp = json.loads(out)
    assert icm_fp["nash_conv"] == pytest.approx(fp["nash_conv"] * 0.3 / 12, rel=1e-6)
    _, out, _ = cli("pushfold", "--stacks", "6,6", "--json")
    lp = json.loads(out)
    diff = np.abs(np.array(fp["ranges"]["SB push []"]) - np.array(lp["ranges"]["SB push []"]))
    assert diff.mean() < 0.05


def test_chart_agrees_with_single_stack_solves():
    code, out, _ = cli("pushfold", "--chart", "--blinds", "0.5,1", "--max-stack", "8",
                       "--step", "2.5", "--json")
    assert code == 0
    chart = json.loads(out)
    assert set(chart) >= {"push", "call", "push_mixed", "call_mixed"}
    assert chart["stacks"] == [2.5, 5.0, 7.5]
    for h, pts in chart["push_mixed"].items():
        assert all(0 < p < 1 for _, p in pts)
    for s in (2.5, 5.0, 7.5):
        _, out, _ = cli("pushfold", "--stacks", f"{s},{s}", "--json")
        grid = np.array(json.loads(out)["ranges"]["SB push []"])
        for name in ("AA", "K2o", "T3o", "72o", "54s"):
            played = any(lo <= s <= hi for lo, hi in chart["push"][name])
            assert played == (grid[grid_cell(name)] > 0.5), (name, s)


def test_chart_one_hand():
    code, out, _ = cli("pushfold", "--chart", "--max-stack", "3", "--step", "1", "--hand",
                       "AA", "--json")
    assert code == 0 and json.loads(out)["push"] == {"AA": [[2.0, 3.0]]}


@pytest.mark.parametrize("argv, needle", [
    (["icm", "--stacks", "50,0,20", "--payouts", "0.5,0.3"], "stack"),
    (["icm", "--stacks", "50,30,20", "--payouts", "0.6,0.5"], "sum to"),
    (["icm", "--stacks", "50,30,20", "--payouts", "0.2,0.3"], "non-increasing"),
    (["icm", "--stacks", "50,30", "--payouts", "0.5,0.3,0.2"], "more than the 2 players"),
    (["pushfold", "--stacks", "10,-1"], "stack"),
    (["pushfold", "--stacks", "10,0.5", "--blinds", "0.5,1"], "posts 1"),
    (["pushfold", "--stacks", "10,10", "--payouts", "0.7,0.4"], "sum to"),
    (["pushfold", "--stacks", "10,10", "--payouts", "0.3,0.5"], "non-increasing"),
    (["pushfold", "--stacks", "10,10", "--payouts", "0.5,0.3,0.2"], "more than the 2"),
    (["pushfold", "--stacks", "10,10", "--hand", "AXs"], "unknown hand class 'AXs'"),
    (["pushfold", "--chart", "--hand", "KAs"], "unknown hand class 'KAs'"),
    (["pushfold", "--stacks", "5,5,5", "--method", "lp"], "lp solves heads-up"),
    (["pushfold", "--stacks", "5,5,5,5,5,5,5"], "7 seats is outside [2, 6]"),
    (["pushfold", "--chart", "--max-stack", "0.5", "--step", "0.1"], "no stack above"),
])
def test_bad_input_one_line_exit_2(argv, needle):
    code, out, err = cli(*argv)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pokerdyn: error: ") and needle in lines[0]


def test_chart_plot_written(tmp_path):
    path = tmp_path / "chart.png"
    code, out, _ = cli("pushfold", "--chart", "--max-stack", "4", "--step", "1", "--plot",
                       str(path))
    assert code == 0 and path.stat().st_size > 10_000 and f"wrote {path}" in out
