"""ICM (Independent Chip Model, Malmuth-Harville) tournament equity of each player.

``--payouts`` are fractions of the prize pool for 1st, 2nd, ... place (non-increasing,
summing to at most 1, at most one per player); ``--payouts 1`` is chip EV (equity
proportional to chips).  The work is :func:`pokerdyn.api.tournament.icm` (``pd.icm``)."""
from __future__ import annotations

from pokerdyn.commands.common import emit_json


def add_arguments(p) -> None:
    p.add_argument("--stacks", required=True, help="chips per player, e.g. 50,30,20")
    p.add_argument("--payouts", required=True,
                   help="prize fractions of 1st, 2nd, ... place, e.g. 0.5,0.3,0.2")
    p.add_argument("--json", action="store_true", help="print JSON (key equity)")


def run(args) -> int:
    from pokerdyn.api.tournament import icm

    result = icm(args.stacks, args.payouts)
    if args.json:
        emit_json(result.to_dict())
    else:
        print(result.to_text())
    return 0
