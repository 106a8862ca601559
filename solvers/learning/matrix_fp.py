"""Fictitious play on a two-player normal form (Brown 1951 with Robinson's simultaneous
update, as Papadopoulos sec. 3 runs it): start from uniform mixes over the plans; every
iteration both players best-respond to the other's current mix and move to
``(t x + br) / (t + 1)``; stop once each player's gain from deviating is at most ``epsilon``
(the paper's check: each player's best-response value within epsilon of its value).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from pokerdyn.games import GameError


@dataclass(frozen=True)
class MatrixFP:
    """``mixed`` (the two mixes over plans), ``iterations``, ``gains`` (each player's
    best-response gain at the stop), ``converged`` (gains <= epsilon)."""

    mixed: tuple[NDArray[np.float64], NDArray[np.float64]]
    iterations: int
    gains: NDArray[np.float64]
    converged: bool


def matrix_fictitious_play(payoffs: NDArray[np.float64], epsilon: float = 1e-3,
                           max_iterations: int = 1_000_000, check_every: int = 100) -> MatrixFP:
    """Simultaneous fictitious play on ``payoffs`` ``(m, n, 2)`` (a NormalForm's tensor).

    The gains are measured every ``check_every`` iterations (each check is two products
    with the matrices, like an iteration), so the stop can come up to that many iterations
    after the first profile within ``epsilon``.
    """
    U = np.asarray(payoffs, dtype=np.float64)
    if U.ndim != 3 or U.shape[2] != 2:
        raise GameError(f"payoffs of shape {U.shape}: fictitious play here needs a two-player "
                        "normal form (m, n, 2)")
    if not epsilon > 0:
        raise GameError(f"epsilon={epsilon} is outside the allowed range (0, inf)")
    A, B = U[..., 0], U[..., 1]
    m, n = A.shape
    x, y = np.full(m, 1.0 / m), np.full(n, 1.0 / n)
    gains = np.full(2, np.inf)
    t = 0
    while t < max_iterations:
        ay, bx = A @ y, x @ B
        if t % check_every == 0:
            gains = np.array([ay.max() - x @ ay, bx.max() - bx @ y])
            if gains.max() <= epsilon:
                break
        t += 1
        x *= (t) / (t + 1.0)
        x[int(np.argmax(ay))] += 1.0 / (t + 1)
        y *= (t) / (t + 1.0)
        y[int(np.argmax(bx))] += 1.0 / (t + 1)
    ay, bx = A @ y, x @ B
    gains = np.array([ay.max() - x @ ay, bx.max() - bx @ y])
    return MatrixFP((x, y), t, gains, bool(gains.max() <= epsilon))


__all__ = ["MatrixFP", "matrix_fictitious_play"]
