"""Billingham Figs. 11-17 and alliances: the difference-equation model and repeated play."""
