"""The front door: what ``import pokerdyn as pd`` offers, one module per area.

Each function checks its input (one :class:`~pokerdyn.games.GameError` line, the command
line's), does what the command of the same name does, and returns a frozen result object
(:mod:`pokerdyn.api.result`) whose ``to_dict()`` is the command's ``--json`` output.  The
command line (:mod:`pokerdyn.commands`) parses its arguments, calls these and prints."""
