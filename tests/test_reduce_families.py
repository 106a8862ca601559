"""Reduction of equilibrium family lists (solvers.symbolic.families.reduction), checked by exact
membership at every pot of every piece of the P axis: the union of the families is
unchanged (points of every raw family lie in a reduced one, and points of every reduced
family are equilibria, exact NashConv 0), no reduced family has a pinned free parameter,
and none is contained in another.  The families are Billingham's sec. 2 (1)-(6) for
one-third street Kuhn poker and sec. 3 (12)-(14) for SKP."""
import pytest
import sympy as sp

from pokerdyn.games import get_game
from pokerdyn.solvers.symbolic.feasibility import pot_split
from pokerdyn.solvers.symbolic.families import reduction as rd
from pokerdyn.solvers.symbolic.model.conditions import Family, pot_symbol
from pokerdyn.solvers.symbolic.casesearch.case_enumeration import enumerate_families
from pokerdyn.solvers.symbolic.model.nash_conv import exact_nash_conv
from pokerdyn.solvers.symbolic.axis.piecewise import equilibrium_pieces, solutions_at

R = sp.Rational
PSTAR = (5 + sp.sqrt(73)) / 2  # Billingham (4)-(6)


def _pots(pieces):
    """Every critical value and one rational inside every open interval."""
    out = []
    for pc in pieces:
        s = pc.p_set
        if isinstance(s, sp.FiniteSet):
            out += list(s)
        else:
            out.append(pot_split.rational_between(s.start, s.end))
    return out


def _holds(e, strict):
    s = pot_split.sign(sp.radsimp(sp.together(e)))
    return s > 0 or (s == 0 and not strict)


def _contains(sol, point, p, pot):
    """Exact membership of ``point`` (name -> value) in the solution at ``P = pot``."""
    sub = {sp.Symbol(n, real=True): sp.sympify(point[n]) for n in sol.free}
    if p is not None:
        sub[p] = pot
    for k, v in sol.strategy:
        d = sp.sympify(v).xreplace(sub)
        if d.has(sp.zoo, sp.nan) or pot_split.sign(sp.radsimp(sp.cancel(d - point[k]))) != 0:
            return False
    for e, s in sol.raw:
        e = sp.together(sp.sympify(e).xreplace(sub))
        if e.has(sp.zoo, sp.nan) or not _holds(e, s):
            return False
    return True


def _points(game, sol, p, pot):
    """Exact points of a solution at ``pot``: its sample and, for one free parameter, the
    end points of its set that are in it or are equilibria (the closure of an equilibrium
    family lies in the closed Nash set)."""
    pts = [sol.sample(pot, p)]
    if len(sol.free) != 1:
        return pts
    x = sp.Symbol(sol.free[0], real=True)
    sub = {p: pot} if p is not None else {}
    cons = [(sp.expand(sp.sympify(e).xreplace(sub)), s) for e, s in sol.raw]
    cons = [(e, s) for e, s in cons if e.free_symbols]
    roots, _ = pot_split._univariate_candidates(cons, x)
    for r in roots:
        pt = {k: sp.radsimp(sp.cancel(sp.sympify(v).xreplace(sub).xreplace({x: r})))
              for k, v in sol.strategy}
        if any(v.has(sp.zoo, sp.nan) or not 0 <= v <= 1 for v in pt.values()):
            continue  # not a profile
        if pot_split._holds(cons, x, r) or exact_nash_conv(game, pot, pt) == 0:
            pts.append(pt)
    return pts




@pytest.fixture(scope="module", params=["kuhn3-third", "skp"])
def axis(request):
    game = get_game(request.param)
    raw = equilibrium_pieces(game, merge=False, reduce=False)
    return game, raw


