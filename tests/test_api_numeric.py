"""The numeric front door (issue 35): ``pd.solve``, ``pd.compare`` and ``pd.collusion`` return
what ``pokerdyn solve|compare|collusion --json`` prints (``to_dict``) and what they print
without it (``to_text``); one registry of methods (``pokerdyn.solvers.methods``) serves every
command, so ``cfr`` is vanilla CFR and ``cfr+`` CFR+ everywhere; the strategy of a solve is
given by information-set label and action too; bad input raises GameError with the CLI's
line."""
from __future__ import annotations

import json
import re

import numpy as np
import pytest

import pokerdyn as pd
from pokerdyn.cli import main

COLLUSION_GAME = "mercer-smh(players=3)"  # the smallest catalogue game with collusion options


def _cli_json(capsys, argv):
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _plain(d):
    """``to_dict()`` as the CLI's JSON parses back (tuples -> lists, ...)."""
    return json.loads(json.dumps(d))


def _untimed(d):
    """A result dict without its measured wall-clock times (everything else is
    deterministic for fixed iterations)."""
    if isinstance(d, dict):
        return {k: _untimed(v) for k, v in d.items()
                if k not in ("seconds", "iterations_per_second")}
    if isinstance(d, list):
        return [_untimed(v) for v in d]
    return d


def _untimed_compare(d):
    d = _untimed(d)
    for r in d["methods"].values():
        r["history"] = [row[:2] for row in r["history"]]  # (iteration, NashConv, seconds)
    return d


# -- solve ------------------------------------------------------------------------------------
@pytest.mark.parametrize("argv, call", [
    (["skp", "--pot", "9", "--method", "fp", "--iterations", "3000"],
     dict(game="skp", method="fp", pot=9, iterations=3000)),
    (["skp", "--pot", "19/2", "--method", "fp", "--iterations", "500", "--schedule",
      "alternating", "--averaging", "infoset", "--init", "b_J=0.3,c_K=0.5", "--tol", "1e-9"],
     dict(game="skp", method="fp", pot="19/2", iterations=500, schedule="alternating",
          averaging="infoset", init={"b_J": 0.3, "c_K": "0.5"}, tol=1e-9)),
    (["kuhn3", "--method", "cfr+", "--iterations", "300"],
     dict(game="kuhn3", method="cfr+", iterations=300)),
    (["kuhn", "--method", "cfr", "--iterations", "300", "--tol", "0.5"],
     dict(game="kuhn", method="cfr", iterations=300, tol=0.5)),
    (["kuhn", "--method", "hedge", "--iterations", "200"],
     dict(game="kuhn", method="hedge", iterations=200)),
    (["river", "--method", "lp", "--street", "half", "--max-bets", "1"],
     dict(game="river", method="lp", street="half", max_bets=1)),
    (["kuhn", "--method", "lcp"], dict(game="kuhn", method="lcp")),
    (["kuhn", "--method", "lcp", "--all"], dict(game="kuhn", method="lcp", all_equilibria=True)),
])
def test_solve_json_is_the_api_to_dict(capsys, argv, call):
    cli = _cli_json(capsys, ["solve", *argv])
    api = pd.solve(**call)
    assert _untimed(cli) == _untimed(_plain(api.to_dict()))
    assert cli["seconds"] >= 0 and api.timings["solve"] >= 0


def test_solve_text_is_the_api_to_text(capsys):
    assert main(["solve", "kuhn", "--method", "lp"]) == 0
    text = capsys.readouterr().out
    api = pd.solve("kuhn", method="lp").to_text() + "\n"
    time = re.compile(r"time=\S+")
    assert time.sub("", text) == time.sub("", api)
    assert "exact: NashConv=0  payoffs=-1/18, 1/18" in api


def test_solve_strategy_out_writes_both_views(capsys, tmp_path):
    out = tmp_path / "s.json"
    cli = _cli_json(capsys, ["solve", "kuhn", "--method", "lp", "--strategy-out", str(out)])
    assert cli["strategy"] is None and cli["strategy_by_infoset"] is None
    assert cli["strategy_file"] == str(out)
    written = json.loads(out.read_text())
    api = pd.solve("kuhn", method="lp")
    assert written == {"game": "kuhn", "method": "lp", "strategy": _plain(api.strategy),
                       "strategy_by_infoset": _plain(api.strategy_by_infoset)}


