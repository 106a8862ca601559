"""Stage 6 of the exact wing (map: :mod:`solvers.symbolic`): the pot axis -- families
piecewise in P, critical values, every equilibrium at one pot, the whole-axis sweep."""
