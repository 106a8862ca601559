"""List the registered games, their options, game parameters and named strategy parameters,
or describe one variant.

A game is named by a spec string, OpenSpiel's convention: ``name`` or
``name(key=value,...)``, e.g. ``river(street=half,max_bets=2)`` or
``river(dist1=[0.25,0.25,0.25,0.25])``; values are integers, decimals, rationals ``1/2``,
``true``/``false``, words, and lists ``(a,b)`` or ``[a,b]``.  ``openspiel:leduc_poker(players=3)``
imports an OpenSpiel game.  Every command that takes a GAME takes a spec (quote it in the
shell); the per-game flags (``--street`` ...) are aliases of the options."""
from __future__ import annotations

from pokerdyn.commands.common import emit_json


def add_arguments(p) -> None:
    p.add_argument("names", nargs="*", metavar="GAME",
                   help="game specs to describe, e.g. 'river(street=half)', "
                        "openspiel:leduc_poker(players=3) or a .efg file (default: list all)")
    p.add_argument("--json", action="store_true", help="print JSON")


def run(args) -> int:
    from pokerdyn.api.catalog import catalog

    # --max-memory/--force apply through the command's resource context (pokerdyn.cli)
    result = catalog(args.names or None)
    if args.json:
        emit_json(result.to_dict())
    else:
        print(result.to_text())
    return 0