def test_skp_strategy_by_infoset_label_and_action(capsys):
    """Acceptance: `pokerdyn solve skp --pot 9 --json` gives the strategy by parameter name
    (b_J, c_K, d_Q: Billingham's betting, calling and calling-after-fold probabilities) and
    by information-set label and action, each set's probabilities summing to 1."""
    d = _cli_json(capsys, ["solve", "skp", "--pot", "9", "--iterations", "2000"])
    by_set = d["strategy_by_infoset"]
    game = pd.game("skp")
    assert list(by_set) == [I.label for I in game.infosets]
    for I in game.infosets:
        assert set(by_set[I.label]) == set(I.actions)
        assert sum(by_set[I.label].values()) == pytest.approx(1, abs=1e-12)
    # the named parameters are entries of it (skp: player 3 opens; b_J is the bet with J)
    s = d["strategy"]
    assert s["b_J"] == by_set["P3:J|"]["b"]
    assert s["c_K"] == by_set["P1:K|b"]["c"]
    assert s["d_Q"] == by_set["P2:Q|bf"]["c"]


def test_solve_result_frame_and_plot():
    from matplotlib.figure import Figure

    r = pd.solve("kuhn", method="cfr+", iterations=200)
    df = r.to_frame()
    assert list(df.columns) == ["player", "infoset", "action", "probability"]
    assert len(df) == int(r.profile.shape[0] * 2)  # kuhn: two actions at every set
    assert np.allclose(df.groupby("infoset")["probability"].sum(), 1)
    ax = Figure().add_subplot()
    assert r.plot(ax) is ax and len(ax.lines) == 1
    assert np.array_equal(ax.lines[0].get_xdata(), r.history[:, 0])
    with pytest.raises(TypeError, match="no convergence trace"):
        pd.solve("kuhn", method="lp").plot(ax)
    assert len(repr(r)) < 2000


# -- compare ----------------------------------------------------------------------------------
def test_compare_json_is_the_api_to_dict(capsys):
    """Fixed iterations (a budget too large to stop first), so every number but the times
    is deterministic."""
    argv = ["kuhn", "--methods", "fp,cfr,cfr+,lp", "--iterations", "150", "--seconds", "1e4"]
    cli = _cli_json(capsys, ["compare", *argv])
    api = pd.compare("kuhn", ["fp", "cfr", "cfr+", "lp"], iterations=150, seconds=1e4)
    assert _untimed_compare(cli) == _untimed_compare(_plain(api.to_dict()))
    assert cli["methods"]["cfr"]["iterations"] == 150
    df = api.to_frame()
    assert list(df.index) == ["fp", "cfr", "cfr+", "lp"]
    from matplotlib.figure import Figure
    ax = Figure().add_subplot()
    assert api.plot(ax) is ax and len(ax.lines) == 4


def test_compare_text_is_the_api_to_text(capsys):
    assert main(["compare", "kuhn", "--methods", "lp"]) == 0
    text = capsys.readouterr().out
    lines = pd.compare("kuhn", "lp").to_text().splitlines()
    # the method line and the "against time" table (its rows end where the run's time
    # does) hold measured times; the rest is fixed
    def fixed(ls):
        ls = ls[:ls.index("NashConv against time")] if "NashConv against time" in ls else ls
        return [t for t in ls if not t.startswith("lp ")]
    assert fixed(text.splitlines()) == fixed(lines)
    assert "NashConv against time" in text and "NashConv against time" in lines


# -- collusion --------------------------------------------------------------------------------
@pytest.mark.parametrize("argv, call", [
    (["--kind", "weak", "--iterations", "100"], dict(kind="weak", iterations=100)),
    (["--kind", "strong", "--method", "fp", "--iterations", "60", "--tol", "0.5"],
     dict(kind="strong", method="fp", iterations=60, tol=0.5)),
    (["--kind", "pot", "--method", "paper-fp", "--iterations", "60", "--epsilon", "0.3"],
     dict(kind="pot", method="paper-fp", iterations=60, epsilon="0.3")),
])
def test_collusion_json_is_the_api_to_dict(capsys, argv, call):
    cli = _cli_json(capsys, ["collusion", COLLUSION_GAME, *argv])
    api = pd.collusion(COLLUSION_GAME, **call)
    assert _untimed(cli) == _untimed(_plain(api.to_dict()))
    paper = call.get("method") == "paper-fp"
    assert (cli["tol"], cli["epsilon"]) == \
        ((None, float(call["epsilon"])) if paper else (float(call.get("tol", 0.01)), None))
    assert main(["collusion", COLLUSION_GAME, *argv]) == 0
    text = capsys.readouterr().out
    time = re.compile(r"time=\S+")
    assert time.sub("", text) == time.sub("", api.to_text() + "\n")
    df = api.to_frame()
    assert list(df.columns) == ["C", "A", "B"]
    assert df.loc["public"].tolist() == cli["public"]