def test_union_unchanged_and_reduced_at_every_pot(axis):
    game, raw = axis
    p = pot_symbol(game)
    for pot in _pots(raw):
        (old,) = [pc.solutions for pc in raw if pc.p_set.contains(pot) is sp.true]
        new = solutions_at(game, pot)
        assert new, pot
        # the union is unchanged: every raw family's points lie in a reduced family ...
        for sol in old:
            for pt in _points(game, sol, p, pot):
                assert any(_contains(n, pt, p, pot) for n in new), (pot, sol.strategy, pt)
        # ... and the reduced families hold equilibria only (sample and end points)
        for n in new:
            for pt in _points(game, n, p, pot):
                assert exact_nash_conv(game, pot, pt) == 0, (pot, n.strategy, pt)
        fams = [Family(n.strategy, n.free, tuple(n.raw), "") for n in new]
        for i, a in enumerate(fams):
            # no pinned free parameter: an interval has two distinct ends, a polygon an
            # interior point with slack, and reducing again changes nothing
            for _, lo, hi, _, _ in new[i].intervals:
                assert pot_split.sign(sp.sympify(hi).xreplace({p: pot}) - sp.sympify(lo).xreplace({p: pot})) > 0
            again = rd.reduce_families(game, [a], at=pot)
            assert [f.free for f in again] == [a.free], (pot, a)
            # no family inside another
            for j, b in enumerate(fams):
                assert i == j or not rd.family_contains(game, b, a, at=pot), (pot, a.strategy, b.strategy)


def _family(sols, **fixed):
    return [s for s in sols if all(s.as_dict()[k] == v for k, v in fixed.items())]


def test_kuhn3_third_pot_nine_is_solutions_a_and_b():
    """Billingham (5) Solution A: b_J + b_Q = 2/P with 0 <= b_Q <= 2/P, and (6) Solution B:
    b_J = 2/P, b_Q = 0, 0 <= c_Q <= 2/(P+4); c_K = (P-5)/(P+1), d_K = 1, the rest 0.  At
    P = 9 these are exactly the two families (the raw enumeration's third, a curve over o_K,
    is the point c_Q = 2/13 of B), and both ends of both are equilibria."""
    game = get_game("kuhn3-third")
    raw = enumerate_families(game, {"P": 9})
    assert len(raw) == 3
    red = rd.reduce_families(game, raw, at=9)
    sols = solutions_at(game, 9)
    for fams in (red, sols):
        assert len(fams) == 2
    base = {"c_K": R(2, 5), "d_Q": 0, "d_K": 1, "o_K": 0}
    bq, cq = sp.symbols("b_Q c_Q", real=True)
    (a,) = _family(sols, c_Q=0, **base)
    (b,) = _family(sols, b_J=R(2, 9), b_Q=0, **base)
    assert a.free == ("b_Q",) and sp.expand(a.as_dict()["b_J"] - (R(2, 9) - bq)) == 0
    assert a.intervals == (("b_Q", 0, R(2, 9), False, False),)
    assert b.free == ("c_Q",) and b.as_dict()["c_Q"] == cq
    assert b.intervals == (("c_Q", 0, R(2, 13), False, False),)
    # the rules decide: the ends are equilibria, one step beyond is not
    pt = dict.fromkeys(("b_J", "b_Q", "c_Q", "o_K"), 0) | base
    for extra in ({"b_J": R(2, 9)}, {"b_Q": R(2, 9)}, {"b_J": R(2, 9), "c_Q": R(2, 13)}):
        assert exact_nash_conv(game, 9, pt | extra) == 0
    assert exact_nash_conv(game, 9, pt | {"b_J": R(2, 9), "c_Q": R(2, 13) + R(1, 100)}) > 0
    # the two segments meet only at b_J = 2/9: a mixture of A's and B's interiors is no
    # equilibrium, so they are two families, not one polygon
    assert exact_nash_conv(game, 9, pt | {"b_J": R(1, 9), "b_Q": R(1, 9), "c_Q": R(1, 13)}) > 0


