"""Lemke's algorithm for the linear complementarity problem (Lemke 1965; Cottle, Pang & Stone,
*The Linear Complementarity Problem*, sec. 4.4), dense, in floats or exact rationals.

Find ``w = q + M z`` with ``w, z >= 0`` and ``w^T z = 0``.  An artificial variable ``z0``
with covering vector ``d > 0`` makes ``w = q + M z + d z0`` feasible at ``z = 0`` for
``z0 = max(-q_i / d_i)``; complementary pivots then follow the almost-complementary path
until ``z0`` leaves the basis (a solution) or the entering column has no positive entry
(ray termination).  Ties of the ratio test are broken lexicographically on the rows of the
basis inverse, so degenerate problems (the sequence form of poker is very degenerate) do not
cycle; in exact arithmetic the tie rule is exact.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Sequence

import numpy as np
from numpy.typing import NDArray

from pokerdyn.games import GameError

FLOAT_TOL = 1e-11


def _leaving_row(T, col: int, rhs: int, n: int, tol, z0_row: int | None) -> int | None:
    """Lexicographic minimum-ratio row of column ``col`` (None: no positive entry)."""
    c = T[:, col]
    rows = [i for i in range(T.shape[0]) if c[i] > tol]
    if not rows:
        return None
    key = [T[i, rhs] / c[i] for i in rows]
    best = min(key)
    rows = [i for i, k in zip(rows, key) if k <= best + tol]
    if z0_row is not None and z0_row in rows:
        return z0_row          # z0 can leave: the path ends at a solution
    j = 0
    while len(rows) > 1 and j < n:
        key = [T[i, j] / c[i] for i in rows]
        best = min(key)
        rows = [i for i, k in zip(rows, key) if k <= best + tol]
        j += 1
    return rows[0]


def lemke(M: NDArray, q: Sequence, d: Sequence, exact: bool = False,
          max_pivots: int = 100_000) -> tuple[NDArray, int]:
    """Solve the LCP ``(q, M)`` by Lemke's method with covering vector ``d`` (all > 0).

    Parameters
    ----------
    M : (n, n) array; with ``exact`` an object array of :class:`fractions.Fraction`.
    q, d : length n.
    exact : pivot in rationals (no tolerance) instead of float64.

    Returns
    -------
    z : (n,) solution (Fractions when exact), and the number of pivots.

    Raises
    ------
    GameError
        On ray termination or when ``max_pivots`` is exceeded.
    """
    n = len(q)
    if exact:
        zero, one = Fraction(0), Fraction(1)
        T = np.empty((n, 2 * n + 2), dtype=object)
        T[:, :] = zero
        for i in range(n):
            T[i, i] = one
        T[:, n:2 * n] = -np.asarray(M, dtype=object)
        T[:, 2 * n] = [-Fraction(v) for v in d]
        T[:, 2 * n + 1] = [Fraction(v) for v in q]
        tol = zero
    else:
        T = np.zeros((n, 2 * n + 2))
        T[:, :n] = np.eye(n)
        T[:, n:2 * n] = -np.asarray(M, dtype=np.float64)
        T[:, 2 * n] = -np.asarray(d, dtype=np.float64)
        T[:, 2 * n + 1] = np.asarray(q, dtype=np.float64)
        tol = FLOAT_TOL
    if any(v <= 0 for v in d):
        raise GameError("Lemke's covering vector must be positive")
    basis = list(range(n))              # variable index per row: w_i = i, z_j = n + j, z0 = 2n
    rhs, z0 = 2 * n + 1, 2 * n

    def pivot(r: int, c: int) -> None:
        T[r] = T[r] / T[r, c]
        rows = np.array([i for i in range(n) if i != r and T[i, c] != 0], dtype=np.int64)
        cols = np.array([j for j in range(T.shape[1]) if T[r, j] != 0], dtype=np.int64) \
            if exact else np.nonzero(T[r])[0]
        if rows.size:
            T[np.ix_(rows, cols)] -= np.outer(T[rows, c], T[r, cols])
        basis[r] = c

    qv = T[:, rhs]
    if all(v >= 0 for v in qv):
        return np.array([Fraction(0) if exact else 0.0] * n, dtype=object if exact else float), 0
    ratios = [qv[i] / -T[i, z0] for i in range(n)]
    r = min(range(n), key=lambda i: (ratios[i], i))
    pivot(r, z0)
    entering = n + r                    # complement of the leaving w_r
    for k in range(1, max_pivots + 1):
        z0_row = basis.index(z0) if z0 in basis else None
        r = _leaving_row(T, entering, rhs, n, tol, z0_row)
        if r is None:
            raise GameError(f"Lemke's method ended on a ray after {k} pivots (no solution "
                            "found from this covering vector)")
        leaving = basis[r]
        pivot(r, entering)
        if leaving == z0:
            z = np.array([Fraction(0) if exact else 0.0] * n, dtype=object if exact else float)
            for i, b in enumerate(basis):
                if n <= b < 2 * n:
                    z[b - n] = T[i, rhs]
            if not exact:
                z = _refine(M, q, basis, z, n)
            return z, k
        entering = leaving + n if leaving < n else leaving - n
    raise GameError(f"Lemke's method did not finish within {max_pivots} pivots")


def _refine(M, q, basis, z, n) -> NDArray[np.float64]:
    """Recompute the basic solution from the final basis by one linear solve (the pivoted
    tableau accumulates rounding; the basis itself is what the path found)."""
    M = np.asarray(M, dtype=np.float64)
    B = np.zeros((n, n))
    for i, b in enumerate(basis):
        B[:, i] = np.eye(n)[:, b] if b < n else -M[:, b - n]
    try:
        sol = np.linalg.solve(B, np.asarray(q, dtype=np.float64))
    except np.linalg.LinAlgError:
        return z
    out = np.zeros(n)
    for i, b in enumerate(basis):
        if n <= b < 2 * n:
            out[b - n] = max(sol[i], 0.0)
    return out


__all__ = ["lemke"]
