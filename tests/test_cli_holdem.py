"""CLI on the hold'em builder games (issue 12): the bad-input list (one stderr line, exit 2,
no traceback), the Mercer deck/betting options, strategies keyed by information-set label
and ``--strategy-out``, the symbolic size limit and the build notice."""
from __future__ import annotations

import json
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerdyn.games import GameError
from pokerdyn.games.catalog.registry import make_game
from pokerdyn.games.holdem import Deck, build_game
from pokerdyn.games.holdem.betting import Round
from pokerdyn.games.tree import CHANCE
from pokerdyn.cli import main
from pokerdyn.commands import common
from pokerdyn.solvers.symbolic.model.payoffs import MAX_SYMBOLIC_NODES


def _fails(capsys, argv):
    assert main(argv) == 2
    cap = capsys.readouterr()
    err = cap.err.strip()
    assert cap.out == "" and err.count("\n") == 0 and "Traceback" not in err, cap.err
    assert err.startswith("pokerdyn: error: ")
    return err[len("pokerdyn: error: "):]


# --- the bad-input list -----------------------------------------------------------

def test_deck_too_small_for_the_deal(capsys):
    # 3 players x 2 hole cards + 2 shared = 8 cards; 1 rank x 4 copies = 4
    assert _fails(capsys, ["games", "mercer-smh(players=3,ranks=1)"]) == \
        "players=3 with ranks=1, copies=4: the deal needs 8 cards, the deck has 4"
    assert _fails(capsys, ["solve", "mercer-mmh(ranks=3,copies=1)"]) == \
        "players=2 with ranks=3, copies=1: the deal needs 6 cards, the deck has 3"


def test_bet_cap_of_zero(capsys):
    assert _fails(capsys, ["solve", "mercer-smh(max_bets=0)"]) == "max_bets=0 is outside [1, inf)"
    assert _fails(capsys, ["games", "mercer-mmh(players=3,max_bets=0)"]) == \
        "max_bets=0 is outside [1, inf)"


def test_negative_bet_and_ante(capsys):
    assert _fails(capsys, ["solve", "mercer-smh(bet=-4)"]) == "bet=-4 is outside (0, inf)"
    assert _fails(capsys, ["solve", "mercer-smh(bet=0)"]) == "bet=0 is outside (0, inf)"
    assert _fails(capsys, ["export", "mercer-smh(ante=-1)", "x.efg", "--format", "efg"]) == \
        "ante=-1 is outside [0, inf)"


def test_shares_that_do_not_sum_to_the_pot():
    """API level: an Evaluator whose shares give away 90% of the pot is refused."""
    class Leaky:
        suited = False

        def shares(self, deck, hands, active):
            return np.where(active, 0.9 / active.sum(), 0.0) * np.ones(hands.shape[:2])

    rounds = (Round(ante=1, hole_cards=2, bets=(4,)), Round(shared_cards=2, bets=()))
    with pytest.raises(GameError, match=r"evaluator shares \[0.45, 0.45\] .* do not sum to 1"):
        build_game(Deck(ranks=5, copies=4), rounds, Leaky(), 2)


def test_colluder_seat_that_does_not_exist(capsys):
    assert _fails(capsys, ["games", "mercer-mmh(players=3,collusion=weak,colluders=(2,4))"]) \
        == "colluder seat 4 is outside [1, 3]"
    assert _fails(capsys, ["solve", "mercer-smh(players=3,collusion=strong,colluders=(0,1))"]) \
        == "colluder seat 0 is outside [1, 3]"


def test_lp_on_three_players(capsys):
    assert "needs a 2-player zero-sum game; 'mercer-smh(players=3)' has 3 players" in \
        _fails(capsys, ["solve", "mercer-smh(players=3)", "--method", "lp"])


def test_other_bad_option_values(capsys):
    assert _fails(capsys, ["games", "mercer-smh(ranks=14)"]) == "ranks=14 is outside [1, 13]"
    assert _fails(capsys, ["games", "mercer-smh(copies=x)"]) == \
        "copies='x' is not an integer; allowed: integers in [1, inf)"
    assert _fails(capsys, ["games", "mercer-smh(check=maybe)"]) == \
        "check='maybe' is not a boolean (true or false)"


