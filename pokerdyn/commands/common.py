"""Argument helpers shared by subcommands: the argparse side (integer types, the resource and
game-option flags, JSON printing).  The checks themselves are the front door's
(:mod:`pokerdyn.api.inputs`), so a command and the Python call it makes refuse the same input
with the same line.

Every check raises GameError with one line naming the value and the allowed range; the CLI
prints it and exits 2 (pokerdyn.cli.main)."""
from __future__ import annotations

import argparse
import json
import math
import sys
from typing import TYPE_CHECKING, Any, Callable

from pokerdyn.api.inputs import (  # noqa: F401  (the commands import them from here)
    parse_float,
    SEED_MAX,
    _num,
    parse_int,
    parse_list,
    _existing_ancestor,
    check_output_file,
    PLOT_SUFFIXES,
    check_plot_file,
    check_output_dir,
    _check_parent,
    atomic_write_text,
    read_json_file,
    MAX_WORK_HOURS,
    check_solver_work,
    GAME_HELP,
    load_game,
    NOTICE_AFTER_S,
    stderr_is_terminal,
    with_notice,
    refuse_lp_beyond_two_players,
    game_and_values,
    require_pot,
    parse_pot,
)
from pokerdyn.games.errors import GameError

if TYPE_CHECKING:  # the tree (and sympy) load when a game is built, not for `pokerdyn --help`
    from pokerdyn.games.tree import Game


class UsageError(ValueError):
    """Bad command-line input (not a game's): one line, exit 2."""


def int_arg(what: str, low: float = -math.inf, high: float = math.inf) -> Callable[[str], int]:
    """An argparse ``type`` for :func:`parse_int`: bad values are argparse's one-line usage
    error (exit 2) before the command runs."""
    def convert(text: str) -> int:
        try:
            return parse_int(text, what, low, high)
        except GameError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    convert.__name__ = "integer"
    return convert


def add_resource_arguments(p) -> None:
    """``--max-memory SIZE`` and ``--force``, the resource guard of every command that
    builds a game (games.size): a game whose estimated build needs more than the limit is
    refused before anything is allocated, unless ``--force``.  ``args.force`` also lifts
    the command's own size guards (a sweep's cell count, a chart's stack count).  A
    command that already has a ``--force`` of its own meaning keeps it."""
    from pokerdyn.games.size import SIZE_HELP, parse_memory

    def memory(text: str) -> int:
        try:
            return parse_memory(text)
        except GameError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    memory.__name__ = "size"
    p.add_argument("--max-memory", type=memory, default=None, metavar="SIZE",
                   help=f"memory limit of game builds: {SIZE_HELP} (default: the available "
                        "memory); larger games are refused before they are built")
    if "--force" not in p._option_string_actions:
        p.add_argument("--force", action="store_true",
                       help="build games larger than the memory limit and lift the other "
                            "size guards")
    p.set_defaults(_resource_guard=True)


def resource_context(args):
    """The context in which a command runs: the limits of :func:`add_resource_arguments`
    (games.size.resource_limits) when the command has them."""
    import contextlib

    from pokerdyn.games.size import resource_limits

    if not getattr(args, "_resource_guard", False):
        return contextlib.nullcontext()
    return resource_limits(getattr(args, "max_memory", None), bool(getattr(args, "force", False)))


def emit_json(obj: Any) -> None:
    json.dump(obj, sys.stdout, indent=2)
    sys.stdout.write("\n")


# Game options (games.catalog.registry.GAME_OPTIONS): flag -> (option name, help).
GAME_OPTION_FLAGS: dict[str, tuple[str, str]] = {
    "--dist1": ("dist1", "player 1's hand-type probabilities A,B,C,D (river; default "
                         "0.1,0.2,0.3,0.4)"),
    "--dist2": ("dist2", "player 2's hand-type probabilities A,B,C,D (river)"),
    "--street": ("street", "full (player 2 may bet after a check) or half (river)"),
    "--max-bets": ("max_bets", "cap on the number of bets: 1 = bet, 2 = bet and raise (river)"),
    "--bet-size": ("bet_size", "size of every bet and raise, pot 1 (river; default 0.5)"),
}


def add_game_option_arguments(p) -> None:
    """Add the game-option flags (all default None = the game's default), aliases of the
    spec's options (``river(street=half)`` = ``river --street half``)."""
    for flag, (name, help_text) in GAME_OPTION_FLAGS.items():
        p.add_argument(flag, default=None, help=f"{help_text}; alias of the spec option {name}")


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
            out[name] = parse_int(text, "max-bets", low=1)
        elif name == "bet_size":
            out[name] = parse_float(text, "bet-size", low=0.0, low_open=True, high_open=True)
        else:
            out[name] = text
    return out


def game_with_options(args) -> tuple[Game, dict[str, float]]:
    """Like :func:`game_and_values` for ``args.game``/``args.pot``, building the game with
    the game-option flags, aliases of the spec's options (games.catalog.registry.make_game;
    a flag and a spec option that disagree are an error)."""
    return game_and_values(args.game, getattr(args, "pot", None), **game_options(args))
