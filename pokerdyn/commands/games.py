"""List the registered games, their game parameters and their named strategy parameters."""
from __future__ import annotations

from games import GAMES

from pokerdyn.commands.common import emit_json, load_game


def add_arguments(p) -> None:
    p.add_argument("names", nargs="*", metavar="GAME",
                   help="games to describe (default: every registered game); also "
                        "openspiel:<game string>, e.g. openspiel:leduc_poker(players=3), "
                        "or a .efg file")
    p.add_argument("--json", action="store_true", help="print JSON")


def run(args) -> int:
    rows = []
    for name in args.names or GAMES:
        g = load_game(name)
        rows.append({"game": name, "players": g.n_players, "nodes": g.n_nodes,
                     "infosets": g.n_infosets, "game_parameters": list(g.param_names),
                     "parameters": list(g.named_names), "description": g.description})
    if args.json:
        emit_json(rows)
        return 0
    for r in rows:
        params = " ".join(r["parameters"]) if len(r["parameters"]) <= 8 else \
            f"{len(r['parameters'])} parameters ({' '.join(r['parameters'][:4])} ...)"
        gp = f" [{', '.join(r['game_parameters'])}]" if r["game_parameters"] else ""
        print(f"{r['game']:<18}{r['players']}P {r['nodes']:>6} nodes{gp}  {params}")
        print(f"{'':<18}{r['description']}")
    return 0
