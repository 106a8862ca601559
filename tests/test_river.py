"""The river game of Papadopoulos: rules, payoffs, validation, and its published values."""
import numpy as np
import pytest
import sympy as sp

from pokerdyn.games import GameError, compile_game
from pokerdyn.games.catalog.registry import get_game, make_game
from pokerdyn.games.catalog.river import DISTRIBUTIONS, R1, river
from pokerdyn.solvers.sequence.lp import solve_lp

# Papadopoulos, Table 1 (1 bet, bet size 0.5, pot 1): game value, rows P1, columns P2.
TABLE_1 = {
    "R1": {"R1": -0.010, "R2": -0.196, "R3": -0.183, "R4": -0.080},
    "R2": {"R1": 0.162, "R2": -0.023, "R3": -0.083, "R4": 0.137},
    "R3": {"R1": 0.150, "R2": 0.042, "R3": -0.000, "R4": 0.142},
    "R4": {"R1": 0.047, "R2": -0.169, "R3": -0.175, "R4": -0.008},
}


@pytest.mark.parametrize("d1", list(TABLE_1))
def test_table_1_by_lp(d1):
    for d2, expected in TABLE_1[d1].items():
        cg = compile_game(river(DISTRIBUTIONS[d1], DISTRIBUTIONS[d2]))
        # the table rounds to 3 decimals; 0.1625 is printed 0.162
        assert solve_lp(cg).value == pytest.approx(expected, abs=2e-3), (d1, d2)


def test_half_street_value():
    # Papadopoulos sec. 4.1: "player 1 ... with a value of +0.035"; R1 both, bet 0.5
    res = solve_lp(compile_game(river(street="half")))
    assert res.value == pytest.approx(0.035, abs=2e-3)


def test_half_street_strategy_and_indifference():
    # sec. 4.1: P1 always bets A and B, bets D with probability 0.25; P2's call with C is
    # worth exactly as much as a fold (the paper's indifference computation).
    cg = compile_game(river(street="half"))
    sigma = solve_lp(cg).strategies
    g = cg.game
    bet = lambda t: sigma[g.infoset_index(f"P1:{t}|"), 1]
    assert bet("A") == pytest.approx(1, abs=1e-9) and bet("B") == pytest.approx(1, abs=1e-9)
    assert bet("D") == pytest.approx(0.25, abs=1e-9)


def test_paper_payoff_example():
    # sec. 2.1: pot 10, P1 bets 10, P2 calls and wins: -15 / +15.  Pot 1 scales by 1/10.
    g = river(bet_size=1.0)
    for t, node in enumerate(g.terminal_node):
        if g.history(int(node)) == ("DA", "b", "c"):
            assert g.payoffs[t] == (sp.Rational(-3, 2), sp.Rational(3, 2))
        if g.history(int(node)) == ("AD", "k", "b", "f"):  # fold with no bet in: -0.5
            assert g.payoffs[t] == (sp.Rational(-1, 2), sp.Rational(1, 2))
        h = g.history(int(node))
        if h[0] in ("AA", "CC") and h[-1] != "f":  # equal types split the pot
            assert g.payoffs[t] == (0, 0)


def test_raise_cap_and_streets():
    two = river(max_bets=2)
    acts = {I.label: I.actions for I in two.infosets}
    assert acts["P2:A|b"] == ("f", "c", "r") and acts["P1:A|br"] == ("f", "c")
    assert acts["P1:A|kb"] == ("f", "c", "r") and acts["P2:A|kbr"] == ("f", "c")
    half = {I.label: I.actions for I in river(street="half", max_bets=3).infosets}
    assert set(half) == {f"P{p}:{t}|{h}" for t in "ABCD" for p, h in ((1, ""), (2, "b"))}
    # raise after bet 0.5: P1 put 0.5 + 0.5, P2 0.5 + 1.0; P2 has A, P1 calls with D
    for t, node in enumerate(two.terminal_node):
        if two.history(int(node)) == ("DA", "b", "r", "c"):
            assert two.payoffs[t] == (sp.Rational(-3, 2), sp.Rational(3, 2))


def test_zero_probability_types_and_zero_sum():
    cg = compile_game(river(DISTRIBUTIONS["R3"], R1, max_bets=2, bet_size=2))
    assert np.allclose(cg.payoffs.sum(axis=1), 0)
    assert cg.chance_prob[cg.parent == 0].sum() == pytest.approx(1)


@pytest.mark.parametrize("kw, fragment", [
    ({"dist1": (0.1, 0.2, 0.3, 0.3)}, "dist1=0.1,0.2,0.3,0.3 sums to 0.9"),
    ({"dist2": (0.5, -0.1, 0.3, 0.3)}, "dist2[B]=-0.1 is outside the allowed range [0, 1]"),
    ({"dist1": (0.5, 0.5)}, "needs 4"),
    ({"bet_size": -1}, "bet_size=-1 is outside the allowed range (0, inf)"),
    ({"bet_size": 0}, "bet_size=0 is outside"),
    ({"max_bets": 0}, "max_bets=0 is outside the allowed range [1, inf)"),
    ({"street": "turn"}, "street='turn'"),
])
def test_bad_input(kw, fragment):
    with pytest.raises(GameError, match=None) as err:
        river(**kw)
    assert fragment in str(err.value)


def test_sum_within_tolerance_is_accepted_exactly():
    third = 1 / 3
    g = river(dist1=(third, third, third - 5e-10, 0.0))
    probs = [g.edge_prob[n] for n in range(1, g.n_nodes) if g.parent[n] == 0]
    assert sum(probs) == 1  # renormalised exactly


def test_registry_options():
    assert get_game("river") is get_game("river")
    g = make_game("river", bet_size=1.0, max_bets=2)
    assert g is make_game("river", max_bets=2, bet_size=1.0)
    assert make_game("river") is get_game("river")
    with pytest.raises(GameError, match="game 'kuhn' has no option 'bet_size'"):
        make_game("kuhn", bet_size=1.0)


def test_two_bets_figure_3_value_and_deeper_caps():
    # Papadopoulos Fig. 3: 2 bets, bet size 1, both players R2: game value -0.026; sec. 5.2:
    # allowing 3 or 4 bets has "virtually no effect on the value".
    R2 = DISTRIBUTIONS["R2"]
    values = [solve_lp(compile_game(river(R2, R2, max_bets=k, bet_size=1.0))).value
              for k in (2, 3, 4)]
    assert values[0] == pytest.approx(-0.026, abs=1e-3)
    assert values[1] == pytest.approx(values[0], abs=1e-9)
    assert values[2] == pytest.approx(values[0], abs=1e-9)
