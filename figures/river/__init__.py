"""Figures of Papadopoulos et al., the two-player river game."""
