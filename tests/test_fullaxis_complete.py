"""The completeness proof of the whole-axis sweep (solvers.symbolic.certificates.completeness): the
exceptional pots of a block (Kalkbrener's specialization theorem), exact feasibility over a
P interval, and the proof on SKP against its known complete enumeration (the case search
of solvers.symbolic.axis.piecewise, Billingham sec. 2)."""
from __future__ import annotations

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerdyn.games import get_game
from pokerdyn.commands.exact.equilibrium_axis import completeness_line
from pokerdyn.solvers.symbolic.model.dominance import reduce_game
from pokerdyn.solvers.symbolic.certificates.completeness import certify_complete
from pokerdyn.solvers.symbolic.algebra.exceptional_pots import block_analysis, feasible_parts
from pokerdyn.solvers.symbolic.axis.sweep import sweep
from pokerdyn.solvers.symbolic.axis.piecewise import equilibrium_pieces

P = sp.Symbol("P", positive=True)
X, Y = sp.symbols("x y", real=True)


def test_exceptional_pots_of_a_hand_made_block():
    """(P - 2) x = 1, (P - 3) y = x: the generic solution x = 1/(P - 2), y = 1/((P-2)(P-3))
    specialises everywhere but at P = 2 (no solution) and P = 3 (a free y or none)."""
    b = block_analysis([(P - 2) * X - 1, (P - 3) * Y - X], [X, Y], P)
    assert b["pots"] == [2, 3]
    assert b["zero_dimensional"] and b["linear"]
    # a block with solutions only at P = 2: (P - 2) x = 0 and x = 1
    only = block_analysis([(P - 2) * X, X - 1], [X], P)
    assert only["pots"] == [2] and only["zero_dimensional"]
    # x y = P - 4, x = y: no leading coefficient in P (the branches are irrational instead)
    assert block_analysis([X * Y - P + 4, X - Y], [X, Y], P)["pots"] == []
    # the range filter keeps [low, high] only
    assert block_analysis([(P - 2) * X - 1, (P - 3) * Y - X], [X, Y], P, 5 / sp.Integer(2),
                          10)["pots"] == [3]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(-3, 3), min_size=8, max_size=8),
       st.fractions(1, 30, max_denominator=7))
def test_the_generic_solution_holds_at_every_pot_but_the_exceptional_ones(c, v):
    """A random linear block a x + b y = 1, c x + d y = P with coefficients affine in P:
    every positive root of the determinant (where the unique generic solution breaks) is
    exceptional, and at a rational pot that is not, the solution at P = v is the generic
    (Cramer) solution at v (Kalkbrener's theorem: the same leading monomials)."""
    a, b_, c_, d = [c[2 * k] + c[2 * k + 1] * P for k in range(4)]
    det = sp.expand(a * d - b_ * c_)
    if det == 0:
        return
    pots = block_analysis([a * X + b_ * Y - 1, c_ * X + d * Y - P], [X, Y], P)["pots"]
    roots = [r for r in sp.Poly(det, P).real_roots() if r > 0]
    assert all(any(sp.simplify(r - q) == 0 for q in pots) for r in roots)
    v = sp.Rational(v.numerator, v.denominator)
    if v in pots:
        return
    x = (d - b_ * P) / det
    y = (a * P - c_) / det
    dv = det.xreplace({P: v})
    assert dv != 0
    M = sp.Matrix([[a, b_], [c_, d]]).xreplace({P: v})
    assert list(M.LUsolve(sp.Matrix([1, v]))) == [x.xreplace({P: v}), y.xreplace({P: v})]


def test_feasible_parts_of_constraints_in_p():
    """0 <= x <= 1, (P - 3) x - 1 + (P - 5)/4 >= 0 holds for some x exactly when
    P >= 21/5; P - 4 >= 0 >= P - 4 only at P = 4; with a second parameter y in [0, 1]
    weighted by (P - 5)/4 the bound drops to P >= 4 (x = 1, y = 0)."""
    cons = [(X, False), (1 - X, False), ((P - 3) * X - 1 + (P - 5) / 4, False)]
    assert feasible_parts(cons, [X], P, sp.Integer(2), sp.Integer(20)) == \
        ([(sp.Rational(21, 5), 20)], [])
    assert feasible_parts([(P - 4, False), (4 - P, False)], [], P, sp.Integer(2),
                          sp.Integer(20)) == ([], [4])
    two = [(X, False), (1 - X, False), (Y, False), (1 - Y, False),
           ((P - 3) * X - 1 + (P - 5) / 4 * Y, False)]
    assert feasible_parts(two, [X, Y], P, sp.Integer(2), sp.Integer(20)) == ([(4, 20)], [])


