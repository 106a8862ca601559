"""Which equilibrium the principal QRE branch selects, along the pot axis.

At every pot of a grid over ``(low, high]`` the branch is traced to its limit
(solvers.qre.limit) and the limit is matched with the equilibrium families of the piece of
the P axis holding that pot (solvers.symbolic.axis.piecewise.equilibrium_pieces, where the game is
enumerable).  Neighbouring grid pots that select different families bracket a jump, which is
located by bisection to ``pot_tol``; a critical pot of the enumeration inside the bracket is
reported exactly instead (the selection can only change there or where the branch itself
changes course).  Where the selected family is a continuum, the free parameters selected at
each grid pot are kept.  Games too large to enumerate (kuhn3) are split where the limit
itself jumps instead (solvers.qre.jumps).
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np
import sympy as sp
from numpy.typing import NDArray

from pokerdyn.games import Game, GameError
from pokerdyn.solvers.qre.jumps import continuity_map
from pokerdyn.solvers.qre.pots import PotPoint, Segment, _pieces, limit_at_pot


def _key(pt: PotPoint) -> tuple:
    if pt.family is not None:
        return tuple((k, str(v)) for k, v in pt.family)
    return ("support",) + pt.support


def _critical(pieces: list) -> list:
    out = set()
    for pc in pieces:
        s = pc.p_set
        if isinstance(s, sp.FiniteSet):
            out.update(s)
        elif isinstance(s, sp.Interval):
            out.update(x for x in (s.start, s.end) if x.is_finite)
    return sorted(out, key=float)


def selection_map(game: Game, low: float, high: float, grid: int = 48, pot_tol: float = 1e-6,
                  progress: Callable[[int], None] | None = None) -> list[Segment]:
    """The families selected by the limit of the principal QRE branch for pots in
    ``(low, high]`` (``grid`` equally spaced pots, jumps bisected to ``pot_tol``)."""
    if "P" not in game.param_names:
        raise GameError(f"game {game.name!r} has no pot parameter P")
    if not (np.isfinite(low) and np.isfinite(high) and 0 <= low < high):
        raise GameError(f"pot range {low}:{high} is empty or reversed; allowed: 0 <= A < B")
    pieces = _pieces(game)
    if not pieces:      # too large to enumerate: split where the limit jumps
        return continuity_map(game, low, high, grid, pot_tol, progress)
    # cell midpoints (a critical pot such as P = 5 is then never a grid pot) and ``high``
    pots = np.append(low + (high - low) * (np.arange(grid) + 0.5) / grid, high)
    pts = []
    for k, p in enumerate(pots):
        pts.append(limit_at_pot(game, float(p), pieces))
        if progress is not None:
            progress(k + 1)
    crit = _critical(pieces)
    segs: list[Segment] = []
    start: Any = sp.nsimplify(low)
    group = [pts[0]]
    for a, b in zip(pts, pts[1:]):
        if _key(a) == _key(b):
            group.append(b)
            continue
        for jump, after in _jumps(game, pieces, a, b, crit, pot_tol):
            segs.append(Segment(start, jump, group[0].family, _free(group[0]), tuple(group)))
            start, group = jump, [after]
        if group[-1] is not b:
            group = [b] if _key(group[-1]) == _key(b) and group[-1].pot < a.pot + pot_tol \
                else [g for g in group if g.pot > a.pot] + [b]
    segs.append(Segment(start, sp.nsimplify(high), group[0].family, _free(group[0]),
                        tuple(group)))
    return [_with_selected(s) for s in _tidy(segs, crit, pot_tol)]


SNAP = 1e-4


def _tidy(segs: list[Segment], crit: Sequence, pot_tol: float) -> list[Segment]:
    """Boundaries within ``SNAP`` of a critical pot of the enumeration move onto it (the
    branch converges slowly next to a critical pot, where the equilibria are degenerate, so
    bisection there stops short of it), and the segments this leaves empty, narrower than
    ``SNAP`` with no family matched, or narrower than ``4 pot_tol`` (a window at the
    resolution of the bisection: the branch jumping to a third family right at the jump)
    are dropped."""
    def snap(x):
        if isinstance(x, float):
            near = [c for c in crit if abs(float(c) - x) < SNAP]
            return near[0] if near else x
        return x
    out: list[Segment] = []
    for s in segs:
        lo, hi = snap(s.low), snap(s.high)
        width = float(hi) - float(lo)
        if width <= 0 or (s.strategy is None and width < SNAP) or \
                (width < 4 * pot_tol and s is not segs[0] and s is not segs[-1]):
            continue
        if out and float(out[-1].high) != float(lo):
            lo = out[-1].high
        if out and out[-1].strategy == s.strategy and out[-1].strategy is not None:
            prev = out.pop()
            out.append(Segment(prev.low, hi, s.strategy, s.free, prev.points + s.points))
            continue
        out.append(Segment(lo, hi, s.strategy, s.free, s.points))
    return out


def _with_selected(seg: Segment) -> Segment:
    if not seg.free:
        return seg
    pts = [p for p in seg.points if p.free]
    fits = []
    for name in seg.free:
        e = fit_rational([p.pot for p in pts], [p.free[name] for p in pts])
        if e is None:
            return seg
        fits.append((name, e))
    return Segment(seg.low, seg.high, seg.strategy, seg.free, seg.points, tuple(fits))


def _free(pt: PotPoint) -> tuple[str, ...]:
    return tuple(pt.free or ())


def _jumps(game: Game, pieces: list, a: PotPoint, b: PotPoint, crit: Sequence,
           tol: float) -> list[tuple[Any, PotPoint]]:
    """The pots between ``a.pot`` and ``b.pot`` where the selection changes, each with the
    limit just after it: a critical pot of the enumeration where the selections on its two
    sides are ``a``'s and ``b``'s, else bisection to ``tol`` (a float), recursing where a
    midpoint selects a third family."""
    for c in (c for c in crit if a.pot < float(c) < b.pot):
        # halfway to each side (right next to a critical pot the equilibria are degenerate
        # and the branch converges too slowly to be matched)
        left = limit_at_pot(game, 0.5 * (a.pot + float(c)), pieces)
        right = limit_at_pot(game, 0.5 * (float(c) + b.pot), pieces)
        if _key(left) == _key(a) and _key(right) == _key(b):
            return [(c, right)]
    lo, hi = a, b
    while hi.pot - lo.pot > tol:
        mid = limit_at_pot(game, 0.5 * (lo.pot + hi.pot), pieces)
        if _key(mid) == _key(lo):
            lo = mid
        elif _key(mid) == _key(hi):
            hi = mid
        else:
            # a third family next to a jump is most often the branch jumping to another
            # component near the bifurcation that causes the jump: retrace with steps 50x
            # and 250x finer in the probabilities before believing it (skp near P = 7.7523:
            # the window of the mixed eq. (14) shrinks from 1e-3 to nothing as they shrink)
            fine = mid
            # (only between matched families: support keys of games too large to enumerate
            # also change where an action's limit is near 0, which finer steps do not fix)
            for ds in ((1e-3, 2e-4) if mid.family is not None else ()):
                try:
                    fine = limit_at_pot(game, mid.pot, pieces, dsigma=ds)
                except GameError:           # too many steps at this resolution: keep mid
                    break
                if _key(fine) in (_key(lo), _key(hi)):
                    break
            if _key(fine) == _key(lo):
                lo = fine
            elif _key(fine) == _key(hi):
                hi = fine
            else:
                return _jumps(game, pieces, lo, fine, crit, tol) + \
                    _jumps(game, pieces, fine, hi, crit, tol)
    return [(0.5 * (lo.pot + hi.pot), hi)]


__all__ = ["PotPoint", "Segment", "fit_rational", "limit_at_pot", "selected_frequencies",
           "selection_map"]


def fit_rational(pots: Sequence[float], values: Sequence[float], max_degree: int = 2,
                 tol: float = 1e-8) -> sp.Expr | None:
    """A rational function of P with small integer-ratio coefficients (numerator and
    denominator of degree <= ``max_degree``) through the points ``(pots, values)`` within
    ``tol``, checked on points the fit did not need; None if there is none.  Used to write
    the selected point of a continuum family as an expression in P where it is one."""
    x, y = np.asarray(pots, dtype=float), np.asarray(values, dtype=float)
    P = sp.Symbol("P", positive=True)
    for total in range(0, 2 * max_degree + 1):
        for dn in range(min(total, max_degree), -1, -1):
            dd = total - dn
            if dd > max_degree or x.size < dn + dd + 2:
                continue
            M = np.hstack([x[:, None] ** np.arange(dn + 1),
                           -y[:, None] * x[:, None] ** np.arange(dd + 1)])
            c = np.linalg.svd(M)[2][-1]            # num(x) = y den(x): the null vector
            dc = c[dn + 1:]
            # normalised by the largest denominator coefficient: the first one may be
            # rounding noise (1/P fitted from limits accurate to 1e-7: d0 ~ 1e-8)
            lead = dc[np.argmax(np.abs(dc))]
            c = c / lead
            if np.abs(M @ c).max() > tol * max(1.0, float(np.abs(c).max())):
                continue
            # coefficients at the noise level of the fit are 0
            c = np.where(np.abs(c) < max(1e-6, 100 * tol), 0.0, c)
            rt = max(1e-7, 10 * tol)
            num = sum(sp.nsimplify(float(v), tolerance=rt, rational=True) * P ** k
                      for k, v in enumerate(c[:dn + 1]))
            den = sum(sp.nsimplify(float(v), tolerance=rt, rational=True) * P ** k
                      for k, v in enumerate(c[dn + 1:]))
            if den == 0 or any(abs(q.p) > 1000 or q.q > 1000
                               for q in (num / den).atoms(sp.Rational)):
                continue        # not small integer ratios: a fit of rounding noise
            expr = sp.factor(num / den)
            f = sp.lambdify(P, expr, "numpy")
            if np.abs(np.asarray(f(x), dtype=float) - y).max() <= 10 * tol:
                return expr
    return None


def selected_frequencies(segments: Sequence[Segment]) -> tuple[NDArray[np.float64], dict]:
    """``(pots, {parameter: values})`` of the grid points of a selection map (figures)."""
    pts = [p for s in segments for p in s.points]
    names = list(pts[0].params) if pts else []
    return (np.array([p.pot for p in pts]),
            {n: np.array([p.params[n] for p in pts]) for n in names})


# limits of games too large to enumerate are accurate to ~1e-7 along the flat directions of
# their equilibrium sets (kuhn3: x1_J_0_b = 1/P to 1.3e-7 at P = 6.125); the fit's small
# integer coefficients (<= 1000) keep this tolerance from fitting noise
FIT_TOL = 1e-6


def selection_records(segs: Sequence[Segment]) -> list[dict]:
    """The JSON records of a selection map's segments (``pokerdyn qre --pots``'s key
    ``selection``): ``pots`` (exact strings) and ``pots_float``, ``strategy`` (each named
    parameter as an exact expression in P, or, where no family is known, as fitted by
    :func:`fitted_strategy`), ``exact``; ``points`` (the grid pots' limits) where no family
    is known; ``family`` and ``selected`` (the free values at each grid pot) where the
    selected family is a continuum."""
    out = []
    for s in segs:
        exact = s.exact_strategy()
        rec = {"pots": [str(s.low), str(s.high)], "pots_float": [float(s.low), float(s.high)],
               "strategy": ({k: str(v) for k, v in exact.items()} if exact is not None else
                            {k: str(v) for k, v in s.strategy} if s.strategy is not None
                            else fitted_strategy(s)),
               "exact": exact is not None}
        if s.strategy is None:
            rec["exact"] = all(isinstance(v, str) for v in rec["strategy"].values())
            rec["points"] = [{"pot": p.pot, "strategy": p.params, "nash_conv": p.nash_conv}
                             for p in s.points]
        if s.free:
            rec["family"] = {k: str(v) for k, v in s.strategy}
            rec["selected"] = [{"pot": p.pot, "free": p.free} for p in s.points]
        out.append(rec)
    return out


def fitted_strategy(seg: Segment) -> dict:
    """A segment's selected strategy where no family is known: each parameter as an
    expression in P where a small rational function fits its grid values to ``FIT_TOL``
    (:func:`fit_rational`), else its value at the middle grid pot."""
    pts = seg.points
    mid = pts[len(pts) // 2]
    out = {}
    for k in mid.params:
        e = fit_rational([p.pot for p in pts], [p.params[k] for p in pts], tol=FIT_TOL) \
            if len(pts) >= 2 else None
        out[k] = str(e) if e is not None else float(mid.params[k])
    return out