# -- one registry -----------------------------------------------------------------------------
def test_one_registry_cfr_means_vanilla_cfr_everywhere():
    from pokerdyn.games import compile_game, get_game
    from pokerdyn.solvers.methods.collusion import iterative_solver
    from pokerdyn.solvers.methods.compare import compare
    from pokerdyn.solvers.learning.cfr_plus import cfr
    from pokerdyn.solvers.methods import (COLLUSION_METHODS, COMPARE_METHODS, METHODS,
                                          SOLVE_METHODS, describe, run_method)

    assert set(SOLVE_METHODS) | set(COMPARE_METHODS) | set(COLLUSION_METHODS) <= set(METHODS)
    for m in METHODS:
        assert describe(m) and "\n" not in describe(m)
    cg = compile_game(get_game("kuhn"))
    vanilla = cfr(cg, iterations=120, regret_matching_plus=False, alternating=False,
                  linear_averaging=False)
    plus = cfr(cg, iterations=120)
    assert np.array_equal(run_method("cfr", cg, iterations=120).strategy, vanilla.strategy)
    assert np.array_equal(run_method("cfr+", cg, iterations=120).strategy, plus.strategy)
    assert np.array_equal(compare(cg, ["cfr"], seconds=None, iterations=120)["cfr"].strategy,
                          vanilla.strategy)
    assert np.array_equal(pd.solve("kuhn", "cfr", iterations=120).profile, vanilla.strategy)
    assert not np.array_equal(vanilla.strategy, plus.strategy)
    cg3 = compile_game(get_game("kuhn3"))
    assert np.array_equal(iterative_solver("cfr+", None, 50)(cg3).strategy,
                          cfr(cg3, iterations=50).strategy)


# -- bad input: GameError with the CLI's line -------------------------------------------------
@pytest.mark.parametrize("argv, call", [
    (["solve", "skp", "--pot", "9", "--method", "nope"], lambda: pd.solve("skp", "nope", pot=9)),
    (["solve", "skp", "--pot", "9", "--tol", "-1"], lambda: pd.solve("skp", pot=9, tol="-1")),
    (["solve", "kuhn", "--pot", "9"], lambda: pd.solve("kuhn", pot="9")),
    (["solve", "skp", "--pot", "nan"], lambda: pd.solve("skp", pot="nan")),
    (["solve", "skp", "--pot", "9", "--init", "b_J"], lambda: pd.solve("skp", pot=9, init="b_J")),
    (["solve", "skp", "--pot", "9", "--init", "x_Z=0.5"],
     lambda: pd.solve("skp", pot=9, init="x_Z=0.5")),
    (["solve", "kuhn", "--all"], lambda: pd.solve("kuhn", all_equilibria=True)),
    (["solve", "kuhn3", "--method", "lp"], lambda: pd.solve("kuhn3", "lp")),
    (["solve", "river", "--street", "sideways"], lambda: pd.solve("river", street="sideways")),
    (["compare", "kuhn", "--methods", "fp,newton"], lambda: pd.compare("kuhn", "fp,newton")),
    (["compare", "kuhn", "--methods", ","], lambda: pd.compare("kuhn", ",")),
    (["compare", "kuhn", "--seconds", "0"], lambda: pd.compare("kuhn", seconds="0")),
    (["compare", "kuhn3", "--methods", "fp,lp", "--seconds", "1"],
     lambda: pd.compare("kuhn3", "fp,lp", seconds=1)),
    (["collusion", "kuhn", "--kind", "weak"], lambda: pd.collusion("kuhn", "weak")),
    (["collusion", COLLUSION_GAME, "--kind", "weak", "--method", "paper-fp", "--tol", "0.1"],
     lambda: pd.collusion(COLLUSION_GAME, "weak", method="paper-fp", tol="0.1")),
    (["collusion", COLLUSION_GAME, "--kind", "weak", "--epsilon", "0.1"],
     lambda: pd.collusion(COLLUSION_GAME, "weak", epsilon="0.1")),
    (["collusion", COLLUSION_GAME, "--kind", "weak", "--method", "paper-fp", "--epsilon",
      "1e9"], lambda: pd.collusion(COLLUSION_GAME, "weak", method="paper-fp", epsilon="1e9")),
])
def test_bad_input_raises_the_cli_line(capsys, argv, call):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    with pytest.raises(pd.GameError) as exc:
        call()
    assert err == f"pokerdyn: error: {exc.value}"
