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
        dom = game.domains.get("P")
        x = parse_float(pot, "pot", low=dom.low if dom else -math.inf,
                        low_open=dom.low_open if dom else False)
        values["P"] = x
    return game, values


def emit_json(obj: Any) -> None:
    json.dump(obj, sys.stdout, indent=2)
    sys.stdout.write("\n")
