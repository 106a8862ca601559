"""List the registered games, their options, game parameters and named strategy parameters,
or describe one variant.

A game is named by a spec string, OpenSpiel's convention: ``name`` or
``name(key=value,...)``, e.g. ``river(street=half,max_bets=2)`` or
``river(dist1=[0.25,0.25,0.25,0.25])``; values are integers, decimals, rationals ``1/2``,
``true``/``false``, words, and lists ``(a,b)`` or ``[a,b]``.  ``openspiel:leduc_poker(players=3)``
imports an OpenSpiel game.  Every command that takes a GAME takes a spec (quote it in the
shell); the per-game flags (``--street`` ...) are aliases of the options."""
from __future__ import annotations

from pokerdyn.games import GAMES
from pokerdyn.games.catalog.registry import GAME_OPTIONS, option_defaults
from pokerdyn.games.catalog.spec import format_value

from pokerdyn.commands.common import emit_json, load_game


def add_arguments(p) -> None:
    p.add_argument("names", nargs="*", metavar="GAME",
                   help="game specs to describe, e.g. 'river(street=half)', "
                        "openspiel:leduc_poker(players=3) or a .efg file (default: list all)")
    p.add_argument("--json", action="store_true", help="print JSON")


def _options(name: str) -> dict[str, str | None]:
    """Option name -> its default in spec syntax (None: no default or not writable)."""
    defaults = option_defaults(name)
    out: dict[str, str | None] = {}
    for k in GAME_OPTIONS.get(name, ()):
        try:
            out[k] = format_value(defaults[k]) if k in defaults else None
        except (ValueError, TypeError):
            out[k] = None
    return out


def run(args) -> int:
    rows = []
    for name in args.names or GAMES:
        g = load_game(name)
        base = name.split("(")[0].strip()
        registered = base in GAMES
        rows.append({"game": g.name if registered else name, "players": g.n_players,
                     "nodes": g.n_nodes, "infosets": g.n_infosets,
                     "options": _options(base) if registered else {},
                     "game_parameters": list(g.param_names),
                     "parameters": list(g.named_names), "description": g.description})
    if args.json:
        emit_json(rows[0] if len(args.names) == 1 else rows)
        return 0
    for r in rows:
        params = " ".join(r["parameters"]) if len(r["parameters"]) <= 8 else \
            f"{len(r['parameters'])} parameters ({' '.join(r['parameters'][:4])} ...)"
        gp = f" [{', '.join(r['game_parameters'])}]" if r["game_parameters"] else ""
        head = r["game"] if len(r["game"]) < 18 else f"{r['game']}\n{'':<18}"
        print(f"{head:<18}{r['players']}P {r['nodes']:>6} nodes{gp}  {params}")
        print(f"{'':<18}{r['description']}")
        if r["options"]:
            opts = ", ".join(k if v is None else f"{k}={v}" for k, v in r["options"].items())
            print(f"{'':<18}options (defaults): {opts}")
    if not args.names:
        print("\nA game is a spec: name or name(key=value,...), e.g. 'river(street=half,"
              "max_bets=2)'; 'openspiel:leduc_poker(players=3)' imports an OpenSpiel game.")
    return 0
