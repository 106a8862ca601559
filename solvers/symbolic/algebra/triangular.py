"""The triangular solver of the case search's leaves: the equalities of one case combination
solved one unknown at a time over QQ(P) (or an algebraic extension), recording every pivot
(its roots in ``P`` are critical values of the P axis).  Systems it cannot solve this way
(a non-linear root in ``P``) are dropped and recorded in :data:`DROPPED`; the Groebner solver
(:mod:`.groebner`) solves them at a fixed pot."""
from __future__ import annotations

from typing import Sequence

import sympy as sp
from sympy.polys.rings import PolyRing



def _ring(eqs: Sequence[sp.Expr], gens: Sequence[sp.Symbol]):
    """The polynomial ring over the coefficient field of ``eqs`` (QQ, QQ(P) or an algebraic
    extension such as QQ<sqrt(73)>) and the equations as its elements."""
    try:
        polys, opt = sp.parallel_poly_from_expr(eqs, *gens, field=True, extension=True)
    except sp.PolynomialError:
        polys, opt = sp.parallel_poly_from_expr(eqs, *gens, domain="EX")
    ring = PolyRing(list(gens), opt.domain)
    return ring, [ring.from_dict(pl.rep.to_dict()) for pl in polys]


def _split(f, i: int):
    """``f = f1 * x_i + f0`` (None if ``f`` has degree > 1 in ``x_i``)."""
    ring = f.ring
    f1, f0 = {}, {}
    for m, c in f.items():
        if m[i] > 1:
            return None
        target = f1 if m[i] == 1 else f0
        target[m[:i] + (0,) + m[i + 1:]] = c
    return ring.from_dict(f1), ring.from_dict(f0)


def _ground(f):
    return f.ring.domain.to_sympy(f.coeff(1)) if f else sp.S.Zero


def solve_triangular(eqs: Sequence[sp.Expr], unknowns: Sequence[sp.Symbol], p: sp.Symbol | None,
                     seen: list | None = None, nonzero=None):
    """All solution branches of polynomial equations ``eqs = 0`` in ``unknowns`` (``P``
    symbolic or substituted): list of ``(solution, only_at, pivots)``; unsolved unknowns stay
    free.  Works in a sparse polynomial ring over the coefficient field; a pivot whose
    coefficient involves other unknowns splits into 'coefficient = 0' and '!= 0' branches.
    ``nonzero`` (expression -> bool, e.g. clearly nonzero at a learned limit): pivots it
    accepts are preferred and their 'coefficient = 0' branch is not followed (only the
    branches through that point are wanted)."""
    gens = sorted(unknowns, key=lambda s: s.name)
    if not gens:
        only, dead = [], False
        for e in eqs:
            e = sp.expand(e)
            if e != 0 and (p is None or p not in e.free_symbols):
                dead = True
            elif e != 0:
                only.append(e)
        return [] if dead else [({}, tuple(only), ())]
    ring, polys = _ring(list(eqs), gens)
    out = []
    stack = [(polys, [], [], [])]
    while stack:
        cur, steps, only, piv = stack.pop()
        clean, dead = [], False
        for f in cur:
            if not f:
                continue
            if f.is_ground:
                v = _ground(f)
                if p is not None and p in v.free_symbols:
                    only.append(v)
                    continue
                dead = True
                break
            clean.append(f.monic())
        if dead:
            continue
        if not clean:
            out.append((_back_substitute(ring, steps, gens), tuple(only), tuple(piv)))
            continue
        best = None
        for k, f in enumerate(clean):
            for i in range(len(gens)):
                if f.degree(i) != 1:
                    continue
                f1, f0 = _split(f, i)
                if f1.is_ground:
                    rank = 0 if not _ground(f1).free_symbols else 1
                else:
                    rank = 2
                key = (rank - (nonzero is not None and rank == 2 and nonzero(f1.as_expr())),
                       len(f1), len(f0) + len(f))
                if best is None or key < best[0]:
                    best = (key, k, i, f1, f0)
            if best and best[0][0] == 0:
                break
        if best is None:
            _fallback(ring, clean, steps, only, piv, gens, p, out)
            continue
        (rank, _, _), k, i, f1, f0 = best
        others = clean[:k] + clean[k + 1:]
        rank = 2 if rank == 1 and not f1.is_ground else rank
        if rank == 2 and not (nonzero is not None and nonzero(f1.as_expr())):
            # the coefficient may vanish: branch
            stack.append((others + [f1, f0], list(steps), list(only), list(piv)))
        new = [_compose(o, i, -f0, f1) for o in others]
        new_piv = piv + ([_ground(f1) if rank == 1 else f1.as_expr()] if rank else [])
        if seen is not None and rank == 1:
            seen.append(_ground(f1))
        stack.append((new, steps + [(i, -f0, f1)], list(only), new_piv))
    return out


