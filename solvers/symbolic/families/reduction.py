"""Reduction of a list of equilibrium families to the smallest equivalent list.

The case enumeration (:mod:`solvers.symbolic.casesearch.case_enumeration`) returns one family per (a)/(b)/(c)
case combination, so the same equilibria often appear several times: as a segment and as
its end point, as a "continuum" over a parameter that its own constraints pin to one value,
or as an edge of a polygon listed beside the polygon.  :func:`reduce_families` rewrites
such a list, exactly, into the smallest list with the same union:

1. *Pinning.*  A free parameter that the constraints fix is substituted: for affine
   constraints an implicit equality (a non-strict ``e >= 0`` with ``e > 0`` infeasible; the
   polyhedron lies in ``e = 0``); for one free parameter entering rationally, a solution set
   that is a single point.  Infeasible families are dropped.
2. *Interval form.*  The constraints of one free parameter become ``a <= x <= b`` with exact
   end points (a set of several disjoint pieces becomes one family per piece).  An end
   point is closed iff it is an equilibrium (exact NashConv 0, where the parametrisation is
   finite); for several free parameters each strict facet is closed iff a relative-interior
   point of the facet is an equilibrium.  The Nash set is closed, so for a finite
   parametrisation this closes every end point; it is verified, not assumed.
3. *Merging.*  A family contained in another is dropped (exact containment: the contained
   family's parametrisation substituted into the other's formulas and constraints, and the
   negation of every such constraint shown infeasible on the contained family's set), and
   two one-parameter families on one curve whose intervals overlap or touch are joined.

With ``P`` symbolic on an open interval of the P axis every decision (which constraint is
an implicit equality, which root is an end point, containment, closedness) is taken at the
interval's rational sample, where all signs are those of the whole interval, while the
substituted values and interval end points are kept symbolic in ``P``.

Floating point only filters: a linear program with a clear slack proves that no affine
constraint is an implicit equality (up to two parameters with rational coefficients are
decided exactly instead), and bounds of one parameter further than 1e-9 from the extreme
are not compared exactly; every decision that is kept is exact.  Families that are
rational in several free parameters are left as enumerated (none occur in the Billingham
games once pinned parameters are substituted).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Sequence

import numpy as np
import sympy as sp

from pokerdyn.games import Game

from pokerdyn.solvers.symbolic.feasibility import pot_split
from pokerdyn.solvers.symbolic.model.conditions import Family, pot_symbol
from pokerdyn.solvers.symbolic.model.nash_conv import nash_conv_with, payoffs_at


@dataclass(frozen=True)
class _Ctx:
    """Where the decisions are taken: ``P = value`` (exact); the game's payoffs there are
    computed on first use (only end points and facets need them)."""

    game: Game
    p: sp.Symbol | None
    value: sp.Expr | None

    @property
    def pays(self) -> tuple[sp.Expr, ...]:
        key = (id(self.game), self.value)
        if key not in _PAYS:
            _PAYS[key] = payoffs_at(self.game, self.value if self.p is not None else None)
        return _PAYS[key]

    def is_equilibrium(self, point: dict[str, sp.Expr]) -> bool:
        """Exact NashConv 0 at ``point`` (memoised: a piece's end points are met again when
        the neighbouring pieces are compared)."""
        key = (id(self.game), self.value, tuple(sorted((k, sp.srepr(v)) for k, v in point.items())))
        if key not in _EQ:
            _EQ[key] = nash_conv_with(self.game, self.pays, point) == 0
        return _EQ[key]

    def num(self, e: sp.Expr) -> sp.Expr:
        e = sp.sympify(e)
        if self.p is None or self.value is None or self.p not in e.free_symbols:
            return e
        return e.xreplace({self.p: self.value})


def reduce_families(game: Game, families: Sequence[Family], at: Any = None,
                    p: sp.Symbol | None = None, sample: Any = None) -> list[Family]:
    """The smallest list of families with the same union as ``families`` (see the module
    docstring), every free parameter unpinned and its constraints in interval form.

    Parameters
    ----------
    game : the game (its payoffs decide closedness by exact NashConv).
    families : raw families of one piece of the P axis (any order).
    at : an exact pot: the families' ``P`` is substituted (a point of the P axis).
    p, sample : ``P`` symbolic on an open interval; decisions are taken at the rational
        ``sample`` inside it and the results keep ``P``.  ``p`` defaults to the game's pot.
    """
    p = p if p is not None else pot_symbol(game)
    if at is not None:
        at = sp.sympify(at)
        if p is not None:
            families = [_substitute(f, {p: at}) for f in families]
    value = at if at is not None else (sp.sympify(sample) if sample is not None else None)
    ctx = _Ctx(game, p, value)
    out: list[Family] = []
    for fam in families:
        out += _reduce_one(fam, ctx)
    return _merge(out, ctx)


_PAYS: dict = {}
_EQ: dict = {}


def _substitute(fam: Family, sub: dict) -> Family:
    strat = tuple((k, sp.cancel(sp.sympify(v).xreplace(sub))) for k, v in fam.strategy)
    cons = tuple((_normal(sp.sympify(e).xreplace(sub)), s) for e, s in fam.constraints)
    return replace(fam, strategy=strat, constraints=cons)


def _normal(e: sp.Expr) -> sp.Expr:
    """``e`` expanded, and cancelled where it is not a polynomial: a constraint that is a
    rational function of the free parameters only in form (a generic family's, at a pot)
    becomes the affine or constant one it is, which the comparisons of families need
    (kuhn3-full-simplified at P = 3: F1's end was listed twice)."""
    e = sp.expand(e)
    return e if e.is_polynomial(*e.free_symbols) else sp.cancel(sp.together(e))


def _is_zero(e: sp.Expr) -> bool:
    e = sp.cancel(sp.together(e))
    if e == 0:
        return True
    num = sp.expand(sp.fraction(e)[0])
    if not num.free_symbols:
        return pot_split.sign(num) == 0
    return sp.expand(sp.radsimp(num)) == 0


def _probability(v: sp.Expr) -> bool:
    return pot_split.sign(v) >= 0 and pot_split.sign(1 - v) >= 0


def _holds(e: sp.Expr, strict: bool) -> bool:
    s = pot_split.sign(e)
    return s > 0 or (s == 0 and not strict)


# --- one family ---------------------------------------------------------------------------

def _reduce_one(fam: Family, ctx: _Ctx) -> list[Family]:
    while True:
        xs = fam.free_symbols()
        cn = [(sp.expand(ctx.num(e)), s) for e, s in fam.constraints]
        if any(not e.free_symbols and not _holds(e, s) for e, s in cn):
            return []
        cn = [(e, s) for e, s in cn if e.free_symbols]
        if not xs:
            return [fam]
        affine = pot_split.is_affine(cn, xs)
        if affine and len(xs) == 1:
            return _affine_interval(fam, cn, xs[0], ctx)
        if affine and not pot_split.feasible(cn, xs):
            return []
        # implicit equalities of the affine constraints hold on the whole family too
        pin = _implicit_equality(fam, cn, xs, ctx)
        if pin is not None:
            fam = _pin(fam, *pin)
            continue
        if len(xs) > 1:
            return [_close_facets(fam, cn, xs, ctx) if affine else fam]
        return _interval_pieces(fam, cn, xs[0], ctx)


def _pin(fam: Family, x: sp.Symbol, v: sp.Expr) -> Family:
    fam = _substitute(fam, {x: v})
    cons = tuple((e, s) for e, s in fam.constraints if e.free_symbols or not _holds(e, s))
    return replace(fam, free=tuple(n for n in fam.free if n != x.name), constraints=cons)


def _has_interior(cn, xs) -> bool:
    """True if some point satisfies every constraint of ``cn`` (affine in ``xs``) strictly,
    so that none is an implicit equality.  At most two parameters with rational coefficients:
    decided exactly (Fourier-Motzkin in fractions, a few milliseconds for 30 constraints,
    where the linear program loads scipy.optimize for 0.2 s); else a floating-point
    prefilter, a Chebyshev-like linear program with a clear margin (False means only "not
    shown": each constraint is then checked exactly, with the same outcome)."""
    if len(xs) <= 2:
        rows = pot_split._fraction_rows([(e, True) for e, _ in cn], xs)
        if rows is not None:
            return pot_split._fraction_feasible(rows, len(xs))
    try:
        rows = [[float(e.coeff(x, 1)) for x in xs] for e, _ in cn]
        rest = [float(e.subs({x: 0 for x in xs})) for e, _ in cn]
    except (TypeError, ValueError):
        return False
    from scipy.optimize import linprog  # here: scipy.optimize costs 0.2 s of every CLI start

    # maximise t subject to a.x + b >= t, t <= 1
    A = np.array([[-v for v in r] + [1.0] for r in rows])
    res = linprog(np.r_[np.zeros(len(xs)), -1.0], A_ub=A, b_ub=np.array(rest),
                  bounds=[(None, None)] * len(xs) + [(None, 1.0)], method="highs")
    return bool(res.status == 0 and -res.fun > 1e-7)


def _implicit_equality(fam: Family, cn, xs, ctx: _Ctx) -> tuple[sp.Symbol, sp.Expr] | None:
    """A free parameter fixed by an implicit equality of the affine constraints among
    ``cn`` (the family's constraints at the decision value), and its value (symbolic in
    ``P`` where the family is); None if they span a full-dimensional set."""
    sym = [sp.expand(e) for e, _ in fam.constraints if sp.expand(ctx.num(e)).free_symbols]
    idx = [k for k, c in enumerate(cn) if pot_split.is_affine([c], xs)]
    aff = [cn[k] for k in idx]
    if _has_interior(aff, xs):
        return None
    for m, k in enumerate(idx):
        e, s = cn[k]
        if s or pot_split.feasible(aff[:m] + [(e, True)] + aff[m + 1:], xs):
            continue
        for x in xs:
            c = sym[k].coeff(x, 1)
            if c != 0 and pot_split.sign(ctx.num(c)) != 0:
                return x, sp.cancel(-(sym[k] - c * x) / c)
    return None


def _symbolic_root(fam: Family, x: sp.Symbol, r: sp.Expr, ctx: _Ctx) -> sp.Expr:
    """The root ``r`` (found at the decision value of ``P``) as an expression in ``P``: the
    root of a constraint's numerator or denominator that equals ``r`` there."""
    if ctx.p is None or ctx.value is None or not any(
            ctx.p in sp.sympify(e).free_symbols for e, _ in fam.constraints):
        return r
    for e, _ in fam.constraints:
        for part in sp.fraction(sp.together(e)):
            part = sp.expand(part)
            if x not in part.free_symbols or pot_split.sign(ctx.num(part).xreplace({x: r})) != 0:
                continue
            for root in sp.solve(part, x):
                if pot_split.sign(ctx.num(root) - r) == 0:
                    return sp.cancel(root)
    raise ValueError(f"no constraint of the family has the root {x} = {r}")


def _is_equilibrium(fam: Family, x: sp.Symbol, v: sp.Expr, ctx: _Ctx) -> bool:
    """Whether the family's formulas at ``x = v`` (``P`` at the decision value) are finite
    and an exact equilibrium."""
    pt = {}
    for k, e in fam.strategy:
        val = sp.cancel(ctx.num(e).xreplace({x: v}))
        if val.has(sp.zoo, sp.nan, sp.oo) or val.free_symbols or not _probability(val):
            return False
        pt[k] = val
    return ctx.is_equilibrium(pt)


def _interval_pieces(fam: Family, cn, x: sp.Symbol, ctx: _Ctx) -> list[Family]:
    """One family per connected piece of ``{x : cn}`` (exact), each in interval form with
    end points closed where they are equilibria; a piece that is one point pins ``x``."""
    roots, between = pot_split._univariate_candidates(cn, x)
    # the line in order: (-oo, r0), r0, (r0, r1), r1, ..., r_n, (r_n, oo)
    gaps = [between[0]] + between[2:] + [between[1]] if roots else between
    segs: list[tuple[str, sp.Expr | None, bool]] = []
    for i, g in enumerate(gaps):
        segs.append(("open", g, pot_split._holds(cn, x, g)))
        if i < len(roots):
            segs.append(("root", roots[i], pot_split._holds(cn, x, roots[i])))
    pieces, cur = [], None
    for i, (kind, v, ok) in enumerate(segs):
        if ok and cur is None:
            cur = [i, i]
        elif ok:
            cur[1] = i
        if not ok and cur is not None:
            pieces.append(cur)
            cur = None
    if cur is not None:
        pieces.append(cur)
    keep = tuple((e, s) for e, s in fam.constraints if x not in sp.sympify(e).free_symbols)
    out = []
    for i, j in pieces:
        if i == j and segs[i][0] == "root":
            out.append(_pin(fam, x, _symbolic_root(fam, x, segs[i][1], ctx)))
            continue
        bounds: list[pot_split.Constraint] = []
        # the end below piece i is the root just before it (a root piece is its own end)
        lo = segs[i][1] if segs[i][0] == "root" else (segs[i - 1][1] if i > 0 else None)
        hi = segs[j][1] if segs[j][0] == "root" else (segs[j + 1][1] if j + 1 < len(segs) else None)
        for end, inside, sgn in ((lo, segs[i][0] == "root", 1), (hi, segs[j][0] == "root", -1)):
            if end is None:
                continue
            closed = inside or _is_equilibrium(fam, x, end, ctx)
            bounds.append((sp.expand(sgn * (x - _symbolic_root(fam, x, end, ctx))), not closed))
        out.append(replace(fam, constraints=keep + tuple(bounds)))
    return out


def _bound_key(b: sp.Expr) -> float:
    return float(sp.N(b, 30))


@lru_cache(maxsize=None)
def _symbolic_bound(es: sp.Expr, x: sp.Symbol) -> sp.Expr:
    """The bound on ``x`` of the constraint ``es`` (in ``P``): the same on every piece of the
    axis where the family lives, so computed once."""
    return sp.cancel(-sp.expand(es - es.coeff(x, 1) * x) / es.coeff(x, 1))


def _affine_interval(fam: Family, cn, x: sp.Symbol, ctx: _Ctx) -> list[Family]:
    """One free parameter, affine constraints: the interval [max lower bound, min upper
    bound] directly (no root finding); ties between bounds are decided exactly."""
    lows, highs = [], []
    sym = [sp.expand(e) for e, _ in fam.constraints if x in sp.expand(ctx.num(e)).free_symbols]
    for (e, s), es in zip(cn, sym):
        c = e.coeff(x, 1)
        b = sp.cancel(-pot_split._drop_zero_terms(sp.expand(e - c * x), [x]) / c)
        bs = _symbolic_bound(es, x)
        (lows if pot_split.sign(c) > 0 else highs).append((b, s, bs))

    def pick(group, top):
        if not group:
            return None
        # float prefilter: only bounds within 1e-9 of the extreme are compared exactly
        ref = (max if top else min)(_bound_key(b) for b, _, _ in group)
        near = [g for g in group if abs(_bound_key(g[0]) - ref) < 1e-9]
        best = near[0]
        for g in near[1:]:
            d = pot_split.sign(g[0] - best[0]) * (1 if top else -1)
            if d > 0 or (d == 0 and g[1]):
                best = g
        return best

    lo, hi = pick(lows, True), pick(highs, False)
    keep = tuple((e, s) for e, s in fam.constraints if x not in sp.sympify(e).free_symbols)
    if lo is not None and hi is not None:
        gap = pot_split.sign(hi[0] - lo[0])
        if gap < 0 or (gap == 0 and (lo[1] or hi[1])):
            return []
        if gap == 0:
            return [_pin(fam, x, lo[2])]
    bounds = []
    for end, sgn in ((lo, 1), (hi, -1)):
        if end is None:
            continue
        closed = not end[1] or _is_equilibrium(fam, x, end[0], ctx)
        bounds.append((sp.expand(sgn * (x - end[2])), not closed))
    return [replace(fam, constraints=keep + tuple(bounds))]


def _close_facets(fam: Family, cn, xs, ctx: _Ctx) -> Family:
    """Several free parameters, affine and full-dimensional: a strict constraint becomes
    non-strict when a relative-interior point of its facet is an equilibrium."""
    cons = list(fam.constraints)
    sym = [(e, s) for e, s in cons if sp.expand(ctx.num(e)).free_symbols]
    pure = [(e, s) for e, s in cons if not sp.expand(ctx.num(e)).free_symbols]
    out = []
    for k, (e, s) in enumerate(cn):
        if s:
            # a face of the closure: the other constraints closed too
            facet = [(f, False) for m, (f, _) in enumerate(cn) if m != k] + [(e, False), (-e, False)]
            if pot_split.feasible(facet, xs):
                pt = pot_split.interior_point(facet, xs)
                strat = {n: sp.cancel(ctx.num(v).xreplace(pt)) for n, v in fam.strategy}
                if not any(v.free_symbols or v.has(sp.zoo, sp.nan) for v in strat.values()) \
                        and ctx.is_equilibrium(strat):
                    s = False
        out.append((sym[k][0], s))
    return replace(fam, constraints=tuple(pure + out))


# --- merging ----------------------------------------------------------------------------

def _values(fam: Family, ctx: _Ctx) -> dict[str, sp.Expr]:
    return {k: ctx.num(v) for k, v in fam.strategy}


def family_contains(game: Game, big: Family, small: Family, at: Any = None,
                    p: sp.Symbol | None = None, sample: Any = None) -> bool:
    """Whether ``small`` is a subset of ``big`` (exact; ``at``/``sample`` as in
    :func:`reduce_families`, ``P`` decided at that value)."""
    p = p if p is not None else pot_symbol(game)
    value = sp.sympify(at if at is not None else sample) if (at, sample) != (None, None) else None
    return _contains(big, small, _Ctx(game, p, value))


def _contains(big: Family, small: Family, ctx: _Ctx) -> bool:
    """Exact ``small`` (closed as given) subset of ``big`` at the decision value of ``P``."""
    sa, sb = _values(small, ctx), _values(big, ctx)
    t = small.free_symbols()
    sub = {u: sa[u.name] for u in big.free_symbols()}
    for k, v in sb.items():
        if k in big.free:
            continue
        w = _on(v, sub)
        if w is None or not _is_zero(w - sa[k]):
            return False
    ca = [(sp.expand(ctx.num(e)), s) for e, s in small.constraints]
    ca = [(e, s) for e, s in ca if e.free_symbols]
    for e, s in big.constraints:
        g = _on(ctx.num(e), sub)
        if g is None:
            return False
        g = sp.together(g)
        if not g.free_symbols:
            if not _holds(g, s):
                return False
            continue
        neg = [(sp.expand(-g) if pot_split.is_affine([(g, s)], t) else -g, not s)]
        if len(t) > 1 and not pot_split.is_affine(ca + neg, t):
            return False  # not decidable exactly here: keep both
        if pot_split.feasible(ca + neg, t):
            return False
    return True


def _on(e: sp.Expr, sub: dict) -> sp.Expr | None:
    """``e`` with ``sub`` substituted; None where a denominator of ``e`` vanishes identically
    there: the formula (a pivot's 'coefficient != 0' branch) does not reach that set, and a
    blind substitution gives 0/0 (jury_un.efg: two families rational in their free
    parameters, one's denominator ``x2_1 - x2_2`` zero on the other)."""
    num, den = sp.fraction(sp.together(sp.sympify(e)))
    den = den.xreplace(sub)
    if _is_zero(den):
        return None
    return num.xreplace(sub) / den


def _interval(fam: Family, ctx: _Ctx):
    """``(x, lo, hi, lo_closed, hi_closed)`` of a one-parameter affine family (symbolic
    ends, None for unbounded), decided at the decision value."""
    x = fam.free_symbols()[0]
    lo = hi = None
    for e, s in fam.constraints:
        e = sp.expand(e)
        c = e.coeff(x, 1)
        if c == 0:
            continue
        b = sp.cancel(-(e - c * x) / c)
        if b.has(x):
            return None
        if pot_split.sign(ctx.num(c)) > 0:
            if lo is None or pot_split.sign(ctx.num(b - lo[0])) > 0 or (
                    pot_split.sign(ctx.num(b - lo[0])) == 0 and s):
                lo = (b, not s)
        elif hi is None or pot_split.sign(ctx.num(hi[0] - b)) > 0 or (
                pot_split.sign(ctx.num(hi[0] - b)) == 0 and s):
            hi = (b, not s)
    if lo is None or hi is None:
        return None
    return x, lo[0], hi[0], lo[1], hi[1]


def _join(a: Family, b: Family, ctx: _Ctx) -> Family | None:
    """``a`` and ``b`` (one free parameter each) joined into one family when ``b`` lies on
    ``a``'s curve and their intervals overlap or touch at a point of either."""
    ia, ib = _interval(a, ctx), _interval(b, ctx)
    if ia is None or ib is None:
        return None
    x, t = ia[0], ib[0]
    sa, sb = dict(a.strategy), dict(b.strategy)
    xt = sp.expand(sp.cancel(sb[x.name]))  # a's parameter along b
    slope = xt.coeff(t, 1)
    if slope.has(t) or sp.expand(xt - slope * t).has(t) or pot_split.sign(ctx.num(slope)) == 0:
        return None
    for k, v in sa.items():
        if k == x.name:
            continue
        w = _on(v, {x: xt})
        if w is None or not _is_zero(ctx.num(w - sb[k])):
            return None
    m = [sp.expand(xt.xreplace({t: ib[1]})), sp.expand(xt.xreplace({t: ib[2]}))]
    f = [ib[3], ib[4]]
    if pot_split.sign(ctx.num(slope)) < 0:
        m, f = m[::-1], f[::-1]
    ints = sorted([(ia[1], ia[2], ia[3], ia[4]), (m[0], m[1], f[0], f[1])],
                  key=lambda r: float(sp.N(ctx.num(r[0]), 30)))
    (l1, h1, lc1, hc1), (l2, h2, lc2, hc2) = ints
    gap = pot_split.sign(ctx.num(l2 - h1))
    if gap > 0 or (gap == 0 and not (hc1 or lc2)):
        return None
    lc = lc1 or (pot_split.sign(ctx.num(l2 - l1)) == 0 and lc2)
    top = pot_split.sign(ctx.num(h2 - h1))
    hi, hc = (h2, hc2 or (top == 0 and hc1)) if top >= 0 else (h1, hc1)
    keep = tuple((e, s) for e, s in a.constraints if x not in sp.sympify(e).free_symbols)
    cons = keep + ((sp.expand(x - l1), not lc), (sp.expand(hi - x), not hc))
    return replace(a, constraints=cons, cases=f"{a.cases}+{b.cases}")


def _merge(fams: list[Family], ctx: _Ctx) -> list[Family]:
    """Drop contained families and join one-parameter families on one curve, until no
    rule applies (larger families first, so the container is kept)."""
    fams = sorted(fams, key=lambda f: -len(f.free))
    changed = True
    while changed:
        changed = False
        for i, small in enumerate(fams):
            if any(j != i and _contains(big, small, ctx) for j, big in enumerate(fams)
                   if len(big.free) >= len(small.free)):
                del fams[i]
                changed = True
                break
        if changed:
            continue
        for i, a in enumerate(fams):
            for j in range(i + 1, len(fams)):
                if len(a.free) == len(fams[j].free) == 1:
                    joined = _join(a, fams[j], ctx)
                    if joined is not None:
                        fams[i] = joined
                        del fams[j]
                        changed = True
                        break
            if changed:
                break
    return fams
