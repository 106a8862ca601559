"""Dynamics of repeated play: adaptive players, parameter sweeps."""
