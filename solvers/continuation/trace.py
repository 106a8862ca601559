"""Branches of equilibria along ``p``: trace one support by pseudo-arclength, locate the
first event on the curve (Illinois regula falsi on the corrected points), certify the point
exactly, switch the support the event calls for and go on.

At a switch the new branch's direction is the one the complementarity conditions allow: a
frequency that reached 0 (1) stays there only if its gain then decreases (increases); a set
whose gain crossed 0 enters the support only if its frequency moves into (0, 1).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray
from tqdm.auto import tqdm

from pokerdyn.solvers.continuation.arclength import (HELD, MIXED, ONE, ZERO, EVENT_TOL, Support,
                                            augmented_jacobian, event_values, newton,
                                            reduce_degenerate, tangent)
from pokerdyn.solvers.continuation.certify import certify
from pokerdyn.solvers.continuation.system import IndifferenceSystem


@dataclass(frozen=True)
class BranchPoint:
    """Where a branch starts or ends: ``kind`` (``start``, ``reaches 0``, ``reaches 1``,
    ``enters``, ``family ends``, ``pot bound``, ``fold``, ``singular``), the set concerned
    (index, -1 if none), the point and its exact NashConv certificate."""

    kind: str
    set_index: int
    pot: float
    x: NDArray[np.float64]
    certificate: dict


@dataclass
class Branch:
    """Equilibria on one support: ``pots[i]``, ``xs[i]`` (frequency of each set's second
    action), the bounding points and the folds (turning points in ``p``) inside."""

    codes: NDArray[np.int8]
    pots: list[float] = field(default_factory=list)
    xs: list[NDArray[np.float64]] = field(default_factory=list)
    start: BranchPoint | None = None
    end: BranchPoint | None = None
    folds: list[BranchPoint] = field(default_factory=list)

    @property
    def pot_range(self) -> tuple[float, float]:
        return (min(self.pots), max(self.pots))


PASSES_PER_BRANCH = 10


@dataclass(frozen=True)
class Options:
    """Step control: initial, smallest and largest arclength step, steps per branch, the
    number of branches along which P moves (each direction; supports passed at one pot
    count only up to PASSES_PER_BRANCH times as many) and whether to certify points."""

    h0: float = 0.05
    hmin: float = 1e-7
    hmax: float = 0.25
    max_steps: int = 5000
    max_branches: int = 60
    certify: bool = True


def _point(S, kind, k, x, p, opts) -> BranchPoint:
    cert = certify(S, x, p) if opts.certify else {}
    return BranchPoint(kind, k, float(p), x.copy(), cert)


def _corrected(S, sup, x, p, t, s, chord=None):
    """The corrected point of the step of length ``s`` along ``t``: chord iterations on the
    Jacobian ``chord`` at the step's start when given (their count halved, to compare
    with Newton's in the step control), else or if they stall full Newton."""
    y0 = np.append(x[sup.free], p)
    yp = y0 + s * t
    xs = x.copy()
    xs[sup.free] = yp[:-1]
    if chord is not None:
        x1, p1, ok, it = newton(S, sup, xs, yp[-1], t, yp, chord=chord)
        if ok:
            return x1, p1, ok, (it + 1) // 2
    return newton(S, sup, xs, yp[-1], t, yp)


def _locate(S, sup, x, p, t, h, v0, pots, chord=None):
    """First event on the step of length ``h`` from ``(x, p)``: (x, p, event index)."""
    x1, p1, _, _ = _corrected(S, sup, x, p, t, h, chord)
    v1, _ = event_values(S, sup, x1, p1, pots)
    bad = np.nonzero(v1 < -EVENT_TOL)[0]
    frac = v0[bad] / np.maximum(v0[bad] - v1[bad], 1e-300)
    j = int(bad[np.argmin(frac)])
    lo, hi, glo, ghi = 0.0, h, v0[j], v1[j]
    xs, ps = x, p
    for _ in range(60):
        s = (lo * ghi - hi * glo) / (ghi - glo) if ghi != glo else 0.5 * (lo + hi)
        if not lo < s < hi:
            s = 0.5 * (lo + hi)
        xs, ps, ok, _ = _corrected(S, sup, x, p, t, s, chord)
        vs, _ = event_values(S, sup, xs, ps, pots)
        others = np.nonzero(vs < -EVENT_TOL)[0]
        if others.size and vs[j] >= -EVENT_TOL:   # another event comes first
            j = int(others[np.argmin(vs[others])])
            hi, ghi, glo = s, vs[j], v0[j]
            lo = 0.0
            continue
        g = vs[j]
        if abs(g) < 1e-13 or hi - lo < 1e-14:
            break
        if g > 0:
            lo, glo = s, g
            ghi *= 0.5 if g * ghi > 0 else 1.0
        else:
            hi, ghi = s, g
            glo *= 0.5
    return xs, ps, j


