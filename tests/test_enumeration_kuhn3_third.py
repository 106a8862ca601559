"""Equilibrium families of one-third street three-player Kuhn poker over the whole P axis,
against Billingham sec. 2, eqs. (1)-(11) and appendix A / C.2.

Membership is tested exactly: a point (all seven named parameters, exact rationals) lies in
a solution if the solution's free parameters can be set to the point's values so that every
formula and every constraint holds (sympy rationals / algebraic numbers, no floats).

Discrepancies with the printed paper (the tree decides, see the tests' comments):
- (4) prints P* ~ 6.67; the positive root of 12 + 5P - P^2 is (5 + sqrt 73)/2 ~ 6.77 (the
  paper's own text after (6) says 6.77).
- (4) prints b_Q > (12 + 5P - P^2)/(6P(P+1)) (strict); at equality Player 2's gain for d_Q
  vanishes and d_Q = 0 is still a best reply, so the tree gives b_Q >= ... (the point is an
  equilibrium: exact NashConv 0, test_boundary_of_4_is_an_equilibrium).
- (11) prints E2 = -c_Q - (P-1)(P-2)/(12P(P+1)), E3 = c_Q + ...; derived from the tree the
  transfer is c_Q/24 (each deal has probability 1/24), so E2 = -c_Q/24 - ..., E3 = c_Q/24 + ...
"""

import pytest
import sympy as sp

from pokerdyn.games import get_game
from pokerdyn.solvers.methods.crosscheck import exact_nash_conv
from pokerdyn.solvers.symbolic.model.conditions import pot_symbol
from pokerdyn.solvers.symbolic.axis.piecewise import equilibrium_pieces

GAME = get_game("kuhn3-third")
P = pot_symbol(GAME)
PSTAR = (5 + sp.sqrt(73)) / 2  # Billingham (4)-(6): positive root of 12 + 5P - P^2
NAMES = ("b_J", "b_Q", "c_Q", "c_K", "d_Q", "d_K", "o_K")


@pytest.fixture(scope="module")
def pieces():
    return equilibrium_pieces(GAME)


def _piece(pieces, v):
    (pc,) = [pc for pc in pieces if pc.p_set.contains(v) is sp.true]
    return pc


def _holds(e, strict):
    s = sp.nsimplify(sp.radsimp(sp.together(e)))
    return bool(s > 0) if strict else bool(s >= 0)


def _contains(sol, point, pot):
    """Exact membership of ``point`` (name -> value) in ``sol`` at ``P = pot``."""
    free = {sp.Symbol(n, real=True): sp.sympify(point[n]) for n in sol.free}
    sub = {P: pot, **free}
    strat = sol.as_dict()
    for n in NAMES:
        if sp.simplify(sp.sympify(strat[n]).xreplace(sub) - point[n]) != 0:
            return False
    return all(_holds(sp.sympify(e).xreplace(sub), s) for e, s in sol.raw)


def _in_some(pieces, point, pot):
    return any(_contains(s, point, pot) for s in _piece(pieces, pot).solutions)


def _pt(**kw):
    out = dict.fromkeys(NAMES, sp.S.Zero)
    out.update({k: sp.nsimplify(v) for k, v in kw.items()})
    return out


R = sp.Rational


def test_below_two_trivial_with_free_o_K(pieces):
    """P < 2: everything 0, o_K undetermined (Billingham sec. 2); payoffs 0 (7)."""
    pc = _piece(pieces, 1)
    assert pc.p_set == sp.Interval.open(0, 2)
    for o in (0, R(1, 3), 1):
        assert _in_some(pieces, _pt(o_K=o), 1)
    assert not _in_some(pieces, _pt(b_J=R(1, 10)), 1)
    for s in pc.solutions:
        assert all(sp.simplify(e) == 0 for e in s.payoffs)


