"""Papadopoulos Table 13 ("One bet, bet size 0.5 - Strategies", appendix): strategies as
per-hand-type mixes over the normal-form plans of sec. 2.1, mapped to behaviour strategies of
the river game through the reduced normal form.  Our copy of the paper withholds the table's
cells, so figures.river.table13 regenerates them (LP) and these tests hold the mapping, the
cell the text describes (R1 vs R1: sec. 4.1-4.2 and Fig. 2) and the NashConv of the mixes."""
from fractions import Fraction

import numpy as np
import pytest

from pokerdyn.figures.registry import FIGURES, load
from pokerdyn.figures.river.table13 import behaviour_from_paper, paper_mix, table13_game
from pokerdyn.games.normal_form import mixed_from_behaviour, normal_form
from pokerdyn.solvers import nash_conv
from pokerdyn.solvers.exact_profile import exact_values
from pokerdyn.solvers.learning.matrix_fp import matrix_fictitious_play

CG = table13_game("R1", "R1")
NF = normal_form(CG)
# R1 vs R1 as the text gives it: P1 bets A and B, checks C, bets D 1/4 (sec. 4.1, "the same
# as the half street game", sec. 4.2); P2's responses are the equilibrium's (value -0.010).
R1R1 = ({"A": {"B": 1}, "B": {"B": 1}, "C": {"CC": 1}, "D": {"CF": Fraction(3, 4),
                                                            "B": Fraction(1, 4)}},
        {"A": {"BC": 1}, "B": {"BC": 1}, "C": {"CC": 1},
         "D": {"CF": Fraction(1, 2), "BF": Fraction(1, 2)}})


def _row(sigma, label):
    g = CG.game
    I = g.infoset_index(label)
    return dict(zip(g.infosets[I].actions, sigma[I, :len(g.infosets[I].actions)]))


def test_paper_plans_map_to_behaviour():
    mix = ({t: {"CF": 0.5, "CC": 0.25, "B": 0.25} for t in "ABCD"},
           {t: {"CF": 0.1, "CC": 0.2, "BF": 0.3, "BC": 0.4} for t in "ABCD"})
    sigma = behaviour_from_paper(NF, mix)
    assert _row(sigma, "P1:D|")["b"] == pytest.approx(0.25)
    assert _row(sigma, "P1:D|kb")["c"] == pytest.approx(0.25 / 0.75)   # CC / (CF + CC)
    assert _row(sigma, "P2:D|k")["b"] == pytest.approx(0.7)             # BF + BC
    assert _row(sigma, "P2:D|b")["c"] == pytest.approx(0.6)             # CC + BC


def test_r1_r1_cell_is_an_exact_equilibrium_worth_minus_one_hundredth():
    sigma = behaviour_from_paper(NF, tuple({t: {c: float(v) for c, v in m.items()}
                                            for t, m in mix.items()} for mix in R1R1))
    assert nash_conv(CG, sigma) == pytest.approx(0, abs=1e-12)
    exact = {I.label: tuple(Fraction(v).limit_denominator(100) for v in
                            sigma[i, :len(I.actions)]) for i, I in enumerate(CG.game.infosets)}
    pay, best = exact_values(CG.game, exact)
    assert pay == best                              # no player gains by deviating: NashConv 0
    assert pay[0] == Fraction(-1, 100)              # Table 1, R1 vs R1: -0.010
    mixed = [mixed_from_behaviour(NF, sigma, p) for p in range(2)]
    assert NF.expected_payoffs(mixed)[0] == pytest.approx(-0.01, abs=1e-12)


def test_regenerated_table13(tmp_path):
    assert FIGURES["river_table13"] == "pokerdyn.figures.river.table13"
    res = load("river_table13").main(tmp_path, quick=True)
    text = (tmp_path / "river_table13.txt").read_text()
    assert text.count("NashConv exact") == 16
    rounded = [float(v) for k, v in res.numbers.items() if "2-decimal mixes" in k]
    assert len(rounded) == 16
    # the LP's mixes are equilibria; printed to 2 decimals they cost at most 3e-3 NashConv
    # (measured: 0 for R1-R1 and R3-R3, 2.75e-3 for R3-R4), as much as the paper's own FP
    # tolerance of 1e-3 per player
    assert max(rounded) < 3e-3 and res.numbers["R1-R1 NashConv of 2-decimal mixes"] in (
        "0.00e+00", "-0.00e+00")
    exact = [float(line.split("NashConv exact ")[1].split(",")[0])
             for line in text.splitlines() if "NashConv exact" in line]
    assert max(exact) < 1e-9
    # the paper's FP stops at a gain of at most 1e-3 per player: NashConv at most 2e-3
    # (quick: the four cells with equal ranges)
    fp = [float(v.split(", ")[1]) for k, v in res.numbers.items() if "FP" in k]
    assert len(fp) == 4 and max(fp) <= 2e-3 + 1e-12


def test_papers_fp_on_the_normal_form_measures_the_same_in_the_tree():
    """The paper's procedure (sec. 3-4: simultaneous FP, stop at a gain of 1e-3 per player)
    on the 81 x 256 normal form; its mixes, read per type and mapped to behaviour, have the
    NashConv the matrix gives (realization equivalence) and at most 2e-3."""
    fp = matrix_fictitious_play(NF.payoffs, epsilon=1e-3)
    assert fp.converged and fp.gains.max() <= 1e-3
    sigma = behaviour_from_paper(NF, tuple(paper_mix(NF, p, fp.mixed[p]) for p in range(2)))
    assert nash_conv(CG, sigma) == pytest.approx(fp.gains.sum(), abs=1e-12)
    # the fictitious-play profile plays P1's A and B as bets, like the equilibrium
    assert paper_mix(NF, 0, fp.mixed[0])["A"]["B"] > 0.99


def test_matrix_fp_on_matching_pennies_and_bad_input():
    U = np.zeros((2, 2, 2))
    U[..., 0] = [[1, -1], [-1, 1]]
    U[..., 1] = -U[..., 0]
    fp = matrix_fictitious_play(U, epsilon=1e-3, check_every=1)
    assert fp.converged and np.allclose(fp.mixed[0], 0.5, atol=2e-3)
    with pytest.raises(Exception, match=r"two-player normal form"):
        matrix_fictitious_play(np.zeros((2, 2, 2, 3)))
    with pytest.raises(Exception, match=r"epsilon=0 is outside"):
        matrix_fictitious_play(U, epsilon=0)
