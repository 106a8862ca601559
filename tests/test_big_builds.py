"""Long builds log their stages (logger games.holdem.build, INFO) instead of printing; the
pokerdyn command shows them on stderr (thresholds lowered here to small games); the registry
rebuilds games above CACHE_NODES instead of keeping them."""
from __future__ import annotations

import logging

import numpy as np

from pokerdyn.games.holdem import build
from pokerdyn.games.holdem.standard import mercer_smh
from pokerdyn.cli import main


def test_library_logs_stages_and_prints_nothing(monkeypatch, capsys, caplog):
    monkeypatch.setattr(build, "LOG_NODES", 1)
    with caplog.at_level(logging.INFO, logger="pokerdyn.games.holdem.build"):
        g = mercer_smh(players=2, bet=3)
    msgs = [r.getMessage() for r in caplog.records]
    assert len(msgs) == 3
    assert f"{g.n_nodes:,} nodes" in msgs[0] and msgs[-1].endswith(" s")
    out = capsys.readouterr()
    assert out.out == "" and out.err == ""


def test_small_builds_log_nothing(caplog):
    with caplog.at_level(logging.INFO, logger="pokerdyn.games.holdem.build"):
        mercer_smh(players=2, bet=2)
    assert not caplog.records


def test_cli_shows_stage_messages_on_stderr(monkeypatch, capsys):
    monkeypatch.setattr(build, "LOG_NODES", 1)
    assert main(["solve", "mercer-smh(players=2,bet=5)", "--method", "cfr+",
                 "--iterations", "2", "--json"]) == 0
    err = capsys.readouterr().err.splitlines()
    stages = [line for line in err if line.startswith("pokerdyn: ") and "mercer" in line]
    assert len(stages) == 3 and "filling the node arrays" in stages[0]


def test_registry_keeps_small_games_and_rebuilds_large_ones(monkeypatch):
    from pokerdyn.games.catalog import registry
    assert registry.make_game("mercer-smh(bet=6)") is registry.make_game("mercer-smh(bet=6)")
    monkeypatch.setattr(registry, "CACHE_NODES", 1000)      # mercer-smh: 1,141 nodes
    a = registry.make_game("mercer-smh(bet=7)")
    b = registry.make_game("mercer-smh(bet=7)")
    assert a is not b and a.n_nodes == b.n_nodes == 1141
    assert np.array_equal(a.payoffs, b.payoffs)
