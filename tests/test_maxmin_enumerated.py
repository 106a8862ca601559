"""Billingham sec. 3's maxmin choice computed end to end: the candidates are SKP's equilibria
as enumerated from the tree (solvers.symbolic.axis.piecewise), not typed in; the result must agree with the
same computation on the paper's eqs. (12)-(14) (tests/test_maxmin.py) and with the paper's
statement read as the lowest-numbered maxmin option (P1: Solution 1; P2: Solution 1 for
P < 7, Solution 2 for P > 7; P3: Solution 1)."""
import pytest
import sympy as sp

from pokerdyn.games import get_game
from pokerdyn.solvers.symbolic.axis.maxmin import maxmin_of_equilibria


def _paper_number(sol: dict) -> int:
    """Billingham's numbering: Solution 1 has c_K = 0, Solution 2 has d_Q = 0, else 3."""
    if sol["c_K"] == 0:
        return 1
    if sol["d_Q"] == 0:
        return 2
    return 3


@pytest.mark.parametrize("pot, expected", [("7", (1, 1, 1)), ("71/10", (1, 2, 1)),
                                           ("9", (1, 2, 1)), ("12", (1, 2, 1))])
def test_maxmin_over_enumerated_solutions(pot, expected):
    game = get_game("skp")
    cands, res = maxmin_of_equilibria(game, pot)
    numbers = [_paper_number({k: sp.sympify(v) for k, v in c.items()}) for c in cands]
    assert sorted(numbers) == [1, 2, 3]          # three distinct solutions for P > P*
    firsts = []
    for player in range(3):
        options = res.pieces[player][0].picks  # tied maxmin options, each a tuple of indices
        best = min(min(numbers[i] for i in opt) for opt in options)
        firsts.append(best)
    assert tuple(firsts) == expected
