"""Floating-point rejection of equilibrium families at one pot value, before the exact
check.  A family is rejected only when every point that could satisfy its constraints
violates one of them by a clear margin in floating point; anything closer is left to the
exact (rational or algebraic) decision in :mod:`solvers.symbolic.feasibility.pot_split`.  This keeps the exact work
at algebraic critical values such as ``P* = (5 + sqrt 73)/2`` to the few families that can
live there."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import sympy as sp

from pokerdyn.solvers.symbolic.feasibility import algebraic, pot_split

TOL = 1e-7

_POLYS: dict = {}
_NONE = sp.Symbol("_no_free_parameter")


def _float_polys(e: sp.Expr, x: sp.Symbol, p: sp.Symbol):
    """Numerator and denominator of ``e`` as coefficient lists in ``x``, each coefficient a
    float function of ``p`` (cached per constraint)."""
    key = (e, x, p)
    if key in _POLYS:
        return _POLYS[key]
    if x is not _NONE and x not in e.free_symbols:  # share the entry of a constraint without x
        _POLYS[key] = _float_polys(e, _NONE, p)
        return _POLYS[key]
    parts = algebraic.fraction_terms(e, [x, p])
    if parts is not None:
        fs = [_horner(t) for t in parts]
    else:  # not rational in x and P: evaluate as written
        num, den = sp.fraction(sp.together(e))
        fs = [sp.lambdify(p, sp.Poly(sp.expand(part), x).all_coeffs(), "math")
              for part in (num, den)]
    _POLYS[key] = fs
    return fs


def _horner(terms: dict):
    """``fv -> [coefficients of x at P = fv]`` for a polynomial in ``(x, P)`` given as
    ``{(i, j): coefficient of x^i P^j}``, from a float matrix (``lambdify`` cost about a
    millisecond per constraint to build)."""
    dx = max((i for i, _ in terms), default=0)
    dp = max((j for _, j in terms), default=0)
    mat = np.zeros((dx + 1, dp + 1))
    for (i, j), c in terms.items():
        mat[dx - i, j] = float(c)
    powers = np.arange(dp + 1)
    return lambda fv: mat @ (float(fv) ** powers)


def clearly_infeasible(cons: Sequence[pot_split.Constraint], xs: Sequence[sp.Symbol],
                       p: sp.Symbol, fv: float) -> bool:
    """True if the constraints (rational in ``p`` and in at most one free parameter) fail
    by a margin at ``P = fv``: each sign-constant piece of the parameter line (between float
    roots of numerators and denominators) and each root violates some constraint by more
    than ``TOL``.  False when unsure (more than one free parameter, poles, evaluation
    errors)."""
    return status(cons, xs, p, fv)[0] == "infeasible"


def status(cons: Sequence[pot_split.Constraint], xs: Sequence[sp.Symbol], p: sp.Symbol,
           fv: float) -> tuple[str, Any]:
    """``("infeasible", None)`` as in :func:`clearly_infeasible`; ``("witness", q)`` with a
    simple rational ``q`` for the one free parameter at which every constraint holds with a
    float margin (to be confirmed exactly); ``("unknown", None)`` otherwise."""
    if len(xs) > 1 or not cons:  # nothing to reject (no constraint): the exact check decides
        return "unknown", None
    x = xs[0] if xs else _NONE
    try:
        polys = []
        for e, _ in cons:
            fn, fd = _float_polys(e, x, p)
            polys.append((np.asarray(fn(fv), float), np.asarray(fd(fv), float)))
    except (ZeroDivisionError, ValueError, TypeError, OverflowError, sp.PolynomialError):
        return "unknown", None
    for n, d in polys:  # a constraint constant in x that fails rejects every candidate
        if len(n) <= 1 and len(d) <= 1 and len(d) and abs(d[-1]) >= 1e-12 and len(n) \
                and n[-1] / d[-1] < -TOL:
            return "infeasible", None
    roots = _float_roots(polys)
    cands = roots + ([roots[0] - 1.0, roots[-1] + 1.0] if roots else [0.0])
    cands += [(a + b) / 2 for a, b in zip(roots, roots[1:]) if b - a > 1e-12]
    # every constraint at every candidate at once (one polyval per polynomial, not per pair)
    vs = np.asarray(cands, float)
    with np.errstate(all="ignore"):
        dvs = np.array([np.polyval(d, vs) for _, d in polys]).T
        nvs = np.array([np.polyval(n, vs) for n, _ in polys]).T
        pole = np.abs(dvs) < 1e-12  # a pole: not decided here
        vals = np.where(pole, 0.0, nvs / np.where(pole, 1.0, dvs))
    fails = (~pole & (vals < -TOL)).any(axis=1)
    # a candidate's margin: its least value (NaN ignored); none where it meets a pole
    margins = np.where(np.isnan(vals), np.inf, vals).min(axis=1)
    unsure = False
    for k, v in enumerate(cands):
        if fails[k]:
            continue
        unsure = True
        if not pole[k].any() and margins[k] > 1e-6 and xs:
            q = sp.Rational(v).limit_denominator(10 ** 6)
            if _margin_at(polys, float(q)) > 1e-7:
                return "witness", q
    return ("unknown", None) if unsure else ("infeasible", None)


def _float_roots(polys) -> list[float]:
    roots: list[float] = []
    for n, d in polys:
        for c in (n, d):
            c = np.trim_zeros(c, "f")
            if len(c) == 2:  # linear: what np.roots returns, without an eigenvalue solve
                roots.append(-c[1] / c[0])
            elif len(c) > 2:
                roots += [z.real for z in np.roots(c) if abs(z.imag) < 1e-7]
    return sorted(roots)


def rational_roots(cons: Sequence[pot_split.Constraint], x: sp.Symbol, p: sp.Symbol,
                   fv: float) -> list[sp.Rational]:
    """Simple rationals near the real float roots of the constraints' numerators and
    denominators in ``x`` at ``P = fv``: candidates for an exact witness of a feasible set
    that is a single point (a free parameter pinned by its constraints), to be confirmed
    with :func:`confirm`."""
    try:
        polys = [tuple(np.asarray(f(fv), float) for f in _float_polys(e, x, p)) for e, _ in cons]
    except (ZeroDivisionError, ValueError, TypeError, OverflowError, sp.PolynomialError):
        return []
    out = {sp.Rational(r).limit_denominator(1000) for r in _float_roots(polys)}
    return sorted(out)


def _margin_at(polys, v: float) -> float:
    out = np.inf
    for n, d in polys:
        dv = np.polyval(d, v)
        if abs(dv) < 1e-12:
            return 0.0
        out = min(out, np.polyval(n, v) / dv)
    return out


def confirm(cons: Sequence[pot_split.Constraint], x: sp.Symbol, q: sp.Rational, p: sp.Symbol,
            value: sp.Expr) -> bool:
    """Exact check that the rational ``x = q`` satisfies every constraint at ``P = value``
    (the constraints become rational functions of ``P`` alone, evaluated exactly)."""
    for e, strict in cons:
        if value.is_Rational:
            # rational point: direct exact evaluation (a vanishing denominator gives zoo or
            # nan, as the factor of together's denominator that vanishes)
            v = e.xreplace({x: q, p: value})
            if v.is_Rational:
                if v < 0 or (v == 0 and strict):
                    return False
                continue
            if v.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
                return False
        num, den = sp.fraction(sp.together(e.xreplace({x: q})))
        d = pot_split.sign(sp.expand(den).xreplace({p: value}))
        s = pot_split.sign(sp.expand(num).xreplace({p: value})) * d
        if d == 0 or s < 0 or (s == 0 and strict):
            return False
    return True


def pot_only_fails(cons: Sequence[pot_split.Constraint], p: sp.Symbol, fv: float) -> bool:
    """A constraint without free parameters that fails by a wide margin in floating point at
    ``P = fv`` (anything closer is decided exactly)."""
    for e, _ in cons:
        if e.free_symbols - {p}:
            continue
        try:
            fn, fd = _float_polys(e, _NONE, p)
            v = float(fn(fv)[-1]) / float(fd(fv)[-1])  # ZeroDivisionError at a pole
        except (TypeError, ValueError, ZeroDivisionError, OverflowError, IndexError):
            continue
        if v < -1e-9:
            return True
    return False


_NO_POT = sp.Dummy("P")


def feasible(cons: Sequence[pot_split.Constraint], free: Sequence[sp.Symbol]) -> bool:
    """Exact feasibility of numeric constraints (no ``P``), as :func:`pot_split.feasible`, with
    one free parameter first tried cheaply: a clear float rejection, or a rational witness
    (a float interior point, or a simple rational at a float root for a set that is one
    point) confirmed exactly.  Spares the exact root isolation, which takes seconds when the
    coefficients hold nested radicals (as at ``P*``)."""
    if len(free) == 1:
        st, q = status(cons, free, _NO_POT, 0.0)
        if st == "infeasible":
            return False
        cands = ([q] if st == "witness" else []) + rational_roots(cons, free[0], _NO_POT, 0.0)
        for r in cands:
            try:
                if confirm(cons, free[0], r, _NO_POT, sp.S.Zero):
                    return True
            except (ValueError, ZeroDivisionError, TypeError):  # 0/0 there: not a witness
                continue
    return pot_split.feasible(cons, free)