def test_point_two(pieces):
    """Billingham (1): 0 <= b_J + b_Q <= 2/3 at P = 2, all calls 0."""
    assert sp.FiniteSet(2) in [pc.p_set for pc in pieces]
    for bj, bq in ((0, 0), (R(2, 3), 0), (0, R(2, 3)), (R(1, 3), R(1, 3)), (R(1, 5), R(1, 4))):
        assert _in_some(pieces, _pt(b_J=bj, b_Q=bq), 2)
    assert not _in_some(pieces, _pt(b_J=R(1, 3), b_Q=R(2, 5)), 2)
    assert not _in_some(pieces, _pt(b_J=R(1, 3), d_K=R(1, 10)), 2)


@pytest.mark.parametrize("pot", [R(5, 2), 3, R(9, 2)])
def test_between_two_and_five(pieces, pot):
    """Billingham (2): b_J + b_Q = 2/(P+1), d_K = (2P-4)/(P+1); payoffs (8)."""
    assert _piece(pieces, pot).p_set == sp.Interval.open(2, 5)
    s, dk = 2 / sp.S(pot + 1), (2 * sp.S(pot) - 4) / (pot + 1)
    for bj in (0, s / 3, s):
        assert _in_some(pieces, _pt(b_J=bj, b_Q=s - bj, d_K=dk), pot)
    assert not _in_some(pieces, _pt(b_J=s, b_Q=R(1, 100), d_K=dk), pot)
    assert not _in_some(pieces, _pt(b_J=s, d_K=dk + R(1, 100)), pot)


def test_payoffs_between_two_and_five(pieces):
    """Billingham (8), closed form in P on the whole interval (2, 5)."""
    want = [-(P - 2) / (12 * (P + 1)), -(P - 2) / (12 * (P + 1)), (P - 2) / (6 * (P + 1))]
    for s in _piece(pieces, 3).solutions:
        assert all(sp.simplify(a - b) == 0 for a, b in zip(s.payoffs, want))


def test_point_five(pieces):
    """Billingham (3): 1/3 <= b_J + b_Q <= 2/5 at P = 5 with d_K = 1; payoffs (9)."""
    assert sp.FiniteSet(5) in [pc.p_set for pc in pieces]
    for bj, bq in ((R(1, 3), 0), (0, R(2, 5)), (R(1, 5), R(1, 6)), (R(1, 5), R(1, 5))):
        assert _in_some(pieces, _pt(b_J=bj, b_Q=bq, d_K=1), 5)
    assert not _in_some(pieces, _pt(b_J=R(1, 3), b_Q=R(1, 10), d_K=1), 5)
    assert not _in_some(pieces, _pt(b_J=R(3, 10), d_K=1), 5)
    bj, bq = sp.symbols("b_J b_Q", real=True)
    for s in _piece(pieces, 5).solutions:
        tot = s.as_dict()["b_J"] + s.as_dict()["b_Q"]
        want = [-tot / 8, -R(1, 12) + tot / 8, R(1, 12)]
        assert all(sp.simplify(a - b) == 0 for a, b in zip(s.payoffs, want))


@pytest.mark.parametrize("pot", [R(11, 2), 6, R(13, 2)])
def test_between_five_and_pstar(pieces, pot):
    """Billingham (4): b_J + b_Q = 2/P, b_Q >= (12 + 5P - P^2)/(6P(P+1)) (printed strict,
    see module docstring), c_K = (P-5)/(P+1), d_K = 1."""
    pc = _piece(pieces, pot)
    assert pc.p_set == sp.Interval.open(5, PSTAR)
    s, ck = 2 / sp.S(pot), (sp.S(pot) - 5) / (pot + 1)
    low = (12 + 5 * sp.S(pot) - sp.S(pot) ** 2) / (6 * pot * (pot + 1))
    assert _in_some(pieces, _pt(b_J=s - low - R(1, 1000), b_Q=low + R(1, 1000), c_K=ck, d_K=1), pot)
    assert _in_some(pieces, _pt(b_Q=s, c_K=ck, d_K=1), pot)
    assert _in_some(pieces, _pt(b_J=s - low, b_Q=low, c_K=ck, d_K=1), pot)
    assert not _in_some(pieces, _pt(b_J=s - low + R(1, 1000), b_Q=low - R(1, 1000), c_K=ck,
                                    d_K=1), pot)
    assert not _in_some(pieces, _pt(b_J=s, c_K=ck, d_K=1), pot)


