"""The critical values of the P axis for a list of families with ``P`` symbolic: the
positive roots of every polynomial in ``P`` among their constraints (:func:`critical_roots`)
and of the bound differences that Fourier-Motzkin elimination forms on each interval
between them (:func:`refine`), a root kept only where it can change a family's status.

Each family's roots and each (family, sign pattern) elimination are computed once per
process and kept: a whole-axis sweep (:mod:`.sweep`) asks again every round with mostly the
same families.  What is new is computed in forked processes (:func:`.forked_map.forked_results`).
"""
from __future__ import annotations

from typing import Sequence

import sympy as sp

from pokerdyn.solvers.symbolic.feasibility import float_filter, pot_split
from pokerdyn.solvers.symbolic.model.conditions import Family
from pokerdyn.solvers.symbolic.axis.forked_map import forked_results


def _constraint_polys(fam: Family, p: sp.Symbol) -> list[sp.Expr]:
    xs = fam.free_symbols()
    out = []
    for e, _ in fam.constraints:
        try:
            coeffs, rest = pot_split._affine(e, xs)
        except ValueError:  # rational in a free parameter: decided at sample points
            continue
        out += [c for c in coeffs + [rest] if p in c.free_symbols]
    return out


def _relevant(fam: Family, p: sp.Symbol, r: sp.Expr) -> bool:
    """Whether a root ``r`` of one of ``fam``'s polynomials can change ``fam``'s status:
    not when ``fam`` fails at ``r`` by a clear floating-point margin (then it fails on a
    neighbourhood of ``r`` too, so ``r`` is no critical value for it)."""
    # the same root comes from several polynomials of one family: decided once
    key = (id(fam), r)
    if key not in _RELEVANT:
        fr = float(sp.N(r, 20))
        _RELEVANT[key] = (fam, not (
            float_filter.pot_only_fails(fam.constraints, p, fr)
            or float_filter.clearly_infeasible(fam.constraints, fam.free_symbols(), p, fr)))
    return _RELEVANT[key][1]


_RELEVANT: dict = {}  # (id(family), root) -> (family, answer); the family keeps its id alive


_LAMBDAS: dict = {}


def _fast_sign(c: sp.Expr, p: sp.Symbol, s: sp.Expr) -> int:
    """Sign of ``c`` at the rational ``P = s``: floating point when clearly away from zero,
    exact otherwise."""
    c = sp.sympify(c)
    if c.free_symbols - {p}:
        raise ValueError("not a function of P alone")
    f = _LAMBDAS.get(c)
    if f is None:
        f = _LAMBDAS[c] = sp.lambdify(p, c, "math")
    try:
        v = float(f(float(s)))
        if abs(v) > 1e-9:
            return 1 if v > 0 else -1
    except (ZeroDivisionError, ValueError, TypeError):
        pass
    return pot_split.sign(c.xreplace({p: s}))


_ROOTS: dict = {}


def _roots(d: sp.Expr, p: sp.Symbol) -> list:
    key = sp.srepr(d)
    if key not in _ROOTS:
        _ROOTS[key] = [(r, float(sp.N(r, 20))) for r in pot_split.positive_roots(d, p)]
    return _ROOTS[key]