def test_kuhn3_third_point_five_is_one_polygon():
    """Billingham (3): at P = 5 the six raw families all lie in the closed polygon
    1/3 <= b_J + b_Q <= 2/5 (with b_J <= 1/3, b_J >= 0) with d_K = 1."""
    game = get_game("kuhn3-third")
    (s,) = solutions_at(game, 5)
    assert s.free == ("b_J", "b_Q")
    bj, bq = sp.symbols("b_J b_Q", real=True)
    got = {sp.srepr(c) for c in s.constraints}
    want = [sp.Ge(bj, 0), sp.Le(bj, R(1, 3)), sp.Ge(bj + bq, R(1, 3)), sp.Le(bj + bq, R(2, 5))]
    assert got == {sp.srepr(c) for c in want}
    # the tree's extra side b_J <= 1/3 is real: b_J = 3/8 with b_J + b_Q in range is not
    # an equilibrium, the corner (1/3, 1/15) is
    pt = {"b_Q": 0, "c_Q": 0, "c_K": 0, "d_Q": 0, "d_K": 1, "o_K": 0}
    assert exact_nash_conv(game, 5, pt | {"b_J": R(3, 8)}) > 0
    assert exact_nash_conv(game, 5, pt | {"b_J": R(1, 3), "b_Q": R(1, 15)}) == 0


def test_cli_prints_the_reduced_set_as_intervals(capsys):
    """``pokerdyn equilibria kuhn3-third --pot 9``: two families, each as an interval."""
    from pokerdyn.cli import main
    assert main(["equilibria", "kuhn3-third", "--pot", "9"]) == 0
    out = capsys.readouterr().out
    assert out.count("family ") == 2
    assert "constraints: 0 <= b_Q <= 2/9" in out and "constraints: 0 <= c_Q <= 2/13" in out
    assert main(["equilibria", "kuhn3-third", "--pot", "5"]) == 0
    assert "constraints: 0 <= b_J <= 1/3, 1/3 <= b_J + b_Q <= 2/5" in capsys.readouterr().out


def test_kuhn3_third_point_two_triangle_and_o_K_segment():
    """Billingham (1): at P = 2 the triangle b_J, b_Q >= 0, b_J + b_Q <= 2/3 (calls 0), and
    the all-zero profile with o_K free in [0, 1] (the P < 2 family, sec. 2)."""
    game = get_game("kuhn3-third")
    sols = solutions_at(game, 2)
    assert sorted(s.free for s in sols) == [("b_J", "b_Q"), ("o_K",)]
    (seg,) = [s for s in sols if s.free == ("o_K",)]
    assert seg.intervals == (("o_K", 0, 1, False, False),)


def test_kuhn3_third_whole_axis_intervals_symbolic_in_P():
    """Billingham (2), (4), (5), (6) as intervals with exact ends in P: (2, 5):
    0 <= b_Q <= 2/(P+1); (5, P*): (12 + 5P - P^2)/(6P(P+1)) <= b_Q <= 2/P; [P*, oo):
    0 <= b_Q <= 2/P and 0 <= c_Q <= 2/(P+4)."""
    game = get_game("kuhn3-third")
    P = pot_symbol(game)
    pieces = equilibrium_pieces(game)

    def ends(v):
        (pc,) = [pc for pc in pieces if pc.p_set.contains(v) is sp.true]
        return {(x, sp.simplify(lo), sp.simplify(hi), lo_o, hi_o)
                for s in pc.solutions for x, lo, hi, lo_o, hi_o in s.intervals}

    assert ends(3) == {("b_Q", 0, 2 / (P + 1), False, False)}
    assert ends(6) == {("b_Q", sp.simplify((12 + 5 * P - P ** 2) / (6 * P * (P + 1))), 2 / P,
                        False, False)}
    assert ends(9) == {("b_Q", 0, 2 / P, False, False), ("c_Q", 0, 2 / (P + 4), False, False)}
    (top,) = [pc for pc in pieces if pc.p_set.contains(20) is sp.true]
    assert top.p_set == sp.Interval(PSTAR, sp.oo)


def test_skp_reduced_families_are_billingham_12_to_14():
    """SKP on [P*, oo): the three isolated equilibria (12)-(14) stay three families."""
    game = get_game("skp")
    P = pot_symbol(game)
    (top,) = [pc for pc in equilibrium_pieces(game) if pc.p_set.contains(9) is sp.true]
    got = {tuple(sp.simplify(v) for _, v in s.strategy) for s in top.solutions}
    want = {(2 / (P + 1), 0, (P - 5) / (P + 1)), (2 / P, (P - 5) / (P + 1), 0),
            (2 / P, 2 / (P + 2), (P ** 2 - 5 * P - 12) / (P * (P + 1)))}
    assert {tuple(sp.simplify(x) for x in w) for w in want} == got


