"""Figures of the research frontier of 3-player Kuhn poker (issue 14)."""
