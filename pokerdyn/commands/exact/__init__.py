"""Subcommands of exact (sympy) analysis: payoffs, equilibria, crosscheck, export."""
