"""Agent logit QRE: conditional action values, the logit response and the branch system.

A profile ``sigma`` (``(n_infosets, max_actions)``, games.strategy) is an agent logit QRE
at precision ``lam`` when at every information set ``I``

    sigma[I, a] = exp(lam * v[I, a]) / sum_b exp(lam * v[I, b])

with ``v[I, a]`` the owner's expected payoff of ``a`` given that ``I`` is reached
(McKelvey and Palfrey 1998, sec. 4; Turocy 2005).  The branch is traced in the variables
``y = (log sigma over the legal actions, lam)``, on the system ``H(y) = 0``:
``sum_a sigma[I, a] - 1`` and ``x[I, a] - x[I, a0] - lam (v[I, a] - v[I, a0])`` for the
other legal actions ``a`` of ``I`` (``a0`` its first legal action), as Gambit does.
"""
from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from pokerdyn.games import CompiledGame, GameError
from pokerdyn.games.errors import shown
from pokerdyn.games.strategy import check_strategy

from pokerdyn.solvers.qre import _kernels as QK


def _arrays(cg: CompiledGame) -> tuple:
    return (cg.kind, cg.player, cg.parent, cg.edge, cg.infoset, cg.chance_prob,
            cg.terminal_index, cg.payoffs, cg.legal)


def _log(sigma: NDArray[np.float64]) -> NDArray[np.float64]:
    with np.errstate(divide="ignore"):
        return np.log(np.ascontiguousarray(sigma, dtype=np.float64))


# The largest precision.  The branch's step grows to at most 1e6 in lambda
# (solvers.qre.branch), so it reaches 1e7 in a few dozen steps (kuhn: 2 s) but 1e8 in
# hundreds (7.5 s), 1e9 in thousands (100 s), and 1e300 never (its 20000-step budget ran out
# after 45 s); and the fixed point holds only to about lambda * 1e-16 * |payoff| (the
# corrector's rounding bound), 1e-9 relative at 1e7.  The branch's default end is this too.
LAMBDA_MAX = 1e7


def check_lambda(lam: float, what: str = "lambda") -> float:
    """``lam`` as a float; GameError (naming ``what``) unless it is a number in
    ``(0, LAMBDA_MAX]``."""
    rng = f"(0, {LAMBDA_MAX:g}]"
    try:
        x = float(lam)
    except OverflowError:  # an integer beyond float (whose repr alone may fail)
        raise GameError(f"{what} is a number beyond the float range; allowed range "
                        f"{rng}") from None
    except (TypeError, ValueError):
        raise GameError(f"{what}={shown(lam, quote=True)} is not a number; allowed: numbers "
                        f"in {rng}") from None
    if not (math.isfinite(x) and 0 < x <= LAMBDA_MAX):
        raise GameError(f"{what}={shown(lam)} is outside the allowed range {rng}")
    return x


def action_values(cg: CompiledGame, sigma: NDArray[np.float64],
                  logs: NDArray[np.float64] | None = None) -> NDArray[np.float64]:
    """``v[I, a]``: the owner's expected payoff of action ``a`` at ``I`` given that ``I`` is
    reached under ``sigma`` (0 at sets no play can reach; beliefs are the limits of the
    reach ratios, so actions of probability 0 above ``I`` are fine as long as one node of
    ``I`` has positive reach).  ``logs``: the log-probabilities, where known more exactly
    than ``log(sigma)`` (far out on a branch, where probabilities underflow to 0; they keep
    the beliefs at sets reached only through such actions, see :class:`Branch.logs`)."""
    # shapes only (an O(1) guard: this runs inside branch and dynamics loops)
    lg = _log(check_strategy(cg, sigma, "sigma", full=False)) if logs is None else \
        check_strategy(cg, logs, "logs", full=False)
    v, _, _, _ = QK.action_values(*_arrays(cg), lg)
    return v


def softmax_rows(cg: CompiledGame, z: NDArray[np.float64]) -> NDArray[np.float64]:
    """Row-wise softmax of ``z`` over each set's legal actions (0 elsewhere)."""
    z = np.where(cg.legal, z, -np.inf)
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def logit_response(cg: CompiledGame, sigma: NDArray[np.float64], lam: float,
                   logs: NDArray[np.float64] | None = None) -> NDArray[np.float64]:
    """The agent logit response ``softmax(lam * v(sigma))`` at every information set."""
    return softmax_rows(cg, lam * action_values(cg, sigma, logs))


def fixed_point_residual(cg: CompiledGame, sigma: NDArray[np.float64], lam: float,
                         logs: NDArray[np.float64] | None = None) -> float:
    """``max |sigma - logit_response(sigma, lam)|`` over all legal actions."""
    resp = logit_response(cg, sigma, lam, logs)
    return float(np.abs(np.asarray(sigma) - resp)[cg.legal].max())


