"""Long-run diagnostics of ODE models of adaptive play: a compiled tangent-flow integrator,
Benettin's largest Lyapunov exponent, Poincare sections and their classification, profit
rates, and numerically found rest points with their eigenvalues along the pot axis."""
from pokerdyn.dynamics.chaos.lyapunov import (ChaosRun, LyapunovEstimate, largest_lyapunov,
                                     random_starts, run_chaos)
from pokerdyn.dynamics.chaos.classify import (RunClass, auto_section, classify_run,
                                     correlation_dimension, profit_match, section_clusters)
from pokerdyn.dynamics.chaos.rest_points import (PotRestPoints, RestPoint, find_rest_points,
                                        rest_points_along_pot)

__all__ = ["ChaosRun", "LyapunovEstimate", "largest_lyapunov", "random_starts", "run_chaos",
           "RunClass", "auto_section", "classify_run", "correlation_dimension",
           "profit_match", "section_clusters", "PotRestPoints", "RestPoint",
           "find_rest_points", "rest_points_along_pot"]
