"""Run several solvers on one compiled game under the same budget and collect NashConv
against iterations and against time (the history of :func:`solvers.iterative.run_iterative`).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
from numpy.typing import NDArray
from tqdm.auto import tqdm

from pokerdyn.games import CompiledGame, GameError

from pokerdyn.solvers.iterative import SolverResult
from pokerdyn.solvers.methods import COMPARE_METHODS, ITERATIVE_METHODS, run_method

# the methods `pokerdyn compare` offers (the registry's, pokerdyn.solvers.methods)
METHOD_NAMES = COMPARE_METHODS


def compare(cg: CompiledGame, methods: Sequence[str], seconds: float | None = 30.0,
            iterations: int = 10**9, tol: float | None = None,
            progress: bool = False) -> dict[str, SolverResult]:
    """Each method run for ``seconds`` (or ``iterations``, or to NashConv ``tol``) from the
    uniform profile, after one untimed warm-up iteration (numba compilation); ``lp``
    (2-player zero-sum games) is solved once.  ``progress`` shows a bar over the methods."""
    for m in methods:
        if m not in METHOD_NAMES:
            raise GameError(f"unknown method {m!r}; available: {', '.join(METHOD_NAMES)}")
    if seconds is not None and not seconds > 0:
        raise GameError(f"seconds={seconds} is outside the allowed range (0, inf)")
    if "lp" in methods:
        from pokerdyn.solvers.sequence.lp import check_two_player_zero_sum
        check_two_player_zero_sum(cg)  # fail before spending the budget on the others
    out: dict[str, SolverResult] = {}
    for m in tqdm(methods, desc="methods", disable=not progress, leave=False):
        if m in ITERATIVE_METHODS:
            run_method(m, cg, iterations=1)  # compile/load the kernels first
        out[m] = run_method(m, cg, iterations=iterations, tol=tol, seconds=seconds)
    return out


def value_at(history: NDArray[np.float64], column: int, marks: Sequence[float]) -> list[float]:
    """NashConv at the last checkpoint whose iteration (column 0) or time (column 2) is
    <= each mark (nan before the first checkpoint)."""
    h = np.asarray(history)
    out = []
    for x in marks:
        idx = np.searchsorted(h[:, column], x * (1 + 1e-12), side="right") - 1
        out.append(float(h[idx, 1]) if idx >= 0 else float("nan"))
    return out


__all__ = ["METHOD_NAMES", "compare", "value_at"]
