"""The catalogue: one card per game, as ``pokerdyn games`` lists it -- players, nodes,
information sets, options with their defaults (spec syntax), game parameters, named strategy
parameters and description.

A card describes a built game (:func:`describe`).  Building every registered game to list
them took 11 s (``mercer-mmh`` and ``selby`` take seconds each), so the cards of the games
pokerdyn ships, in their default variants, are recorded in ``data/cards.json``
(:func:`record_cards` rewrites it; a test checks every recorded card against a fresh build).
Listing the catalogue (:func:`cards`) reads that file and builds only a game registered at
run time, so it loads no game definition, sympy or numba.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pokerdyn.games.catalog.registry import GAME_OPTIONS, GAMES, get_game, option_defaults
from pokerdyn.games.catalog.spec import format_value

if TYPE_CHECKING:
    from pokerdyn.games.tree import Game

CARDS_PATH = Path(__file__).with_name("data") / "cards.json"

# the keys of a card, in the order ``pokerdyn games --json`` prints them
CARD_KEYS = ("game", "players", "nodes", "infosets", "options", "game_parameters",
             "parameters", "description")


def option_texts(name: str) -> dict[str, str | None]:
    """Option name -> its default in spec syntax (None: no default, or none writable) of
    the registered game ``name`` (reads the factory's signature: imports its module)."""
    defaults = option_defaults(name)
    out: dict[str, str | None] = {}
    for k in GAME_OPTIONS.get(name, ()):
        try:
            out[k] = format_value(defaults[k]) if k in defaults else None
        except (ValueError, TypeError):
            out[k] = None
    return out


def describe(game: Game, spec: str) -> dict[str, Any]:
    """The card of ``game``, built from ``spec``: a registered game is named by its canonical
    spec and lists its options; a file or an OpenSpiel game keeps ``spec`` and has none."""
    base = spec.split("(")[0].strip()
    registered = base in GAMES
    return {"game": game.name if registered else spec, "players": game.n_players,
            "nodes": game.n_nodes, "infosets": game.n_infosets,
            "options": option_texts(base) if registered else {},
            "game_parameters": list(game.param_names),
            "parameters": list(game.named_names), "description": game.description}


@lru_cache(maxsize=1)
def recorded_cards() -> dict[str, dict[str, Any]]:
    """The recorded cards (``data/cards.json``): registered name -> card."""
    with open(CARDS_PATH, encoding="utf-8") as f:
        return {c["game"]: c for c in json.load(f)}


def card(name: str) -> dict[str, Any]:
    """The card of the registered game ``name`` in its default variant: recorded for a game
    pokerdyn ships (nothing built), else from a build (a game registered at run time)."""
    recorded = recorded_cards().get(name) if GAMES.shipped(name) else None
    if recorded is not None:
        return json.loads(json.dumps(recorded))  # a copy the caller may change
    return describe(get_game(name), name)


def cards() -> list[dict[str, Any]]:
    """The card of every registered game, in the registry's order."""
    return [card(name) for name in GAMES]


def record_cards(path: str | Path = CARDS_PATH) -> list[dict[str, Any]]:
    """Build every game pokerdyn ships and write their cards to ``path`` (one JSON list);
    returns them.  Run it after changing a game, its options or defaults
    (``python -c "from pokerdyn.games.catalog.cards import record_cards; record_cards()"``)."""
    rows = [describe(get_game(name), name) for name in GAMES if GAMES.shipped(name)]
    Path(path).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    recorded_cards.cache_clear()
    return rows


__all__ = ["CARDS_PATH", "CARD_KEYS", "card", "cards", "describe", "option_texts",
           "record_cards", "recorded_cards"]
