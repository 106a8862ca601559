"""Algorithms over compiled games: exact evaluation, best response, iterative solvers."""
from .evaluation import BestResponse, best_response, expected_payoffs, max_regret, nash_conv, regrets
from .fictitious_play import FictitiousPlay, fictitious_play
from .iterative import SolverResult, run_iterative
from .symbolic_payoffs import symbolic_payoffs

__all__ = ["BestResponse", "FictitiousPlay", "SolverResult", "best_response", "expected_payoffs",
           "fictitious_play", "max_regret", "nash_conv", "regrets", "run_iterative",
           "symbolic_payoffs"]
from .cfr_plus import CFR, cfr
from .hedge import Hedge, hedge
from .lp import LPResult, solve_lp
from .sequence_form import SequenceForm, sequence_form

__all__ += ["CFR", "Hedge", "LPResult", "SequenceForm", "cfr", "hedge", "sequence_form",
            "solve_lp"]
from .dominance import DominanceResult, iterated_dominance, reduce_game
from .maxmin import MaxminResult, maxmin

__all__ += ["DominanceResult", "MaxminResult", "iterated_dominance", "maxmin", "reduce_game"]
