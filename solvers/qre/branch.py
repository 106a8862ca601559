"""The principal branch of the agent logit QRE by predictor-corrector continuation.

Pseudo-arclength continuation (Allgower and Georg 1990, ch. 2; Turocy 2005 sec. 4) of
``H(x, lam) = 0`` (solvers.qre.core.BranchSystem) from uniform play at ``lam = 0``: an Euler
predictor along the tangent, a Newton corrector on ``H = 0`` plus the hyperplane through the
predicted point normal to the tangent, and a step that grows while the corrector converges
in few iterations and halves when it fails or the tangent turns too much.  Far out the
log-probabilities of the abandoned actions fall linearly in ``lam`` and the branch becomes a
straight line in these variables, so the step grows geometrically and the branch reaches
``lam = 1e6`` in a few dozen steps.  The walk stops when the profile's NashConv
(solvers.evaluation.nash_conv) is below ``tol`` or ``lam`` passes ``max_lambda``.  Every
stored point is then refined at its ``lam`` (solvers.qre.refine): the corrector stops at the
rounding bound of the whole system, which far out (kuhn3, lam > 1e4) leaves up to 2e-8 in
the fixed point; the refinement brings every point to the float64 floor (~lam * 1e-16).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np
from numpy.typing import NDArray

from pokerdyn.games import CompiledGame, GameError
from pokerdyn.solvers.evaluation import expected_payoffs, nash_conv
from pokerdyn.solvers.qre.core import BranchSystem, check_lambda
from pokerdyn.solvers.qre.refine import refine_logs

_NEWTON_TOL = 1e-13
_COS_MAX = 0.995    # largest turn of the tangent per step (about 6 degrees)
# Far out the tangent is dominated by the abandoned actions' log-probabilities falling like
# -c lam, so a sharp turn of the mixed actions (near a bifurcation of the logit branches:
# skp near P = 7.75) hardly turns it; the step is also limited in the probabilities
# themselves, where such turns show: at most _DSIGMA_MAX per step, and the profile's
# direction of change (sigma * dx/ds) may turn at most as much as the tangent.
_DSIGMA_MAX = 0.05
# Below this the profile's direction of change is rounding: far out (kuhn3 at P = 3.9375,
# lam = 5e4) the mixed probabilities move ~1e-11 per unit of arclength, the corrector leaves
# noise of that size in the tangent, and a floor of 1e-12 made the turn test fail at every
# step size until the walk stalled.  The turns it is for (skp near P = 7.75, lam ~ 23) move
# the probabilities by more than 1e-4 per unit of arclength.
_DIRECTION_FLOOR = 1e-8


@dataclass(frozen=True)
class Branch:
    """Points of the principal branch, ``lam`` increasing from 0.

    ``lambdas`` (k,); ``profiles`` (k, n_infosets, max_actions); ``nash_conv`` (k,);
    ``payoffs`` (k, n_players) expected payoffs; ``logs`` (k, n_infosets, max_actions) the
    log-probabilities (exact where a probability underflows); ``seconds`` the wall time;
    ``stalled_at``: the ``lam`` where the walk could go no further (the end game of
    :func:`trace_branch`), None where it stopped at ``tol`` or ``max_lambda``.
    """

    lambdas: NDArray[np.float64]
    profiles: NDArray[np.float64]
    nash_conv: NDArray[np.float64]
    payoffs: NDArray[np.float64]
    logs: NDArray[np.float64]
    seconds: float
    stalled_at: float | None = None

    def __len__(self) -> int:
        return int(self.lambdas.size)


_SPARSE_FROM = 150   # unknowns from which the (very sparse) systems go to a sparse LU


def _solve(M: NDArray[np.float64], r: NDArray[np.float64]) -> NDArray[np.float64]:
    try:
        if M.shape[0] >= _SPARSE_FROM:
            from scipy.sparse import csc_matrix
            from scipy.sparse.linalg import splu
            out = splu(csc_matrix(M)).solve(r)
            if np.all(np.isfinite(out)):
                return out
        return np.linalg.solve(M, r)
    except (np.linalg.LinAlgError, RuntimeError):   # singular (splu: RuntimeError)
        return np.linalg.lstsq(M, r, rcond=None)[0]


def _tangent(J: NDArray[np.float64], prev: NDArray[np.float64]) -> NDArray[np.float64]:
    """Unit null vector of ``J`` (n, n+1) oriented along ``prev``."""
    M = np.vstack([J, prev])
    rhs = np.zeros(J.shape[0] + 1)
    rhs[-1] = 1.0
    t = _solve(M, rhs)
    t /= np.linalg.norm(t)
    return t if t @ prev >= 0 else -t


def _accuracy(sys_: BranchSystem, y: NDArray[np.float64]) -> NDArray[np.float64]:
    """Per-equation tolerance of the corrector.  The values carry ``lam * eps * |payoff|``
    of rounding into every logit equation, and far out a log-probability ``x ~ -lam c``
    carries ``|x| eps`` into the beliefs below it, hence ``lam |x| eps |payoff|`` more; the
    fixed point holds to about that accuracy (relative, in the probabilities).  The simplex
    rows are held to 1e-14."""
    pmax = 1.0 + float(np.abs(sys_.cg.payoffs).max(initial=0.0))
    lam = abs(float(y[-1]))
    x = y[:-1]
    xmax = float(np.abs(x).max(initial=0.0))
    logit = max(_NEWTON_TOL, 4e-15 * lam * pmax * (1.0 + 0.05 * xmax))
    return np.where(sys_.is_ref, 1e-14, logit)


def _scaled(sys_: BranchSystem, y: NDArray[np.float64]):
    """``(H, dH/dy)`` with the logit rows divided by ``1 + lam`` (they grow with ``lam``
    while the simplex rows do not; the scaling keeps the linear systems well conditioned)."""
    h, J = sys_.jacobian(y)
    s = np.where(sys_.is_ref, 1.0, 1.0 / (1.0 + abs(float(y[-1]))))
    return h * s, J * s[:, None]


def _correct(sys_: BranchSystem, y: NDArray[np.float64], t: NDArray[np.float64],
             max_iter: int = 8) -> tuple[NDArray[np.float64], int, NDArray[np.float64]] | None:
    """Newton on ``H = 0`` and ``t . (y - y_pred) = 0``; ``(y, iterations, dH/dy)`` or None
    when it does not converge."""
    y = y.copy()
    prev = np.inf
    best = None
    for it in range(max_iter + 1):
        h, J = sys_.jacobian(y)
        with np.errstate(over="ignore", invalid="ignore"):
            r = float(np.max(np.abs(h) / _accuracy(sys_, y)))
        s = np.where(sys_.is_ref, 1.0, 1.0 / (1.0 + abs(float(y[-1]))))
        if best is not None:                  # after the polishing step: the better of two
            return (y, best[1], J * s[:, None]) if np.isfinite(r) and r <= best[3] else best[:3]
        if not np.isfinite(r):
            return None
        if it > 0 and (r < 1.0 or (it > 1 and r < 30.0 and r > 0.5 * prev)):
            if r <= 1e-3:
                return y, it, J * s[:, None]  # converged far below the rounding bound
            best = (y, it, J * s[:, None], r)  # one more step: quadratic convergence takes
        elif it > 1 and r > 0.5 * prev:        # it far below the bound (or to the floor)
            return None
        prev = r
        y = y + _solve(np.vstack([J * s[:, None], t]), np.append(-h * s, 0.0))
    return None


def _smooth(y, y_new, t, t_new, dsigma: float) -> bool:
    """The step's change of the probabilities is at most ``dsigma`` and their direction of
    change turned by at most the tangent's limit."""
    s0, s1 = np.exp(y[:-1]), np.exp(y_new[:-1])
    if float(np.abs(s1 - s0).max()) > dsigma:
        return False
    d0, d1 = s0 * t[:-1], s1 * t_new[:-1]
    n0, n1 = float(np.linalg.norm(d0)), float(np.linalg.norm(d1))
    if n0 < _DIRECTION_FLOOR or n1 < _DIRECTION_FLOOR:
        return True
    return float(d0 @ d1) / (n0 * n1) >= _COS_MAX


