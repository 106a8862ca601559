"""Components of dimension >= 2 of a support's block (solvers.symbolic.algebra.surfaces):
excluded exactly (a polynomial of one unknown without a root in [0, 1] in the ideal over
QQ(a, b)), placed in a face where a frequency is pure, or reported; kuhn3 at P = 4."""
from __future__ import annotations

import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerdyn.solvers.symbolic.algebra import surfaces

X, Y, Z, W = sp.symbols("x y z w", real=True)
roots = st.fractions(min_value=-3, max_value=3, max_denominator=12)


@settings(max_examples=60, deadline=None)
@given(st.lists(roots, min_size=1, max_size=4), st.integers(0, 2))
def test_outside_unit_interval_is_no_root_in_zero_one(rs, extra):
    """A product of linear factors (and x^2 + 1 factors, no real root) with rational
    roots: outside the unit interval exactly when no root lies in [0, 1]."""
    g = sp.Mul(*[X - sp.Rational(r) for r in rs]) * (X ** 2 + 1) ** extra
    assert surfaces.outside_unit_interval(sp.expand(g)) == \
        (not any(0 <= r <= 1 for r in rs))


def test_outside_unit_interval_needs_one_unknown_and_rational_coefficients():
    assert surfaces.outside_unit_interval(X ** 2 - 5 * X + 20)
    assert not surfaces.outside_unit_interval(X * Y + 3)
    assert not surfaces.outside_unit_interval(X - sp.sqrt(2) / 2)
    assert not surfaces.outside_unit_interval(sp.Integer(3))


def test_screen_excludes_places_in_faces_and_reports():
    # z^2 - 5z + 20 > 0: no real point at all
    assert surfaces.screen([Z ** 2 - 5 * Z + 20], [X, Y, Z]) == ([], [])
    # z = 1 with x, y free: the face where z is pure at 1
    assert surfaces.screen([Z - 1], [X, Y, Z]) == ([], [(Z, 1)])
    assert surfaces.screen([3 * Z], [X, Y, Z]) == ([], [(Z, 0)])
    # z = 1/2, x, y free: a surface inside the box, neither excluded nor in a face
    notes, faces = surfaces.screen([2 * Z - 1], [X, Y, Z])
    assert faces == [] and notes == ["x, y: a component of dimension 2 neither excluded "
                                     "nor in a face"]
    # one equation in four unknowns: dimension 3
    notes, _ = surfaces.screen([X + Y + Z + W - 1], [X, Y, Z, W])
    assert any(n.endswith("dimension > 2") for n in notes)
    # z = 2 + xy misses the box, but the screen bounds no ranges: every pair is reported
    notes, faces = surfaces.screen([Z - 2 - X * Y], [X, Y, Z])
    assert faces == [] and [n.split(":")[0] for n in notes] == ["x, y", "x, z", "y, z"]


def test_the_curve_solver_flags_surfaces_as_data():
    """a = b c has a solution set of dimension 2: over QQ(u) for any unknown u the basis is
    not zero-dimensional.  ``curves.branches`` finds no curve and flags each skipped unknown
    with ``surface`` (follow_curves screens by the flag, not by the note's text); a timeout
    is not flagged."""
    from pokerdyn.solvers.symbolic.algebra import curves

    a, b, c = sp.symbols("a b c")
    found, skipped = curves.branches([a - b * c], [a, b, c])
    assert found == []
    assert len(skipped) == 3 and all(n.surface for n in skipped)
    assert sorted(str(n) for n in skipped) == ["a: dimension > 1", "b: dimension > 1",
                                               "c: dimension > 1"]
    x, y = sp.symbols("x y")
    found, skipped = curves.branches([x - y], [x, y])  # a line: found, nothing skipped
    assert len(found) >= 1 and skipped == []


def test_face_case_makes_the_frequency_pure():
    names = ["x", "y", "z"]
    assert surfaces.face_case("ccc", names, (Y, 1)) == "cac"
    assert surfaces.face_case("ccc", names, (Z, 0)) == "ccb"


def test_kuhn3_p4_surfaces_lie_in_two_faces():
    """kuhn3 at P = 4, support cccbcbcbabccccbbaccbbcbccbc: the curve solver finds the
    dimension > 1 with five unknowns as parameter.  Every pair of its 15 unknowns has a
    basis over QQ(a, b) in 50 s or so, and every component of dimension >= 2 lies where
    x1_A_0_b = 1 or x3_Q_kb_c = 0: in the two supports with that frequency pure."""
    from pokerdyn.games.catalog.kuhn import kuhn3
    from pokerdyn.solvers.symbolic.model.sparse_gains import counterfactual_gains, gain_system, iterated_dominance_at

    g, pot = kuhn3(), sp.Integer(4)
    sysm = gain_system(g, pot)
    conds = counterfactual_gains(sysm, iterated_dominance_at(g, pot, "strict",
                                                             system=sysm).fixed).conditions
    case = "cccbcbcbabccccbbaccbbcbccbc"
    notes, faces = surfaces.support_faces(conds, case, seconds=120)
    assert notes == []
    assert faces == ["cccbcbcbabccccbbaccbbcbccba", "cccbcbcbabcccbbbaccbbcbccbc"]


def test_the_committed_p4_record_holds_the_faces_and_no_dimension_note():
    """The committed record (benchmarks/kuhn3_p4_curves.py) after the screen: no support is
    left at "dimension > 1", no branch at sympy's EX domain; the two faces of
    cccbcbcbabccccbbaccbbcbccbc were solved by the support solver, and their families pay
    C's (-4/75, 1/300, 1/20) wherever a witness certifies them."""
    import json

    from pokerdyn.figures.frontier.kuhn3_p4_curves import DATA

    rec = json.loads(DATA.read_text())
    assert not any("dimension > 1" in n or "EX" in n for n in rec["notes"])
    faces = {"cccbcbcbabccccbbaccbbcbccba", "cccbcbcbabcccbbbaccbbcbccbc"}
    assert faces <= set(rec["supports_solved"])
    fams = [f for f in rec["families"] if f["support"] in faces]
    assert len([f for f in fams if f["certified"]]) >= 2
    assert all(f["payoffs_at_witness"] == ["-4/75", "1/300", "1/20"] for f in fams
               if f["certified"])
