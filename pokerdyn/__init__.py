"""pokerdyn: equilibria and repeated-play dynamics of small poker games (thin CLI package)."""
__version__ = "0.1.0"
