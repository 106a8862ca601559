"""Smoke test of this issue's figures in quick mode: files written, key numbers right."""
import pytest

from pokerdyn.figures.registry import FIGURES, load


@pytest.mark.parametrize("name", ["river_value_bet_size", "river_strategy_tree",
                                  "convergence_compare"])
def test_figure_quick(name, tmp_path):
    assert name in FIGURES
    res = load(name).main(tmp_path, quick=True)
    assert all(p.exists() and p.stat().st_size > 5000 for p in res.files)
    if name == "river_value_bet_size":
        # one bet, both R1, pot-sized bet: the second player's largest advantage (sec. 5.1)
        assert res.numbers["R1, 1 bet: lowest value (bet size)"] == "-0.0300 (1)"
    if name == "river_strategy_tree":
        assert res.numbers["game value"] == "-0.0100"  # Papadopoulos Fig. 2
        assert res.numbers["P1 bets with D"] == "0.250"
