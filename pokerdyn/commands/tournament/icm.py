"""ICM (Independent Chip Model, Malmuth-Harville) tournament equity of each player.

``--payouts`` are fractions of the prize pool for 1st, 2nd, ... place (non-increasing,
summing to at most 1, at most one per player); ``--payouts 1`` is chip EV (equity
proportional to chips)."""
from __future__ import annotations

from pokerdyn.commands.common import emit_json, parse_list


def add_arguments(p) -> None:
    p.add_argument("--stacks", required=True, help="chips per player, e.g. 50,30,20")
    p.add_argument("--payouts", required=True,
                   help="prize fractions of 1st, 2nd, ... place, e.g. 0.5,0.3,0.2")
    p.add_argument("--json", action="store_true", help="print JSON (key equity)")


def run(args) -> int:
    import numpy as np

    from pokerdyn.games import GameError
    from pokerdyn.games.tournament import icm

    stacks = parse_list(args.stacks, "stacks", low=0, low_open=True)
    payouts = parse_list(args.payouts, "payouts", low=0, high=1)
    eq = icm(stacks, payouts)
    top = max(stacks)
    # shares of the scaled stacks: the sum of stacks near 1e308 overflows
    share = [s / top / sum(t / top for t in stacks) for s in stacks] if top > 0 else []
    if not (np.isfinite(eq).all() and np.isfinite(share).all()):  # never print NaN
        raise GameError(f"stacks={args.stacks} give no finite equity; allowed: positive "
                        "finite stacks")
    if args.json:
        emit_json({"stacks": stacks, "payouts": payouts, "equity": eq.tolist(),
                   "chip_share": share})
        return 0
    print(f"{'player':>6} {'stack':>10} {'chips %':>8} {'equity':>9}")
    for i, (s, c, e) in enumerate(zip(stacks, share, eq), start=1):
        print(f"{i:>6} {s:>10g} {100 * c:>7.2f}% {e:>9.5f}")
    return 0
