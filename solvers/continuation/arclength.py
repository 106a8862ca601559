"""Pseudo-arclength continuation of the indifference equations on a fixed support, with the
events that end a support located on the curve (Allgower & Georg, *Introduction to
Numerical Continuation Methods*, ch. 2 and 9: Euler predictor, Newton corrector on the
augmented system ``[F(y); t . (y - y_pred)] = 0``, step halved on failure and grown on
quick convergence).

A *support* gives each two-action set a code: ``ZERO``/``ONE`` (the frequency sits at a
bound and its gain must keep the matching sign), ``MIXED`` (the gain is 0 and the
frequency is an unknown), ``HELD`` (mixed, but held at its value because the equations do
not determine it: a family of equilibria, or a set nobody reaches).  The unknowns are the
``MIXED`` frequencies and the parameter ``p``; ``y = (x_mixed, p)``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.linalg as sla
from numpy.typing import NDArray

from pokerdyn.solvers.continuation.system import IndifferenceSystem

ZERO, ONE, MIXED, HELD = 0, 1, 2, 3
RANK_TOL = 1e-9      # relative singular value below which a direction counts as null
NEWTON_TOL = 1e-12   # residual of a corrected point
EVENT_TOL = 1e-10    # how far an inequality may be violated before it is an event


@dataclass
class Support:
    """Codes per set, the sets locked by dominance, and the equations dropped because they
    depend on the others (as many as ``HELD`` sets)."""

    codes: NDArray[np.int8]
    locked: NDArray[np.bool_]
    dropped: NDArray[np.int64]

    @property
    def free(self) -> NDArray[np.int64]:
        return np.nonzero(self.codes == MIXED)[0]

    @property
    def rows(self) -> NDArray[np.int64]:
        eq = np.nonzero((self.codes == MIXED) | (self.codes == HELD))[0]
        return np.setdiff1d(eq, self.dropped)

    def copy(self) -> "Support":
        return Support(self.codes.copy(), self.locked.copy(), self.dropped.copy())


def residual(S: IndifferenceSystem, sup: Support, x: NDArray, p: float) -> NDArray:
    return S.gains(x, p)[sup.rows]


def augmented_jacobian(S: IndifferenceSystem, sup: Support, x: NDArray, p: float) -> NDArray:
    """``d gains[rows] / d (x[free], p)``."""
    return S.jacobian(x, p, sup.free)[sup.rows]


def reduce_degenerate(S: IndifferenceSystem, sup: Support, x: NDArray, p: float) -> Support:
    """Hold the frequencies the equations leave undetermined and drop as many dependent
    equations (column- and row-pivoted QR of the Jacobian), so that the augmented Jacobian
    has full row rank: on a family of equilibria this follows one curve of it."""
    sup = sup.copy()
    # sets that chance and the others never reach: gain 0 whatever x, payoff-irrelevant
    off = (sup.codes == MIXED) & (S.cf_reach(x, p) < 1e-14)
    sup.codes[off] = HELD
    sup.dropped = np.union1d(sup.dropped, np.nonzero(off)[0])
    for _ in range(3):
        J = augmented_jacobian(S, sup, x, p)
        m = J.shape[0]
        if m == 0:
            return sup
        sv = np.linalg.svd(J, compute_uv=False)
        rank = int((sv > RANK_TOL * max(1.0, sv[0])).sum())
        k = m - rank
        if k <= 0:
            return sup
        _, _, cpiv = sla.qr(J[:, :-1], pivoting=True, mode="economic")
        hold = sup.free[cpiv[-k:]]
        _, _, rpiv = sla.qr(J.T, pivoting=True, mode="economic")
        drop = sup.rows[rpiv[-k:]]
        sup.codes[hold] = HELD
        sup.dropped = np.union1d(sup.dropped, drop)
    return sup


def tangent(J: NDArray, prev: NDArray | None, direction: float) -> NDArray:
    """Unit null vector of ``J`` (m x (m+1)), oriented along ``prev`` or, without one, so
    that ``p`` moves in ``direction``."""
    if J.shape[0] == 0:
        t = np.zeros(J.shape[1])
        t[-1] = 1.0
    else:
        t = np.linalg.svd(J)[2][-1]
    ref = (t @ prev) if prev is not None else t[-1] * direction
    return -t if ref < 0 else t


def newton(S: IndifferenceSystem, sup: Support, x: NDArray, p: float,
           t: NDArray | None = None, y_pred: NDArray | None = None, max_iter: int = 12,
           chord: NDArray | None = None) -> tuple[NDArray, float, bool, int]:
    """Newton on the support's equations; with ``t`` and ``y_pred`` on the augmented
    pseudo-arclength system, else at fixed ``p``.  Returns ``(x, p, converged, iters)``.

    ``chord`` (with ``t``): the augmented Jacobian at the point the step starts from, used
    for every iteration (the chord method, Allgower & Georg sec. 2.3: one Jacobian per step
    instead of one per iteration; it converges linearly, fast for the short steps of a
    continuation); it stops as soon as the corrections stop shrinking, and the caller then
    falls back to full Newton."""
    x = x.copy()
    free = sup.free
    if chord is not None and t is not None:
        return _chord(S, sup, x, p, t, y_pred, np.linalg.pinv(np.vstack([chord, t])))
    for it in range(1, max_iter + 1):
        F = residual(S, sup, x, p)
        if t is None:
            J = augmented_jacobian(S, sup, x, p)[:, :-1]
            rhs = F
        else:
            J = np.vstack([augmented_jacobian(S, sup, x, p), t])
            y = np.append(x[free], p)
            rhs = np.append(F, t @ (y - y_pred))
        if not np.all(np.isfinite(J)) or J.size == 0:
            return x, p, bool(np.abs(F).max(initial=0.0) < NEWTON_TOL), it
        d = np.linalg.lstsq(J, rhs, rcond=None)[0]
        if t is None:
            x[free] -= d
        else:
            x[free] -= d[:-1]
            p -= d[-1]
        if np.abs(d).max() < 1e-13 and np.abs(residual(S, sup, x, p)).max(initial=0.0) < 1e-11:
            return x, p, True, it
        if np.abs(d).max() > 1.0:
            return x, p, False, it
    ok = np.abs(residual(S, sup, x, p)).max(initial=0.0) < 1e-10
    return x, p, bool(ok), max_iter


def _chord(S, sup, x, p, t, y_pred, inv, max_iter: int = 40):
    free = sup.free
    last = np.inf
    if not np.all(np.isfinite(inv)):
        return x, p, False, 0
    for it in range(1, max_iter + 1):
        F = residual(S, sup, x, p)
        y = np.append(x[free], p)
        d = inv @ np.append(F, t @ (y - y_pred))
        x[free] -= d[:-1]
        p -= d[-1]
        size = np.abs(d).max(initial=0.0)
        if size < 1e-13 and np.abs(residual(S, sup, x, p)).max(initial=0.0) < 1e-11:
            return x, p, True, it
        if size > 1.0 or (it > 2 and size > 0.5 * last):
            return x, p, False, it
        last = size
    return x, p, False, max_iter


def event_values(S: IndifferenceSystem, sup: Support, x: NDArray, p: float,
                 pots: tuple[float, float]) -> tuple[NDArray, list[tuple[str, int]]]:
    """Values that must stay >= 0 on the support and what each one is: the mixed
    frequencies and their complements, the gains of the sets at a bound with their sign, the
    dropped equations' residuals (both signs: a family ends) and the pot bounds."""
    g = S.gains(x, p)
    vals: list[float] = []
    what: list[tuple[str, int]] = []
    for k in np.nonzero(sup.codes == MIXED)[0]:
        vals += [x[k], 1.0 - x[k]]
        what += [("reaches 0", int(k)), ("reaches 1", int(k))]
    for k in np.nonzero(((sup.codes == ZERO) | (sup.codes == ONE)) & ~sup.locked)[0]:
        vals.append(-g[k] if sup.codes[k] == ZERO else g[k])
        what.append(("enters", int(k)))
    for k in sup.dropped:
        vals += [1e-9 - g[k], 1e-9 + g[k]]
        what += [("family ends", int(k)), ("family ends", int(k))]
    vals += [p - pots[0], pots[1] - p]
    what += [("pot bound", -1), ("pot bound", -1)]
    return np.asarray(vals), what


__all__ = ["HELD", "MIXED", "ONE", "ZERO", "Support", "augmented_jacobian", "event_values",
           "newton", "reduce_degenerate", "residual", "tangent"]
