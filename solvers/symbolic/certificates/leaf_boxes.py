"""Exact proofs that a leaf of the case walk holds no equilibrium for any pot in a range,
with ``P`` one more unknown of the box proof (:func:`solvers.symbolic.feasibility.box_proofs.empty`): the completeness
proof (:mod:`.completeness`) uses them to skip whole leaves (:func:`empty_between`), to
settle a leaf at an algebraic pot without computing in its number field
(:func:`empty_near`) and, bisecting the range, for leaves over their budget
(:func:`empty_in_parts`)."""
from __future__ import annotations

from typing import Sequence

import sympy as sp

from pokerdyn.solvers.symbolic.feasibility import pot_split
from pokerdyn.solvers.symbolic.model.conditions import Condition
from pokerdyn.solvers.symbolic.feasibility import box_proofs
from pokerdyn.solvers.symbolic.algebra.support_solve import blocks, case_equations, pure_values


def leaf_blocks(conds: Sequence[Condition], case: str) -> list[tuple[list, list]]:
    """The independent blocks (equations, unknowns) of a leaf's indifference equations."""
    _, unknowns, eqs = case_equations(conds, case)
    return blocks(eqs, unknowns)


ENCLOSURE = sp.Rational(1, 10 ** 12)  # half-width of the rational interval around a pot
NEAR_BOXES, NEAR_SECONDS = 400, 60.0  # the box proof's budget per system: boxes decide
# (a proof does not depend on the load); the seconds only cap it


def enclosure(v: sp.Expr, width: sp.Rational = ENCLOSURE) -> tuple[sp.Rational, sp.Rational]:
    """Rationals ``lo < v < hi`` about ``2 width`` apart (checked exactly)."""
    q = sp.Rational(str(sp.N(v, 40)))
    lo, hi = q - width, q + width
    if not (pot_split.sign(v - lo) > 0 and pot_split.sign(hi - v) > 0):
        raise ArithmeticError(f"no rational enclosure of {v} found")
    return lo, hi


def below(x: sp.Expr) -> sp.Rational:
    """``x`` if rational, else a rational just below it."""
    return x if x.is_Rational else enclosure(x)[0]


def above(x: sp.Expr) -> sp.Expr:
    """``x`` if rational or ``oo``, else a rational just above it."""
    return x if x.is_Rational or x is sp.oo else enclosure(x)[1]


def _scaled(p: sp.Symbol, lo: sp.Rational, hi: sp.Expr, t: sp.Symbol):
    """``e -> e`` with ``P`` put in terms of ``t`` in ``[0, 1]``, as a polynomial (None
    where ``e`` is not one in ``P``): ``P = lo + (hi - lo) t`` on a bounded range; on
    ``[lo, oo)``, ``P = lo / t`` and the result multiplied by ``t^d`` (``d`` the degree of
    ``e`` in ``P``), which keeps its zeros and, ``t^d`` being positive for ``t > 0``, its
    sign; ``t = 0`` (``P`` infinite) only adds points, so a proof stays a proof."""
    if hi is not sp.oo:
        at = {p: lo + (hi - lo) * t}
        return lambda e: sp.expand(e.xreplace(at))

    def scale(e: sp.Expr) -> sp.Expr | None:
        e = sp.expand(e)
        if not e.is_polynomial(p):
            return None
        d = sp.degree(e, p) if e.has(p) else 0
        return sp.expand(e.xreplace({p: lo / t}) * t ** d)
    return scale


def empty_near(conds: Sequence[Condition], case: str, v: sp.Expr, p: sp.Symbol) -> bool:
    """True if the leaf is shown to hold no equilibrium for any ``P`` in a rational
    interval around ``v`` (:func:`enclosure`), so none at ``v``.  Nothing is computed
    over the number field of ``v`` (:func:`empty_between`).  False: no proof within the
    budget."""
    return empty_between(conds, case, p, *enclosure(v))


def empty_between(conds: Sequence[Condition], case: str, p: sp.Symbol, lo: sp.Rational,
                  hi: sp.Expr, boxes: int = NEAR_BOXES,
                  seconds: float = NEAR_SECONDS) -> bool:
    """True if the leaf holds no equilibrium for any ``P`` in ``[lo, hi]`` (rationals;
    ``hi`` may be ``oo`` when ``lo > 0``), proved by exact interval arithmetic
    (:func:`solvers.symbolic.feasibility.box_proofs.empty`) with ``P = lo + (hi - lo) t`` (``P = lo / t`` on an unbounded
    range: :func:`_scaled`) and ``t`` in ``[0, 1]`` one more unknown, which the proof
    bisects as it needs:
    first one block of its indifference equations without a point in the unit box, then
    the whole leaf (every equation and the sign conditions of its pure frequencies: gain
    >= 0 where the frequency is 1, <= 0 where it is 0; a gain that is not a polynomial is
    left out, which keeps the proof sound).  False: no proof within the budget
    (``boxes``, ``seconds`` per system)."""
    if hi is sp.oo and not lo > 0:
        raise ValueError(f"an unbounded pot range needs a positive lower end, not {lo}")
    t = sp.Dummy("t")
    scale = _scaled(p, lo, hi, t)
    for beqs, bxs in leaf_blocks(conds, case):
        es = [scale(e) for e in beqs]
        if bxs and None not in es and box_proofs.empty(es, [*bxs, t], boxes=boxes,
                                                     seconds=seconds):
            return True
    ab = pure_values(conds, case)
    xs = [c.symbol for c, k in zip(conds, case) if k == "c"]
    eqs, ineqs = [], []
    for c, k in zip(conds, case):
        e = scale(c.gradient.xreplace(ab))
        if e is not None and e.is_polynomial(*xs, t):
            (eqs if k == "c" else ineqs).append(-e if k == "b" else e)
    return box_proofs.empty(eqs, [*xs, t], ineqs, boxes=boxes, seconds=seconds)


RETRY_BOXES, RETRY_SECONDS = 4000, 300.0  # the box proof of a leaf over budget


def empty_in_parts(conds: Sequence[Condition], case: str, p: sp.Symbol, lo: sp.Rational,
                   hi: sp.Expr, depth: int = 3) -> bool:
    """:func:`empty_between` on ``[lo, hi]`` with :data:`RETRY_BOXES`, else on both halves
    (down to ``depth`` bisections; ``[lo, oo)`` is cut at ``2 lo``, its halves in
    ``t = lo / P``): a wide range can need more boxes than its parts together
    (kuhn3-full-simplified's leaf ccbcacccbcccc on [2, 20])."""
    if empty_between(conds, case, p, lo, hi, RETRY_BOXES, RETRY_SECONDS):
        return True
    mid = 2 * lo if hi is sp.oo else (lo + hi) / 2
    return depth > 0 and empty_in_parts(conds, case, p, lo, mid, depth - 1) and \
        empty_in_parts(conds, case, p, mid, hi, depth - 1)
