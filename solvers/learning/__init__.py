"""Iterative learning solvers over compiled games: fictitious play, multiplicative weights
(hedge) and CFR/CFR+, all driven by :func:`solvers.iterative.run_iterative`."""
