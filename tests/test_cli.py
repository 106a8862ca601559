"""The ``pokerdyn`` command: JSON interfaces, the SKP acceptance run, bad input (one line
on stderr, exit code 2) and ``reproduce --quick``."""
from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
import sympy as sp

from pokerdyn.games import get_game
from pokerdyn.cli import main
from pokerdyn.solvers import symbolic_payoffs

ROOT = Path(__file__).resolve().parents[1]


def run_cli(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def skp_solutions(p):
    """Billingham eqs. (12), (13), (14): SKP equilibria (b_J, c_K, d_Q) at pot p."""
    return [(2 / (p + 1), 0.0, (p - 5) / (p + 1)),
            (2 / p, (p - 5) / (p + 1), 0.0),
            (2 / p, 2 / (p + 2), (p * p - 5 * p - 12) / (p * (p + 1)))]


def test_solve_skp_ends_near_a_published_equilibrium(capsys):
    rc, out, _ = run_cli(capsys, "solve", "skp", "--pot", "9", "--method", "fp",
                         "--iterations", "100000", "--json")
    assert rc == 0
    d = json.loads(out)
    # the keys are kept; issue 35 added the strategy by information set (acceptance)
    assert set(d) == {"game", "pot", "method", "iterations", "seconds", "nash_conv",
                      "expected_payoffs", "strategy", "tol", "converged", "strategy_file",
                      "strategy_by_infoset"}
    assert d["game"] == "skp" and d["pot"] == 9 and d["method"] == "fp"
    assert d["iterations"] == 100_000 and d["nash_conv"] < 1e-3
    s = d["strategy"]
    assert set(s) == {"b_J", "c_K", "d_Q"}
    dist = min(math.dist((s["b_J"], s["c_K"], s["d_Q"]), sol) for sol in skp_solutions(9.0))
    assert dist < 1e-2
    assert abs(sum(d["expected_payoffs"])) < 1e-12


def test_solve_with_tol_and_init(capsys):
    rc, out, _ = run_cli(capsys, "solve", "kuhn", "--tol", "0.01", "--schedule", "alternating",
                         "--init", "b1_J=0.9,c2_Q=0", "--json")
    d = json.loads(out)
    assert rc == 0 and d["nash_conv"] <= 0.01 and d["iterations"] < 10_000
    assert d["pot"] is None and len(d["strategy"]) == 12


def test_solve_text_output_and_quiet_progress_bar(capsys):
    rc, out, err = run_cli(capsys, "solve", "skp", "--pot", "9", "--iterations", "200000")
    assert rc == 0 and "NashConv=" in out and "b_J" in out
    assert err.count("\r") < 30  # redrawn at most every 0.5 s, not at every checkpoint


@pytest.mark.parametrize("game, pot", [("skp", None), ("skp", "9"), ("kuhn", None),
                                       ("kuhn3-third", "3.5")])
def test_payoffs_json_parses_back_to_symbolic_payoffs(capsys, game, pot):
    argv = ["payoffs", game, "--json"] + (["--pot", pot] if pot else [])
    rc, out, _ = run_cli(capsys, *argv)
    d = json.loads(out)
    assert rc == 0 and set(d) == {"game", "parameters", "payoffs"}
    g = get_game(game)
    assert d["game"] == game and d["parameters"] == list(g.named_names)
    values = {"P": sp.Rational(pot)} if pot else None
    expected = symbolic_payoffs(g, values)
    assert len(d["payoffs"]) == g.n_players
    for text, e in zip(d["payoffs"], expected):
        names = {s.name: s for s in e.free_symbols}
        parsed = sp.sympify(text, locals=names)
        assert sp.expand(parsed - e) == 0


def test_payoffs_text_and_games(capsys):
    rc, out, _ = run_cli(capsys, "payoffs", "skp")
    assert rc == 0 and out.startswith("E1 = ") and out.count("\n") == 3
    rc, out, _ = run_cli(capsys, "games", "--json")
    rows = {r["game"]: r for r in json.loads(out)}
    assert rc == 0 and rows["skp"]["parameters"] == ["b_J", "c_K", "d_Q"]
    assert rows["kuhn3-third"]["game_parameters"] == ["P"]


@pytest.mark.parametrize("argv, message", [
    (["solve", "skp", "--pot", "-1"], "pot=-1 is outside the allowed range (0, inf)"),
    (["solve", "skp", "--pot", "nan"], "pot=nan is outside the allowed range (0, inf)"),
    (["solve", "nope"], "unknown game 'nope'"),
    (["payoffs", "nope"], "unknown game 'nope'"),
    (["payoffs", "skp", "--pot", "-1"], "pot=-1 is outside"),
    (["solve", "skp", "--pot", "9", "--init", "b_J=0.3,c_K=1.5"],
     "probability c_K=1.5 is outside the allowed range [0, 1]"),
    (["solve", "skp", "--pot", "9", "--init", "d_Q=-0.2"], "probability d_Q=-0.2 is outside"),
    (["solve", "skp", "--pot", "9", "--init", "x_Z=0.5"], "unknown parameter 'x_Z'"),
    (["solve", "skp", "--pot", "9", "--init", "b_J"], "'b_J' is not NAME=VALUE"),
    (["solve", "skp", "--pot", "9", "--iterations", "0"], "iterations=0 is outside"),
    (["solve", "skp", "--pot", "9", "--tol", "-1"], "tol=-1 is outside"),
    (["solve", "skp", "--pot", "9", "--method", "nope"], "unknown method 'nope'"),
    (["solve", "kuhn", "--pot", "9"], "game 'kuhn' has no pot parameter P"),
    (["solve", "skp", "--pot", "9", "--iterations", "x"], "iterations='x' is not a number"),
    (["reproduce", "--only", "nope", "--out", "{tmp}"], "unknown figure 'nope'"),
])
def test_bad_input_one_line_exit_2(capsys, tmp_path, argv, message):
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    try:
        rc = main(argv)
    except SystemExit as exc:  # argparse errors exit from the parser
        rc = exc.code
    out, err = capsys.readouterr()
    assert rc == 2
    assert err.count("\n") == 1 and err.startswith("pokerdyn: error: ")
    assert message in err
    assert out == ""


def test_bad_input_subprocess_has_no_traceback():
    for argv in (["solve", "skp", "--pot", "nan"], ["solve", "skp", "--pot", "9", "--init",
                                                     "c_K=1.5"]):
        p = subprocess.run([sys.executable, "-m", "pokerdyn", *argv], capture_output=True,
                           text=True, cwd=ROOT, timeout=120)
        assert p.returncode == 2
        assert p.stdout == "" and len(p.stderr.splitlines()) == 1
        assert "Traceback" not in p.stderr


def test_reproduce_quick_writes_figure_and_report(capsys, tmp_path):
    rc, out, _ = run_cli(capsys, "reproduce", "--quick", "--out", str(tmp_path),
                         "--only", "fp_convergence")
    assert rc == 0
    png = tmp_path / "fp_convergence.png"
    assert png.exists() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    report = (tmp_path / "report.md").read_text()
    assert "fp_convergence.png" in report and "## fp_convergence" in report
    assert "NashConv after 2000 it." in report