def _skp_run(start, state=None, ends=True):
    g = get_game("skp")
    fixed = reduce_game(g)
    sw = sweep(g, fixed, sp.Integer(1), sp.Integer(10), start=start, ends=ends)
    return g, sw, certify_complete(g, fixed, 1, 10, sw, state=state)


def test_proof_on_skp_agrees_with_the_case_search(tmp_path):
    """SKP (Billingham): with the critical pot P = 5 among the enumerated pots the sweep is
    proven complete on 1 <= P <= 10; without it (a sweep that does not enumerate the rational
    ends of its pieces) the proof finds the one place where the sweep falls short of the
    complete case search: at P = 5 the generic families' limits are two points of a segment
    that the case search reports whole.  A sweep that enumerates its ends (the default)
    finds that segment from any start."""
    g, sw, rec = _skp_run(["3/2", "5", "6", "8"])
    assert rec["complete"] and not rec["new"] and not rec["missing"]
    assert rec["leaves"] >= 1 and any(q["pot"] == "5" for q in rec["exceptional_pots"])
    # P = 5 is a point piece the sweep enumerated: covered by that enumeration
    assert [q.get("by") for q in rec["exceptional_pots"] if q["pot"] == "5"] == \
        ["enumerated by the sweep"]
    assert completeness_line(rec).startswith("proven complete on 1 <= P <= 10")
    g, sw, rec = _skp_run(["3/2", "5/2", "4", "6"], tmp_path / "state.json", ends=False)
    again = certify_complete(g, reduce_game(g), 1, 10, sw, state=tmp_path / "state.json")
    forked = certify_complete(g, reduce_game(g), 1, 10, sw, workers=2)
    for other in (again, forked):  # resumed from the state file; leaves in two processes
        assert {k: v for k, v in other.items() if "seconds" not in k} == \
            {k: v for k, v in rec.items() if "seconds" not in k}
    assert not rec["complete"] and not rec["new"]
    assert [q["pot"] for q in rec["exceptional_pots"] if q["status"] == "missing"] == ["5"]
    truth = [pc for pc in equilibrium_pieces(g) if pc.p_set == sp.FiniteSet(5)][0]
    assert len(truth.solutions) == 1 and truth.solutions[0].free == ("b_J",)
    assert rec["missing"][0]["free"] == ["b_J"]
    g, sw, rec = _skp_run(["3/2", "5/2", "4", "6"])
    assert "5" in sw.pots and rec["complete"] and not rec["missing"]
    at5 = [pc for pc in sw.pieces if pc.p_set == sp.FiniteSet(5)][0]
    assert [s.free for s in at5.solutions] == [("b_J",)]


def test_a_resumed_sweep_keeps_the_supports_of_earlier_samples():
    """A sweep resumed from its pots (``done``) reads the supports of every pot enumerated
    before, not only of its start pots: the proof above found a family of kuhn3-full-
    simplified on [(7+sqrt 105)/4, (7+sqrt 113)/4] that a resumed sweep had dropped."""
    g = get_game("skp")
    fixed = reduce_game(g)
    done: dict = {}
    first = sweep(g, fixed, sp.Integer(1), sp.Integer(10), start=["3/2"], done=done)
    again = sweep(g, fixed, sp.Integer(1), sp.Integer(10), start=["3/2"], done=dict(done))
    assert len(done) > 1 and again.supports == first.supports
    assert [str(pc.p_set) for pc in again.pieces] == [str(pc.p_set) for pc in first.pieces]


