"""The compiled case walk (solvers.symbolic.casesearch.walk) with its interval propagation
in numba (casesearch.boxes._propagate): the leaves it leaves at fixed pots of
kuhn3-full-simplified and on kuhn3-third with P symbolic.  The counts are those of the
pure-Python propagation it replaced (README, "The whole axis in about five minutes again";
P = 5: 1,036 leaves, the count the P = 5 enumeration reports), and the propagation must
never discard the support of a known equilibrium."""
from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from pokerdyn.games import get_game
from pokerdyn.solvers.symbolic.casesearch import walk
from pokerdyn.solvers.symbolic.model.dominance import reduce_game
from pokerdyn.solvers.symbolic.model.conditions import conditions, pot_symbol
from pokerdyn.solvers.symbolic.axis.at_pot import at_pot


@pytest.mark.parametrize("pot, count", [(5, 1036), (7, 185), (sp.Rational(13, 4), 271)])
def test_leaves_of_the_full_street_game_at_fixed_pots(pot, count):
    g = get_game("kuhn3-full-simplified")
    fixed = reduce_game(g)
    cv = at_pot(conditions(g, None, fixed), pot_symbol(g), sp.sympify(pot))
    cases = [c for _, c in walk.case_leaves(cv, None, {})]
    assert len(cases) == count == len(set(cases))


def test_leaves_of_kuhn3_third_with_p_symbolic_hold_the_known_supports():
    g = get_game("kuhn3-third")
    fixed = reduce_game(g)
    crit: dict = {}
    cases = {c for _, c in walk.case_leaves(conditions(g, None, fixed), pot_symbol(g), crit)}
    assert len(cases) == 74
    # the supports of the whole-axis families (the case search's) are among the leaves
    from pokerdyn.solvers.symbolic.axis.piecewise import equilibrium_pieces

    names = [n.name for n in g.named if n.name not in fixed]
    p = pot_symbol(g)
    for pc in equilibrium_pieces(g):
        if not isinstance(pc.p_set, sp.Interval):
            continue
        from pokerdyn.solvers.symbolic.feasibility.pot_split import rational_between

        v = rational_between(pc.p_set.inf, pc.p_set.sup)
        for sol in pc.solutions:
            smp = sol.sample(v, p)
            vals = [smp[n] for n in names]
            # a parameter strictly inside (0, 1) is case c; at 0 or 1 it may be b/a or c
            assert any(all(k == "c" or (k == "a" and x == 1) or (k == "b" and x == 0)
                           for k, x in zip(case, vals)) and
                       all(k == "c" for k, x in zip(case, vals) if 0 < x < 1)
                       for case in cases), (pc.p_set, smp)


@pytest.mark.parametrize("spec, pot", [("kuhn3-third", None), ("skp", None),
                                       ("kuhn3-full-simplified", 5)])
def test_the_plain_propagation_is_the_compiled_one(spec, pot, monkeypatch):
    """Boxes.feasible runs the plain-Python propagation for walks of at most SMALL_BOXES
    conditions (SKP, kuhn3-third) and the kernel above; both give the same answer on every
    check of these walks."""
    from pokerdyn.solvers.symbolic.casesearch import boxes

    g = get_game(spec)
    fixed = reduce_game(g)
    cv = conditions(g, None, fixed)
    p = pot_symbol(g)
    if pot is not None:
        cv, p = at_pot(cv, p, sp.sympify(pot)), None
    seen, used = [], []
    feasible = boxes.Boxes.feasible

    def both(self, one, zero, case, low, high):
        got = feasible(self, one, zero, case, low, high)
        if not (high == float("inf") and low <= 0):  # else decided without propagation
            lo, hi = (self._ranges((0.0, 1.0 / low), True) if high == float("inf")
                      else self._ranges((low, high), False))
            codes = np.array([boxes._CODE[c] for c in case], np.int64)
            args = (one, zero, codes, self._mono, lo, hi, self._nterms, self._deps, boxes.TOL)
            seen.append((bool(boxes._propagate(*args)), bool(boxes._propagate_py(*args))))
        used.append(len(self.tables) <= boxes.SMALL_BOXES)
        return got

    monkeypatch.setattr(boxes.Boxes, "feasible", both)
    walk.case_leaves(cv, p, {})
    assert seen and all(a == b for a, b in seen)
    assert set(used) == {spec != "kuhn3-full-simplified"}
