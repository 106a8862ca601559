"""Exact solution of a positive-dimensional polynomial system over QQ (a block of
indifference equations at a rational pot whose solutions are not isolated points).

The solution set is decomposed recursively (the classical reduction of a positive-
dimensional ideal to zero-dimensional ones over a field of rational functions; Gianni,
Trager and Zacharias, "Groebner bases and primary decomposition of polynomial ideals",
J. Symb. Comp. 6 (1988), section 3; Becker and Weispfenning, "Groebner Bases", 1993, 9.3):

1. a grevlex basis ``G`` of the ideal ``I`` over QQ; if ``I`` is zero-dimensional its
   points are back-solved from a lex basis (the caller's ``zero_dim``);
2. otherwise a maximal independent set ``U`` of unknowns (no leading monomial of ``G`` lies
   in QQ[U]; then ``I`` meets QQ[U] in 0): over the field QQ(U) the ideal is zero-
   dimensional (a basis for a block order, other unknowns before ``U``, specialises to
   the fibre of every ``u`` where its leading coefficients in QQ[U] do not vanish), and its reduced lex basis is back-solved with the Gianni-Kalkbrener rule
   (at each unknown, the basis element of least degree that does not vanish on the partial
   solution gives its values): linear factors over QQ(U) give the other unknowns as
   rational functions of ``U`` (a family with free parameters ``U``, checked exactly
   against the equations);
3. every point where one of these steps does not specialise lies on a hypersurface
   ``h(U) = 0``: ``h`` a leading coefficient of the block basis, a denominator of the lex
   basis over QQ(U), the leading coefficient
   of a chosen element on the partial solution, or a denominator of a root.  Elsewhere the
   families of step 2 are all solutions (division by the basis needs only those
   denominators), so the rest of the set is that of ``I + (f)`` for each irreducible factor
   ``f`` of each ``h``: recursion, which ends because the ideals grow strictly (``f`` is
   not in ``I``, as ``I`` meets QQ[U] in 0).  A factor without a zero in the box
   ``[0, 1]^U`` (interval bound; exact root count for one unknown) is skipped: every
   unknown is a probability.

What cannot be handled is counted, not dropped silently: an irreducible factor of degree
> 1 over QQ(U) (values algebraic in the free parameters) or a constant one with a root in
[0, 1] (an irrational constant inside a family) is recorded in :data:`UNHANDLED`, with the
system, and the caller reports it.
"""
from __future__ import annotations

import itertools
import time
from typing import Callable, Sequence

import sympy as sp
from sympy.polys.orderings import ProductOrder, grevlex

from pokerdyn.solvers.symbolic.feasibility import box_proofs

UNHANDLED: list[tuple[tuple[sp.Expr, ...], str]] = []
MAX_DEPTH = 12
BOX_SECONDS = 10.0  # per component whose points are algebraic: projections tried
SETS = 3  # independent sets tried per ideal for one giving rational families


def decompose(eqs: Sequence[sp.Expr], xs: Sequence[sp.Symbol],
              zero_dim: Callable[[list, list], list[dict]]) -> list[dict]:
    """Every solution component of ``eqs = 0`` as ``{x: value}`` (an unknown absent from a
    component is one of its free parameters; values rational in them).  ``zero_dim(lex,
    xs)`` back-solves a zero-dimensional lex basis over QQ (points)."""
    out: list[dict] = []
    _split([sp.expand(e) for e in eqs], list(xs), zero_dim, out, set(), 0)
    uniq: dict = {}
    for sol in out:
        uniq.setdefault(tuple(sorted((k.name, sp.srepr(v)) for k, v in sol.items())), sol)
    sols = list(uniq.values())
    return [b for b in sols if not any(a is not b and _inside(b, a, xs) for a in sols)]


def _inside(b: dict, a: dict, xs: Sequence[sp.Symbol]) -> bool:
    """Component ``b`` is a part of component ``a`` (fewer free unknowns, and ``a``'s
    values at ``b``'s point are ``b``'s)."""
    free_a = [x for x in xs if x not in a]
    free_b = [x for x in xs if x not in b]
    if len(free_b) >= len(free_a) or not set(free_b) <= set(free_a):
        return False
    at = {x: b[x] for x in free_a if x in b}
    try:
        return all(sp.cancel(v.xreplace(at) - b[x]) == 0 for x, v in a.items())
    except ZeroDivisionError:
        return False


def independent_sets(lead: Sequence[tuple[int, ...]], n: int) -> list[tuple[int, ...]]:
    """The largest sets of variable indices such that no leading monomial (exponent tuples
    of a grevlex basis) uses only those variables: their size is the dimension of the
    ideal (Becker and Weispfenning, 9.3)."""
    for k in range(n, -1, -1):
        out = [cand for cand in itertools.combinations(range(n), k)
               if not any(all(i in cand for i, e in enumerate(m) if e) for m in lead)]
        if out:
            return out
    return [()]