def value_jacobian(cg: CompiledGame, sigma: NDArray[np.float64]
                   ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """``(v, D)``: the action values and ``D[I*A + a, J*A + b] = d v[I, a] / d sigma[J, b]``
    (``A = max_actions``; every probability an independent variable, numba kernel over the
    tree).  Columns of actions of probability 0 are 0 (the derivative through the beliefs
    is singular there)."""
    sigma = check_strategy(cg, sigma, "sigma", full=False)
    D, v, _ = QK.value_jacobian(*_arrays(cg), _log(sigma))
    flat = sigma.ravel()
    with np.errstate(divide="ignore", invalid="ignore"):
        D = np.where(flat[None, :] > 0, D / flat[None, :], 0.0)
    return v, D


class BranchSystem:
    """The branch equations ``H(y)`` and their Jacobian ``(n, n + 1)`` on one compiled game;
    ``y = (x, lam)`` with ``x`` the log-probabilities of the legal actions in row order."""

    def __init__(self, cg: CompiledGame):
        self.cg = cg
        self.amax = cg.max_actions
        self.idx = np.flatnonzero(cg.legal.ravel())
        self.n = int(self.idx.size)
        first = np.argmax(cg.legal, axis=1)
        rows = self.idx // self.amax
        self.ref = rows * self.amax + first[rows]        # flat index of each row's a0
        self.is_ref = self.idx == self.ref
        pos = np.full(cg.legal.size, -1)
        pos[self.idx] = np.arange(self.n)
        self.ref_pos = pos[self.ref]                     # position of a0 among the unknowns
        self.set_pos = rows                              # information set of each unknown

    def logsig(self, x: NDArray[np.float64]) -> NDArray[np.float64]:
        out = np.full(self.cg.legal.size, -np.inf)
        out[self.idx] = x
        return out.reshape(self.cg.legal.shape)

    def sigma(self, x: NDArray[np.float64]) -> NDArray[np.float64]:
        return np.exp(self.logsig(x))

    def start(self) -> NDArray[np.float64]:
        """``y`` at ``lam = 0``: uniform play."""
        k = self.cg.n_actions[self.set_pos].astype(np.float64)
        return np.append(-np.log(k), 0.0)

    def residual(self, y: NDArray[np.float64]) -> NDArray[np.float64]:
        x, lam = y[:-1], y[-1]
        v = action_values(self.cg, self.sigma(x)).ravel()[self.idx]
        return self._h(x, lam, v)

    def _h(self, x, lam, v) -> NDArray[np.float64]:
        h = x - x[self.ref_pos] - lam * (v - v[self.ref_pos])
        sums = np.bincount(self.set_pos, weights=np.exp(x), minlength=self.cg.n_infosets)
        h[self.is_ref] = sums[self.set_pos[self.is_ref]] - 1.0
        return h

    def jacobian(self, y: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """``(H(y), dH/dy)``; ``dH/dy`` has ``n`` rows and ``n + 1`` columns (the last:
        d/d lam)."""
        x, lam = y[:-1], y[-1]
        D, v, _ = QK.value_jacobian(*_arrays(self.cg), self.logsig(x))
        return QK.assemble(D, v.ravel(), np.ascontiguousarray(x), float(lam), self.idx,
                           self.ref_pos, self.is_ref, self.set_pos, self.cg.n_infosets)


def logit_field_jacobian(cg: CompiledGame, sigma: NDArray[np.float64], lam: float
                         ) -> NDArray[np.float64]:
    """Jacobian of the logit dynamics' field ``F(sigma) = logit_response(sigma, lam) - sigma``
    over the legal actions (row-major order of ``cg.legal``): at each set,
    ``d r_I / d sigma = lam (diag(r_I) - r_I r_I^T) d v_I / d sigma`` minus the identity.
    Its eigenvalues at a QRE tell whether the logit dynamics settle there; the directions
    that leave a simplex add eigenvalues -1."""
    v, D = value_jacobian(cg, sigma)
    r = softmax_rows(cg, lam * v)
    idx = np.flatnonzero(cg.legal.ravel())
    A = cg.max_actions
    Dl = D[np.ix_(idx, idx)]
    out = -np.eye(idx.size)
    rows = idx // A
    for I in np.unique(rows):
        k = np.flatnonzero(rows == I)
        rI = r.ravel()[idx[k]]
        out[k] += lam * (np.diag(rI) - np.outer(rI, rI)) @ Dl[k]
    return out
