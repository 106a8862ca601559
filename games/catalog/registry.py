"""The explicit registry of games: name -> factory.  Adding a game is one line here."""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

from games.catalog.kuhn import kuhn, kuhn3, kuhn3_third, skp
from games.catalog.river import river
from games.holdem.standard import leduc, mercer_mmh, mercer_smh
from games.tree import Game, GameError

GAMES: dict[str, Callable[[], Game]] = {
    "kuhn": kuhn,
    "kuhn3": kuhn3,
    "kuhn3-third": kuhn3_third,
    "kuhn3-third-full": lambda: kuhn3_third(full=True),
    "skp": skp,
    "river": river,
    "mercer-smh": mercer_smh,
    "mercer-mmh": mercer_mmh,
    "leduc": leduc,
}

# Games whose factory takes keyword options (name -> allowed option names); see make_game.
GAME_OPTIONS: dict[str, tuple[str, ...]] = {
    "river": ("dist1", "dist2", "street", "max_bets", "bet_size"),
    "mercer-smh": ("players", "bet", "check", "collusion", "colluders"),
    "mercer-mmh": ("players", "bet", "check", "collusion", "colluders"),
    "leduc": ("players", "merge"),
}


@lru_cache(maxsize=None)
def get_game(name: str) -> Game:
    """The registered game ``name`` (built once, cached; games are immutable)."""
    factory = GAMES.get(name)
    if factory is None:
        raise GameError(f"unknown game {name!r}; available: {', '.join(GAMES)}")
    return factory()


def make_game(name: str, **options: Any) -> Game:
    """The registered game ``name`` built with keyword ``options`` (see GAME_OPTIONS);
    without options this is :func:`get_game`.  Option values must be hashable (tuples for
    lists); games are cached per (name, options)."""
    if not options:
        return get_game(name)
    if name not in GAMES:
        get_game(name)  # raises the unknown-game error
    allowed = GAME_OPTIONS.get(name, ())
    for k in options:
        if k not in allowed:
            raise GameError(f"game {name!r} has no option {k!r} (options: "
                            f"{', '.join(allowed) or 'none'})")
    return _make_game(name, tuple(sorted(options.items())))


@lru_cache(maxsize=256)
def _make_game(name: str, options: tuple) -> Game:
    return GAMES[name](**dict(options))
