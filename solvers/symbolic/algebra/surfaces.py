"""Components of dimension two or more of a support's block, screened for equilibria.

The curve solver (:mod:`.curves`) works over the field ``QQ(u)`` of one unknown; where the
basis there is not zero-dimensional, the solution set has a component of dimension > 1 on
which ``u`` varies, and the curve solver says so and stops (kuhn3 at ``P = 4``: supports
ccbbcbcbabccbcbbaccbbcbcabc and cccbcbcbabccccbbaccbbcbccbc).  This screen decides such
components where it can, exactly:

* every irreducible component of dimension >= 2 has two coordinates ``a, b`` that are
  algebraically independent on it, so every pair of the block's unknowns is tried;
* over ``QQ(a, b)`` a grevlex basis ``(1)`` means ``d(a, b)`` lies in the ideal for some
  ``d != 0``: no component on which ``a, b`` are independent;
* a zero-dimensional basis is turned into lex (FGLM); an element ``g(x)`` of one unknown
  with rational coefficients and no real root in ``[0, 1]`` (Sturm count, exact) has
  ``d(a, b) g`` in the ideal, so ``g`` vanishes on every component on which ``a, b`` are
  independent, and ``x``, a mixed frequency, cannot lie in ``[0, 1]`` there: no
  equilibrium;
* else an element ``x - c`` with ``c`` 0 or 1 puts every such component in the face where
  ``x`` is pure: the support with ``x``'s letter ``b`` (``c = 0``) or ``a`` (``c = 1``),
  whose equations it satisfies (its sign condition with gain 0), so solving that support
  (:func:`solvers.symbolic.learned.equilibrium_set.follow_curves` does) finds its equilibria.

No notes and no faces: no component of dimension >= 2 holds an equilibrium; no notes: every
such component lies in one of the faces returned.  Each note names a pair left undecided
(basis too slow, a component of dimension > 2, or one neither excluded nor in a face)."""
from __future__ import annotations

import time
from itertools import combinations
from typing import Sequence

import sympy as sp

from pokerdyn.solvers.symbolic.algebra.support_solve import SupportTimeout, deadline

PAIR_SECONDS = 20.0  # the basis over QQ(a, b) of one pair
BUDGET = 600.0  # all pairs of one block


UNIT, POSITIVE, TIMEOUT = "unit", "positive-dimensional", "timeout"


def lex_basis(eqs: Sequence[sp.Expr], vs: Sequence[sp.Symbol], params: Sequence[sp.Symbol],
              seconds: float):
    """The lex basis of ``eqs`` in ``vs`` over ``QQ(params)`` (grevlex, then FGLM) within
    ``seconds``, or :data:`UNIT` (the basis is (1)), :data:`POSITIVE` (not
    zero-dimensional) or :data:`TIMEOUT`."""
    try:
        with deadline(seconds):
            G = sp.groebner(eqs, *vs, order="grevlex", domain=sp.QQ.frac_field(*params))
            if G.exprs == [1]:
                return UNIT
            if not G.is_zero_dimensional:
                return POSITIVE
            return G.fglm("lex") if len(vs) > 1 else G
    except SupportTimeout:
        return TIMEOUT


def screen(eqs: Sequence[sp.Expr], xs: Sequence[sp.Symbol], seconds: float = PAIR_SECONDS,
           budget: float = BUDGET) -> tuple[list[str], list[tuple[sp.Symbol, int]]]:
    """The components of dimension >= 2 of ``eqs = 0`` in ``[0, 1]^xs`` (module
    docstring): the notes on the pairs left undecided, and the faces ``(x, 0 or 1)`` that
    hold the components not excluded."""
    eqs = [sp.expand(e) for e in eqs]
    notes: list[str] = []
    faces: list[tuple[sp.Symbol, int]] = []
    t0 = time.process_time()
    for a, b in combinations(xs, 2):
        if time.process_time() - t0 > budget:
            notes.append(f"{a}, {b}: not tried (budget of {budget:g} s spent)")
            continue
        vs = [x for x in xs if x not in (a, b)]
        lex = lex_basis(eqs, vs, (a, b), seconds)
        if isinstance(lex, str):  # UNIT, POSITIVE or TIMEOUT
            if lex != UNIT:
                notes.append(f"{a}, {b}: " + ("dimension > 2" if lex == POSITIVE else
                                              f"basis not computed in {seconds:g} s"))
            continue
        if any(outside_unit_interval(g) for g in lex.exprs):
            continue
        face = next((f for g in lex.exprs if (f := _pure(g, vs))), None)
        if face is None:
            notes.append(f"{a}, {b}: a component of dimension 2 neither excluded nor in a face")
        elif face not in faces:
            faces.append(face)
    return notes, faces


def _pure(g: sp.Expr, vs: Sequence[sp.Symbol]) -> tuple[sp.Symbol, int] | None:
    """``(x, c)`` if ``g`` is ``k (x - c)`` for an unknown ``x`` and ``c`` 0 or 1."""
    g = sp.sympify(g)
    if len(g.free_symbols) != 1 or (x := next(iter(g.free_symbols))) not in vs:
        return None
    try:
        poly = sp.Poly(g, x, domain=sp.QQ)
    except (sp.PolynomialError, sp.CoercionFailed):
        return None
    if poly.degree() != 1:
        return None
    c = -poly.nth(0) / poly.nth(1)
    return (x, int(c)) if c in (0, 1) else None


def face_case(case: str, names: Sequence[str], face: tuple[sp.Symbol, int]) -> str:
    """The support ``case`` with the frequency of ``face`` made pure (``names``: the
    conditions' names in the case's order)."""
    i = list(names).index(face[0].name)
    return case[:i] + ("a" if face[1] == 1 else "b") + case[i + 1:]


def outside_unit_interval(g: sp.Expr) -> bool:
    """``g`` is a polynomial in one unknown with rational coefficients and no real root in
    ``[0, 1]`` (and not constant zero)."""
    g = sp.sympify(g)
    if len(g.free_symbols) != 1:
        return False
    try:
        poly = sp.Poly(g, *g.free_symbols, domain=sp.QQ)
    except (sp.PolynomialError, sp.CoercionFailed):
        return False
    return not poly.is_zero and poly.count_roots(0, 1) == 0


def support_faces(conds: Sequence, case: str, seconds: float = PAIR_SECONDS,
                  budget: float = BUDGET) -> tuple[list[str], list[str]]:
    """:func:`screen` on every block of two or more unknowns of the support ``case``
    (``conds``: the counterfactual gains): the notes left, and the supports (faces) that
    hold its components of dimension >= 2 not excluded."""
    from pokerdyn.solvers.symbolic.algebra.support_solve import blocks, case_equations

    _, xs, eqs = case_equations(conds, case)
    names = [c.symbol.name for c in conds]
    notes: list[str] = []
    cases: list[str] = []
    for beqs, bxs in blocks(eqs, xs):
        if len(bxs) < 2:
            continue
        more, faces = screen(beqs, sorted(bxs, key=xs.index), seconds, budget)
        notes += more
        cases += [c for f in faces if (c := face_case(case, names, f)) not in cases]
    return notes, cases