@pytest.mark.parametrize("workers", [1, 2])
def test_sweep_of_kuhn3_third_equals_the_case_search_including_its_critical_pots(workers):
    """kuhn3-third on 1 <= P <= 6: the sweep (samples, then its rational piece ends 2 and 5
    enumerated) gives the case search's pieces exactly: at P = 2 Billingham's triangle
    b_J, b_Q >= 0, b_J + b_Q <= 2/3 beside the no-opening family, at P = 5 the one
    two-parameter family.  At P = 5 the walk also leaves a family with
    o_K = (5 b_J - 2)/(7 b_J) and b_J <= 1/3: empty (o_K >= 0 needs b_J >= 2/5), which the
    univariate check decides, so it is neither reported nor left undecided.  The same with
    the pots of each round enumerated in two forked workers."""
    g = get_game("kuhn3-third")
    sw = sweep(g, reduce_game(g), sp.Integer(1), sp.Integer(6), start=["3/2", "3"],
               workers=workers)
    assert {"2", "5"} <= set(sw.pots) and sw.undecided == {}
    truth = [pc for pc in equilibrium_pieces(g) if pc.p_set.sup <= 6]
    mine = [pc for pc in sw.pieces if pc.p_set.sup <= 6]
    assert [pc.p_set for pc in mine] == [pc.p_set for pc in truth]
    for a, b in zip(mine, truth):
        assert sorted(s.free for s in a.solutions) == sorted(s.free for s in b.solutions)
        assert sorted(s.payoffs for s in a.solutions) == sorted(s.payoffs for s in b.solutions)


def _pid(_):
    import os
    return os.getpid()


def test_forked_map_forks_only_a_single_threaded_process():
    """forked_map: results in order, computed in worker processes when this process is
    single-threaded, and here (no fork) while another thread runs (a lock it held at the
    fork would stay held in the child)."""
    import os
    import threading

    from pokerdyn.solvers.symbolic.axis.forked_map import can_fork, forked_map

    assert list(forked_map(abs, [-3, 1, -2], 2)) == [3, 1, 2]
    if can_fork():
        assert os.getpid() not in set(forked_map(_pid, range(4), 2))
    stop = threading.Event()
    t = threading.Thread(target=stop.wait)
    t.start()
    try:
        assert not can_fork()
        assert set(forked_map(_pid, range(4), 2)) == {os.getpid()}
    finally:
        stop.set()
        t.join()


def test_box_proof_near_an_algebraic_pot_agrees_with_the_exact_solve():
    """At kuhn3-third's bifurcation point v = (5 + sqrt 73)/2 (Billingham sec. 3) the box
    proof with P in a rational interval of width 2e-12 around v (complete.empty_near: P one
    more unknown of the exact interval proof) declares most of the 74 leaves of the walk
    with P symbolic empty, and the exact solver over QQ(sqrt 73) finds no family in any of
    them (13 leaves have families there: none of them is declared empty)."""
    from pokerdyn.solvers.symbolic.casesearch import walk
    from pokerdyn.solvers.symbolic.model.conditions import conditions, pot_symbol
    from pokerdyn.solvers.symbolic.certificates.completeness import empty_near, families_at
    from pokerdyn.solvers.symbolic.certificates.leaf_boxes import enclosure

    g = get_game("kuhn3-third")
    fixed = reduce_game(g)
    p = pot_symbol(g)
    conds = conditions(g, None, fixed)
    v = (5 + sp.sqrt(73)) / 2
    lo, hi = enclosure(v)
    assert lo < v < hi and hi - lo == sp.Rational(2, 10 ** 12)
    leaves = [c for _, c in walk.case_leaves(conds, p, {})]
    empty = [c for c in leaves if empty_near(conds, c, v, p)]
    assert len(leaves) == 74 and len(empty) >= 40
    assert all(families_at(g, conds, c, v, fixed, 60) == [] for c in empty)


@pytest.fixture(scope="module")
def third_sweep():
    """kuhn3-third's sweep on 1 <= P <= 10 (pots 3/2, 2, 3, ..., 8 enumerated)."""
    g = get_game("kuhn3-third")
    fixed = reduce_game(g)
    return g, fixed, sweep(g, fixed, sp.Integer(1), sp.Integer(10), start=["3/2", "3", "7"])


