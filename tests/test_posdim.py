"""Exact decomposition of positive-dimensional polynomial systems
(solvers.symbolic.algebra.positive_dimensional: families rational in a maximal independent set of
unknowns over QQ(U), recursion where a denominator or leading coefficient vanishes; Gianni,
Trager and Zacharias 1988, section 3), on systems with a known decomposition."""
from __future__ import annotations

import sympy as sp
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pokerdyn.solvers.symbolic.algebra import positive_dimensional
from pokerdyn.solvers.symbolic.algebra.groebner import solve_block

X, Y, U = sp.symbols("x y u", real=True)


def _solves(eqs, sol) -> bool:
    return all(sp.cancel(e.xreplace(sol)) == 0 for e in eqs)


def _has(sols, comp, free, unknowns=(X, Y, U)) -> bool:
    """``comp`` (values) with exactly the unknowns ``free`` left free is among ``sols``."""
    return any(set(x for x in unknowns if x not in s) == set(free)
               and all(sp.cancel(s[k] - v) == 0 for k, v in comp.items()) for s in sols)


def test_a_line_and_a_point():
    """(y - 1/2)(x - 1/4) = (y - 1/2)(y - 1/3) = 0 is the line y = 1/2 and the point
    (1/4, 1/3): both come back, the line with x free, and nothing else."""
    eqs = [sp.expand((Y - sp.Rational(1, 2)) * (X - sp.Rational(1, 4))),
           sp.expand((Y - sp.Rational(1, 2)) * (Y - sp.Rational(1, 3)))]
    sols = solve_block(eqs, [X, Y], None)
    assert all(_solves(eqs, s) for s in sols)
    assert _has(sols, {Y: sp.Rational(1, 2)}, [X], (X, Y))
    assert _has(sols, {X: sp.Rational(1, 4), Y: sp.Rational(1, 3)}, [], (X, Y))
    assert len(sols) == 2


def test_a_component_where_a_leading_coefficient_vanishes():
    """u x = y, u y = x: over QQ(u) only x = y = 0 (u free); the line x = y at u = 1 lies
    where the leading coefficient 1 - u^2 vanishes and is found by the recursion; u = -1
    (x = -y) is outside [0, 1] and skipped."""
    eqs = [U * X - Y, U * Y - X]
    sols = solve_block(eqs, [U, X, Y], None)
    assert all(_solves(eqs, s) for s in sols)
    assert _has(sols, {X: 0, Y: 0}, [U])
    line = [s for s in sols if s.get(U) == 1]
    assert len(line) == 1 and len([x for x in (X, Y) if x not in line[0]]) == 1
    assert all(s.get(U) != -1 for s in sols)


def test_independent_sets_give_the_dimension():
    """Leading monomials x*y and y^2 (grevlex basis of the line-and-point system): the
    only largest independent set is {x}, dimension 1."""
    assert positive_dimensional.independent_sets([(1, 1), (0, 2)], 2) == [(0,)]
    assert positive_dimensional.independent_sets([(1, 0), (0, 1)], 2) == [()]


def test_a_curve_algebraic_in_every_parameter_is_decided_by_its_projection():
    """x^2 + u^2 = 4 (a circle of radius 2) meets no point of [0, 1]^2: nothing comes back
    and nothing is left unhandled; the circle of radius 1/4 about (1/2, 1/2) is kept as
    unhandled (its points are algebraic in u), not dropped."""
    positive_dimensional.UNHANDLED.clear()
    assert solve_block([X ** 2 + U ** 2 - 4, Y - X], [U, X, Y], None) == []
    assert positive_dimensional.UNHANDLED == []
    circle = sp.expand((X - sp.Rational(1, 2)) ** 2 + (U - sp.Rational(1, 2)) ** 2
                       - sp.Rational(1, 16))
    assert solve_block([circle, Y - X], [U, X, Y], None) == []
    assert len(positive_dimensional.UNHANDLED) == 1
    positive_dimensional.UNHANDLED.clear()


@settings(max_examples=15, deadline=None)
@given(st.fractions(0, 1, max_denominator=9), st.fractions(0, 1, max_denominator=9),
       st.integers(1, 5))
