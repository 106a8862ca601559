"""Billingham Figs. 7-10 and companions: the ODE model of SKP."""
