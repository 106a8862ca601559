"""Exact (sympy) analysis of a game: payoffs as polynomials in the strategy parameters,
equilibrium enumeration piecewise in the pot P, dominance, maxmin choice, family records."""
