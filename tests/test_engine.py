"""``solve --engine tree|public|auto`` (issue 37): the CFR family on the history tree or on the
public tree with range vectors gives the same result (to rounding), in the same format, with
the same keys; bad engine requests are one line, exit 2."""
from __future__ import annotations

import json

import pytest

import pokerdyn as pd
from hostile import run_cli


def _close(a: dict, b: dict, tol: float) -> bool:
    return a.keys() == b.keys() and all(
        a[k].keys() == b[k].keys() and all(abs(a[k][x] - b[k][x]) <= tol for x in a[k])
        for k in a)


@pytest.mark.parametrize("spec, method", [("kuhn3", "cfr+"), ("leduc", "pdcfr+"),
                                          ("mercer-smh(players=3)", "dcfr")])
def test_both_engines_give_the_same_solve(spec, method):
    # 60 iterations: short enough that rounding is not yet amplified (test_public_tree's
    # test_cfr_plus_amplifies_one_ulp)
    tree = pd.solve(spec, method, iterations=60)
    pub = pd.solve(spec, method, iterations=60, engine="public")
    assert tree.variant["engine"] == "tree" and pub.variant["engine"] == "public"
    assert set(tree.to_dict()) == set(pub.to_dict())
    assert tree.game == pub.game and tree.iterations == pub.iterations
    assert abs(tree.nash_conv - pub.nash_conv) <= 1e-9
    assert _close(tree.strategy_by_infoset, pub.strategy_by_infoset, 1e-8)
    assert max(abs(a - b) for a, b in zip(tree.expected_payoffs, pub.expected_payoffs)) <= 1e-9


def test_init_on_the_public_engine():
    # kuhn3 derived from its compiled form: --init by parameter name starts both engines at
    # the same profile
    tree = pd.solve("kuhn3", "cfr+", iterations=300, init="x1_J_0_b=0.3")
    pub = pd.solve("kuhn3", "cfr+", iterations=300, init="x1_J_0_b=0.3", engine="public")
    assert tree.strategy.keys() == pub.strategy.keys()
    assert _close(tree.strategy, pub.strategy, 1e-8)
    assert tree.strategy["P1:J|"]["b"] != pd.solve("kuhn3", "cfr+", iterations=300).strategy[
        "P1:J|"]["b"]  # the start mattered


def test_auto_picks_the_public_tree_for_builder_games_only():
    assert pd.solve("leduc", "cfr+", iterations=5, engine="auto").variant["engine"] == "public"
    assert pd.solve("kuhn3", "cfr+", iterations=5, engine="auto").variant["engine"] == "tree"
    fp = pd.solve("leduc", "fp", iterations=5, engine="auto")  # not a CFR method: the tree
    assert fp.variant is None and fp.method == "fp"


def test_public_engine_json_equals_the_api(tmp_path):
    run = run_cli(["solve", "mercer-mmh(players=2)", "--method", "cfr+", "--engine", "public",
                   "--iterations", "40", "--json"], tmp_path)
    assert run.code == 0
    d = json.loads(run.out)
    r = pd.solve("mercer-mmh(players=2)", "cfr+", iterations=40, engine="public").to_dict()
    assert d["strategy"] == r["strategy"] and d["nash_conv"] == r["nash_conv"]
    size = d["variant"]["public_size"]
    # one row per information set of the history tree (960, as build_game numbers them)
    assert size["rows"] == size["infosets"] == 960 and size["infoset_actions"] == 1920
    assert size["public_nodes"] < size["rows"]
    assert "P1:22|" in d["strategy"] and set(d["strategy"]["P1:22|"]) == {"b", "f"}


@pytest.mark.parametrize("argv, message", [
    (["kuhn", "--method", "fp", "--engine", "public"], "engine 'public' runs the CFR family"),
    (["kuhn", "--method", "cfr+", "--engine", "sideways"], "invalid choice: 'sideways'"),
    (["skp", "--pot", "9", "--method", "cfr+", "--engine", "public"],
     "game 'skp' has no public tree (engine 'public')"),
    (["mercer-mmh", "--pot", "3", "--method", "cfr+", "--engine", "public"],
     "has no pot parameter P"),
    (["leduc", "--method", "cfr+", "--engine", "public", "--init", "x=0.5"],
     "--init names parameters"),
])
def test_bad_engine_requests_are_one_line_exit_2(tmp_path, argv, message):
    run = run_cli(["solve", *argv], tmp_path)
    assert run.code == 2 and message in run.err, run.err
    assert run.written == []


def test_games_reports_the_public_tree_sizes():
    # one public row per information set of the history tree (leduc: 288, as the card says)
    d = pd.catalog("leduc").to_dict()
    assert d["public"]["rows"] == d["public"]["infosets"] == d["infosets"] == 288
    assert d["public"]["histories"] == d["nodes"] == 1939
    assert d["public"]["public_nodes"] < d["nodes"] and d["public"]["bytes"] > 0
    assert "public" not in pd.catalog("kuhn3").to_dict()


def test_a_public_tree_too_large_is_refused_before_building(tmp_path):
    # mercer-mmh(players=5): 25.5e9 histories, estimated from the betting templates and deal
    # counts in milliseconds, refused against the memory limit unless --force
    run = run_cli(["solve", "mercer-mmh(players=5)", "--method", "cfr+", "--engine", "public",
                   "--max-memory", "8G"], tmp_path)
    assert run.code == 2 and run.written == []
    assert "its public tree needs about 119.0 GiB to build" in run.err
    assert "25,507,743,291 histories" in run.err and "8.0 GiB (--max-memory)" in run.err
    # the history tree points to the public engine for 4 and 5 players
    run = run_cli(["solve", "mercer-mmh(players=4)", "--method", "cfr+"], tmp_path)
    assert run.code == 2 and "--engine public" in run.err
