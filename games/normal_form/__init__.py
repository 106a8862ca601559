"""The reduced normal form of an extensive-form game: reduced plans, the payoff tensor
(float, and exact on request) and Kuhn's theorem between mixed and behaviour strategies."""
from pokerdyn.games.normal_form.plans import Sequences, plan_count, reduced_plans, sequences
from pokerdyn.games.normal_form.realization import (behaviour_from_mixed, mixed_from_behaviour,
                                           realization_plan)
from pokerdyn.games.normal_form.tensor import MAX_EXACT_PROFILES, MAX_PROFILES, NormalForm, normal_form

__all__ = ["MAX_EXACT_PROFILES", "MAX_PROFILES", "NormalForm", "Sequences",
           "behaviour_from_mixed", "mixed_from_behaviour", "normal_form", "plan_count",
           "realization_plan", "reduced_plans", "sequences"]
