"""One module per ``pokerdyn`` subcommand (see pokerdyn.cli.COMMANDS)."""
