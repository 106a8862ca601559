"""Refining a QRE to the float64 floor of its fixed point, far out on a branch.

Far out on the branch the log-probabilities ``x ~ -lam c`` of abandoned actions are large
numbers whose equations ``x_a - x_b = lam (v_a - v_b)`` are stiff: a rounding ``delta`` in a
value moves ``x_a`` by ``lam delta``, and at sets reached *only* through abandoned actions the
beliefs are ratios such as ``exp(x_a - x_c)`` of two of them.  The whole system at fixed
``lam`` is then singular to working precision (condition ~1e17 on kuhn3 at lam = 3e5), so
its Newton steps cannot drive the probabilities of the mixed actions below them to 1e-10
(the corrector stops at its rounding bound, 2e-8 on kuhn3 at lam = 3e5).

The fixed point itself is well posed in the probabilities: the residual of an abandoned
action, ``|sigma_a - softmax_a|``, is at most ``sigma_a`` times the error of its logit
equation, nothing once ``sigma_a < exp(-HELD)``.  So the refinement holds those
log-probabilities (their values fix the beliefs below them) and solves the equations of the
*live* actions exactly by Newton, each set's equations written relative to its most likely
action (which is always live).  That system is well conditioned; a held action whose
response climbs back above the cut joins the live ones and Newton runs again.
"""
from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from pokerdyn.games import CompiledGame
from pokerdyn.solvers.qre import _kernels as QK
from pokerdyn.solvers.qre.core import _arrays, softmax_rows

HELD = 60.0          # log-probabilities below -HELD are held (sigma < 9e-27)
_TOL = 1e-13       # refine only above this gap (the float64 floor is ~lam * 1e-16)


def fixed_point_gap(cg: CompiledGame, logs: NDArray[np.float64], lam: float
                    ) -> tuple[float, NDArray[np.float64]]:
    """``(max |sigma - softmax(lam v)|, softmax(lam v))`` with the beliefs from ``logs``."""
    v, _, _, _ = QK.action_values(*_arrays(cg), np.ascontiguousarray(logs))
    resp = softmax_rows(cg, lam * v)
    return float(np.abs(np.exp(logs) - resp)[cg.legal].max()), resp


def refine_logs(cg: CompiledGame, logs: NDArray[np.float64], lam: float,
                tol: float = _TOL, max_iter: int = 12) -> NDArray[np.float64]:
    """Log-probabilities of the QRE at ``lam`` near ``logs`` (n_infosets, max_actions) whose
    probabilities satisfy the logit fixed point to about ``tol``: Newton on the live
    actions, the held ones fixed (module docstring).  Returns ``logs`` unchanged when it
    already does, or when no iterate improves on it."""
    logs = np.ascontiguousarray(logs, dtype=np.float64)
    best_gap, _ = fixed_point_gap(cg, logs, lam)
    if best_gap <= tol or lam == 0.0:
        return logs
    best = logs
    A = cg.max_actions
    cur = logs.copy()
    live = cg.legal & (cur > -HELD)
    for _ in range(max_iter):
        D, v, _ = QK.value_jacobian(*_arrays(cg), cur)
        cur = cur + _newton_step(cg, cur, D, v, lam, live, A)
        gap, resp = fixed_point_gap(cg, cur, lam)
        if gap < best_gap:
            best, best_gap = cur.copy(), gap
        back = cg.legal & ~live & (resp > np.exp(-HELD))
        if back.any():              # a held action's response is no longer negligible
            live |= back
            continue
        if gap <= tol:
            break
    return best


def _newton_step(cg: CompiledGame, x: NDArray[np.float64], D: NDArray[np.float64],
                 v: NDArray[np.float64], lam: float, live: NDArray[np.bool_], A: int
                 ) -> NDArray[np.float64]:
    """The Newton step of the live log-probabilities (0 for the held ones): per set, the
    simplex ``sum_a exp(x_a) = 1`` and ``x_a - x_r - lam (v_a - v_r)`` for each live ``a``
    other than the set's most likely action ``r``."""
    cols = np.flatnonzero(live.ravel())
    pos = np.full(live.size, -1)
    pos[cols] = np.arange(cols.size)
    xf, vf = x.ravel(), v.ravel()
    ex = np.exp(xf)
    H = np.empty(cols.size)
    J = np.zeros((cols.size, cols.size))
    k = 0
    for I in np.flatnonzero(live.any(axis=1)):
        acts = I * A + np.flatnonzero(live[I])
        r = I * A + int(np.argmax(np.where(cg.legal[I], x[I], -np.inf)))
        H[k] = ex[I * A: I * A + A][cg.legal[I]].sum() - 1.0
        J[k, pos[acts]] = ex[acts]
        k += 1
        for a in acts[acts != r]:
            H[k] = xf[a] - xf[r] - lam * (vf[a] - vf[r])
            J[k] = -lam * (D[a, cols] - D[r, cols])
            J[k, pos[a]] += 1.0
            J[k, pos[r]] -= 1.0
            k += 1
    # truncated least squares: the live system can itself be singular to working precision
    # (kuhn3 at P = 3.90625, lam = 7e4: singular values from 1.5e5 down to 6e-11, a
    # direction along which the equilibria form a continuum); a full solve feeds the
    # rounding along it back through the curvature (gap stuck at 1e-9), the truncated one
    # does not (3e-12)
    step = np.linalg.lstsq(J, -H, rcond=1e-10)[0]
    out = np.zeros(live.size)
    out[cols] = step
    return out.reshape(x.shape)
