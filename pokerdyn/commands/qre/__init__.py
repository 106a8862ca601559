"""Subcommands of quantal response: the logit QRE branch, its limit and the selection map."""
