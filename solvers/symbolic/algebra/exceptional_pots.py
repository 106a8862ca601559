"""Where a solution with ``P`` symbolic stops describing the solutions at ``P = v``, and where
a family's constraints can hold, both decided exactly for every ``P`` of an interval at once.

Exceptional pots of a block.  Let ``I`` be the ideal of a block's equations in
``QQ[P][x]`` and ``G`` its reduced Groebner basis for a block order ``x >> P`` (grevlex on
the unknowns, then ``P``: an elimination order; lex with ``P`` last is another, and
takes minutes where this takes a second).  By Kalkbrener's specialization theorem (M.
Kalkbrener, "On the stability of Groebner bases under specializations", J. Symbolic
Comput. 24 (1997) 51-58; the form used by the comprehensive Groebner system algorithms,
D. Kapur, Y. Sun and D. Wang, "A new algorithm for computing comprehensive Groebner
systems", ISSAC 2010, Theorem 3.1, and A. M. Bigatti, E. Palezzato and M. Torielli, "A new
iterative algorithm for comprehensive Groebner systems": a basis of ``J`` in ``K[A, X]``
is stable under the specializations where the "coefficients" in ``K[A]`` do not vanish),
at every ``v`` where no leading coefficient ``lc_x(g)`` (a polynomial in ``P``; for an
element free of ``x`` the element itself) vanishes, ``G`` with ``P = v`` is a Groebner
basis of the ideal with ``P = v``, with the same leading monomials as over ``QQ(P)``
(where ``G`` is a basis too, every ``lc_x`` being a unit there).  The quotient is then
free over the local ring at ``v`` with the same monomial basis, so (zero-dimensional
block) every solution at ``v`` is the value at ``v`` of a solution over the algebraic
closure of ``QQ(P)``: of a rational family or of an irrational branch (a factor of degree
> 1, ``groebner.SKIPPED``); a positive-dimensional block whose basis is linear in ``x``
is a reduced echelon form whose pivots do not vanish at ``v``, so its solution set at
``v`` is the family's formula at ``v`` (non-linear positive-dimensional blocks are not
covered: the caller lists them).  Elements free of
``x`` give the pots where the block has solutions although it has none for generic ``P``.
:func:`block_analysis` returns the positive real roots of all these ``lc_x``, whether the
block is zero-dimensional over QQ(P) and whether its basis is linear in ``x``.

Feasibility over an interval.  :func:`feasible_parts` decides where in ``[low, high]``
affine constraints in the free parameters with coefficients rational in ``P`` can hold:
between consecutive critical pots (for one parameter the roots of the coefficients and of
the pairwise crossings of its bounds; for several, those of every coefficient whose sign
a Fourier-Motzkin elimination asks for, added until none is new) the answer is constant,
so one rational sample per open part and every critical pot decide it exactly (a float
rejection with a clear margin first, as everywhere in the package).
"""
from __future__ import annotations

import itertools
import math
from typing import Mapping, Sequence

import sympy as sp
from sympy.polys.orderings import ProductOrder, grevlex

from pokerdyn.solvers.symbolic.feasibility import float_filter, pot_split


def inside(r: sp.Expr, low: sp.Expr, high: sp.Expr) -> bool:
    """``low <= r <= high`` exactly (``high`` may be ``oo``)."""
    return pot_split.sign(r - low) >= 0 and (high is sp.oo or pot_split.sign(high - r) >= 0)



def block_basis(eqs: Sequence[sp.Expr], xs: Sequence[sp.Symbol], p: sp.Symbol) -> list[sp.Expr]:
    """The reduced Groebner basis of ``eqs`` over QQ for the block order ``x >> P``
    (grevlex on the unknowns ``xs``, then ``P``: an elimination order, as the theorem
    needs; far cheaper than lex, which took minutes on blocks of 8-11 unknowns)."""
    eqs = [e for e in (sp.expand(e) for e in eqs) if e != 0]
    if not eqs:
        return []
    n = len(xs)
    order = ProductOrder((grevlex, lambda m: m[:n]), (grevlex, lambda m: m[n:]))
    return list(sp.groebner(eqs, *xs, p, order=order, domain=sp.QQ).exprs)


