"""Argument helpers shared by subcommands: game and pot parsing, JSON output."""
from __future__ import annotations

import json
import math
import sys
from typing import Any

from games import Game, GameError, get_game


def parse_float(text: str, what: str, low: float = -math.inf, high: float = math.inf,
                low_open: bool = False, high_open: bool = False) -> float:
    """A finite float in the given range, else GameError naming the value and the range."""
    try:
        x = float(text)
    except (TypeError, ValueError):
        raise GameError(f"{what}={text!r} is not a number") from None
    lo_ok = x > low if low_open else x >= low
    hi_ok = x < high if high_open else x <= high
    if not math.isfinite(x) or not (lo_ok and hi_ok):
        lb = "(" if low_open or math.isinf(low) else "["
        rb = ")" if high_open or math.isinf(high) else "]"
        rng = f"{lb}{low:g}, {high:g}{rb}"
        raise GameError(f"{what}={text} is outside the allowed range {rng}")
    return x


def parse_list(text: str, what: str, **kw: Any) -> list[float]:
    """Comma-separated floats, each checked like :func:`parse_float`."""
    return [parse_float(t.strip(), what, **kw) for t in text.split(",") if t.strip()]


def game_and_values(name: str, pot: str | None) -> tuple[Game, dict[str, float]]:
    """The registered game and its parameter values (``--pot`` sets ``P``)."""
    game = get_game(name)
    values: dict[str, float] = {}
    if pot is not None:
        if "P" not in game.param_names:
            raise GameError(f"game {name!r} has no pot parameter P (parameters: "
                            f"{', '.join(game.param_names) or 'none'})")
        values["P"] = float(parse_pot(pot, game))
    return game, values


def parse_pot(text: str, game: Game | None = None):
    """The exact pot (a sympy number) from ``--pot``: decimals are exact (2.5 = 5/2) and
    expressions are allowed (``19/2``, ``(5+sqrt(73))/2``); GameError with one line naming
    the value and the allowed range for anything else (not a number, NaN, infinite,
    complex, <= 0, or outside the game's domain of P)."""
    from solvers.symbolic.pot_values import exact_pot

    v = exact_pot(text)
    dom = game.domains.get("P") if game is not None else None
    if dom is not None:
        parse_float(str(float(v)), "pot", low=dom.low, high=dom.high, low_open=dom.low_open,
                    high_open=dom.high_open)
    return v


def emit_json(obj: Any) -> None:
    json.dump(obj, sys.stdout, indent=2)
    sys.stdout.write("\n")


# Game options (games.registry.GAME_OPTIONS): flag -> (option name, help).
GAME_OPTION_FLAGS: dict[str, tuple[str, str]] = {
    "--dist1": ("dist1", "player 1's hand-type probabilities A,B,C,D (river; default "
                         "0.1,0.2,0.3,0.4)"),
    "--dist2": ("dist2", "player 2's hand-type probabilities A,B,C,D (river)"),
    "--street": ("street", "full (player 2 may bet after a check) or half (river)"),
    "--max-bets": ("max_bets", "cap on the number of bets: 1 = bet, 2 = bet and raise (river)"),
    "--bet-size": ("bet_size", "size of every bet and raise, pot 1 (river; default 0.5)"),
}


def add_game_option_arguments(p) -> None:
    """Add the game-option flags (all default None = the game's default)."""
    for flag, (_, help_text) in GAME_OPTION_FLAGS.items():
        p.add_argument(flag, default=None, help=help_text)


def game_options(args) -> dict[str, Any]:
    """Factory keyword options from the game-option flags that were given, parsed and
    checked (the factory checks what depends on the game, e.g. that a distribution sums
    to 1)."""
    out: dict[str, Any] = {}
    for flag, (name, _) in GAME_OPTION_FLAGS.items():
        text = getattr(args, name, None)
        if text is None:
            continue
        if name in ("dist1", "dist2"):
            out[name] = tuple(parse_list(text, name, low=0.0, high=1.0))
        elif name == "max_bets":
            out[name] = int(parse_float(text, "max-bets", low=1, high_open=True))
            if out[name] != float(text):
                raise GameError(f"max-bets={text} is not an integer in [1, inf)")
        elif name == "bet_size":
            out[name] = parse_float(text, "bet-size", low=0.0, low_open=True, high_open=True)
        else:
            out[name] = text
    return out


def game_with_options(args) -> tuple[Game, dict[str, float]]:
    """Like :func:`game_and_values` for ``args.game``/``args.pot``, building the game with
    the game-option flags (games.registry.make_game)."""
    from games.registry import make_game

    opts = game_options(args)
    game, values = game_and_values(args.game, getattr(args, "pot", None))
    return (make_game(args.game, **opts) if opts else game), values