def newton_at(sys_: BranchSystem, x: NDArray[np.float64], lam: float, max_iter: int = 30
              ) -> NDArray[np.float64]:
    """Newton at fixed ``lam`` from the log-probabilities ``x``; GameError if it fails."""
    x = x.copy()
    for _ in range(max_iter):
        y = np.append(x, lam)
        h, J = _scaled(sys_, y)
        if np.all(np.abs(h) < _accuracy(sys_, y) * np.where(sys_.is_ref, 1.0, 1.0 / (1.0 + lam))):
            return x
        x = x + _solve(J[:, :-1], -h)
    raise GameError(f"Newton at lambda={lam} did not converge")


def trace_branch(cg: CompiledGame, tol: float = 1e-6, max_lambda: float = 1e7,
                 targets: Iterable[float] = (), progress: bool = False,
                 max_steps: int = 20000, dsigma: float = _DSIGMA_MAX,
                 end_game: float = 1e-4
                 ) -> tuple[Branch, dict[float, NDArray[np.float64]]]:
    """The principal branch from ``lam = 0`` until NashConv < ``tol`` (or ``lam`` >
    ``max_lambda``), and the profiles at the precisions ``targets`` met on the way (each
    solved exactly at its ``lam`` by Newton from the bracketing branch points).  ``dsigma``:
    the largest change of any probability per step (smaller: safer near bifurcations).

    End game: far out the system at fixed ``lam`` is singular to working precision (the
    abandoned actions' log-probabilities, ~ -lam c, set the beliefs at the sets reached only
    through them), and the corrector can stop converging at any step size (kuhn3 at
    P = 3.9375 from lam = 8.4e4, NashConv 4.9e-6).  A walk that stalls there with NashConv
    below ``end_game`` ends (``Branch.stalled_at``): its last points already determine the
    limit (solvers.qre.limit extrapolates and polishes it, and certifies it by NashConv);
    a stall above ``end_game``, or before the ``targets``, is a GameError."""
    t0 = time.perf_counter()
    check_lambda(max_lambda, "max_lambda")
    sys_ = BranchSystem(cg)
    goals = sorted(check_lambda(v) for v in targets)
    y = sys_.start()
    _, J = sys_.jacobian(y)
    e = np.zeros(sys_.n + 1)
    e[-1] = 1.0
    t = _tangent(J, e)
    h, h_max = 0.05, 1e6
    pts: list[NDArray[np.float64]] = [y]
    found: dict[float, NDArray[np.float64]] = {}
    bar = _bar(progress, cg.name)
    done, nc, stalled = False, np.inf, None
    for _ in range(max_steps):
        res = _correct(sys_, y + h * t, t)
        shrink = 0.5
        if res is not None:
            y_new, iters, J = res
            t_new = _tangent(J, t)
            moved = float(np.abs(np.exp(y_new[:-1]) - np.exp(y[:-1])).max())
            if h > 1e-8 and (t_new @ t < _COS_MAX or not _smooth(y, y_new, t, t_new, dsigma)):
                res = None                          # turned or moved too much: shorten
                if moved > dsigma:                  # to about the step the cap allows
                    shrink = min(0.5, max(0.1, 0.9 * dsigma / moved))
        if res is None:
            h *= shrink
            if h < 1e-12 and nc < end_game and not goals:
                done, stalled = True, float(y[-1])
                break
            if h < 1e-12:
                raise GameError(f"the QRE branch of {cg.name!r} stalled at lambda={y[-1]:.6g}")
            continue
        while goals and goals[0] <= y_new[-1] and goals[0] >= y[-1]:
            g = goals.pop(0)
            s = (g - y[-1]) / (y_new[-1] - y[-1]) if y_new[-1] > y[-1] else 1.0
            xg = newton_at(sys_, y[:-1] + s * (y_new[:-1] - y[:-1]), g)
            found[g] = np.exp(refine_logs(cg, sys_.logsig(xg), g))
        y, t = y_new, t_new
        pts.append(y)
        nc = nash_conv(cg, sys_.sigma(y[:-1]), check=False)
        if bar is not None:
            bar.set_postfix_str(f"lambda={y[-1]:.3g} NashConv={nc:.2e}", refresh=False)
            bar.update(1)
        done = (nc < tol or y[-1] > max_lambda) and not goals
        if done:
            break
        grow = 2.0 if iters <= 2 else 1.4 if iters <= 3 else 1.0
        if moved > 0.0:   # no further than the cap on the probabilities allows
            grow = min(grow, max(1.0, 0.9 * dsigma / moved))
        h = min(h * grow, h_max)
    if bar is not None:
        bar.close()
    if not done:
        raise GameError(f"the QRE branch of {cg.name!r} needed more than {max_steps} steps")
    return _branch(cg, sys_, pts, time.perf_counter() - t0, stalled), found


