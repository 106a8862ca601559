"""Difference-equation and agent-based models: players who play hands, observe, estimate
their opponents' frequencies over the last L hands and adjust at rate k."""
