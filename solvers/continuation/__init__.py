"""Equilibrium branches along a game parameter (the pot ``P``) by pseudo-arclength
continuation of the indifference equations, with support changes located as events and
every branch point certified by an exact NashConv (Billingham, arXiv 1802.04670, computes
the N-card three-player Kuhn branches the same way by regularisation and arc length)."""
