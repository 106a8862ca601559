"""CLI: river game options, solve --method lp/hedge/cfr+, compare, and bad input."""
import json

import pytest

from pokerdyn.cli import main


def _json(capsys, argv):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_solve_river_lp_with_options(capsys):
    out = _json(capsys, ["solve", "river", "--method", "lp", "--street", "half", "--dist1",
                         "0.1,0.2,0.3,0.4", "--dist2", "0.1,0.2,0.3,0.4", "--max-bets", "1",
                         "--bet-size", "0.5", "--json"])
    # the JSON keys of `solve` are kept; the LP added its exact certificate (issue 34), every
    # solve its strategy by information set (issue 35)
    assert set(out) == {"game", "pot", "method", "iterations", "seconds", "nash_conv",
                        "expected_payoffs", "strategy", "tol", "converged", "strategy_file",
                        "exact", "strategy_by_infoset"}
    assert out["expected_payoffs"][0] == pytest.approx(0.035, abs=2e-3)  # Papadopoulos 4.1
    assert out["nash_conv"] == pytest.approx(0, abs=1e-9)


def test_solve_kuhn_lp_and_cfr_plus(capsys):
    out = _json(capsys, ["solve", "kuhn", "--method", "lp", "--json"])
    assert out["expected_payoffs"][0] == pytest.approx(-1 / 18, abs=1e-9)
    out = _json(capsys, ["solve", "kuhn3", "--method", "cfr+", "--iterations", "200",
                         "--json"])
    assert out["iterations"] == 200 and out["nash_conv"] < 0.01


def test_compare_json_and_plot(capsys, tmp_path):
    png = tmp_path / "cmp.png"
    out = _json(capsys, ["compare", "river", "--methods", "fp,hedge,cfr+,lp", "--seconds",
                         "0.05", "--bet-size", "1", "--json", "--plot", str(png)])
    assert set(out["methods"]) == {"fp", "hedge", "cfr+", "lp"}
    for m, r in out["methods"].items():
        h = r["history"]
        assert [row[0] for row in h] == sorted(row[0] for row in h)
        assert r["nash_conv"] == pytest.approx(h[-1][1])
    assert out["methods"]["cfr+"]["nash_conv"] < out["methods"]["hedge"]["nash_conv"]
    assert png.stat().st_size > 1000


def test_compare_table(capsys):
    assert main(["compare", "kuhn", "--methods", "cfr+", "--seconds", "0.05"]) == 0
    text = capsys.readouterr().out
    assert "NashConv against iterations" in text and "NashConv against time" in text


@pytest.mark.parametrize("argv, fragment", [
    (["solve", "river", "--dist1", "0.1,0.2,0.3,0.3"], "dist1=0.1,0.2,0.3,0.3 sums to 0.9"),
    (["solve", "river", "--bet-size", "-1"], "bet-size=-1 is outside the allowed range (0, inf)"),
    (["solve", "river", "--dist2", "0.5,-0.5,0.5,0.5"], "dist2=-0.5 is outside"),
    (["solve", "kuhn3", "--method", "lp"], "needs a 2-player zero-sum game; 'kuhn3' has 3"),
    (["compare", "kuhn3", "--methods", "fp,lp", "--seconds", "1"], "'kuhn3' has 3 players"),
    (["compare", "kuhn", "--methods", "fp,newton"], "unknown method 'newton'"),
    (["solve", "kuhn", "--street", "half"], "game 'kuhn' has no option 'street'"),
    (["solve", "river", "--max-bets", "0"], "max-bets=0 is outside the allowed range [1, inf)"),
])
def test_bad_input_is_one_line_exit_2(capsys, argv, fragment):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and fragment in err, err
