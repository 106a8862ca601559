"""Exact feasibility of numeric affine constraints (``pot_split.feasible``): the
Fourier-Motzkin elimination in Python fractions gives the answer of the same elimination in
sympy arithmetic (``pot_split.eliminate``), finds planted points, and leaves constraints with
irrational coefficients to the sympy path."""
from __future__ import annotations

import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from pokerdyn.solvers.symbolic.feasibility import pot_split

XS = sp.symbols("x0:3", real=True)


def _sympy_feasible(cons, xs) -> bool:
    for e, strict in pot_split.eliminate(cons, xs):
        s = pot_split.sign(e)
        if s < 0 or (s == 0 and strict):
            return False
    return True


rationals = st.fractions(-3, 3, max_denominator=4).map(lambda q: sp.Rational(q.numerator,
                                                                            q.denominator))
rows = st.lists(st.tuples(st.lists(rationals, min_size=4, max_size=4), st.booleans()),
                min_size=1, max_size=7)


@given(st.integers(1, 3), rows)
def test_fractions_agree_with_the_sympy_elimination(n, raw):
    xs = list(XS[:n])
    cons = [(sum(c * x for c, x in zip(cs, xs)) + cs[3], strict) for cs, strict in raw]
    assert pot_split._fraction_rows(cons, xs) is not None
    assert pot_split.feasible(cons, xs) == _sympy_feasible(cons, xs)


@given(st.integers(1, 3), rows, st.lists(rationals, min_size=3, max_size=3))
def test_a_planted_point_makes_constraints_feasible(n, raw, point):
    """Constraints made to hold at a rational point (ties non-strict) are feasible; with the
    point's own value pushed 1 below zero in one of them and the rest kept, the answer is
    still the sympy elimination's."""
    xs = list(XS[:n])
    at = dict(zip(xs, point))
    cons = []
    for cs, _ in raw:
        e = sum(c * x for c, x in zip(cs, xs)) + cs[3]
        v = e.xreplace(at)
        cons.append((e - v + (1 if v > 0 else 0), False))  # holds at the point
    assert pot_split.feasible(cons, xs)
    bad = cons[:-1] + [(cons[-1][0] - cons[-1][0].xreplace(at) - 1, True)]
    assert pot_split.feasible(bad, xs) == _sympy_feasible(bad, xs)


def test_irrational_coefficients_take_the_sympy_path():
    x, y = XS[:2]
    r2 = sp.sqrt(2)
    cons = [(r2 * x - 1, False), (1 - x, False), (y - x, False), (sp.Rational(3, 4) - y, True)]
    assert pot_split._fraction_rows(cons, [x, y]) is None
    assert pot_split.feasible(cons, [x, y])  # x = y in [1/sqrt 2, 3/4)
    cons[-1] = (sp.Rational(7, 10) - y, False)  # 0.7 < 1/sqrt 2 = 0.707...
    assert not pot_split.feasible(cons, [x, y])
    # rows without variables are decided at once; equal rows are kept once
    assert not pot_split._fraction_feasible([((0,), -1, False)], 1)
    assert not pot_split._fraction_feasible([((1,), 0, True), ((-1,), 0, False),
                                          ((-1,), 0, False)], 1)
    assert pot_split._fraction_feasible([((1,), 0, False), ((-1,), 0, False)], 1)
