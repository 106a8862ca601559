"""Stage 8 of the exact wing (map: :mod:`solvers.symbolic`): games past the case search --
supports proposed by seeded learning runs, solved and certified at one pot or along a range."""
