"""Each player's expected payoff as a polynomial in the named parameters (P symbolic
unless --pot is given)."""
from __future__ import annotations

from pokerdyn.commands.common import GAME_HELP, emit_json, game_and_values, parse_pot


def add_arguments(p) -> None:
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--pot", default=None, help="pot size P (default: symbolic)")
    p.add_argument("--json", action="store_true", help="print JSON")


def run(args) -> int:
    import sympy as sp

    from pokerdyn.solvers.symbolic.payoffs import symbolic_payoffs

    game, values = game_and_values(args.game, args.pot)
    if "P" in values:
        values["P"] = parse_pot(args.pot, game)
    exprs = symbolic_payoffs(game, values)
    if args.json:
        emit_json({"game": game.name, "parameters": list(game.named_names),
                   "payoffs": [str(sp.factor_terms(e)) for e in exprs]})
        return 0
    for p, e in enumerate(exprs):
        print(f"E{p + 1} = {sp.factor_terms(e)}")
    return 0
