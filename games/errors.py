"""The one exception type of the core: an invalid game, parameter value or strategy."""


class GameError(ValueError):
    """A game definition, parameter value or strategy is invalid."""
