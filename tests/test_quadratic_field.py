"""Exact decisions over QQ(sqrt k) (solvers/symbolic/feasibility/algebraic.py): the arithmetic that
decides the families at Billingham's critical pot P* = (5 + sqrt 73)/2 (Billingham sec. 2,
eq. (4): the positive root of 12 + 5P - P^2)."""
import sympy as sp

from pokerdyn.solvers.symbolic.feasibility import algebraic as qf, pot_split

PSTAR = (5 + sp.sqrt(73)) / 2
X = sp.Symbol("o_K", real=True)


def test_element_sign_exact_near_zero():
    field, gen = qf._field(sp.Integer(73))
    # 8.544004 - sqrt(73) = 2.5e-7: positive, though the parts are 34 times larger
    a = field.convert(sp.Rational(8544004, 10 ** 6)) - gen
    assert sp.N(sp.Rational(8544004, 10 ** 6) - sp.sqrt(73), 30) > 0
    assert qf.element_sign(a, sp.Integer(73)) == 1
    assert qf.element_sign(-a, sp.Integer(73)) == -1
    assert qf.element_sign(field.zero, sp.Integer(73)) == 0
    # P* itself is a root of 12 + 5P - P^2 (Billingham (4))
    pstar = (field.convert(5) + gen) / field.convert(2)
    assert qf.element_sign(field.convert(12) + field.convert(5) * pstar - pstar * pstar,
                           sp.Integer(73)) == 0


def test_univariate_point_pinned_at_irrational_root():
    # o_K >= r and o_K <= r with r = P* - 6 (in QQ(sqrt 73)): the one point o_K = r
    r = PSTAR - 6
    found, pt = qf.univariate_point([(X - r, False), (r - X, False)], X)
    assert found and sp.simplify(pt - r) == 0
    # the same with a strict side: empty
    assert qf.univariate_point([(X - r, True), (r - X, False)], X) == (False, None)


def test_univariate_point_rational_constraints_agree_with_radicals():
    # a rational constraint with a pole at o_K = P* - 6 and a root at o_K = 1/2
    cons = [((X - sp.Rational(1, 2)) / (X - PSTAR + 6), False), (X, False), (1 - X, False)]
    found, pt = qf.univariate_point(cons, X)
    assert found
    assert 0 <= pt <= 1 and (pt <= sp.Rational(1, 2) or pt > PSTAR - 6)
    assert pot_split.feasible(cons, [X])


def test_not_applicable_with_two_radicals():
    assert qf.univariate_point([(X - sp.sqrt(2) - sp.sqrt(3), False)], X) is None


def test_vanishes_and_fraction_terms():
    p = sp.Symbol("P")
    assert qf.vanishes(1 / (p + 1) - p / (p ** 2 + p))
    assert qf.vanishes(sp.S.Zero)
    assert not qf.vanishes(1 / (p + 1) - 1 / p)
    num, den = qf.fraction_terms(1 / (X + sp.sqrt(73)) + p, [X, p])
    # (1 + p X + sqrt(73) p) / (X + sqrt(73))
    assert num == {(0, 0): 1, (1, 1): 1, (0, 1): sp.sqrt(73)}
    assert den == {(1, 0): 1, (0, 0): sp.sqrt(73)}