def leading_coefficient(g: sp.Expr, xs: Sequence[sp.Symbol], p: sp.Symbol) -> sp.Expr:
    """``lc_x(g)``: the coefficient in ``QQ[P]`` of the grevlex-leading monomial of ``g``
    in ``xs`` (``g`` itself when it is free of ``xs``)."""
    if not any(x in g.free_symbols for x in xs):
        return sp.expand(g)
    poly = sp.Poly(g, *xs)
    return sp.expand(poly.coeff_monomial(poly.monoms(order="grevlex")[0]))


def block_analysis(eqs: Sequence[sp.Expr], xs: Sequence[sp.Symbol], p: sp.Symbol,
                   low: sp.Expr = sp.S.Zero, high: sp.Expr = sp.oo) -> dict:
    """One block from one basis (block order x >> P): ``pots``, the positive real roots in
    ``[low, high]`` of its leading coefficients in ``P`` (outside them the basis
    specialises to a basis at ``P = v``: Kalkbrener, module docstring);
    ``zero_dimensional`` over QQ(P) (or no solution there); ``linear``: every basis
    element of total degree <= 1 in ``xs``; ``empty``: an element of QQ[P] (no solution
    but at its roots); ``basis``: the basis (for :func:`covered_by`)."""
    xs = list(xs)
    G = block_basis(eqs, xs, p)
    pots: list = []
    heads, linear, empty = [], True, False
    for g in G:
        lc = leading_coefficient(g, xs, p)
        if p in lc.free_symbols:
            pots += [r for r in pot_split.positive_roots(lc, p) if inside(r, low, high)]
        if not any(x in g.free_symbols for x in xs):
            empty = True  # a nonzero element of QQ[P]: a unit over QQ(P)
            continue
        poly = sp.Poly(g, *xs)
        heads.append(poly.monoms(order="grevlex")[0])
        linear = linear and poly.total_degree() <= 1
    pure = {next(i for i, e in enumerate(m) if e) for m in heads if sum(1 for e in m if e) == 1}
    return {"pots": pot_split.merge_points(pots), "linear": linear,
            "zero_dimensional": empty or len(pure) == len(xs), "basis": G, "empty": empty}


MAX_PRODUCTS = 256  # selections tried by :func:`covered_by`


def covered_by(basis: Sequence[sp.Expr], xs: Sequence[sp.Symbol], p: sp.Symbol,
               families: Sequence[Mapping[sp.Symbol, sp.Expr]]) -> bool:
    """True if every solution of the block at every ``P = v`` that is no root of a leading
    coefficient of ``basis`` (:func:`block_analysis`: the block's exceptional pots) nor a
    pole of the families lies in one of ``families`` at ``v`` (proved); False if that was
    not shown (a family not polynomial in its free unknowns, too many families, or a
    remainder).

    Each family ``x_j = n_j / d_j`` (``n_j`` polynomial in its free unknowns, ``d_j`` in
    ``P`` alone) is the zero set of ``h_j = d_j x_j - n_j``.  If every product that takes
    one ``h`` from each family reduces to 0 modulo ``basis`` over QQ(P) (grevlex in
    ``xs``), then ``D(P) prod h`` lies in the block's ideal with ``D`` a product of the
    basis' leading coefficients in ``P`` (the division divides by nothing else), so at
    every ``v`` with ``D(v) != 0`` each product vanishes on the solutions at ``v``, and
    the intersection over the products of the union over the families is the union of the
    families.  This covers non-linear positive-dimensional blocks, which the
    specialization argument of the module docstring leaves out.  A square root
    ``sqrt(R(P))`` in the families becomes a new unknown ``s`` with ``s^2 - R`` added to
    the basis (still a Groebner basis: its leading monomial ``s^2`` is prime to the
    others), so both branches ``s = +- sqrt R`` are covered at once."""
    xs = list(xs)
    roots: dict = {}
    gens = []
    for fam in families:
        hs = []
        for x in xs:
            val = fam.get(x, x)
            if val == x:
                continue
            val = sp.together(val)
            for a in val.atoms(sp.Pow):
                if a.exp == sp.S.Half and a.base.free_symbols <= {p}:
                    roots.setdefault(a, sp.Dummy(f"s{len(roots)}"))
            num, den = sp.fraction(sp.together(val.xreplace(roots)))
            try:
                sp.Poly(den, p, domain=sp.QQ)
                sp.Poly(num, *xs, *roots.values(), domain=sp.QQ.frac_field(p))
            except (sp.polys.polyerrors.BasePolynomialError, ValueError, TypeError):
                return False
            hs.append(sp.expand(den * x - num))
        if not hs:
            return True  # a family leaving every unknown free covers everything
        gens.append(tuple(sorted(set(hs), key=sp.default_sort_key)))
    gens = list(dict.fromkeys(gens))  # leaf families that agree on this block
    if not gens or math.prod(len(h) for h in gens) > MAX_PRODUCTS:
        return False
    G = [g for g in basis if set(xs) & g.free_symbols]
    if len(G) < len(basis):  # an element in P alone: no solution for generic P
        return True
    G += [s ** 2 - a.base for a, s in roots.items()]
    for pick in itertools.product(*gens):
        h = sp.expand(math.prod(pick))
        try:
            if sp.reduced(h, G, *xs, *roots.values(), order="grevlex",
                          domain=sp.QQ.frac_field(p))[1] != 0:
                return False
        except (sp.polys.polyerrors.BasePolynomialError, ValueError, TypeError):
            return False
    return True


