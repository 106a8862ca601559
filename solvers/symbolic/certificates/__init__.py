"""Stage 7 of the exact wing (map: :mod:`solvers.symbolic`): proofs that a whole-axis
result missed no equilibrium, and the certified whole-axis run."""
