"""The explicit registry of games: name -> factory.  Adding a game is one line here.

Games are named by spec strings (games.catalog.spec, OpenSpiel's convention):
``river(street=half,max_bets=2)``; ``openspiel:leduc_poker(players=3)`` imports an OpenSpiel
game.  A built game's ``name`` is its canonical spec, options equal to the factory's defaults
left out, so that output and exports name the exact variant.
"""
from __future__ import annotations

import dataclasses
import inspect
from collections import OrderedDict
from functools import lru_cache
from typing import Any, Callable

from games.catalog.kuhn import kuhn, kuhn3, kuhn3_full_simplified, kuhn3_third, skp
from games.catalog.river import river
from games.catalog.spec import OPENSPIEL_PREFIX, format_spec, parse_spec
from games.holdem.standard import leduc, mercer_mmh, mercer_smh
from games.preflop.selby import selby_game
from games.tournament.endgame import blind_vs_blind_game
from games.tree import Game, GameError

GAMES: dict[str, Callable[[], Game]] = {
    "kuhn": kuhn,
    "kuhn3": kuhn3,
    "kuhn3-full-simplified": kuhn3_full_simplified,
    "kuhn3-third": kuhn3_third,
    "kuhn3-third-full": lambda: kuhn3_third(full=True),
    "skp": skp,
    "river": river,
    "mercer-smh": mercer_smh,
    "mercer-mmh": mercer_mmh,
    "leduc": leduc,
    "selby": selby_game,
    "blind-vs-blind": blind_vs_blind_game,
}

# Games whose factory takes keyword options (name -> allowed option names); see make_game.
GAME_OPTIONS: dict[str, tuple[str, ...]] = {
    "kuhn3": ("cards",),
    "river": ("dist1", "dist2", "street", "max_bets", "bet_size"),
    "mercer-smh": ("players", "bet", "check", "collusion", "colluders", "ranks", "copies",
                   "max_bets", "ante", "collapse"),
    "mercer-mmh": ("players", "bet", "check", "collusion", "colluders", "ranks", "copies",
                   "max_bets", "ante"),
    "leduc": ("players", "merge", "ranks", "suits"),
    "selby": ("raises", "sb"),
    "blind-vs-blind": ("stacks", "blinds", "ante", "button", "payouts", "buckets"),
}


def get_game(name: str) -> Game:
    """The game named by the spec ``name`` (a registered name, ``name(key=value,...)`` or
    ``openspiel:<OpenSpiel game string>``); built once per canonical spec and cached
    (games of more than CACHE_NODES nodes are rebuilt instead, see make_game)."""
    return make_game(name)


def make_game(name: str, **options: Any) -> Game:
    """The game of the spec ``name`` built with its options and the keyword ``options``
    (see GAME_OPTIONS); an option given both ways must agree.  Option values must be
    hashable (tuples for lists); games are cached per canonical spec.

    Raises GameError for an unknown game or option (listing the allowed ones) and, through
    the factory, for a bad option value.
    """
    base, spec_opts = parse_spec(name)
    if base.startswith(OPENSPIEL_PREFIX):
        if options:
            raise GameError(f"{name!r} is an OpenSpiel game: give its options inside "
                            "OpenSpiel's game string, not as keywords")
        return _openspiel(base[len(OPENSPIEL_PREFIX):])
    for k, v in options.items():
        if k in spec_opts and spec_opts[k] != v:
            raise GameError(f"option {k} given twice for game {base!r}, with different values: "
                            f"{format_spec('x', {k: spec_opts[k]})[2:-1]} in the spec, "
                            f"{format_spec('x', {k: v})[2:-1]} as a flag or keyword")
    opts = {**spec_opts, **options}
    if base not in GAMES:
        raise GameError(f"unknown game {base!r}; available: {', '.join(GAMES)} (or "
                        f"{OPENSPIEL_PREFIX}<OpenSpiel game string>)")
    allowed = GAME_OPTIONS.get(base, ())
    for k in opts:
        if k not in allowed:
            raise GameError(f"game {base!r} has no option {k!r} (options: "
                            f"{', '.join(allowed) or 'none'})")
    defaults = option_defaults(base)
    kept = {k: v for k, v in opts.items() if not _same(v, defaults.get(k, _MISSING))}
    return _make_game(base, tuple(sorted(kept.items())))


_MISSING = object()


def _same(a: Any, b: Any) -> bool:
    """Equal values of the same kind (``True`` is not the default ``1``)."""
    if b is _MISSING or isinstance(a, bool) != isinstance(b, bool):
        return False
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


def option_defaults(name: str) -> dict[str, Any]:
    """The default value of each option of the registered game ``name`` (read from its
    factory's signature; options without a default are left out)."""
    try:
        sig = inspect.signature(GAMES[name])
    except (TypeError, ValueError):
        return {}
    return {k: p.default for k, p in sig.parameters.items()
            if k in GAME_OPTIONS.get(name, ()) and p.default is not inspect.Parameter.empty}


# Built games are kept (most recent 256) unless larger than CACHE_NODES nodes: a game of
# 10^8 nodes holds about 4 GB, and a caller solving several in turn (the collusion command:
# one game per seating) must be able to let each go.
CACHE_NODES = 5_000_000
_BUILT: OrderedDict[tuple[str, tuple], Game] = OrderedDict()


def _make_game(name: str, options: tuple) -> Game:
    key = (name, options)
    if key in _BUILT:
        _BUILT.move_to_end(key)
        return _BUILT[key]
    game = _build(name, options)
    if game.n_nodes <= CACHE_NODES:
        _BUILT[key] = game
        if len(_BUILT) > 256:
            _BUILT.popitem(last=False)
    return game


def _build(name: str, options: tuple) -> Game:
    opts = dict(options)
    spec = format_spec(name, opts)
    try:
        game = GAMES[name](**opts)
    except GameError:
        raise
    except (TypeError, ValueError, ArithmeticError) as exc:  # a value of the wrong kind
        raise GameError(f"{spec}: bad option value ({' '.join(str(exc).split())})") from None
    return game if game.name == spec else dataclasses.replace(game, name=spec)


@lru_cache(maxsize=8)
def _openspiel(text: str) -> Game:
    # the one place that imports the OpenSpiel loader (pyspiel itself is an optional extra,
    # imported inside; its absence is a GameError naming the extra)
    from games.io.openspiel import openspiel_game

    return openspiel_game(OPENSPIEL_PREFIX + text)