# --- options ------------------------------------------------------------------------------

def test_default_options_name_the_plain_game():
    g = make_game("mercer-smh(ranks=5,copies=4,max_bets=1,ante=1,bet=4)")
    assert g.name == "mercer-smh"
    assert make_game("mercer-mmh(max_bets=2)").name == "mercer-mmh"
    assert make_game("mercer-smh(max_bets=2)").n_nodes > g.n_nodes


def test_ante_and_bet_scale_the_value(capsys):
    """Doubling ante and bet doubles every payoff, so the LP value doubles exactly."""
    def value(spec):
        assert main(["solve", spec, "--method", "lp", "--json"]) == 0
        return json.loads(capsys.readouterr().out)["expected_payoffs"][1]

    v1, v2 = value("mercer-smh(ranks=4)"), value("mercer-smh(ranks=4,ante=2,bet=8)")
    assert v1 != 0 and v2 == pytest.approx(2 * v1, abs=1e-9)


def test_smallest_deck_deals_every_card():
    """6 cards for 2 players: every deal uses the whole deck; chance sums to 1 exactly."""
    g = make_game("mercer-smh(ranks=3,copies=2)")
    assert "6 cards (ranks 2-4, 2 each)" in g.description
    with pytest.raises(GameError, match="the deal needs 8 cards, the deck has 6"):
        make_game("mercer-smh(ranks=3,copies=2,players=3)")


# --- solve output -------------------------------------------------------------------------