def _bar(progress: bool, name: str):
    if not progress:
        return None
    from tqdm import tqdm
    return tqdm(desc=f"QRE branch {name}", unit=" steps", leave=False)


def _branch(cg: CompiledGame, sys_: BranchSystem, pts: Sequence[NDArray[np.float64]],
            seconds: float, stalled_at: float | None = None) -> Branch:
    ys = np.array(pts)
    # each point refined to the float64 floor of its fixed point (solvers.qre.refine)
    logs = np.array([refine_logs(cg, sys_.logsig(y[:-1]), float(y[-1])) for y in ys])
    profiles = np.exp(logs)
    return Branch(lambdas=ys[:, -1], profiles=profiles,
                  nash_conv=np.array([nash_conv(cg, s, check=False) for s in profiles]),
                  payoffs=np.array([expected_payoffs(cg, s, check=False) for s in profiles]),
                  logs=logs, seconds=seconds, stalled_at=stalled_at)


def qre_branch(cg: CompiledGame, tol: float = 1e-6, max_lambda: float = 1e7,
               progress: bool = False, dsigma: float = _DSIGMA_MAX) -> Branch:
    """The principal branch of the agent logit QRE of ``cg`` from uniform play until the
    profile's NashConv is below ``tol`` (or ``lam`` passes ``max_lambda``); ``dsigma``: the
    largest change of any probability per step."""
    return trace_branch(cg, tol, max_lambda, (), progress, dsigma=dsigma)[0]


def qre_profiles(cg: CompiledGame, lambdas: Sequence[float], progress: bool = False
                 ) -> list[NDArray[np.float64]]:
    """The principal-branch QRE at each precision in ``lambdas`` (each > 0; in the given
    order), from one walk along the branch."""
    lams = [check_lambda(v) for v in lambdas]
    _, found = trace_branch(cg, tol=0.0, max_lambda=max(lams), targets=lams,
                            progress=progress)
    return [found[v] for v in lams]
