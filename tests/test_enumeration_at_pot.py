"""Equilibria at one exact pot (issue 11): the fast path (:func:`solutions_at`, enumeration
with P substituted) against the whole-axis path (:func:`solutions_at_from_axis`, the
piece of :func:`equilibrium_pieces` holding the pot), as sets of equilibria.

Each family contributes exact sample points (an interior point and, for one free parameter,
both end points of its range where they are in the family); every sample of one path must
lie, exactly, in some family of the other.  Pots: Billingham sec. 2's critical values
P = 2, 5 and P* = (5 + sqrt 73)/2, the pots 3, 9, 19/2 used in the paper's figures, and a
pot inside every piece of the axis.  Plus exact pot parsing (``--pot 2.5`` means 5/2).
"""
from __future__ import annotations

import pytest
import sympy as sp

from pokerdyn.games import GameError, get_game
from pokerdyn.cli import main
from pokerdyn.solvers.symbolic.feasibility import pot_split
from pokerdyn.solvers.symbolic.model.conditions import pot_symbol
from pokerdyn.solvers.symbolic.model.pot_values import exact_pot
from pokerdyn.solvers.symbolic.axis.piecewise import equilibrium_pieces, solutions_at, solutions_at_from_axis

GAME = get_game("kuhn3-third")
P = pot_symbol(GAME)
PSTAR = (5 + sp.sqrt(73)) / 2  # Billingham (4): positive root of 12 + 5P - P^2


def _samples(sol, pot) -> list[dict]:
    """Exact points of ``sol`` at ``pot``: an interior point, and with one free parameter the
    end points of its range that satisfy the constraints."""
    out = [sol.sample(pot, P)]
    if len(sol.free) == 1:
        x = sp.Symbol(sol.free[0], real=True)
        cons = [(sp.expand(e.xreplace({P: pot})), s) for e, s in sol.raw]
        for v in pot_split._univariate_candidates([(e, False) for e, _ in cons], x)[0]:
            if pot_split._holds(cons, x, v):
                out.append({k: sp.radsimp(e.xreplace({P: pot, x: v})) for k, e in sol.strategy})
    return out


def _contains(sol, point: dict, pot) -> bool:
    """Exact membership: the free parameters take the point's values, then every formula
    and every constraint of ``sol`` holds (pot_split.sign is exact on these numbers)."""
    sub = {P: pot, **{sp.Symbol(n, real=True): point[n] for n in sol.free}}
    for name, e in sol.strategy:
        if pot_split.sign(sp.sympify(e).xreplace(sub) - point[name]) != 0:
            return False
    for e, strict in sol.raw:
        s = pot_split.sign(sp.sympify(e).xreplace(sub))
        if s < 0 or (s == 0 and strict):
            return False
    return True


# the named pots; a pot inside every piece of the axis is added when the test runs (the
# axis is computed then, once, not while every pytest worker collects the file)
PAPER_POTS = [sp.Integer(2), sp.Integer(3), sp.Integer(5), sp.Integer(9), sp.Rational(19, 2),
              PSTAR]


def _inside_every_piece() -> list:
    pots = []
    for pc in equilibrium_pieces(GAME):
        if not isinstance(pc.p_set, sp.FiniteSet):  # a pot inside every piece
            hi = pc.p_set.sup
            pots.append(pot_split.rational_between(pc.p_set.inf, hi))
    return [p for p in dict.fromkeys(pots) if p not in PAPER_POTS]


def _fast_path_equals_whole_axis(pot):
    fast = solutions_at(GAME, pot)
    axis = solutions_at_from_axis(GAME, pot)
    assert fast and axis, pot
    for a, b, what in ((fast, axis, "fast in axis"), (axis, fast, "axis in fast")):
        for sol in a:
            for pt in _samples(sol, pot):
                assert any(_contains(t, pt, pot) for t in b), (what, pot, pt)


@pytest.mark.parametrize("pot", PAPER_POTS, ids=str)
def test_fast_path_equals_whole_axis(pot):
    _fast_path_equals_whole_axis(pot)


def test_fast_path_equals_whole_axis_inside_every_piece():
    pots = _inside_every_piece()
    assert len(pots) >= 3, pots  # the axis has open pieces besides the paper's pots
    for pot in pots:
        _fast_path_equals_whole_axis(pot)


def test_p9_has_the_papers_point_and_no_other_pure_profile():
    """At P = 9 > P* the paper's family (6) has c_K = 0, d_K = 1; its point b_Q = 0 has
    b_J = (P - 5)/... exactly as the whole axis gives it (checked above); here: the fast
    path's families are nonempty and every sample is an equilibrium of the axis result."""
    sols = solutions_at(GAME, 9)
    assert all(s.sample(9, P)["o_K"] == 0 or "o_K" in s.free for s in sols)


@pytest.mark.parametrize("text, value", [("19/2", sp.Rational(19, 2)), ("2.5", sp.Rational(5, 2)),
                                         ("(5+sqrt(73))/2", PSTAR), ("9", sp.Integer(9)),
                                         (0.1, sp.Rational(1, 10))])
def test_exact_pot_parsing(text, value):
    assert pot_split.sign(exact_pot(text) - value) == 0


@pytest.mark.parametrize("text", ["abc", "nan", "inf", "-inf", "-1", "0", "1+I", "sqrt(-1)",
                                  "1/0", "2-sqrt(5)", ""])
def test_bad_pots_are_one_line_errors(text, capsys):
    with pytest.raises(GameError, match="pot="):
        exact_pot(text)
    assert main(["equilibria", "kuhn3-third", f"--pot={text}"]) == 2  # = : "-1" is no flag
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pot=" in err


def test_numeric_commands_keep_float_and_exact_pots(capsys):
    """solve takes the same pot syntax; 19/2 and 9.5 are the same pot."""
    import json
    outs = []
    for text in ("9.5", "19/2"):
        assert main(["solve", "skp", "--pot", text, "--method", "fp", "--iterations", "200",
                     "--json"]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[0]["pot"] == outs[1]["pot"] == 9.5
    assert outs[0]["strategy"] == outs[1]["strategy"]