def exceptional_pots(eqs: Sequence[sp.Expr], xs: Sequence[sp.Symbol], p: sp.Symbol,
                     low: sp.Expr = sp.S.Zero, high: sp.Expr = sp.oo) -> list[sp.Expr]:
    """The exceptional pots of a block in ``[low, high]`` (:func:`block_analysis`)."""
    return block_analysis(eqs, xs, p, low, high)["pots"]


def denominator_pots(exprs: Sequence[sp.Expr], p: sp.Symbol, low: sp.Expr = sp.S.Zero,
                     high: sp.Expr = sp.oo) -> list[sp.Expr]:
    """Positive real roots in ``[low, high]`` of the denominators in ``P`` of ``exprs``
    (a family's values and constraints): there its formula is undefined."""
    out = []
    for e in exprs:
        den = sp.fraction(sp.together(e))[1]
        for part in sp.Mul.make_args(sp.factor(den)):
            base = part.base if isinstance(part, sp.Pow) else part
            if p in base.free_symbols and not (base.free_symbols - {p}):
                out += [r for r in pot_split.positive_roots(base, p) if inside(r, low, high)]
            elif p in base.free_symbols:  # a denominator in P and free parameters: where
                # its coefficients in P all vanish it is identically zero
                c = sp.Poly(base, *sorted(base.free_symbols - {p}, key=str)).coeffs()
                g = sp.gcd_list([sp.expand(x) for x in c])
                if p in sp.sympify(g).free_symbols:
                    out += [r for r in pot_split.positive_roots(g, p) if inside(r, low, high)]
    return pot_split.merge_points(out)


def feasible_parts(cons: Sequence[pot_split.Constraint], xs: Sequence[sp.Symbol], p: sp.Symbol,
                   low: sp.Expr, high: sp.Expr) -> tuple[list[tuple], list[sp.Expr]]:
    """Where in ``[low, high]`` some ``xs`` satisfy ``cons`` (affine in ``xs``, rational in
    ``P``): ``(open parts (a, b) of positive length, isolated pots)``, exactly (``high``
    may be ``oo``: the last part is then ``(a, oo)``).  Raises ValueError for constraints
    that are not affine in ``xs``."""
    cons = [(sp.together(e), s) for e, s in cons]
    for e, _ in cons:
        pot_split._affine(e, xs)
    points = pot_split.merge_points([low, high] + (_critical_one(cons, xs, p, low, high)
                                                if len(xs) <= 1 else
                                                _critical_fm(cons, xs, p, low, high)))
    parts, isolated = [], []
    for a, b in zip(points, points[1:]):
        if _holds_at(cons, xs, p, pot_split.rational_between(a, b)):
            parts.append((a, b))
    for r in points:
        if r is not sp.oo and _holds_at(cons, xs, p, r) and not any(
                pot_split.sign(r - a) >= 0 and inside(r, a, b) for a, b in parts):
            isolated.append(r)
    return _join(parts), isolated


