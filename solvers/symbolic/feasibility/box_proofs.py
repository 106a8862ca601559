"""Exact proofs that a polynomial system has no point in the unit box, by interval
arithmetic in rationals (branch and prune).

Every unknown of an indifference block or a family's free parameter is a probability, so a
system whose zero set misses ``[0, 1]^n`` has no equilibrium.  A Groebner basis shows that
for many blocks at once (one element without a zero on the box,
:func:`solvers.symbolic.algebra.positive_dimensional.outside_box`); the rest often need the box cut into parts:

1. contraction (HC4-style, on the basis elements and the equations themselves): where an
   element is linear in an unknown, ``g = a x + b`` with ``0`` outside the range of ``a``,
   ``x`` lies in the range of ``-b / a``; an inequality ``g >= 0`` gives a one-sided
   bound the same way; a range that excludes 0 (or is negative for ``g >= 0``) empties the
   box;
2. bisection of the widest unknown once contraction stalls, depth first, within a budget of
   boxes and seconds.

Ranges are computed exactly (Fractions; monomials are monotone on boxes inside the
non-negative orthant), bounds are rounded outwards to ``2^-BITS``, so a box declared empty
is empty: the answer True is a proof; False only means no proof was found in the budget
(the zero set may meet the box, as for every block that has equilibria).
"""
from __future__ import annotations

import math
import time
from fractions import Fraction
from typing import Sequence

import sympy as sp

BITS = 24
BOXES = 16  # a default for solvers that call this on every block: where the zero set does
SECONDS = 1.0  # meet the box no proof can come, and 16 boxes cost about 0.1 s

Poly = list  # [(coefficient, exponent tuple)]
Box = list   # [(lo, hi)] per unknown


def empty(eqs: Sequence[sp.Expr], xs: Sequence[sp.Symbol], ineqs: Sequence[sp.Expr] = (),
          boxes: int = BOXES, seconds: float = SECONDS) -> bool:
    """True if ``eqs = 0`` and ``ineqs >= 0`` (polynomials over QQ in ``xs``) have no common
    point in ``[0, 1]^xs`` (proved); False if no proof was found within ``boxes`` boxes and
    ``seconds`` (or an input is not a polynomial over QQ)."""
    xs = list(xs)
    try:
        eq = [_poly(e, xs) for e in eqs]
        iq = [_poly(e, xs) for e in ineqs]
    except (sp.PolynomialError, ValueError, TypeError):
        return False
    eq = [p for p in eq if p]
    # the same search in floats first, as a filter: where it finds no proof the exact one
    # (5-50x slower) is not tried; where it does, the proof is redone in rationals
    fl = [[(float(c), m) for c, m in p] for p in eq], [[(float(c), m) for c, m in p] for p in iq]
    return _search(*fl, len(xs), float, boxes, seconds) and \
        _search(eq, iq, len(xs), Fraction, boxes, seconds)


def _search(eq: list, iq: list, n: int, num: type, boxes: int, seconds: float) -> bool:
    """Branch and prune over ``[0, 1]^n`` with numbers of type ``num`` (Fraction: a proof;
    float: no rounding control, a filter only)."""
    splits = [(p, _linear_splits(p, n)) for p in eq]
    isplits = [(p, _linear_splits(p, n)) for p in iq]
    stack = [[(num(0), num(1))] * n]
    t0, k = time.process_time(), 0
    while stack:
        k += 1
        if k > boxes or time.process_time() - t0 > seconds:
            return False
        box = _contract(stack.pop(), splits, isplits)
        if box is None:
            continue
        i = max(range(n), key=lambda j: box[j][1] - box[j][0])
        lo, hi = box[i]
        if hi - lo <= num(1) / 2 ** BITS:
            return False  # a tiny box that stays: the zero set may well meet it
        mid = _round((lo + hi) / 2, down=True)
        for part in ((lo, mid), (mid, hi)):
            nb = list(box)
            nb[i] = part
            stack.append(nb)
    return True