def test_curve_misses_square_is_exact_on_circles(cx, cy, k):
    """A circle of radius 1/k about (cx, cy) in [0, 1]^2 that does not enclose the whole
    square (some corner at distance >= 1/k) meets it: curve_misses_square never says
    otherwise; shifted by 3 it never meets it.  (Radius 1 about (1/2, 1/2) encloses the
    square and is rightly reported as missing it.)"""
    far = max((cx - x) ** 2 + (cy - y) ** 2 for x in (0, 1) for y in (0, 1))
    assume(far * k * k >= 1)
    a, b = sp.Rational(cx.numerator, cx.denominator), sp.Rational(cy.numerator, cy.denominator)
    f = sp.expand((X - a) ** 2 + (U - b) ** 2 - sp.Rational(1, k * k))
    assert not positive_dimensional.curve_misses_square(f, X, U)
    g = sp.expand((X - a - 3) ** 2 + (U - b) ** 2 - sp.Rational(1, k * k))
    assert positive_dimensional.curve_misses_square(g, X, U)


def test_a_slow_leaf_of_the_full_street_game_at_pot_5():
    """kuhn3-full-simplified at P = 5, support caccbccabcccc: a block of 9 unknowns and 8
    bilinear equations (one free direction) that the triangular solver's sympy.solve
    fallback took seconds to minutes on; decomposed exactly it has no equilibrium, and
    nothing is left unhandled or handed back."""
    from pokerdyn.games import get_game
    from pokerdyn.solvers.symbolic.model.dominance import reduce_game
    from pokerdyn.solvers.symbolic.model.conditions import conditions, pot_symbol
    from pokerdyn.solvers.symbolic.algebra import groebner
    from pokerdyn.solvers.symbolic.axis.at_pot import at_pot
    from pokerdyn.solvers.symbolic.algebra.support_solve import solve_support
    game = get_game("kuhn3-full-simplified")
    fixed = reduce_game(game)
    cv = at_pot(conditions(game, None, fixed), pot_symbol(game), sp.Integer(5))
    positive_dimensional.UNHANDLED.clear()
    n0 = len(groebner.FALLBACK)
    fams = solve_support(cv, "caccbccabcccc", fixed, [n.name for n in game.named],
                         solver=lambda e, x: solve_block(e, x, None))
    assert fams == [] and positive_dimensional.UNHANDLED == [] and len(groebner.FALLBACK) == n0


def test_feasibility_of_a_non_affine_family_is_never_a_silent_no():
    """Constraints on [0, 1]^2: x y >= 1/2 has an exact witness (True); x y >= 2 misses
    the box, proved by interval arithmetic (False); the band 1/17 <= x y <= 1/17 + 10^-6
    is not empty but holds no grid point, and no proof can exist: undecided (None), not
    infeasible."""
    from pokerdyn.solvers.symbolic.model.conditions import Family
    from pokerdyn.solvers.symbolic.axis.at_pot import feasible_family
    box = [(X, False), (1 - X, False), (Y, False), (1 - Y, False)]
    r = sp.Rational

    def fam(*cons):
        return Family((("x", X), ("y", Y)), ("x", "y"), tuple(box + list(cons)), "cc")

    assert feasible_family(fam((X * Y - r(1, 2), False))) is True
    assert feasible_family(fam((X * Y - 2, False))) is False
    band = fam((X * Y - r(1, 17), False), (r(1, 17) + r(1, 10 ** 6) - X * Y, False))
    assert feasible_family(band) is None


def test_a_component_with_algebraic_values_at_the_pot_keeps_its_support():
    """kuhn3-full-simplified at P = 13/4: F10's block (support cbbcbcbccbccc) has c1_K_kkb a
    root of 34 x^2 + 65 x - 96; posdim cannot decide that component (it stays reported),
    the triangular solver gives it with float values, and the support reaches the whole-axis sweep (F10, the third coexistence
    range, was lost otherwise)."""
    from pokerdyn.games import get_game
    from pokerdyn.solvers.symbolic.model.dominance import reduce_game
    from pokerdyn.solvers.symbolic.model.conditions import conditions, pot_symbol
    from pokerdyn.solvers.symbolic.axis.at_pot import at_pot
    from pokerdyn.solvers.symbolic.algebra.support_solve import solve_support

    g = get_game("kuhn3-full-simplified")
    fixed = reduce_game(g)
    cv = at_pot(conditions(g, None, fixed), pot_symbol(g), sp.Rational(13, 4))
    positive_dimensional.UNHANDLED.clear()
    fams = solve_support(cv, "cbbcbcbccbccc", fixed, [n.name for n in g.named],
                         solver=lambda e, x: solve_block(e, x, None))
    assert fams and len(positive_dimensional.UNHANDLED) == 1  # still reported as undecided by posdim
    positive_dimensional.UNHANDLED.clear()
    x = float(dict(fams[0].strategy)["c1_K_kkb"])
    assert abs(34 * x * x + 65 * x - 96) < 1e-12
