"""Maxmin choice among SKP's three equilibria (Billingham sec. 3), computed from the rules.

The candidates are Billingham eqs. (12)-(14), typed in here as test data.  Paper: "Player 1:
Solution 1, Player 2: Solution 1 for P < 7, Solution 2 for P > 7, Player 3: Solution 1".
From the rules (exact): the worst cases tie a lot -- player 1 guarantees -(P-2)/(12P) with
every option (at b_J = 2/P she is indifferent), player 3 guarantees (P-2)/(6(P+1)) with both
of hers for P >= P*, player 2 guarantees -(P-2)/(12(P+1)) with Solution 1 exactly for P <= 7
(tied with Solutions 2 and 3) and not for P > 7.  The paper's statement is the lowest-numbered
maxmin option of each player (its numerical ties going to the first solution), so that is what
is asserted, with the breakpoint P = 7 exact; the leximin refinement instead prefers Solution 2
for player 2 and b_J = 2/P for player 3 (asserted too, as a documented difference).
"""
import pytest
import sympy as sp

from pokerdyn.games import GameError, get_game
from pokerdyn.solvers.symbolic.axis.maxmin import maxmin

P = get_game("skp").params[0]  # the game's pot symbol (positive)
S1 = dict(b_J=2 / (P + 1), c_K=0, d_Q=(P - 5) / (P + 1))                          # eq. (12)
S2 = dict(b_J=2 / P, c_K=(P - 5) / (P + 1), d_Q=0)                                # eq. (13)
S3 = dict(b_J=2 / P, c_K=2 / (P + 2), d_Q=(P**2 - 5 * P - 12) / (P * (P + 1)))   # eq. (14)
PSTAR = (5 + sp.sqrt(73)) / 2


@pytest.fixture(scope="module")
def piecewise():
    return maxmin(get_game("skp"), [S1, S2, S3], sp.Interval.open(5, sp.oo))


def test_options_merge_equal_own_values(piecewise):
    # player 3's b_J = 2/P is shared by Solutions 2 and 3: effectively two options
    assert piecewise.options == (((0,), (1,), (2,)), ((0,), (1,), (2,)), ((0,), (1, 2)))


@pytest.mark.parametrize("pot", ["6.9", "7", "7.1", "9", "12"])
def test_paper_statement_at_fixed_pots(pot, piecewise):
    res = maxmin(get_game("skp"), [S1, S2, S3], pot)
    first = [pcs[0].picks[0][0] for pcs in res.pieces]
    x = sp.Rational(pot)
    assert first == [0, 0 if x <= 7 else 1, 0]
    # the guaranteed values are Billingham's (15)/(16) expectations
    assert [pcs[0].value for pcs in res.pieces] == [-(x - 2) / (12 * x),
                                                    -(x - 2) / (12 * (x + 1)),
                                                    (x - 2) / (6 * (x + 1))]
    # fixed pot and the piecewise result agree
    for p in range(3):
        assert piecewise.at(p, x).picks == res.pieces[p][0].picks


def test_breakpoint_seven_is_exact(piecewise):
    """Solution 1 is a maxmin option of player 2 exactly on (5, 7]: the piece boundary is
    the rational 7, found as a root, not sampled."""
    with_s1 = [pc.interval for pc in piecewise.pieces[1] if (0,) in pc.picks]
    assert sp.Union(*with_s1) == sp.Interval.Lopen(5, 7)
    assert piecewise.at(1, 7).picks[0] == (0,)
    assert piecewise.at(1, sp.Rational(7) + sp.Rational(1, 10**9)).picks[0] == (1,)
    # for P > 7 Solution 2 is always a maxmin option, Solution 3 only below (7 + sqrt 97)/2
    s3_end = (7 + sp.sqrt(97)) / 2
    assert piecewise.at(1, 8).picks == ((1,), (2,))
    assert piecewise.at(1, 9).picks == ((1,),)
    assert any(sp.simplify(pc.interval.sup - s3_end) == 0 for pc in piecewise.pieces[1])
    # values are exact expressions in P: player 2 guarantees -(P-2)/(12(P+1)) throughout
    assert all(sp.simplify(pc.value + (P - 2) / (12 * (P + 1))) == 0
               for pc in piecewise.pieces[1])


def test_player_1_and_3(piecewise):
    for pc in piecewise.pieces[0]:
        assert pc.picks[0] == (0,) and pc.leximin == ((0,),)
        assert sp.simplify(pc.value + (P - 2) / (12 * P)) == 0
    # player 3: Solution 1 always a maxmin option; tied with b_J = 2/P from P* on, where
    # Solution 3 becomes a valid profile (d_Q >= 0)
    p3 = piecewise.pieces[2]
    assert all(pc.picks[0] == (0,) for pc in p3)
    assert p3[-1].interval == sp.Interval(PSTAR, sp.oo) and p3[-1].picks == ((0,), (1, 2))
    # documented difference: leximin prefers b_J = 2/P for player 3 and Solution 2 for
    # player 2 even below 7
    assert p3[-1].leximin == ((1, 2),)
    assert piecewise.at(1, sp.Rational(69, 10)).leximin == ((1,),)


def test_bad_input():
    with pytest.raises(GameError, match="no value for c_K"):
        maxmin(get_game("skp"), [dict(b_J=0, d_Q=0)], 9)
    with pytest.raises(GameError, match="pot='x'"):
        maxmin(get_game("skp"), [S1], "x")
    with pytest.raises(GameError, match="at least one"):
        maxmin(get_game("skp"), [], 9)