def test_solve_json_keys_strategy_by_infoset_label(capsys, tmp_path):
    assert main(["solve", "mercer-smh", "--method", "lp", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    s = d["strategy"]
    assert len(s) == 30 and d["strategy_file"] is None   # 15 hands x (P1 first, P2 facing b)
    assert set(s["P2:35|b"]) == {"c", "f"} and set(s["P1:35|"]) == {"b", "f"}
    assert all(abs(sum(row.values()) - 1) < 1e-9 for row in s.values())
    out = tmp_path / "sub" / "strategy.json"
    assert main(["solve", "mercer-smh", "--method", "lp", "--json",
                 "--strategy-out", str(out)]) == 0
    d2 = json.loads(capsys.readouterr().out)
    assert d2["strategy"] is None and d2["strategy_file"] == str(out)
    assert json.loads(out.read_text())["strategy"] == s        # LP is deterministic
    assert list(out.parent.iterdir()) == [out]                  # no temporary left behind


def test_solve_text_output_is_capped(capsys):
    assert main(["solve", "mercer-mmh(ranks=4)", "--method", "lp"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # the header (with the LP's exact certificate line since issue 34), 60 entries, the note
    assert lines[2].startswith("exact: NashConv=0 ")
    assert len(lines) == 3 + 60 + 1 and "more entries (--json or --strategy-out" in lines[-1]


def test_bad_strategy_out_is_refused_before_solving(capsys, tmp_path):
    assert "is a folder" in _fails(capsys, ["solve", "mercer-smh", "--method", "lp",
                                            "--strategy-out", str(tmp_path)])


# --- commands that cannot take a large or unsupported game --------------------------------

def test_symbolic_commands_refuse_large_games_at_once(capsys):
    big = make_game("mercer-mmh")
    assert big.n_nodes > MAX_SYMBOLIC_NODES
    for cmd in ("payoffs", "ode"):
        assert _fails(capsys, [cmd, "mercer-mmh"]) == (
            f"game 'mercer-mmh' has {big.n_nodes:,} nodes, more than the "
            f"{MAX_SYMBOLIC_NODES:,} of symbolic payoffs (payoffs, equilibria, ode); "
            "use pokerdyn solve")


def test_simulate_refuses_games_without_a_pot(capsys):
    assert _fails(capsys, ["simulate", "mercer-smh"]) == \
        "simulate plays games with a pot parameter P (skp, kuhn3-third); 'mercer-smh' has none"


def test_build_notice_only_for_slow_work(capsys, monkeypatch):
    assert common.with_notice("building x", lambda: 7, str) == 7
    assert capsys.readouterr().err == ""                      # quick: silent
    import pokerdyn.api.inputs as inputs  # where the notice's settings live (issue 35)
    monkeypatch.setattr(inputs, "NOTICE_AFTER_S", 0.01)
    assert common.with_notice("building x", lambda: time.sleep(0.3) or 5, str) == 5
    assert capsys.readouterr().err == ""                      # not a terminal: silent
    monkeypatch.setattr(inputs, "stderr_is_terminal", lambda: True)
    assert common.with_notice("building x", lambda: time.sleep(0.3) or 5, lambda r: f"{r} nodes") == 5
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "pokerdyn: building x ..." and err[1].startswith("pokerdyn: building x: 5 nodes in ")


# --- exact commands on small builder games ------------------------------------------------

def test_equilibria_of_a_small_builder_game_match_the_lp(capsys):
    """Enumeration (exact, from the builder's float weights read back as rationals) and the
    LP agree on the value of the 6-card SMH: 29/105 to player 2."""
    import sympy as sp

    spec = "mercer-smh(ranks=3,copies=2)"
    assert main(["equilibria", spec, "--json"]) == 0
    fams = json.loads(capsys.readouterr().out)["families"]
    values = {sp.sympify(f["payoffs"][1]) for f in fams}
    assert values == {sp.Rational(29, 105)}
    assert main(["solve", spec, "--method", "lp", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["expected_payoffs"][1] == \
        pytest.approx(29 / 105, abs=1e-12)


def test_export_writes_card_removal_weights_exactly(capsys, tmp_path):
    """First hole-card deal of SMH: a pair of one rank has C(4,2)/C(20,2) = 3/95, two given
    ranks 4*4/190 = 8/95 (the format is told by the suffix)."""
    out = tmp_path / "smh.efg"
    assert main(["export", "mercer-smh", str(out)]) == 0
    first = next(line for line in out.read_text().splitlines() if line.startswith("c "))
    import sympy as sp
    probs = [sp.Rational(t) for t in first.split("{")[1].split("}")[0].split()[1::2]]
    assert probs[:2] == [sp.Rational(3, 95), sp.Rational(8, 95)] and sum(probs) == 1


def test_leduc_deck_options(capsys):
    """OpenSpiel's deck (players + 1 ranks, 2 suits) is the default; a deck too small for
    one card per player plus the board is refused."""
    a, b = make_game("leduc(players=3)"), make_game("leduc(players=3,ranks=4,suits=2)")
    assert a.n_nodes == b.n_nodes and a.infosets == b.infosets
    assert np.array_equal(np.asarray(a.payoffs), np.asarray(b.payoffs))
    assert _fails(capsys, ["games", "leduc(players=4,ranks=2)"]) == \
        "players=4 with ranks=2, suits=2: the deal needs 5 cards, the deck has 4"
    assert _fails(capsys, ["games", "leduc(suits=5)"]) == "suits=5 is outside [1, 4]"


def test_export_refuses_huge_games_at_once(capsys, monkeypatch):
    from pokerdyn.api import exact as export  # the limit of export lives there

    monkeypatch.setattr(export, "MAX_EXPORT_NODES", 1000)
    assert _fails(capsys, ["export", "mercer-smh", "x.efg"]) == \
        "game 'mercer-smh' has 1,141 nodes, more than the 1,000 that export writes"


@settings(max_examples=20, deadline=None)
@given(ranks=st.integers(1, 4), copies=st.integers(1, 3), players=st.integers(2, 3))
def test_deck_size_boundary(ranks, copies, players):
    """A Mercer game builds exactly when the deck holds 2 hole cards each plus 2 shared; then
    every chance node's probabilities sum to 1."""
    spec = f"mercer-smh(players={players},ranks={ranks},copies={copies})"
    need = 2 * players + 2
    if need > ranks * copies:
        with pytest.raises(GameError, match=f"the deal needs {need} cards, the deck has "
                                            f"{ranks * copies}$"):
            make_game(spec)
        return
    g = make_game(spec)
    chance = np.flatnonzero(np.asarray(g.kind) == CHANCE)
    parent = np.asarray(g.parent)
    probs = np.asarray(g.edge_prob, dtype=float)
    for c in chance[:50]:
        assert probs[parent == c].sum() == pytest.approx(1.0, abs=1e-12)
