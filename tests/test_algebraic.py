"""Exact signs of algebraic numbers (solvers.symbolic.feasibility.algebraic): the numbers of Billingham's
critical value P* = (5 + sqrt 73)/2 (sec. 2, eq. (4)) and the nested radicals that the
quadratic branches of the enumeration produce there."""
import pytest
import sympy as sp

from pokerdyn.solvers.symbolic.feasibility.algebraic import _quadratic_sign, radical_zero, sign

R73 = sp.sqrt(73)
PSTAR = (5 + R73) / 2
NESTED = sp.sqrt(-11039 + 1301 * R73)  # met at P* in the fallback branches


@pytest.mark.parametrize("expr, expected", [
    (R73 - 8, 1), (R73 - 9, -1),
    (PSTAR - sp.Rational(677, 100), 1),  # P* ~ 6.772, just above the paper's 6.77
    (12 + 5 * PSTAR - PSTAR ** 2, 0),    # Billingham (4): P* is the root of 12 + 5P - P^2
    ((5 + R73) ** 2 - 98 - 10 * R73, 0),
    (-R73 / (2 * (3 - R73)), 1),
    (sp.sqrt(8) - 3, -1),
])
def test_quadratic_field_signs_are_exact(expr, expected):
    assert _quadratic_sign(sp.sympify(expr)) == expected
    assert sign(expr) == expected


def test_radical_zero_certificates():
    assert radical_zero(sp.sqrt(146) - sp.sqrt(2) * R73)  # sympy keeps sqrt(146) whole
    assert radical_zero(sp.sqrt(2) * NESTED ** 2 - sp.sqrt(2) * (-11039 + 1301 * R73))
    assert radical_zero(1 / (sp.sqrt(2) - 1) - sp.sqrt(2) - 1)
    assert not radical_zero(NESTED + 1)  # not zero: no certificate
    assert sign(NESTED - 1) == 1 and sign(1 / (sp.sqrt(2) - 1) - sp.sqrt(2) - 1) == 0