def trace_support(S: IndifferenceSystem, sup: Support, x: NDArray, p: float,
                  pots: tuple[float, float], direction: float, prev: NDArray | None,
                  opts: Options, bar=None) -> tuple[Branch, str, int, NDArray, NDArray]:
    """Follow ``sup`` from ``(x, p)`` until an event; returns the branch (without its end
    point), the event kind and set, the last tangent and the event point's ``x``."""
    br = Branch(sup.codes.copy(), [float(p)], [x.copy()])
    h = opts.h0
    J = augmented_jacobian(S, sup, x, p)
    t = tangent(J, prev, direction)
    for _ in range(opts.max_steps):
        v0, what = event_values(S, sup, x, p, pots)
        x1, p1, ok, iters = _corrected(S, sup, x, p, t, h, J)
        if not ok:
            h *= 0.5
            if h < opts.hmin:
                return br, "singular", -1, t, x
            continue
        v1, _ = event_values(S, sup, x1, p1, pots)
        if (v1 < -EVENT_TOL).any():
            xe, pe, j = _locate(S, sup, x, p, t, h, v0, pots, J)
            br.pots.append(float(pe))
            br.xs.append(xe.copy())
            kind, k = what[j]
            return br, kind, k, t, xe
        J = augmented_jacobian(S, sup, x1, p1)
        t1 = tangent(J, t, direction)
        if t1[-1] * t[-1] < 0 and sup.free.size:
            br.folds.append(_point(S, "fold", -1, x1, p1, opts))
        x, p, t = x1, p1, t1
        br.pots.append(float(p))
        br.xs.append(x.copy())
        if bar is not None:
            bar.update(max(0.0, min(p, pots[1]) - pots[0]) * 1000 - bar.n if direction > 0
                       else max(0.0, pots[1] - max(p, pots[0])) * 1000 - bar.n)
        h = min(opts.hmax, h * (1.6 if iters <= 3 else 1.0 if iters <= 5 else 0.6))
    return br, "max steps", -1, t, x


def switch(S: IndifferenceSystem, sup: Support, kind: str, k: int, x: NDArray, p: float,
           prev: NDArray, direction: float) -> tuple[Support, NDArray, NDArray] | None:
    """The support after an event at set ``k`` and the oriented tangent to leave along;
    None when the event ends the continuation."""
    if kind not in ("reaches 0", "reaches 1", "enters", "family ends"):
        return None
    new = sup.copy()
    x = x.copy()
    new.codes[new.codes == HELD] = MIXED     # the degenerate directions are found afresh
    new.dropped = np.zeros(0, dtype=np.int64)
    if kind in ("reaches 0", "reaches 1"):
        new.codes[k] = ZERO if kind == "reaches 0" else ONE
        x[k] = 0.0 if kind == "reaches 0" else 1.0
    elif kind == "enters":
        new.codes[k] = MIXED
    new = reduce_degenerate(S, new, x, p)
    J = augmented_jacobian(S, new, x, p)
    t = tangent(J, None, direction)
    if kind == "enters":
        pos = int(np.nonzero(new.free == k)[0][0]) if k in new.free else -1
        crit = t[pos] * (1.0 if sup.codes[k] == ZERO else -1.0) if pos >= 0 else 0.0
    elif kind in ("reaches 0", "reaches 1"):
        row = S.jacobian(x, p, new.free)[k]
        crit = (row @ t) * (-1.0 if kind == "reaches 0" else 1.0)
    else:
        crit = 0.0
    if abs(crit) < 1e-10:   # keep going the way the old branch went (shared coordinates)
        crit = t @ _embed(prev, sup.free, new.free)
    if abs(crit) < 1e-10:
        crit = t[-1] * direction
    return new, x, (-t if crit < 0 else t)


def _embed(v: NDArray, old_free: NDArray, new_free: NDArray) -> NDArray:
    """A tangent ``(x[old_free], p)`` written in the coordinates ``(x[new_free], p)``."""
    out = np.zeros(new_free.shape[0] + 1)
    pos = {int(k): i for i, k in enumerate(old_free)}
    for j, k in enumerate(new_free):
        if int(k) in pos:
            out[j] = v[pos[int(k)]]
    out[-1] = v[-1]
    return out


def moving(branches: list[Branch]) -> int:
    """Branches along which P changes (the others pass a support at one pot)."""
    return sum(1 for b in branches if b.pot_range[1] - b.pot_range[0] > 1e-9)


def trace_branches(S: IndifferenceSystem, sup: Support, x: NDArray, p: float,
                   pots: tuple[float, float], direction: float = 1.0,
                   opts: Options = Options(), progress: bool = False) -> list[Branch]:
    """Every branch met from the equilibrium ``(x, p)`` on ``sup``, following the curve
    in the ``direction`` of ``p`` until it leaves ``pots`` or an event cannot be passed."""
    branches: list[Branch] = []
    start = _point(S, "start", -1, x, p, opts)
    prev: NDArray | None = None
    seen: set = set()
    bar = tqdm(total=int(round((pots[1] - pots[0]) * 1000)), desc="continuation",
               disable=not progress, leave=False, unit="mP", mininterval=0.5)
    try:
        while (moving(branches) < opts.max_branches
               and len(branches) < PASSES_PER_BRANCH * opts.max_branches):
            sup = reduce_degenerate(S, sup, x, p)
            br, kind, k, t, x = trace_support(S, sup, x, p, pots, direction, prev, opts, bar)
            p = br.pots[-1]
            br.start = start
            br.end = _point(S, kind, k, x, p, opts)
            branches.append(br)
            key = (tuple(sup.codes), round(p, 9), kind, k)
            if key in seen:
                break
            seen.add(key)
            nxt = switch(S, sup, kind, k, x, p, t, direction)
            if nxt is None:
                break
            sup, x, prev = nxt
            start = br.end
    finally:
        bar.close()
    return branches


__all__ = ["Branch", "BranchPoint", "Options", "moving", "switch", "trace_branches", "trace_support"]