def test_skp_points_are_billingham_12_to_14():
    """pokerdyn.dynamics.skp_points derives S1-S3 from the enumeration; they are Billingham (12),
    (13), (14) exactly (expected values typed here, from the paper)."""
    from pokerdyn.dynamics.skp_points import POINTS, skp_point
    P = sp.Symbol("P", positive=True)
    want = {"S1": (2 / (P + 1), 0, (P - 5) / (P + 1)),  # (12)
            "S2": (2 / P, (P - 5) / (P + 1), 0),  # (13)
            "S3": (2 / P, 2 / (P + 2), (P ** 2 - 5 * P - 12) / (P * (P + 1)))}  # (14)
    for name, vals in want.items():
        for pot in (R(7), R(9), R(41, 4)):
            got = POINTS[name](pot)
            assert got == tuple(sp.sympify(v).subs(P, pot) for v in vals), (name, pot)
    assert skp_point("S3", 9) == {"b_J": 2 / 9, "c_K": 2 / 11, "d_Q": 24 / 90}
    with pytest.raises(Exception, match="P >= P"):
        skp_point("S3", 6)


def _segment(game, pot, free, values, lo, hi):
    """A raw family at ``pot``: ``values`` (name -> expr in the free parameter) and
    ``lo <= free <= hi``."""
    x = sp.Symbol(free, real=True)
    strat = tuple((n.name, sp.sympify(values.get(n.name, x if n.name == free else 0)))
                  for n in game.named)
    return Family(strat, (free,), ((x - lo, False), (hi - x, False)), "synthetic")


def test_two_segments_of_one_line_that_touch_are_joined():
    """Billingham (5) at P = 9 cut in two halves, the second parametrised by b_J instead of
    b_Q: the reduction joins them into 0 <= b_Q <= 2/9; two halves with a gap stay two."""
    game = get_game("kuhn3-third")
    bj, bq = sp.symbols("b_J b_Q", real=True)
    base = {"c_K": R(2, 5), "d_K": 1}
    a = _segment(game, 9, "b_Q", base | {"b_J": R(2, 9) - bq}, 0, R(1, 9))
    b = _segment(game, 9, "b_J", base | {"b_Q": R(2, 9) - bj}, 0, R(1, 9))
    (j,) = rd.reduce_families(game, [a, b], at=9)
    assert j.free == ("b_Q",)
    assert {(sp.expand(e), s) for e, s in j.constraints} == {(bq, False), (R(2, 9) - bq, False)}
    c = _segment(game, 9, "b_J", base | {"b_Q": R(2, 9) - bj}, 0, R(1, 18))
    assert len(rd.reduce_families(game, [a, c], at=9)) == 2
    # a segment inside the other is dropped, whichever parameter it uses
    d = _segment(game, 9, "b_J", base | {"b_Q": R(2, 9) - bj}, R(1, 9), R(1, 6))
    (k,) = rd.reduce_families(game, [a, b, d], at=9)
    assert k.free == ("b_Q",)


def test_a_constraint_rational_only_in_form_does_not_keep_a_duplicate():
    """The same rectangle twice, once with a bound written as a rational function of the
    parameters and P (as a generic family's constraints come at a point piece:
    kuhn3-full-simplified at P = 3 listed F1's end twice): one family after the
    reduction."""
    game = get_game("kuhn3-third")
    bq, ck, p = sp.Symbol("b_Q", real=True), sp.Symbol("c_K", real=True), pot_symbol(game)
    strat = tuple((n.name, {"b_Q": bq, "c_K": ck, "b_J": R(2, 9) - bq, "d_K": sp.S.One}.get(
        n.name, sp.S.Zero)) for n in game.named)
    box = ((bq, False), (R(1, 9) - bq, False), (ck, False))
    a = Family(strat, ("b_Q", "c_K"), box + ((R(1, 2) - ck, False),), "synthetic")
    # (c_K^2 - 25) / (c_K - 5) - 2 c_K - 5 + 1/2 + (P - 9) / (c_K - 5) = 1/2 - c_K at P = 9
    odd = ck ** 2 / (ck - 5) - 25 / (ck - 5) - 2 * ck - 5 + R(1, 2) + (p - 9) / (ck - 5)
    assert not sp.expand(odd.subs(p, 9)).is_polynomial(ck)
    b = Family(strat, ("b_Q", "c_K"), box + ((odd, False),), "synthetic")
    assert len(rd.reduce_families(game, [a, b], at=9)) == 1


