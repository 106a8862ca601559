"""Range-vector kernels on the public-tree form (issue 37): expected payoffs, counterfactual
values, best responses, NashConv and the CFR family (:mod:`solvers.public.solve`)."""
from pokerdyn.solvers.public.solve import (PublicBestResponse, PublicCFR, best_response, cfr,
                                           counterfactual_values,
                                           expected_payoffs, nash_conv, regrets,
                                           regrets_and_values)

__all__ = ["PublicBestResponse", "PublicCFR", "best_response", "cfr", "counterfactual_values",
           "expected_payoffs", "nash_conv", "regrets", "regrets_and_values"]
