"""Subcommands of tournament endgames: icm, pushfold."""
