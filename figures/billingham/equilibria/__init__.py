"""Billingham Figs. 2, 3, 5, 6: equilibrium families against the pot P."""