def test_leaves_proved_empty_on_the_range_hold_no_support_the_sweep_finds(third_sweep):
    """kuhn3-third on 1 <= P <= 10: the box proof with P an unknown (complete.empty_between:
    a block without a point in the unit box, then the whole leaf with the sign conditions
    of its pure frequencies) shows 45 of the 74 leaves empty on the whole range, and none
    of them is a support the sweep (the complete enumerations at 3/2, 2, 3, 4, ..., 8 and
    the pieces between) finds."""
    from pokerdyn.solvers.symbolic.casesearch import walk
    from pokerdyn.solvers.symbolic.model.conditions import conditions, pot_symbol
    from pokerdyn.solvers.symbolic.certificates.completeness import empty_between

    g, fixed, sw = third_sweep
    p = pot_symbol(g)
    conds = conditions(g, None, fixed)
    leaves = [c for _, c in walk.case_leaves(conds, p, {})]
    one, ten = sp.Integer(1), sp.Integer(10)
    empty = [c for c in leaves if empty_between(conds, c, p, one, ten)]
    assert len(empty) >= 40
    assert len(sw.supports) == 19 and not set(empty) & set(sw.supports)


def test_faces_of_a_sweep_family_are_inside_it_and_nothing_else_is(third_sweep):
    """complete.contained_on / inside_sweep, which keep a family of a support the sweep
    lacks out of ``new`` when the sweep's families hold it: kuhn3-third on 2 < P < 5 has
    the family b_Q in [0, 2/(P + 1)] (Billingham sec. 3); its ends b_Q = 0 and
    b_Q = 2/(P + 1) and the half b_Q <= 1/(P + 1) lie in it, b_Q = 3/(P + 1) and the family
    itself inside one of its ends do not."""
    from pokerdyn.solvers.symbolic.model.conditions import Family, pot_symbol
    from pokerdyn.solvers.symbolic.certificates.completeness import contained_on, inside_sweep

    g, _, sw = third_sweep
    p = pot_symbol(g)
    piece = [pc for pc in sw.pieces if pc.p_set == sp.Interval.open(2, 5)][0]
    s = [s for s in piece.solutions if s.free == ("b_Q",)][0]
    big = Family(s.strategy, s.free, s.raw, "")
    bq = sp.Symbol("b_Q", real=True)

    def face(value, cons=()):
        strategy = tuple((k, sp.sympify(v).xreplace({bq: value})) for k, v in big.strategy)
        return Family(strategy, ("b_Q",) if value == bq else (), tuple(cons), "")

    two, five = sp.Integer(2), sp.Integer(5)
    assert contained_on(big, face(sp.Integer(0)), p, two, five)
    assert contained_on(big, face(2 / (p + 1)), p, two, five)
    assert not contained_on(big, face(3 / (p + 1)), p, two, five)
    half = face(bq, [(bq, False), (1 / (p + 1) - bq, False)])
    assert contained_on(big, half, p, two, five)
    assert not contained_on(half, big, p, two, five)
    assert not contained_on(face(sp.Integer(0)), big, p, two, five)
    assert inside_sweep(sw, face(sp.Integer(0)), p, two, five)
    assert not inside_sweep(sw, face(3 / (p + 1)), p, two, five)


def test_covered_by_proves_families_hold_every_solution_of_a_curved_block():
    """complete's cover of non-linear positive-dimensional blocks (exceptional.covered_by):
    x (y - P) = 0 is the union of {x = 0} and {y = P}, not of either alone; y^2 = P,
    x z = 0 is the union of four families with y = +- sqrt P (a square root becomes an
    unknown s with s^2 = P), and three of them miss points."""
    from pokerdyn.solvers.symbolic.algebra.exceptional_pots import covered_by

    Z = sp.Symbol("z", real=True)
    b = block_analysis([X * (Y - P)], [X, Y], P)
    assert not (b["linear"] or b["zero_dimensional"])
    assert covered_by(b["basis"], [X, Y], P, [{X: 0}, {Y: P}])
    assert not covered_by(b["basis"], [X, Y], P, [{X: 0}])
    assert not covered_by(b["basis"], [X, Y], P, [{Y: P}])
    assert not covered_by(b["basis"], [X, Y], P, [{X: 0}, {Y: P + 1}])
    b = block_analysis([Y ** 2 - P, X * Z], [X, Y, Z], P)
    four = [{X: 0, Y: r} for r in (sp.sqrt(P), -sp.sqrt(P))] + \
        [{Z: 0, Y: r} for r in (sp.sqrt(P), -sp.sqrt(P))]
    assert covered_by(b["basis"], [X, Y, Z], P, four)
    assert not covered_by(b["basis"], [X, Y, Z], P, four[:3])
    assert not covered_by(b["basis"], [X, Y, Z], P, [{X: 0, Y: sp.sqrt(P)}])


