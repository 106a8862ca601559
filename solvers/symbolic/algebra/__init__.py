"""Stage 3 of the exact wing (map: :mod:`solvers.symbolic`): one support solved exactly --
triangular, Groebner and positive-dimensional solvers, curves, surfaces, algebraic points."""