def _key(eqs: list, xs: list) -> tuple:
    return tuple(sp.srepr(g) for g in sp.groebner(eqs, *xs, order="grevlex", domain=sp.QQ).exprs)


def _generic(basis: list, xs: list, us: list) -> tuple[list, list, list]:
    """The families over QQ(U) (values rational in ``us``), the polynomials in ``us``
    where they may fail to specialise, and the factors algebraic over QQ(U)."""
    vs = [x for x in xs if x not in us]
    bad = block_leading_coefficients(basis, vs, us)
    GU = sp.groebner(basis, *vs, order="lex", domain=sp.QQ.frac_field(*us))
    for g in GU.exprs:
        for c in sp.Poly(g, *vs).coeffs():
            bad.append(sp.denom(sp.together(c)))
    sols: list = []
    alg: list = []
    _back(list(GU.exprs), vs, us, {}, sols, bad, alg)
    return sols, bad, alg


def block_leading_coefficients(basis: Sequence[sp.Expr], vs: Sequence[sp.Symbol],
                               us: Sequence[sp.Symbol]) -> list[sp.Expr]:
    """The leading coefficients in QQ[U] of a Groebner basis of the ideal for a block order
    (``vs`` before ``us``, grevlex in each): where none vanishes the basis specialises to
    one of the fibre (Kalkbrener's specialisation theorem), so the fibre's points are those
    of the basis over QQ(U); elsewhere the recursion takes over."""
    k = len(vs)
    order = ProductOrder((grevlex, lambda m: m[:k]), (grevlex, lambda m: m[k:]))
    G = sp.groebner(list(basis), *vs, *us, order=order, domain=sp.QQ)
    out = []
    for p in G.polys:
        terms = p.terms(order=order)
        lead = terms[0][0][:k]
        out.append(sum((c * sp.Mul(*[u ** e for u, e in zip(us, m[k:])])
                        for m, c in terms if m[:k] == lead), sp.S.Zero))
    return out


def _split(eqs: list, xs: list, zero_dim, out: list, seen: set, depth: int) -> None:
    G = sp.groebner(eqs, *xs, order="grevlex", domain=sp.QQ)
    key = tuple(sp.srepr(g) for g in G.exprs)
    if key in seen:
        return
    seen.add(key)
    if G.exprs == [1] or box_proofs.empty(G.exprs, xs):
        return
    if G.is_zero_dimensional:
        lex = G.fglm("lex") if len(xs) > 1 else G
        out.extend(zero_dim(list(lex.exprs), xs))
        return
    if depth > MAX_DEPTH:
        UNHANDLED.append((tuple(G.exprs), "recursion depth"))
        return
    best = None
    sets = independent_sets([p.monoms(order="grevlex")[0] for p in G.polys], len(xs))
    for idx in sets[:SETS]:
        us = [xs[i] for i in idx]
        sols, bad, alg = _generic(G.exprs, xs, us)
        if best is None or len(alg) < len(best[3]):
            best = (us, sols, bad, alg)
        if not alg:
            break
    us, sols, bad, alg = best
    for sol in sols:
        if any(sp.cancel(e.xreplace(sol)) != 0 for e in eqs):
            UNHANDLED.append((tuple(G.exprs), "a generic branch failed its exact check"))
            continue
        out.append(sol)
    for fac, why in alg:
        # a component algebraic over QQ(U): its own ideal, where another independent set
        # may make it rational (a curve quadratic in x and linear in u); else unhandled
        sub = list(G.exprs) + [fac]
        if fac.free_symbols & set(us) and _key(sub, xs) not in seen:
            _split(sub, xs, zero_dim, out, seen, depth + 1)
        elif not outside_box(sub, xs, first=sorted(fac.free_symbols, key=str)):
            UNHANDLED.append((tuple(sub), why))
    done: set = set()
    for b in bad:
        b = sp.expand(b)
        if not (b.free_symbols & set(us)):
            continue
        for f, _ in sp.factor_list(b, *us)[1]:
            f = sp.expand(f)
            if f in done or not _may_vanish(f, us):
                continue
            done.add(f)
            _split(list(G.exprs) + [f], xs, zero_dim, out, seen, depth + 1)


