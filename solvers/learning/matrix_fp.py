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
from pokerdyn.solvers.iterative import iterate


@dataclass(frozen=True)
class MatrixFP:
    """``mixed`` (the two mixes over plans), ``iterations``, ``gains`` (each player's
    best-response gain at the stop), ``converged`` (gains <= epsilon)."""

    mixed: tuple[NDArray[np.float64], NDArray[np.float64]]
    iterations: int
    gains: NDArray[np.float64]
    converged: bool


@dataclass
class _Mixes:
    """The two mixes, the matrices, and the products ``A y``, ``x B`` of the last check
    (the step reuses them: a check costs no extra products)."""

    x: NDArray[np.float64]
    y: NDArray[np.float64]
    A: NDArray[np.float64]
    B: NDArray[np.float64]
    products: tuple | None = None


class MatrixStep:
    """One step of simultaneous fictitious play on a bimatrix game, as
    :func:`solvers.iterative.iterate` drives it."""

    name = "matrix-fp"

    def advance(self, payoffs, st: _Mixes, t0: int, n: int) -> None:
        x, y = st.x, st.y
        for t in range(t0 + 1, t0 + n + 1):
            ay, bx = st.products if st.products is not None else (st.A @ y, x @ st.B)
            st.products = None
            x *= t / (t + 1.0)
            x[int(np.argmax(ay))] += 1.0 / (t + 1)
            y *= t / (t + 1.0)
            y[int(np.argmax(bx))] += 1.0 / (t + 1)

    @staticmethod
    def gains(st: _Mixes) -> NDArray[np.float64]:
        """Each player's best-response gain at the current mixes."""
        ay, bx = st.A @ st.y, st.x @ st.B
        st.products = (ay, bx)
        return np.array([ay.max() - st.x @ ay, bx.max() - bx @ st.y])


def matrix_fictitious_play(payoffs: NDArray[np.float64], epsilon: float = 1e-3,
                           max_iterations: int = 1_000_000, check_every: int = 100) -> MatrixFP:
    """Simultaneous fictitious play on ``payoffs`` ``(m, n, 2)`` (a NormalForm's tensor).

    The gains are measured every ``check_every`` iterations (each check is two products
    with the matrices, like an iteration), so the stop can come up to that many iterations
    after the first profile within ``epsilon``.  The loop is
    :func:`solvers.iterative.iterate`'s.
    """
    U = np.asarray(payoffs, dtype=np.float64)
    if U.ndim != 3 or U.shape[2] != 2:
        raise GameError(f"payoffs of shape {U.shape}: fictitious play here needs a two-player "
                        "normal form (m, n, 2)")
    if not epsilon > 0:
        raise GameError(f"epsilon={epsilon} is outside the allowed range (0, inf)")
    A, B = U[..., 0], U[..., 1]
    m, n = A.shape
    st = _Mixes(np.full(m, 1.0 / m), np.full(n, 1.0 / n), A, B)
    cap = max(int(max_iterations), 0)
    run = iterate(U, MatrixStep(), st, iterations=cap, at=range(0, cap, check_every),
                  measure=lambda U, st: float(MatrixStep.gains(st).max()),
                  stop=lambda g: g <= epsilon, label="gain")
    gains = MatrixStep.gains(st)
    return MatrixFP((st.x, st.y), run.iterations, gains, bool(gains.max() <= epsilon))


__all__ = ["MatrixFP", "MatrixStep", "matrix_fictitious_play"]
