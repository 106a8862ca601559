"""Smoke test of the issue-5 figures: each renders in quick mode into tmp_path, writes its
PNG and reports its key numbers (values checked where the quick run already determines
them)."""
import importlib

import pytest

from pokerdyn.figures.registry import FIGURES

NAMES = ["billingham_fig11", "billingham_fig12", "billingham_fig13", "billingham_fig14",
         "billingham_fig15", "billingham_fig16", "billingham_fig17", "alliance_transfer"]


@pytest.mark.parametrize("name", NAMES)
def test_figure_renders(name, tmp_path):
    mod = importlib.import_module(FIGURES[name])
    res = mod.main(tmp_path, seed=0, quick=True)
    assert res.name == name
    for f in res.files:
        assert f.exists() and f.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    nums = res.numbers
    if name in ("billingham_fig11", "billingham_fig12"):
        pays = [v for k, v in nums.items() if "payoffs" in k]
        assert len(pays) == 6
        for p in pays:  # ex-showdown payoffs are zero-sum; Player 3 (position) wins
            assert abs(sum(p)) < 1e-3 and p[2] > 0 > p[0]
    if name == "billingham_fig16":
        assert all(v < 4 for k, v in nums.items() if "stderr" in k)
    if name == "billingham_fig17":
        assert all(-0.65 < v < -0.35 for k, v in nums.items() if "slope" in k)
    if name == "billingham_fig15":  # bistability at k = 1e-4, already in quick mode
        assert nums["k=0.0001 start A: nearer equilibrium"] == "S2"
        assert nums["k=0.0001 start B: nearer equilibrium"] == "S1"
    if name == "alliance_transfer":
        assert nums["P=5 A+B allied: exact (A, B, C)"] == ["1/720", "1/720", "-1/360"]
        assert nums["P=9 A+B allied: exact (A, B, C)"] == ["1/468", "0", "-1/468"]
        assert nums["P=5: allied - neutral per agent (A, B, C)"][2] < 0
