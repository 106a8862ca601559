"""Each player's expected payoff as a polynomial in the named parameters (P symbolic
unless --pot is given)."""
from __future__ import annotations

from pokerdyn.commands.common import GAME_HELP, emit_json


def add_arguments(p) -> None:
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--pot", default=None, help="pot size P (default: symbolic)")
    p.add_argument("--json", action="store_true", help="print JSON")


def run(args) -> int:
    from pokerdyn.api.exact import payoffs

    res = payoffs(args.game, args.pot)
    emit_json(res.to_dict()) if args.json else print(res.to_text())
    return 0
