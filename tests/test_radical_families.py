"""Families with one square root in the pot P (issue 14): the Groebner solve over QQ(P)
keeps both roots of an irreducible quadratic factor, and the exact roots and signs of
``A + B sqrt R`` in P (pot_split) are right on examples checked by hand."""
from __future__ import annotations

import sympy as sp

from pokerdyn.solvers.symbolic.feasibility import pot_split
from pokerdyn.solvers.symbolic.feasibility import radical
from pokerdyn.solvers.symbolic.algebra.groebner import solve_block

P = sp.Symbol("P", positive=True)
x, y = sp.symbols("x y", real=True)


def test_solve_block_keeps_both_roots_of_a_quadratic_factor():
    # x^2 - 2x - P = 0 is irreducible over QQ(P): x = 1 +- sqrt(P + 1); then y = P x
    sols = solve_block([x ** 2 - 2 * x - P, y - P * x], [x, y], P)
    assert len(sols) == 2
    want = {1 + sp.sqrt(P + 1), 1 - sp.sqrt(P + 1)}
    got = {sp.expand(s[x]) for s in sols}
    assert got == want
    for s in sols:
        assert sp.expand(s[y] - P * s[x]) == 0
        assert radical.is_zero(s[x] ** 2 - 2 * s[x] - P, P)


def test_square_factors_of_the_discriminant_are_pulled_out():
    # disc 4(P^2 + 2P + 1)(P + 3)/(P - 1)^2: a root (P + 1) sqrt(P + 3)/(P - 1) up to sign
    r = radical.sqrt_of(4 * (P + 1) ** 2 * (P + 3) / (P - 1) ** 2, P)
    assert sp.cancel(r ** 2 - 4 * (P + 1) ** 2 * (P + 3) / (P - 1) ** 2) == 0
    assert radical.radical_of([r], P) == sp.sqrt(P + 3)


def test_roots_of_a_plus_b_sqrt_r_drop_the_conjugate_root():
    # (P - 3)^2 = P + 1 at P = (7 -+ sqrt 17)/2; only the smaller is a root of
    # P - 3 + sqrt(P + 1) (there A = P - 3 < 0 < B); the larger is a root of the conjugate
    e = P - 3 + sp.sqrt(P + 1)
    roots = pot_split.positive_roots(e, P)
    assert len(roots) == 1
    assert pot_split.sign(roots[0] - (7 - sp.sqrt(17)) / 2) == 0
    spurious = (7 + sp.sqrt(17)) / 2
    assert pot_split.sign(e.xreplace({P: spurious})) == 1
    assert pot_split.sign(e.xreplace({P: roots[0]})) == 0
    assert pot_split.sign(e.xreplace({P: 1})) == -1 and pot_split.sign(e.xreplace({P: 2})) == 1


def test_a_double_root_is_found_and_the_sign_does_not_change_there():
    # R = (P + 1)^2 + (P - 2)^2: sqrt R - (P + 1) >= 0 with equality only at P = 2
    e = sp.sqrt(2 * P ** 2 - 2 * P + 5) - (P + 1)
    assert pot_split.positive_roots(e, P) == [2]
    assert [pot_split.sign(e.xreplace({P: v})) for v in
            (sp.Rational(3, 2), 2, sp.Rational(5, 2), 2 + sp.sqrt(2) / 1000)] == [1, 0, 1, 1]


def test_sign_at_an_algebraic_pot_with_a_nested_root():
    # F10's lower end (3 + sqrt 97)/4: c1_K_kkb = (-P^2 + 2P + sqrt D)/(P + 1) equals 1
    D = P ** 4 - 4 * P ** 3 + 4 * P ** 2 + 12 * P + 12
    c1 = (-P ** 2 + 2 * P + sp.sqrt(D)) / (P + 1)
    r = (3 + sp.sqrt(97)) / 4
    assert pot_split.sign((c1 - 1).xreplace({P: r})) == 0
    assert pot_split.sign((c1 - 1).xreplace({P: r + sp.Rational(1, 10 ** 12)})) == -1
    assert pot_split.sign((c1 - 1).xreplace({P: r - sp.Rational(1, 10 ** 12)})) == 1
    roots = pot_split.positive_roots(c1 - 1, P)
    assert [sp.minimal_polynomial(t, P) for t in roots] == [2 * P ** 2 - 3 * P - 11]
