"""The limit of the principal QRE branch as ``lam -> oo``, and its place among the
enumerated equilibrium families.

On the equilibrium's support the branch is a smooth function of ``mu = 1 / lam`` (the
logit equations read ``v_a - v_b = mu (log sigma_a - log sigma_b)``; the other actions have
probabilities ``O(exp(-c lam))``), so the limit is the value at ``mu = 0`` of the polynomial
through the last branch points (Richardson/Neville extrapolation), followed by a few
Gauss-Newton steps on the indifference conditions of that support (minimum-norm steps, so a
point of a continuum moves only by the extrapolation error).  Where the game is enumerable
(solvers.symbolic), the limit is matched with a family and the family's free parameters are
read off; the family point is an equilibrium exactly, which certifies the limit.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
from numpy.typing import NDArray

from pokerdyn.games import CompiledGame
from pokerdyn.games.strategy import params_from_strategy
from pokerdyn.solvers.evaluation import nash_conv
from pokerdyn.solvers.qre.branch import Branch
from pokerdyn.solvers.qre.core import value_jacobian

SUPPORT_CUT = 1e-7


@dataclass(frozen=True)
class Limit:
    """The branch's limit: ``strategy`` (n_infosets, max_actions), its ``nash_conv``, and,
    where the game was enumerated, ``family`` (index into the families it was matched
    against, or None), ``free`` (the values of that family's free parameters) and
    ``family_nash_conv`` (NashConv of the family point itself).  ``certified``: the
    family point is an exact equilibrium (matched within ``match_tol``) or NashConv < 1e-8."""

    strategy: NDArray[np.float64]
    nash_conv: float
    family: int | None = None
    free: dict[str, float] | None = None
    family_nash_conv: float | None = None
    distance: float | None = None

    @property
    def certified(self) -> bool:
        return self.nash_conv < 1e-8 or (self.family is not None and self.distance is not None
                                         and (self.family_nash_conv or 0.0) < 1e-12)


def _neville_at_zero(mu: NDArray[np.float64], ys: NDArray[np.float64]) -> NDArray[np.float64]:
    """The interpolating polynomial through ``(mu[k], ys[k])`` evaluated at ``mu = 0``."""
    p = [y.copy() for y in ys]
    n = len(mu)
    for m in range(1, n):
        for i in range(n - m):
            p[i] = (mu[i + m] * p[i] - mu[i] * p[i + 1]) / (mu[i + m] - mu[i])
    return p[0]


def extrapolate(branch: Branch, points: int = 4) -> NDArray[np.float64]:
    """Limit of the branch profiles at ``mu = 1/lam -> 0`` from its last ``points`` points.
    An action leaves the support when its probability at the last point is below
    ``SUPPORT_CUT`` or falls faster than ``lam^-1.5`` between the last two points used (the
    abandoned actions decay like ``exp(-c lam)``, a point of the support converges like
    ``1/lam``); rows are renormalised."""
    lam = branch.lambdas
    # points at least 20% apart in lam, from the last back (a walk that ended in its end
    # game took tiny steps last; interpolating through points that close amplifies their
    # rounding without bound)
    idx = [len(lam) - 1]
    for i in range(len(lam) - 2, -1, -1):
        if len(idx) == points:
            break
        if 0 < lam[i] <= 0.8 * lam[idx[-1]]:
            idx.append(i)
    idx = np.array(idx[::-1])
    est = _neville_at_zero(1.0 / lam[idx], branch.profiles[idx])
    j, i = idx[-1], idx[-2] if len(idx) > 1 else idx[-1]
    last, prev = branch.profiles[j], branch.profiles[i]
    with np.errstate(divide="ignore", invalid="ignore"):
        fast = last < prev * (lam[i] / lam[j]) ** 1.5
    est = np.where((last < SUPPORT_CUT) | fast, 0.0, np.clip(est, 0.0, 1.0))
    s = est.sum(axis=1, keepdims=True)
    return np.where(s > 0, est / np.where(s > 0, s, 1.0), last)


def polish(cg: CompiledGame, sigma: NDArray[np.float64], iterations: int = 6
           ) -> NDArray[np.float64]:
    """Gauss-Newton (least squares, minimum-norm steps) on the indifference of the
    supported actions of every reached set and the simplex rows, support held fixed;
    returns the iterate of smallest NashConv (``sigma`` itself if none improves)."""
    supp = (sigma > 0) & cg.legal
    A = cg.max_actions
    cols = np.flatnonzero(supp.ravel())
    best, best_nc = sigma, nash_conv(cg, sigma, check=False)
    cur = sigma.copy()
    for _ in range(iterations):
        v, D = value_jacobian(cg, cur)
        rows_r, rows_d, jac = [], [], []
        for I in range(cg.n_infosets):
            acts = np.flatnonzero(supp[I])
            if acts.size == 0:
                continue
            row = np.zeros(cols.size)
            row[np.searchsorted(cols, I * A + acts)] = 1.0
            rows_r.append(cur[I, acts].sum() - 1.0)
            jac.append(row)
            for a in acts[1:]:
                rows_r.append(v[I, a] - v[I, acts[0]])
                jac.append((D[I * A + a] - D[I * A + acts[0]])[cols])
            rows_d.append(I)
        step = np.linalg.lstsq(np.array(jac), -np.array(rows_r), rcond=1e-12)[0]
        flat = cur.ravel().copy()
        flat[cols] = np.clip(flat[cols] + step, 0.0, 1.0)
        cur = flat.reshape(cur.shape)
        tot = cur.sum(axis=1, keepdims=True)
        cur = np.where(tot > 0, cur / np.where(tot > 0, tot, 1.0), sigma)
        nc = nash_conv(cg, cur, check=False)
        if nc < best_nc:
            best, best_nc = cur.copy(), nc
        if nc < 1e-14:
            break
    return best


def numeric_limit(cg: CompiledGame, branch: Branch) -> tuple[NDArray[np.float64], float]:
    """The branch's limit as a profile (extrapolated, then polished) and its NashConv."""
    est = polish(cg, extrapolate(branch))
    return est, nash_conv(cg, est, check=False)


def identify_limit(cg: CompiledGame, est: NDArray[np.float64], nc: float,
                   families: Sequence[Any] | None = None, match_tol: float = 1e-5) -> Limit:
    """The :class:`Limit` of the limit profile ``est`` (NashConv ``nc``): with ``families``
    (display solutions of solvers.symbolic at this game's parameter values) the one it
    belongs to."""
    if not families:
        return Limit(est, nc)
    from pokerdyn.solvers.qre.families import match_family
    m = match_family(cg, params_from_strategy(cg, est), families, match_tol)
    if m is None:
        return Limit(est, nc)
    idx, free, point, dist = m
    return Limit(est, nc, idx, free, nash_conv(cg, point, check=False), dist)


def branch_limit(cg: CompiledGame, branch: Branch,
                 families: Sequence[Any] | None = None, match_tol: float = 1e-5) -> Limit:
    """The limit of ``branch`` (see the module docstring); with ``families`` (display
    solutions of solvers.symbolic at this game's parameter values) the one it belongs to:
    :func:`numeric_limit`, then :func:`identify_limit`."""
    est, nc = numeric_limit(cg, branch)
    return identify_limit(cg, est, nc, families, match_tol)