def test_pinned_parameter_and_infeasible_family():
    """A family whose constraints pin its parameter becomes a point; an empty one is
    dropped (skp at P = 5, Billingham sec. 3)."""
    game = get_game("skp")
    x = sp.Symbol("b_J", real=True)
    pinned = Family((("b_J", x), ("c_K", sp.S.Zero), ("d_Q", sp.S.Zero)), ("b_J",),
                    ((x - R(1, 3), False), (R(1, 3) - x, False)), "synthetic")
    empty = Family(pinned.strategy, ("b_J",), ((x - R(1, 2), False), (R(1, 3) - x, False)), "e")
    (f,) = rd.reduce_families(game, [pinned, empty], at=5)
    assert f.free == () and f.as_dict()["b_J"] == R(1, 3)


@pytest.mark.parametrize("pot", [1, 2, 3, 5, 6, 9])
def test_direct_enumeration_at_a_pot_reduces_to_the_same_set(pot):
    """The fixed-pot path (enumerate with P exact, then reduce) and the whole-axis path give
    the same reduced families: each of one list equals one of the other (mutual
    containment, exact)."""
    game = get_game("kuhn3-third")
    direct = rd.reduce_families(game, enumerate_families(game, {"P": pot}), at=pot)
    axis = [Family(s.strategy, s.free, tuple(s.raw), "") for s in solutions_at(game, pot)]
    assert len(direct) == len(axis)
    for a in direct:
        assert any(rd.family_contains(game, a, b, at=pot) and rd.family_contains(game, b, a, at=pot)
                   for b in axis), a


def test_pieces_in_forked_processes_equal_the_serial_run(monkeypatch):
    """The pieces of the axis computed in forked processes come back exactly as the serial
    computation prints them (same families, same display forms, byte for byte)."""
    import json
    import threading

    from pokerdyn.games import get_game
    from pokerdyn.solvers.symbolic.axis import piecewise
    from pokerdyn.solvers.symbolic.axis.family_records import pieces_records

    g = get_game("skp")
    monkeypatch.setattr(piecewise, "PARALLEL_MIN_PIECES", 1)
    piecewise.clear_caches()
    parallel = json.dumps(pieces_records(piecewise.equilibrium_pieces(g)))
    piecewise.clear_caches()
    ev = threading.Event()
    th = threading.Thread(target=ev.wait)
    th.start()  # a second thread: the serial path
    try:
        serial = json.dumps(pieces_records(piecewise.equilibrium_pieces(g)))
    finally:
        ev.set()
        th.join()
        piecewise.clear_caches()
    assert parallel == serial and "P" in serial


def test_a_second_axis_call_takes_its_pieces_from_the_first(monkeypatch):
    """equilibrium_pieces keeps each piece's families across calls (a whole-axis sweep calls
    it once per round with mostly the same families): a second call with the per-call
    cache emptied computes no piece and prints the same axis, byte for byte, as a call with
    every cache emptied."""
    import json

    from pokerdyn.games import get_game
    from pokerdyn.solvers.symbolic.axis import piecewise
    from pokerdyn.solvers.symbolic.axis.family_records import pieces_records

    g = get_game("skp")
    piecewise.clear_caches()
    first = json.dumps(pieces_records(piecewise.equilibrium_pieces(g)))
    piecewise._CACHE.clear()
    with monkeypatch.context() as m:
        m.setattr(piecewise, "_piece", lambda item: pytest.fail("piece computed again"))
        again = json.dumps(pieces_records(piecewise.equilibrium_pieces(g)))
    piecewise.clear_caches()
    fresh = json.dumps(pieces_records(piecewise.equilibrium_pieces(g)))
    piecewise.clear_caches()
    assert first == again == fresh and "P" in first