def infeasible(cons: Sequence[tuple[sp.Expr, bool]], xs: Sequence[sp.Symbol],
               boxes: int = BOXES, seconds: float = SECONDS) -> bool:
    """True if the constraints ``e >= 0`` (``e > 0`` when strict: relaxed to ``>=``, which
    keeps a proof of emptiness sound) have no common point in ``[0, 1]^xs``.  A rational
    constraint enters as its numerator when its denominator has one sign on the box;
    others are left out (fewer constraints: still sound)."""
    ineqs = []
    box = [(Fraction(0), Fraction(1))] * len(xs)
    for e, _ in cons:
        num, den = sp.fraction(sp.together(sp.sympify(e)))
        try:
            lo, hi = _range(_poly(den, list(xs)), box)
        except (sp.PolynomialError, ValueError, TypeError):
            continue
        if lo > 0:
            ineqs.append(num)
        elif hi < 0:
            ineqs.append(-num)
    return empty([], xs, ineqs, boxes, seconds)


def _poly(e: sp.Expr, xs: list) -> Poly:
    p = sp.Poly(sp.expand(e), *xs, domain=sp.QQ)
    return [(Fraction(int(c.p), int(c.q)), m) for m, c in p.terms()]


def _linear_splits(p: Poly, n: int) -> list:
    """``(i, a, b)`` with ``p = a x_i + b`` for each unknown ``x_i`` of degree 1 in ``p``."""
    out = []
    for i in range(n):
        degs = {m[i] for _, m in p}
        if max(degs) != 1:
            continue
        a = [(c, m[:i] + (0,) + m[i + 1:]) for c, m in p if m[i] == 1]
        b = [(c, m) for c, m in p if m[i] == 0]
        out.append((i, a, b))
    return out


def _range(p: Poly, box: Box) -> tuple[Fraction, Fraction]:
    """The range bound of ``p`` on ``box`` (every bound >= 0: monotone monomials), exact
    for Fractions."""
    lo = hi = 0
    for c, m in p:
        mlo = mhi = 1
        for (a, b), e in zip(box, m):
            if e:
                mlo *= a ** e
                mhi *= b ** e
        if c >= 0:
            lo, hi = lo + c * mlo, hi + c * mhi
        else:
            lo, hi = lo + c * mhi, hi + c * mlo
    return lo, hi


def _contract(box: Box, splits: list, isplits: list, rounds: int = 30) -> Box | None:
    """The box narrowed by every linear split until it moves less than 1 %; None if empty."""
    for _ in range(rounds):
        moved = False
        for equal, group in ((True, splits), (False, isplits)):
            for p, lin in group:
                lo, hi = _range(p, box)
                if hi < 0 or (equal and lo > 0):
                    return None
                for i, a, b in lin:
                    new = _solve_linear(_range(a, box), _range(b, box), box[i], equal=equal)
                    if new is None:
                        return None
                    moved |= _shrunk(box[i], new)
                    box[i] = new
        if not moved:
            return box
    return box


def _solve_linear(a: tuple, b: tuple, x: tuple, equal: bool) -> tuple | None:
    """``x`` narrowed by ``a x + b = 0`` (``equal``) or ``a x + b >= 0``: ranges ``a``,
    ``b``; None if no value is left."""
    (alo, ahi), (blo, bhi), (lo, hi) = a, b, x
    if alo <= 0 <= ahi:
        return x  # a may vanish: no bound on x from this element
    # -b / a over the box: the quotient of intervals, a of one sign
    qs = [-bb / aa for bb in (blo, bhi) for aa in (alo, ahi)]
    qlo, qhi = min(qs), max(qs)
    if equal:
        nlo, nhi = max(lo, _round(qlo, down=True)), min(hi, _round(qhi, down=False))
    elif alo > 0:  # x >= -b/a for some admissible b, a: x >= min(-b/a)
        nlo, nhi = max(lo, _round(qlo, down=True)), hi
    else:          # a < 0: x <= -b/a: x <= max(-b/a)
        nlo, nhi = lo, min(hi, _round(qhi, down=False))
    return None if nlo > nhi else (nlo, nhi)


def _round(q, down: bool):
    """``q`` rounded outwards to a multiple of ``2^-BITS`` (keeps the numbers small), in
    its own type (Fraction or float)."""
    s = q * 2 ** BITS
    k = math.floor(s) if down else math.ceil(s)
    return Fraction(k, 2 ** BITS) if isinstance(q, Fraction) else k / 2 ** BITS


def _shrunk(old: tuple, new: tuple) -> bool:
    w = old[1] - old[0]
    return w > 0 and (new[1] - new[0]) * 100 < 99 * w
