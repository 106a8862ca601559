"""Algorithms over compiled games: exact evaluation, best response, iterative solvers, LP,
and the exact (symbolic) analysis in :mod:`solvers.symbolic`.

The names below are imported on first use (PEP 562), so that ``import solvers.symbolic...``
(the exact path, e.g. ``pokerdyn equilibria``) does not load numba and scipy."""
from __future__ import annotations

import importlib

_EXPORTS: dict[str, str] = {
    **dict.fromkeys(["BestResponse", "best_response", "expected_payoffs", "max_regret",
                     "nash_conv", "regrets"], "pokerdyn.solvers.evaluation"),
    **dict.fromkeys(["FictitiousPlay", "fictitious_play"], "pokerdyn.solvers.learning.fictitious_play"),
    **dict.fromkeys(["SolverResult", "iterate", "run_iterative"], "pokerdyn.solvers.iterative"),
    "symbolic_payoffs": "pokerdyn.solvers.symbolic.model.payoffs",
    **dict.fromkeys(["CFR", "cfr"], "pokerdyn.solvers.learning.cfr_plus"),
    **dict.fromkeys(["Hedge", "hedge"], "pokerdyn.solvers.learning.hedge"),
    **dict.fromkeys(["LPResult", "solve_lp"], "pokerdyn.solvers.sequence.lp"),
    **dict.fromkeys(["SequenceForm", "sequence_form"], "pokerdyn.solvers.sequence.form"),
    **dict.fromkeys(["FaceRange", "optimal_face_range", "optimal_face_ranges"],
                   "pokerdyn.solvers.sequence.face"),
    **dict.fromkeys(["PaperFP", "paper_fictitious_play"], "pokerdyn.solvers.learning.paper_fp"),
    **dict.fromkeys(["exact_values", "rational"], "pokerdyn.solvers.exact_profile"),
    **dict.fromkeys(["DominanceResult", "iterated_dominance", "reduce_game"],
                    "pokerdyn.solvers.symbolic.model.dominance"),
    **dict.fromkeys(["MaxminResult", "maxmin"], "pokerdyn.solvers.symbolic.axis.maxmin"),
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'solvers' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
