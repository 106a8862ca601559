"""Compare solvers on one game: NashConv against iterations and against time for each
method, each run for the same wall-clock budget (table, optional JSON and figure).

Parse -> :func:`pokerdyn.api.numeric.compare` -> print."""
from __future__ import annotations

from pokerdyn.commands.common import (GAME_HELP, add_game_option_arguments, emit_json,
                                     game_options, int_arg)


def add_arguments(p) -> None:
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--pot", default=None, help="pot size P")
    p.add_argument("--methods", default="fp,hedge,cfr+",
                   help="comma-separated methods among fp, hedge, cfr+, cfr, lp "
                        "(default fp,hedge,cfr+)")
    p.add_argument("--seconds", default="30", help="time budget per method (default 30)")
    p.add_argument("--iterations", type=int_arg("iterations", 1), default=10**9,
                   help="iteration cap per method")
    p.add_argument("--tol", default=None, help="stop a method when NashConv <= TOL")
    p.add_argument("--plot", default=None, help="write the figure to this PNG file")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_game_option_arguments(p)


def run(args) -> int:
    from pokerdyn.api.numeric import compare

    res = compare(args.game, args.methods, pot=args.pot, seconds=args.seconds,
                  iterations=args.iterations, tol=args.tol, plot=args.plot,
                  progress=not args.json, force=getattr(args, "force", False),
                  max_memory=getattr(args, "max_memory", None), **game_options(args))
    if args.json:
        emit_json(res.to_dict())
    else:
        print(res.to_text())
    return 0
