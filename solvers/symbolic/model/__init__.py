"""Stage 2 of the exact wing (map: :mod:`solvers.symbolic`): the game as equations --
symbolic payoffs, gains and the Family record, exact NashConv, dominance, exact pot input."""
