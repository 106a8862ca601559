"""Figures of Billingham, three-player Kuhn poker: equilibria, ODE and repeated play."""
