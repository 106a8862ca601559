"""Compiled integration of a polynomial ODE model with its tangent flow, for long runs.

An :class:`~dynamics.ode.model.ODEModel` with the default ``g(x) = x(1 - x)`` and
``f(z) = z`` has a polynomial right-hand side (payoffs are multilinear in the frequencies).
:func:`polynomial_system` stores it as sparse monomials (row, coefficient, variables,
exponents); one numba kernel (``cache=True``, so it compiles once for every game) then
integrates, with the adaptive Dormand-Prince 5(4) pair (Hairer, Norsett and Wanner,
*Solving ODEs I*, sec. II.5):

* the state ``x`` and a tangent vector ``v`` of the variational equation ``dv/dt = J(x) v``,
  renormalised to length 1 every ``tau`` time units (Benettin et al., Meccanica 15 (1980)),
  the logarithms of the norms summed after ``t_skip`` (the largest Lyapunov exponent is
  their sum over the elapsed time);
* in logit coordinates ``u = log(x / (1 - x))`` when ``g(x) = x(1 - x)``: then
  ``du/dt = h(x)`` with ``h`` the reduced field, so a frequency that comes within 1e-300 of
  0 or 1 still returns (in ``x`` it would round onto the face, which the flow cannot leave,
  and the tangent would grow along the face's transverse direction: a spurious positive
  exponent).  The Lyapunov exponents of interior orbits do not depend on the coordinates;
* the payoff integrals ``int E_p(x) dt`` (profit rates);
* crossings of a hyperplane ``x_i = c`` upward (Poincare section), located by bisection on
  the cubic Hermite interpolant of the step, and samples at a fixed spacing.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import sympy as sp
from numba import njit
from numpy.typing import NDArray

from pokerdyn.games import GameError
from pokerdyn.dynamics.ode.model import ODEModel


# Accepted steps of one kernel run (about 1-8 minutes at the measured 10-100 us per step of
# skp and kuhn3-full-simplified); see dynamics.budget.
MAX_STEPS = 5_000_000


@dataclass(frozen=True)
class PolySystem:
    """Sparse polynomial form of a model's field (rows 0..n-1) and payoffs (rows 0..q-1):
    term ``t`` adds ``coef[t] * prod_k x[var[t, k]] ** exp[t, k]`` to its row (``var`` is
    padded with -1).  ``h_*``: the reduced field f / (x(1 - x)) (empty when g differs)."""

    n: int
    q: int
    f_row: NDArray[np.int64]
    f_coef: NDArray[np.float64]
    f_var: NDArray[np.int64]
    f_exp: NDArray[np.int64]
    p_row: NDArray[np.int64]
    p_coef: NDArray[np.float64]
    p_var: NDArray[np.int64]
    p_exp: NDArray[np.int64]
    h_row: NDArray[np.int64]
    h_coef: NDArray[np.float64]
    h_var: NDArray[np.int64]
    h_exp: NDArray[np.int64]

    @property
    def logit(self) -> bool:
        """Whether the logit coordinates are available (g(x) = x(1 - x))."""
        return self.h_coef.size > 0

    def field(self, x: NDArray[np.float64]) -> NDArray[np.float64]:
        out = np.zeros(self.n)
        _poly(np.asarray(x, float), self.f_row, self.f_coef, self.f_var, self.f_exp, out)
        return out


def _terms(exprs, xs) -> tuple[NDArray, ...]:
    rows, coefs, mons = [], [], []
    for r, e in enumerate(exprs):
        try:
            poly = sp.Poly(sp.expand(e), *xs)
        except sp.PolificationFailed:
            poly = None
        if poly is None or not poly.domain.is_Numerical:
            raise GameError("the compiled kernel needs a polynomial field with numeric "
                            "coefficients (default g and f, every game parameter given)")
        for mon, c in poly.terms():
            rows.append(r)
            coefs.append(float(c))
            mons.append([(i, d) for i, d in enumerate(mon) if d])
    width = max([len(m) for m in mons] + [1])
    var = np.full((len(mons), width), -1, dtype=np.int64)
    exp = np.zeros((len(mons), width), dtype=np.int64)
    for t, m in enumerate(mons):
        for k, (i, d) in enumerate(m):
            var[t, k], exp[t, k] = i, d
    return np.array(rows, dtype=np.int64), np.array(coefs), var, exp


def polynomial_system(model: ODEModel) -> PolySystem:
    """The sparse polynomial form of ``model`` (GameError if its field is not polynomial)."""
    cached = model.meta.get("_poly_system")
    if cached is not None:
        return cached
    f = _terms(model.rhs, model.symbols)
    p = _terms(model.payoffs, model.symbols)
    if all(sp.expand(g - x * (1 - x)) == 0 for g, x in zip(model.g, model.symbols)):
        h = _terms([sp.cancel(r / g) for r, g in zip(model.rhs, model.g)], model.symbols)
    else:
        h = (np.zeros(0, np.int64), np.zeros(0), np.zeros((0, 1), np.int64),
             np.zeros((0, 1), np.int64))
    ps = PolySystem(model.n, model.n_players, *f, *p, *h)
    model.meta["_poly_system"] = ps
    return ps


def polynomial_field(symbols, rhs) -> PolySystem:
    """The sparse polynomial form of any polynomial field ``d symbols/dt = rhs`` (sympy
    expressions with numeric coefficients), without payoffs: for systems that are not games
    (the Lorenz system in the tests)."""
    f = _terms(list(rhs), list(symbols))
    empty = (np.zeros(0, np.int64), np.zeros(0), np.zeros((0, 1), np.int64),
             np.zeros((0, 1), np.int64))
    return PolySystem(len(symbols), 0, *f, *empty, *empty)


def tangent_log_growth(ps: PolySystem, x0, t_end: float, t_skip: float = 0.0,
                       tau: float = 1.0, rtol: float = 1e-9, atol: float = 1e-12,
                       v0=None, max_steps: int = MAX_STEPS
                       ) -> tuple[NDArray[np.float64], NDArray[np.float64], float]:
    """Benettin's run on ``ps`` in the plain coordinates: (renormalisation times, summed
    log growth of the tangent since ``t_count``, t_count); GameError when it needs more
    than ``max_steps`` steps."""
    x = np.asarray(x0, float)
    v = np.ones(ps.n) if v0 is None else np.asarray(v0, float)
    out = integrate_kernel(x, v, float(t_end), float(t_skip), float(tau), rtol, atol, -1,
                           0.0, 1, float(t_end), False, ps.f_row, ps.f_coef, ps.f_var,
                           ps.f_exp, ps.p_row, ps.p_coef, ps.p_var, ps.p_exp, int(max_steps))
    check_finished(out, t_end, max_steps, "the tangent run")
    return out[2], out[3], float(out[9])


def check_finished(out: tuple, t_end: float, max_steps: int, what: str) -> None:
    """GameError when :func:`integrate_kernel` stopped before ``t_end`` (its step budget)."""
    if out[10] < t_end:
        raise GameError(f"{what} stopped at t = {out[10]:.6g} of t_end = {t_end:g}: it used "
                        f"the allowed {max_steps:,} integration steps (max_steps); lower t_end "
                        "or k")


@njit(cache=True)
def _poly(x, row, coef, var, exp, out):
    out[:] = 0.0
    for t in range(coef.shape[0]):
        v = coef[t]
        for k in range(var.shape[1]):
            i = var[t, k]
            if i < 0:
                break
            e = exp[t, k]
            v *= x[i] if e == 1 else x[i] ** e
        out[row[t]] += v


@njit(cache=True)
def _jvp(x, v, row, coef, var, exp, out):
    """out = J(x) v for the polynomial rows."""
    out[:] = 0.0
    for t in range(coef.shape[0]):
        for k in range(var.shape[1]):
            j = var[t, k]
            if j < 0:
                break
            if v[j] == 0.0:
                continue
            e = exp[t, k]
            d = coef[t] * e * (1.0 if e == 1 else x[j] ** (e - 1))
            for m in range(var.shape[1]):
                i = var[t, m]
                if i < 0:
                    break
                if m != k:
                    d *= x[i] if exp[t, m] == 1 else x[i] ** exp[t, m]
            out[row[t]] += d * v[j]


@njit(cache=True)
def _sigmoid(u, out):
    for i in range(u.shape[0]):
        if u[i] >= 0:
            out[i] = 1.0 / (1.0 + np.exp(-u[i]))
        else:
            e = np.exp(u[i])
            out[i] = e / (1.0 + e)


@njit(cache=True)
def _aug(z, n, logit, fr, fc, fv, fe, pr, pc, pv, pe, out):
    """d/dt of z = (x or u, v, payoff integrals) into ``out``, whose length 2n + q gives the
    number q of payoff rows; with ``logit`` the f arrays hold the reduced field h and the
    state is u = logit(x)."""
    if logit:
        x = np.empty(n)
        _sigmoid(z[:n], x)
        w = np.empty(n)
        for i in range(n):
            w[i] = x[i] * (1.0 - x[i]) * z[n + i]
        _poly(x, fr, fc, fv, fe, out[:n])
        _jvp(x, w, fr, fc, fv, fe, out[n:2 * n])
    else:
        x = z[:n]
        _poly(x, fr, fc, fv, fe, out[:n])
        _jvp(x, z[n:2 * n], fr, fc, fv, fe, out[n:2 * n])
    _poly(x, pr, pc, pv, pe, out[2 * n:])


# Dormand-Prince 5(4) tableau
_C = np.array([0.0, 1 / 5, 3 / 10, 4 / 5, 8 / 9, 1.0, 1.0])
_A = np.array([
    [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    [1 / 5, 0.0, 0.0, 0.0, 0.0, 0.0],
    [3 / 40, 9 / 40, 0.0, 0.0, 0.0, 0.0],
    [44 / 45, -56 / 15, 32 / 9, 0.0, 0.0, 0.0],
    [19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729, 0.0, 0.0],
    [9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656, 0.0],
    [35 / 384, 0.0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84]])
_E = np.array([71 / 57600, 0.0, -71 / 16695, 71 / 1920, -17253 / 339200, 22 / 525, -1 / 40])


@njit(cache=True)
def _norm(a, lo, hi):
    """Euclidean norm of a[lo:hi], summed in index order."""
    s = 0.0
    for i in range(lo, hi):
        s += a[i] * a[i]
    return np.sqrt(s)


@njit(cache=True)
def _hermite(z0, z1, f0, f1, h, s, out):
    """Cubic Hermite interpolant of the step at fraction s in [0, 1]."""
    h00 = (1 + 2 * s) * (1 - s) ** 2
    h10 = s * (1 - s) ** 2
    h01 = s * s * (3 - 2 * s)
    h11 = s * s * (s - 1)
    for i in range(out.shape[0]):
        out[i] = h00 * z0[i] + h10 * h * f0[i] + h01 * z1[i] + h11 * h * f1[i]


@njit(cache=True)
def integrate_kernel(x0, v0, t_end, t_skip, tau, rtol, atol, sec_i, sec_c, max_cross,
                     dt_out, logit, fr, fc, fv, fe, pr, pc, pv, pe, max_steps):
    """See the module docstring.  Returns (samples (m, n + q), sample times, renorm times,
    running log sums, crossing times, crossing points, final x, final v, steps, t_count,
    t): the log sums count growth from ``t_count`` (the last renormalisation before
    ``t_skip``); ``t`` < ``t_end`` when the run stopped after ``max_steps`` accepted steps
    (or ``4 max_steps`` attempts).  The caller checks that the samples (``t_end / dt_out``)
    fit in memory."""
    n = x0.shape[0]
    q = 0
    for t in range(pr.shape[0]):
        q = max(q, pr[t] + 1)
    D = 2 * n + q
    # Explicit loops throughout, no array expressions: each of those compiles numba's
    # broadcast-shape error path (string formatting), which doubled the kernel's first
    # compilation (about 17 s -> 9 s of a cold `reproduce --quick`).
    z = np.zeros(D)
    for i in range(n):  # with logit the state is u = logit(x); section and samples stay in x
        z[i] = np.log(x0[i] / (1.0 - x0[i])) if logit else x0[i]
    if logit and sec_i >= 0:
        sec_c = np.log(sec_c / (1.0 - sec_c))
    nv = _norm(v0, np.int64(0), n)
    for i in range(n):
        z[n + i] = v0[i] / nv
    K = np.zeros((7, D))
    _aug(z, n, logit, fr, fc, fv, fe, pr, pc, pv, pe, K[0])
    m = int(t_end / dt_out) + 1
    samples = np.zeros((m, n + q))
    stimes = np.empty(m)
    for i in range(m):
        stimes[i] = i * dt_out
    for i in range(n):
        samples[0, i] = x0[i]
    n_s = 1
    # one renormalisation per step at most: a tiny tau needs no more room than the steps
    n_ren = (t_end - t_skip) / tau
    n_r = max_steps + 2 if n_ren > max_steps else int(n_ren) + 2
    rtimes = np.zeros(n_r)
    rlogs = np.zeros(n_r)
    k_r = 0
    ctimes = np.zeros(max_cross)
    cpts = np.zeros((max_cross, n))
    k_c = 0
    t = 0.0
    next_r = tau
    logsum = 0.0
    t_count = 0.0
    h = min(0.01, t_end)
    zn = np.zeros(D)
    tmp = np.zeros(D)
    err = np.zeros(D)
    buf = np.zeros(D)
    steps = 0
    tries = 0
    while t < t_end and steps < max_steps and tries < 4 * max_steps:
        tries += 1
        if t + h > t_end:
            h = t_end - t
        for s in range(1, 7):
            for i in range(D):
                tmp[i] = z[i]
            for j in range(s):
                a = h * _A[s, j]
                if a != 0.0:
                    for i in range(D):
                        tmp[i] += a * K[j, i]
            _aug(tmp, n, logit, fr, fc, fv, fe, pr, pc, pv, pe, K[s])
        for i in range(D):
            zn[i] = tmp[i]  # the 7th stage point is the 5th-order solution (FSAL)
            err[i] = 0.0
        for j in range(7):
            a = h * _E[j]
            for i in range(D):
                err[i] += a * K[j, i]
        e2 = 0.0
        for i in range(2 * n):
            sc = atol + rtol * max(abs(z[i]), abs(zn[i]))
            e2 += (err[i] / sc) ** 2
        e = np.sqrt(e2 / (2 * n))
        if e > 1.0:
            h *= max(0.2, 0.9 * e ** -0.2)
            continue
        f1 = np.zeros(D)
        _aug(zn, n, logit, fr, fc, fv, fe, pr, pc, pv, pe, f1)
        t1 = t + h
        # samples at fixed spacing
        while n_s < m and stimes[n_s] <= t1:
            _hermite(z, zn, K[0], f1, h, (stimes[n_s] - t) / h, buf)
            if logit:
                _sigmoid(buf[:n], samples[n_s, :n])
            else:
                for i in range(n):
                    samples[n_s, i] = buf[i]
            for i in range(q):
                samples[n_s, n + i] = buf[2 * n + i]
            n_s += 1
        # Poincare section x[sec_i] = sec_c, crossed upward
        if sec_i >= 0 and k_c < max_cross and z[sec_i] < sec_c <= zn[sec_i]:
            lo, hi = 0.0, 1.0
            for _ in range(60):
                mid = 0.5 * (lo + hi)
                _hermite(z, zn, K[0], f1, h, mid, buf)
                if buf[sec_i] < sec_c:
                    lo = mid
                else:
                    hi = mid
            _hermite(z, zn, K[0], f1, h, hi, buf)
            ctimes[k_c] = t + hi * h
            if logit:
                _sigmoid(buf[:n], cpts[k_c])
            else:
                for i in range(n):
                    cpts[k_c, i] = buf[i]
            k_c += 1
        for i in range(D):
            z[i] = zn[i]
            K[0, i] = f1[i]
        t = t1
        steps += 1
        if t >= next_r or t >= t_end:
            nv = _norm(z, n, 2 * n)
            if t > t_skip:
                logsum += np.log(nv)
                rtimes[k_r] = t
                rlogs[k_r] = logsum
                k_r += 1
            else:
                # before t_skip the tangent only aligns with the most unstable direction
                t_count = t
            for i in range(n, 2 * n):
                z[i] /= nv
            _aug(z, n, logit, fr, fc, fv, fe, pr, pc, pv, pe, K[0])
            next_r = t + tau
        h *= min(5.0, max(0.2, 0.9 * max(e, 1e-10) ** -0.2))
    xf = z[:n].copy()
    if logit:
        _sigmoid(z[:n], xf)
    return (samples[:n_s], stimes[:n_s], rtimes[:k_r], rlogs[:k_r], ctimes[:k_c],
            cpts[:k_c], xf, z[n:2 * n].copy(), steps, t_count, t)
