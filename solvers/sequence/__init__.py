"""Sequence form of two-player games and the linear program that solves zero-sum ones."""
