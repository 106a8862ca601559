"""Subcommands of the numeric solvers: solve, compare, collusion (each parses its arguments,
calls pokerdyn.api.numeric and prints)."""