def refine(gen: list[Family], p: sp.Symbol, points: set) -> list[sp.Expr]:
    """Add the roots of Fourier-Motzkin bound differences inside each interval (the
    differences depend on the interval only through the signs of the free parameters'
    coefficients, so they are computed once per family and sign pattern)."""
    key = (tuple(gen), p, tuple(pot_split.merge_points(points)))
    if key in _REFINED:
        return _REFINED[key]
    memo = _REFINE_MEMO
    for _ in range(4):
        new = set()
        todo: dict = {}  # key -> (family, sample): eliminations not done yet, computed at once
        per_piece = []
        for pc in pot_split.pieces(points):
            if pc.is_point:
                continue
            sign_at = lambda c, s=pc.sample: _fast_sign(c, p, s)
            keys = []
            for fam in gen:
                if not fam.free:
                    continue
                try:
                    mk = (fam, tuple(sign_at(c) if c != 0 else 0 for c in _coefficients(fam))
                          if len(fam.free) == 1 else pc.sample)
                except (ValueError, TypeError):  # not affine: decided at samples only
                    continue
                if mk not in memo and mk not in todo:
                    todo[mk] = (fam, pc.sample)
                keys.append(mk)
            per_piece.append((pc, keys))
        memo.update(zip(todo, forked_results(_bound_roots, [(f, s, p) for f, s in todo.values()],
                                             evaluate=True)))
        for pc, keys in per_piece:
            lo, hi = float(sp.N(pc.low, 20)), float(sp.N(pc.high, 20)) if pc.high is not sp.oo else float("inf")
            for mk in keys:
                fam = mk[0]
                for r, fr in memo[mk]:
                    if lo - 1e-9 < fr < hi + 1e-9 and _relevant(fam, p, r) and pot_split.sign(r - pc.low) > 0 and (
                            pc.high is sp.oo or pot_split.sign(pc.high - r) > 0):
                        new.add(r)
        fl = [float(sp.N(q, 20)) for q in points]
        new = {r for r in new if all(abs(float(sp.N(r, 20)) - f) > 1e-12 or pot_split.sign(r - q) != 0
                                     for q, f in zip(points, fl))}
        if not new:
            break
        points |= new
    _REFINED[key] = pot_split.merge_points(points)
    return _REFINED[key]


def _bound_roots(item: tuple) -> list:
    """The roots of the Fourier-Motzkin bound differences of a family with the signs of
    its coefficients at the sample ``s`` (``item``: family, sample, pot symbol)."""
    fam, s, p = item
    derived: list = []
    try:
        pot_split.eliminate(fam.constraints, fam.free_symbols(), lambda c: _fast_sign(c, p, s),
                         derived)
    except (ValueError, TypeError):
        derived = []
    ds = {d for d in derived if not (d.free_symbols - {p}) and p in d.free_symbols}
    return [r for d in ds for r in _roots(d, p)]


# Caches kept across calls of one process (a whole-axis sweep calls equilibrium_pieces once
# per round with the families found so far, most of them the previous round's)
_REFINED: dict = {}  # (families, p, points) -> refined points
_REFINE_MEMO: dict = {}  # (family, sign pattern or sample) -> roots of its bound differences
_COEFFS: dict = {}  # family -> coefficients of its free parameters in its constraints
_FAM_ROOTS: dict = {}  # family -> positive roots of the polynomials of _constraint_polys


def _coefficients(fam: Family) -> list[sp.Expr]:
    if fam not in _COEFFS:
        xs = fam.free_symbols()
        _COEFFS[fam] = [sp.expand(e).coeff(x, 1) for e, _ in fam.constraints for x in xs]
    return _COEFFS[fam]


def critical_roots(gen: Sequence[Family], p: sp.Symbol) -> set:
    """The positive roots of every family's constraint polynomials (:func:`_constraint_polys`)
    that can change its status (:func:`_relevant`); the families not seen before are
    worked on in forked processes."""
    missing = [(f, p) for f in dict.fromkeys(gen) if (f, p) not in _FAM_ROOTS]
    _FAM_ROOTS.update(zip(missing, forked_results(_own_roots, missing, evaluate=True)))
    return {r for fam in gen for r in _fam_roots(fam, p) if _relevant(fam, p, r)}


def _fam_roots(fam: Family, p: sp.Symbol) -> list[sp.Expr]:
    if (fam, p) not in _FAM_ROOTS:
        _FAM_ROOTS[fam, p] = [r for c in _constraint_polys(fam, p)
                              for r in pot_split.positive_roots(c, p)]
    return _FAM_ROOTS[fam, p]


def _own_roots(item: tuple) -> list[sp.Expr]:
    return _fam_roots(*item)


def clear() -> None:
    """Forget every result kept across calls."""
    for c in (_RELEVANT, _LAMBDAS, _ROOTS, _REFINED, _REFINE_MEMO, _COEFFS, _FAM_ROOTS):
        c.clear()