def test_full_street_leaves_with_curved_blocks_are_covered():
    """Two leaves of kuhn3-full-simplified that the proof used to list as non-linear
    positive-dimensional: in bcbccccbcbbcc the block basis over QQ[x, P] has b1_Q c3_K_kb,
    but its one generic family (c3_K_kb free, the rest affine in it) holds every
    solution; in cabcaaccbbccc the linear block's basis is non-linear over QQ[x, P] and
    the other block has solutions only at P = (7 + sqrt 105)/4, so the leaf has none
    elsewhere."""
    from pokerdyn.solvers.symbolic.model.conditions import conditions, pot_symbol
    from pokerdyn.solvers.symbolic.certificates.completeness import analyse_leaf

    g = get_game("kuhn3-full-simplified")
    fixed = reduce_game(g)
    conds = conditions(g, None, fixed)
    two, twenty = sp.Integer(2), sp.Integer(20)
    r = analyse_leaf(g, conds, "bcbccccbcbbcc", fixed, two, twenty, {"bcbccccbcbbcc"})
    assert r["families"] == 1 and not r["nonlinear"] and r["pots"] == ["2"]
    r = analyse_leaf(g, conds, "cabcaaccbbccc", fixed, two, twenty, set())
    assert r["families"] == 0 and not r["nonlinear"]
    assert r["pots"] == ["7/4 + sqrt(105)/4"] and pot_symbol(g).name == "P"


def test_full_street_leaves_once_undecided_are_decided():
    """Two leaves of kuhn3-full-simplified that the proof left undecided: the families of
    cbbcbcbcccacc hold sqrt(P^4 - 2P^3 + 5P^2 - 52P + 84), which is imaginary at some
    samples (there they are no real family: feasible nowhere on [2, 20], where before the
    sign of a complex number stopped the proof); cbbcbcbbbbbcc has a constraint quadratic
    in its free c1_K_kbf, but its affine ones (c1_K_kbf = 0 and P <= 2) leave only P = 2,
    which becomes a pot to check."""
    from pokerdyn.solvers.symbolic.model.conditions import conditions, pot_symbol
    from pokerdyn.solvers.symbolic.certificates.completeness import analyse_leaf
    from pokerdyn.solvers.symbolic.axis.sweep import generic_family

    g = get_game("kuhn3-full-simplified")
    fixed = reduce_game(g)
    conds = conditions(g, None, fixed)
    two, twenty = sp.Integer(2), sp.Integer(20)
    fams = generic_family(g, conds, "cbbcbcbcccacc", fixed)
    assert len(fams) == 2
    for fam in fams:
        assert feasible_parts(fam.constraints, fam.free_symbols(), pot_symbol(g), two,
                              twenty) == ([], [])
    r = analyse_leaf(g, conds, "cbbcbcbbbbbcc", fixed, two, twenty, set())
    assert r["families"] == 1 and not r["undecided"] and not r["new"] and r["pots"] == ["2"]


def test_extra_supports_enter_the_sweep():
    """sweep(extra=...): supports found elsewhere (the completeness proof's new families)
    are solved with P symbolic and placed on the pieces like the enumerations' own.  SKP
    from one sample pot 3/2 in one round sees only 'bbb' (nobody bets) on the whole axis;
    with the other supports of the full sweep as extra it gives that sweep's pieces."""
    g = get_game("skp")
    fixed = reduce_game(g)
    one, ten = sp.Integer(1), sp.Integer(10)
    alone = sweep(g, fixed, one, ten, start=["3/2"], rounds=1, ends=False)
    full = sweep(g, fixed, one, ten, start=["3/2", "6"])
    assert alone.supports == ["bbb"] and len(full.supports) == 5
    fed = sweep(g, fixed, one, ten, start=["3/2"], rounds=1, ends=False,
                extra=full.supports[1:])
    assert fed.supports == full.supports
    assert [pc.p_set for pc in fed.pieces] == [pc.p_set for pc in full.pieces]
