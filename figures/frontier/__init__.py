"""Figures of the research-frontier results on 3-player Kuhn poker (issue 14)."""
