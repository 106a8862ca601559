"""Learning dynamics in behaviour strategies on compiled games (logit, replicator, smoothed
best response) as ODE models, their rest points, and the stability of the logit QRE along
its principal branch."""
from pokerdyn.dynamics.learning.model import RULES, LearningModel, learning_model
from pokerdyn.dynamics.learning.stability import (BranchStability, branch_stability, rest_point,
                                         tangent_basis, tangent_eigenvalues)

__all__ = ["BranchStability", "LearningModel", "RULES", "branch_stability", "learning_model",
           "rest_point", "tangent_basis", "tangent_eigenvalues"]
