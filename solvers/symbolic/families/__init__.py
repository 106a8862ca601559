"""Stage 5 of the exact wing (map: :mod:`solvers.symbolic`): lists of equilibrium
families reduced, measured and put in one record form."""