def _critical_one(cons, xs, p, low, high) -> list:
    """Pots where the solution set of constraints in at most one parameter ``x`` can
    change: roots of each constraint's numerator coefficients ``a`` (of ``x``) and ``b``
    and denominator, and of ``a_i b_j - a_j b_i`` (where two bounds on ``x`` cross).
    Between consecutive ones every sign and the order of the bounds are fixed."""
    ab, found = [], []
    for e, _ in cons:
        num, den = sp.fraction(sp.together(e))
        num = sp.expand(num)
        a = num.coeff(xs[0], 1) if xs else sp.S.Zero
        b = sp.expand(num - a * xs[0]) if xs else num
        ab.append((a, b))
        found += [den, a, b]
    for i in range(len(ab)):
        for j in range(i + 1, len(ab)):
            found.append(sp.expand(ab[i][0] * ab[j][1] - ab[j][0] * ab[i][1]))
    return _roots_inside(found, p, low, high, [])


def _critical_fm(cons, xs, p, low, high) -> list:
    """Critical pots for several parameters: the Fourier-Motzkin elimination takes the same
    path at every ``P`` between consecutive roots of the coefficients whose signs it asks
    for and of the conditions it ends with; roots are added until none is new."""
    points: list = [low, high]
    watched = [c for e, _ in cons for c in _p_parts(e, xs, p)]
    for _ in range(12):
        points = pot_split.merge_points(points + _roots_inside(watched, p, low, high, points))
        found: list = []
        for a, b in zip(points, points[1:]):
            _reduce(cons, xs, p, pot_split.rational_between(a, b), found)
        new = _roots_inside(found, p, low, high, points)
        watched += found
        if not new:
            return points
        points = pot_split.merge_points(points + new)
    raise ValueError("Fourier-Motzkin critical values did not settle")


def _p_parts(e: sp.Expr, xs: Sequence[sp.Symbol], p: sp.Symbol) -> list[sp.Expr]:
    """The coefficients and constant of ``e`` in ``xs`` that depend on ``P``."""
    num, den = sp.fraction(sp.together(e))
    out = [den] if p in den.free_symbols else []
    num = sp.expand(num)
    parts = [num.coeff(x, 1) for x in xs]
    parts.append(sp.expand(num - sum(c * x for c, x in zip(parts, xs))))
    return out + [c for c in parts if p in c.free_symbols]


def _roots_inside(exprs, p, low, high, points) -> list:
    out = []
    for e in exprs:
        if not (e.free_symbols - {p}) and p in e.free_symbols:
            for r in pot_split.positive_roots(e, p):
                if inside(r, low, high) and all(pot_split.sign(r - q) != 0 for q in points + out):
                    out.append(r)
    return out


def _reduce(cons, xs, p, s, seen: list) -> list:
    """Fourier-Motzkin at the sample ``P = s``: the conditions on ``P`` alone, every
    coefficient whose sign was asked for appended to ``seen``."""
    def sign_of(c):
        c = sp.sympify(c)
        if p in c.free_symbols:
            seen.append(sp.together(c))
        return pot_split.sign(sp.together(c).xreplace({p: s}))

    out = pot_split.eliminate(cons, xs, sign_of) if xs else list(cons)
    seen += [sp.together(e) for e, _ in out if p in sp.sympify(e).free_symbols]
    return out


def _holds_at(cons, xs, p, v) -> bool:
    """Exact feasibility at ``P = v``, after a floating-point rejection with a clear margin
    (:func:`solvers.symbolic.feasibility.float_filter.clearly_infeasible`, at most one parameter)."""
    if float_filter.clearly_infeasible(cons, list(xs), p, float(sp.N(v, 30))):
        return False
    for e, _ in cons:
        den = sp.fraction(sp.together(e))[1]
        if p in den.free_symbols and not (den.free_symbols - {p}) and \
                pot_split.sign(den.xreplace({p: v})) == 0:
            return False  # a pole at v: the family's formula is undefined there
    sub = [(e.xreplace({p: v}), s) for e, s in cons]
    if any(e.has(sp.zoo, sp.nan, sp.oo) for e, _ in sub):
        return False
    if any(e.has(sp.I) for e, _ in sub):
        return False  # the square root of a negative number: no real family at v
    return pot_split.feasible([(sp.expand(e), s) for e, s in sub], list(xs))


def _join(parts: list) -> list:
    out: list = []
    for a, b in parts:
        if out and pot_split.sign(out[-1][1] - a) == 0:
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out
