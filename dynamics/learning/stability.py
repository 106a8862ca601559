"""Rest points of the learning dynamics and the stability of the logit QRE along the
principal branch.

The state space is a product of simplices; the dynamics leave its tangent space
``{u : sum_a u[I, a] = 0 for every I}`` invariant, so the stability of a rest point is read
from the Jacobian restricted to it, ``B^T J B`` with ``B`` an orthonormal basis of the
tangent space (the eigenvalue -k per set of the logit field across the simplex is dropped).
Along the principal branch the QRE ``sigma_lam`` is a rest point of the logit dynamics at
every ``lam``; where the real part of its leading eigenvalue crosses 0 with a complex pair,
a Hopf bifurcation (Hopf 1942; Kuznetsov 2004, sec. 3.4) makes the noisy players' dynamics
cycle around the QRE instead of settling on it.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.integrate import solve_ivp
from scipy.optimize import brentq

from pokerdyn.games import CompiledGame, GameError
from pokerdyn.solvers.qre.branch import Branch, newton_at, trace_branch
from pokerdyn.solvers.qre.core import BranchSystem

from pokerdyn.dynamics.learning.model import LearningModel, learning_model
from pokerdyn.dynamics.summary import summary_repr


def tangent_basis(model: LearningModel) -> NDArray[np.float64]:
    """Orthonormal basis ``(n, n - n_sets)`` of the directions that keep every set's sum."""
    rows = model.idx // model.cg.max_actions
    cols = []
    for I in np.unique(rows):
        pos = np.flatnonzero(rows == I)
        for j in pos[1:]:
            c = np.zeros(model.n)
            c[pos[0]], c[j] = -1.0, 1.0
            cols.append(c)
    if not cols:
        return np.zeros((model.n, 0))
    return np.linalg.qr(np.array(cols).T)[0]


def tangent_eigenvalues(model: LearningModel, y: ArrayLike) -> NDArray[np.complex128]:
    """Eigenvalues of the Jacobian at ``y`` on the tangent space, largest real part first."""
    B = tangent_basis(model)
    ev = np.linalg.eigvals(B.T @ model._jac(np.asarray(y, dtype=np.float64)) @ B)
    return ev[np.argsort(-ev.real, kind="stable")]


def rest_point(model: LearningModel, y0: ArrayLike, t_end: float = 200.0,
               tol: float = 1e-12, max_iter: int = 50) -> NDArray[np.float64]:
    """A rest point reached from ``y0``: integrate to ``t_end`` (Radau, analytic Jacobian),
    then Newton on the tangent space (the field is tangent); GameError when the flow does
    not settle (a cycle) or Newton does not converge."""
    y0 = np.asarray(y0, dtype=np.float64)
    sol = solve_ivp(model.f, (0.0, t_end), y0, method="Radau", jac=model.jac, rtol=1e-8,
                    atol=1e-11)
    y = sol.y[:, -1]
    B = tangent_basis(model)
    for _ in range(max_iter):
        F = model._f(y)
        if np.max(np.abs(F)) < tol:
            return y
        Jt = B.T @ model._jac(y) @ B
        step = np.linalg.lstsq(Jt, -(B.T @ F), rcond=None)[0]
        y = y + B @ step
    raise GameError(f"no rest point reached from the given start (|f| = "
                    f"{np.max(np.abs(model._f(y))):.3g} after {t_end:g} time units)")


@dataclass(frozen=True)
class BranchStability:
    """The logit dynamics' stability along the principal branch.

    ``lambdas`` (k,) the branch points; ``leading`` (k,) complex: the tangent eigenvalue of
    largest real part at each; ``eigenvalues`` (k, n - n_sets) all of them; ``crossings``:
    the precisions where ``leading.real`` changes sign, each ``{"lambda", "imag",
    "kind"}`` (``"hopf"`` for a complex pair, else ``"real"``), located by Brent's method.
    """

    __repr__ = summary_repr  # short: arrays by shape and range (issue 35)

    lambdas: NDArray[np.float64]
    leading: NDArray[np.complex128]
    eigenvalues: NDArray[np.complex128]
    crossings: tuple[dict[str, Any], ...]

    @property
    def stable(self) -> NDArray[np.bool_]:
        return self.leading.real < 0

    def to_json(self) -> dict[str, Any]:
        return {"lambda": self.lambdas.tolist(),
                "leading": [[float(z.real), float(z.imag)] for z in self.leading],
                "crossings": list(self.crossings)}


def branch_stability(cg: CompiledGame, branch: Branch | None = None, k: float = 1.0,
                     max_lambda: float = 1e3) -> BranchStability:
    """Eigenvalues of the logit dynamics' Jacobian at every point of the principal branch
    (traced to ``max_lambda`` unless given), and the precisions where the QRE loses or
    gains stability."""
    if branch is None:
        branch = trace_branch(cg, tol=0.0, max_lambda=max_lambda)[0]
    base = learning_model(cg, "logit", 1.0, k)
    lams = branch.lambdas
    m = tangent_basis(base).shape[1]
    evs = [np.full(m, -float(k), dtype=complex)]        # lam = 0: uniform play, J = -k
    for lam, prof in zip(lams[1:], branch.profiles[1:]):
        evs.append(tangent_eigenvalues(_at(base, lam), base.state(prof)))
    evs = np.array([e[np.argsort(-e.real, kind="stable")] for e in evs])
    lead = evs[:, 0] if evs.shape[1] else np.zeros(len(lams), complex)
    sys_ = BranchSystem(cg)
    x = branch.logs.reshape(len(branch), -1)[:, sys_.idx]

    def g(lam: float, i: int) -> float:
        s = (lam - lams[i]) / (lams[i + 1] - lams[i])
        xi = newton_at(sys_, x[i] + s * (x[i + 1] - x[i]), lam)
        return float(tangent_eigenvalues(_at(base, lam), sys_.sigma(xi).ravel()[base.idx])[0].real)

    out = []
    for i in range(len(lams) - 1):
        a, b = lead[i].real, lead[i + 1].real
        if a * b < 0 and lams[i + 1] > lams[i]:
            lam = brentq(g, lams[i], lams[i + 1], args=(i,), xtol=1e-10 * lams[i + 1])
            imag = float(abs(lead[i].imag) + abs(lead[i + 1].imag)) / 2
            out.append({"lambda": float(lam), "imag": imag,
                        "kind": "hopf" if imag > 1e-9 else "real",
                        "direction": "loses stability" if a < 0 else "gains stability"})
    return BranchStability(lams, lead, evs, tuple(out))


def _at(model: LearningModel, lam: float) -> LearningModel:
    return replace(model, lam=float(lam))


__all__ = ["BranchStability", "branch_stability", "rest_point", "tangent_basis",
           "tangent_eigenvalues"]
