"""Subcommands of the numeric solvers: solve, compare."""