def _back(polys: list, vs: list, us: list, known: dict, out: list, bad: list,
          alg: list) -> None:
    """Back-solve a lex basis over QQ(U) from its last unknown (Gianni-Kalkbrener)."""
    todo = [x for x in vs if x not in known]
    if not todo:
        out.append(dict(known))
        return
    x = todo[-1]
    rest = set(todo[:-1])
    cands = []
    for f in polys:
        if f.free_symbols & rest or x not in f.free_symbols:
            continue
        g = sp.numer(sp.together(f.xreplace(known))) if known else sp.numer(sp.together(f))
        g = sp.expand(g)
        if g != 0 and x in g.free_symbols:
            cands.append(sp.Poly(g, x))
    if not cands:
        alg.append((sp.S.Zero, f"no basis element left for {x}"))
        return
    h = min(cands, key=lambda q: q.degree())
    bad.append(h.LC())
    for fac, _ in sp.factor_list(h.as_expr(), x, *us)[1]:
        pf = sp.Poly(fac, x)
        if pf.degree() < 1:
            continue
        if pf.degree() == 1:
            a, b = pf.all_coeffs()
            bad.append(a)
            r = sp.cancel(-b / a)
            if r.is_number and not 0 <= r <= 1:
                continue
            new = {k: sp.cancel(v.xreplace({x: r})) for k, v in known.items()}
            new[x] = r
            _back(polys, vs, us, new, out, bad, alg)
        elif fac.free_symbols & set(us):
            alg.append((fac, f"values of {x} algebraic in {us}: {fac}"))
        elif sp.Poly(fac, x).count_roots(0, 1):
            alg.append((fac, f"irrational constant {x}: root of {fac}"))


def _may_vanish(f: sp.Expr, us: Sequence[sp.Symbol]) -> bool:
    """False only if the polynomial ``f`` has no zero in the box ``[0, 1]^us``: exact root
    count for one unknown, else an interval bound on the monomials."""
    free = [u for u in us if u in f.free_symbols]
    if not free:
        return sp.expand(f) == 0
    if len(free) == 1:
        return sp.Poly(f, free[0]).count_roots(0, 1) > 0
    lo = hi = sp.S.Zero
    for mon, c in sp.Poly(f, *free).terms():
        if not any(mon):
            lo, hi = lo + c, hi + c
        else:
            lo, hi = lo + min(c, 0), hi + max(c, 0)
    return lo <= 0 <= hi


def outside_box(basis: Sequence[sp.Expr], xs: Sequence[sp.Symbol],
                first: Sequence[sp.Symbol] = (), seconds: float = BOX_SECONDS) -> bool:
    """True if the zero set of ``basis`` has no point in ``[0, 1]^xs``, shown by one
    projection: a univariate elimination polynomial without a root in [0, 1], or a plane
    one whose curve misses the square (:func:`curve_misses_square`).  False when no
    projection tried within ``seconds`` shows it (unknown).  ``first``: the unknowns of the
    algebraic factor; projections onto them (alone or paired with another unknown) are
    tried, each from a basis for a block order (the others before the projected ones)."""
    if len(first) == 2 and len(basis) and curve_misses_square(basis[-1], *first):
        return True
    t0 = time.process_time()
    pairs = [[a] for a in first] + [[a, b] for a in first for b in xs if b not in first]
    for pair in pairs:
        if time.process_time() - t0 > seconds:
            return False
        rest = [x for x in xs if x not in pair]
        k = len(rest)
        order = ProductOrder((grevlex, lambda m: m[:k]), (grevlex, lambda m: m[k:]))
        G = sp.groebner(list(basis), *rest, *pair, order=order, domain=sp.QQ)
        if G.exprs == [1]:
            return True
        for g in G.exprs:
            if g.free_symbols & set(rest):
                continue
            if len(g.free_symbols) == 1:
                x = next(iter(g.free_symbols))
                if not sp.Poly(g, x).count_roots(0, 1):
                    return True
            elif len(g.free_symbols) == 2 and curve_misses_square(g, *pair):
                return True
    return False


def curve_misses_square(f: sp.Expr, x: sp.Symbol, u: sp.Symbol) -> bool:
    """True if ``f(x, u) = 0`` has no point in ``[0, 1]^2``: no root on the four edges and,
    for the projection to ``u`` or to ``x``, no critical point inside (every bounded piece
    of the curve inside the square has one at its largest ``u``, where ``df/dx = 0``, and
    one at its largest ``x``, where ``df/du = 0``; a critical point is outside when one of
    its coordinates' resultants has no root in [0, 1]).  False: it may meet the square."""
    f = sp.expand(f)
    for s, v in ((x, 0), (x, 1), (u, 0), (u, 1)):
        e = sp.expand(f.xreplace({s: v}))
        if e == 0:
            return False
        t = u if s == x else x
        if t in e.free_symbols and sp.Poly(e, t).count_roots(0, 1):
            return False
    for fac, _ in sp.factor_list(f)[1]:
        if x not in fac.free_symbols or u not in fac.free_symbols:
            continue
        # critical points (f = df/dx = 0) in the square: none if either coordinate's
        # resultant has no root in [0, 1]; the same for df/du (the largest x of a piece)
        if all(_roots_in_unit(sp.resultant(fac, sp.diff(fac, d), x), u)
               and _roots_in_unit(sp.resultant(fac, sp.diff(fac, d), u), x) for d in (x, u)):
            return False
    return True


def _roots_in_unit(r: sp.Expr, t: sp.Symbol) -> bool:
    """``r`` (a polynomial in ``t`` alone) vanishes somewhere on [0, 1] (or everywhere)."""
    r = sp.expand(r)
    if r == 0:
        return True
    return t in r.free_symbols and sp.Poly(r, t).count_roots(0, 1) > 0
