"""Figures of the agent logit QRE (solvers.qre)."""
