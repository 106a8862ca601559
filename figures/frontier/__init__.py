"""Figures of the research frontier of 3-player Kuhn poker (issue 14): full-street games,
equilibrium families, continuation in P and chaotic dynamics."""
