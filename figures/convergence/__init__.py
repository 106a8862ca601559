"""Convergence of the iterative solvers (fictitious play, hedge, CFR+) on the same games."""
