"""Algorithms over compiled games: exact evaluation, best response, iterative solvers."""
from solvers.evaluation import BestResponse, best_response, expected_payoffs, max_regret, nash_conv, regrets
from solvers.learning.fictitious_play import FictitiousPlay, fictitious_play
from solvers.iterative import SolverResult, run_iterative
from solvers.symbolic.payoffs import symbolic_payoffs

__all__ = ["BestResponse", "FictitiousPlay", "SolverResult", "best_response", "expected_payoffs",
           "fictitious_play", "max_regret", "nash_conv", "regrets", "run_iterative",
           "symbolic_payoffs"]
from solvers.learning.cfr_plus import CFR, cfr
from solvers.learning.hedge import Hedge, hedge
from solvers.sequence.lp import LPResult, solve_lp
from solvers.sequence.form import SequenceForm, sequence_form

__all__ += ["CFR", "Hedge", "LPResult", "SequenceForm", "cfr", "hedge", "sequence_form",
            "solve_lp"]
from solvers.symbolic.dominance import DominanceResult, iterated_dominance, reduce_game
from solvers.symbolic.maxmin import MaxminResult, maxmin

__all__ += ["DominanceResult", "MaxminResult", "iterated_dominance", "maxmin", "reduce_game"]