def _nash_conv(point, pot):
    """Exact NashConv (vertex best replies: E_p is multilinear in p's own parameters)."""
    return exact_nash_conv(GAME, pot, point)


def test_boundary_of_4_is_an_equilibrium():
    pot = 6
    low = R(12 + 30 - 36, 6 * 6 * 7)
    pt = _pt(b_J=R(1, 3) - low, b_Q=low, c_K=R(1, 7), d_K=1)
    assert _nash_conv(pt, pot) == 0
    assert _nash_conv(_pt(b_J=R(1, 3) - low + R(1, 100), b_Q=low - R(1, 100), c_K=R(1, 7),
                          d_K=1), pot) > 0


@pytest.mark.parametrize("pot", [PSTAR, 7, 9, 20])
def test_solutions_a_and_b_from_pstar_on(pieces, pot):
    """Billingham (5) Solution A (b_J + b_Q = 2/P, any split) and (6) Solution B (b_J = 2/P,
    b_Q = 0, 0 <= c_Q <= 2/(P+4), both ends included: Mathematica's 3333212 and 3333213)."""
    pc = _piece(pieces, pot)
    assert pc.p_set in (sp.Interval(PSTAR, sp.oo), sp.Interval.open(PSTAR, sp.oo),
                        sp.FiniteSet(PSTAR))
    s, ck = 2 / sp.S(pot), (sp.S(pot) - 5) / (pot + 1)
    for bj in (s, s / 2, 0):
        assert _in_some(pieces, _pt(b_J=bj, b_Q=s - bj, c_K=ck, d_K=1), pot)
    top = 2 / (sp.S(pot) + 4)
    for cq in (top, top / 2):
        assert _in_some(pieces, _pt(b_J=s, c_Q=cq, c_K=ck, d_K=1), pot)
    assert not _in_some(pieces, _pt(b_J=s, c_Q=top + R(1, 1000), c_K=ck, d_K=1), pot)
    assert not _in_some(pieces, _pt(b_J=s / 2, b_Q=s / 2, c_Q=top / 2, c_K=ck, d_K=1), pot)


def test_pstar_found_as_critical_value(pieces):
    ends = {e for pc in pieces for e in (pc.p_set.boundary if not pc.p_set.is_FiniteSet else pc.p_set)}
    assert any(sp.simplify(e - PSTAR) == 0 for e in ends)
    # the paper's printed 6.67 in (4) is a typo: P* = (5 + sqrt 73)/2 = 6.772...
    assert abs(float(PSTAR) - 6.772) < 1e-3


def test_payoffs_solutions_a_and_b(pieces):
    """Billingham (10) and (11).  (11) printed E2 = -c_Q - ..., E3 = c_Q + ...: the tree gives
    the transfer c_Q/24 (the deal KJ? has probability 1/24), see the module docstring."""
    cq = sp.Symbol("c_Q", real=True)
    a = [-(P - 2) / (12 * P), -(P - 1) * (P - 2) / (12 * P * (P + 1)), (P - 2) / (6 * (P + 1))]
    b = [a[0], a[1] - cq / 24, a[2] + cq / 24]
    pc = _piece(pieces, 9)
    got = [tuple(s.payoffs) for s in pc.solutions]
    for want in (a, b):
        assert any(all(sp.simplify(x - y) == 0 for x, y in zip(g, want)) for g in got)
    # (10) also holds on (5, P*)
    for s in _piece(pieces, 6).solutions:
        assert all(sp.simplify(x - y) == 0 for x, y in zip(s.payoffs, a))
