"""Subcommands of the dynamics of adaptive players: ode, simulate, estimators, sweep."""
