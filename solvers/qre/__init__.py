"""Agent logit quantal response equilibrium (McKelvey and Palfrey 1998) on compiled games:
conditional action values and the logit response (core), the principal branch by
predictor-corrector continuation (branch), its limit and the equilibrium family it selects
(limit, families), and the selection along the pot axis (selection)."""
from pokerdyn.solvers.qre.branch import Branch, qre_branch, qre_profiles, trace_branch
from pokerdyn.solvers.qre.core import (BranchSystem, action_values, check_lambda, fixed_point_residual,
                              logit_field_jacobian, logit_response, softmax_rows,
                              value_jacobian)
from pokerdyn.solvers.qre.limit import Limit, branch_limit

__all__ = ["Branch", "BranchSystem", "Limit", "action_values", "branch_limit", "check_lambda",
           "fixed_point_residual", "logit_field_jacobian", "logit_response", "qre_branch",
           "qre_profiles", "softmax_rows", "trace_branch", "value_jacobian"]
