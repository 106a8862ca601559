"""The explicit registry of games: name -> factory.  Adding a game is one line here."""
from __future__ import annotations

from functools import lru_cache
from typing import Callable

from .kuhn import kuhn, kuhn3, kuhn3_third, skp
from .tree import Game, GameError

GAMES: dict[str, Callable[[], Game]] = {
    "kuhn": kuhn,
    "kuhn3": kuhn3,
    "kuhn3-third": kuhn3_third,
    "kuhn3-third-full": lambda: kuhn3_third(full=True),
    "skp": skp,
}


@lru_cache(maxsize=None)
def get_game(name: str) -> Game:
    """The registered game ``name`` (built once, cached; games are immutable)."""
    factory = GAMES.get(name)
    if factory is None:
        raise GameError(f"unknown game {name!r}; available: {', '.join(GAMES)}")
    return factory()
