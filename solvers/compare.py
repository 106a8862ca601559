"""Run several solvers on one compiled game under the same budget and collect NashConv
against iterations and against time (the history of :func:`solvers.iterative.run_iterative`).
"""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np
from numpy.typing import NDArray
from tqdm.auto import tqdm

from pokerdyn.games import CompiledGame, GameError

from pokerdyn.solvers.learning.cfr_plus import CFR
from pokerdyn.solvers.learning.fictitious_play import FictitiousPlay
from pokerdyn.solvers.learning.hedge import Hedge
from pokerdyn.solvers.iterative import IterativeMethod, SolverResult, run_iterative

# name -> factory of the iterative method (the names of `pokerdyn solve --method`)
ITERATIVE: dict[str, Callable[[], IterativeMethod]] = {
    "fp": FictitiousPlay,
    "hedge": Hedge,
    "cfr+": CFR,
    "cfr": lambda: CFR(False, False, False, "cfr"),
}
METHOD_NAMES = (*ITERATIVE, "lp")


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
        if m == "lp":
            from pokerdyn.solvers.sequence.lp import lp_solver_result, solve_lp
            out[m] = lp_solver_result(cg, solve_lp(cg))
            continue
        run_iterative(cg, ITERATIVE[m](), iterations=1)  # compile/load the kernels first
        out[m] = run_iterative(cg, ITERATIVE[m](), iterations=iterations, tol=tol,
                               seconds=seconds)
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


__all__ = ["ITERATIVE", "METHOD_NAMES", "compare", "value_at"]