def _compose(f, i: int, num, den):
    """Numerator of ``f`` with ``x_i = num/den`` (``den`` ground: exact substitution)."""
    if den.is_ground:
        inv = den.ring.domain.quo(den.ring.domain.one, den.coeff(1))
        return f.compose(f.ring.gens[i], num.mul_ground(inv))
    ring = f.ring
    by_deg: dict[int, dict] = {}
    for m, c in f.items():
        by_deg.setdefault(m[i], {})[m[:i] + (0,) + m[i + 1:]] = c
    d = max(by_deg)
    pw = lambda f, k: f ** k if k else ring.one  # a zero numerator: 0**0 is 1 here
    return sum((ring.from_dict(part) * pw(num, k) * pw(den, d - k) for k, part in by_deg.items()),
               ring.zero)


def _back_substitute(ring, steps, gens, init: dict | None = None) -> dict:
    if init:
        out = dict(init)
        for i, num, den in reversed(steps):
            out[gens[i]] = sp.cancel((num.as_expr() / den.as_expr()).xreplace(out))
        return out
    vals: dict = {}
    for i, num, den in reversed(steps):
        if den.is_ground:
            inv = ring.domain.quo(ring.domain.one, den.coeff(1))
            v = num.mul_ground(inv)
            for j, w in vals.items():
                if isinstance(w, type(v)):
                    v = v.compose(ring.gens[j], w)
            vals[i] = v
        else:  # a fraction in other unknowns: expression land
            vals[i] = num.as_expr() / den.as_expr()
    out = {}
    for i, v in vals.items():
        e = v.as_expr() if not isinstance(v, sp.Expr) else v
        out[gens[i]] = e
    # fractions may still contain later-solved unknowns
    for _ in range(len(out)):
        out = {k: (sp.cancel(v.xreplace(out)) if v.free_symbols & out.keys() else v)
               for k, v in out.items()}
    return out


def _fallback(ring, clean, steps, only, piv, gens, p, out) -> None:
    """No equation is linear in an unknown: solve the first one for an unknown with sympy and
    recurse on the rest.  With a symbolic pot, irrational branches (roots with radicals in
    ``P``) are dropped and recorded in ``DROPPED``: they are solved exactly at a fixed pot
    (``enumerate_families`` with ``values``, where the radical is a number);
    tests/test_enumeration_at_pot.py checks at a pot inside every piece of the axis that
    they add no equilibrium to the whole-axis result."""
    f = clean[0]
    i = next(j for j in range(len(gens)) if f.degree(j) > 0)
    x = gens[i]
    if p is not None and f.degree(i) == 2:
        # quadratic over QQ(P, ...): its roots are free of radicals iff the discriminant is
        # a square; decide that by factoring instead of calling sp.solve (seconds per call)
        a, b, c = sp.Poly(f.as_expr(), x).all_coeffs()
        disc = sp.cancel(b * b - 4 * a * c)
        num, den = sp.fraction(disc)  # a square in QQ(P, ...) iff num * den is a square
        coeff, facs = sp.factor_list(sp.expand(num * den))
        if not (coeff.is_Rational and coeff >= 0 and sp.sqrt(coeff).is_Rational
                and all(m % 2 == 0 for _, m in facs)):
            DROPPED.extend((-b + s * sp.sqrt(disc)) / (2 * a) for s in (-1, 1))
            return
    # a quadratic in x alone over QQ (P a number; kuhn3-third at P = 9 has one): its roots
    # q +- r*sqrt(n) are left as they are by sympy's simplify, which would import
    # sympy.physics.units (0.17 s); other equations keep it (over QQ(sqrt(73)), say, it
    # rewrites sqrt(2)*sqrt(-11039 + 1301*sqrt(73)) as sqrt(-22078 + 2602*sqrt(73)))
    plain = (f.ring.domain.is_QQ and f.degree(i) == 2
             and all(f.degree(j) <= 0 for j in range(len(gens)) if j != i))
    for root in sp.solve(f.as_expr(), x, **({"simplify": False} if plain else {})):
        rad = [a for a in root.atoms(sp.Pow) if a.exp.is_Rational and a.exp.q != 1]
        if (p is not None and rad) or any(a.free_symbols - {p} for a in rad):
            DROPPED.append(root)  # a radical in P or in other unknowns: not an affine family
            continue
        # numerators: a root rational in other unknowns leaves rational equations
        rest = [sp.expand(sp.numer(sp.together(g.as_expr().xreplace({x: root}))))
                for g in clean[1:]]
        others = [g for g in gens if g != x]
        for sol2, only2, piv2 in solve_triangular(rest, others, p):
            init = {**sol2, x: sp.cancel(root.xreplace(sol2))}
            out.append((_back_substitute(ring, steps, gens, init), tuple(only) + only2,
                        tuple(piv) + piv2))


DROPPED: list = []
