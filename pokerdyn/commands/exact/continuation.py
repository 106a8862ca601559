"""Equilibrium branches along the pot P by pseudo-arclength continuation: start from an
equilibrium found by CFR+ (after iterated dominance) at the start pot, follow it through
the range, and at every support change (a frequency reaching 0 or 1, a gain reaching 0)
locate the point, certify it by an exact NashConv and go on.  For games too large for
`pokerdyn equilibria` (the N-card games kuhn3(cards=N))."""
from __future__ import annotations

from pokerdyn.commands.common import GAME_HELP, check_plot_file, emit_json, int_arg


def add_arguments(p) -> None:
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--pots", required=True, help="pot range A:B with A < B, e.g. 2:10")
    p.add_argument("--start", default=None,
                   help="pot where the first equilibrium is found (default: A)")
    p.add_argument("--max-branches", type=int_arg("--max-branches", 1, 10_000), default=60,
                   help="stop after this many branches in each direction (default 60)")
    p.add_argument("--json", action="store_true", help="print JSON (key 'branches')")
    p.add_argument("--plot", default=None, help="write a figure of the frequencies against P")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def parse_pots(text: str) -> tuple[float, float]:
    """``A:B`` as two pots with A < B and a span the branches can cover (GameError
    otherwise; :func:`pokerdyn.api.exact.continuation_range`)."""
    from pokerdyn.api.exact import continuation_range

    return continuation_range(text)


def run(args) -> int:
    import sys

    from pokerdyn.api.exact import continuation, continuation_range, save_plot

    from pokerdyn.commands.common import parse_float

    a, b = continuation_range(args.pots)  # the range and --start before the plot file
    if args.start is not None:
        parse_float(args.start, "--start", a, b)
    if args.plot:
        check_plot_file(args.plot)
    res = continuation(args.game, args.pots, start=args.start, max_branches=args.max_branches,
                       progress=not args.no_progress and sys.stderr.isatty())
    out = res.to_dict()
    if args.plot:
        save_plot(res, args.plot, f"{res.game}: {res.branches} branches")
        out["plot"] = args.plot
    emit_json(out) if args.json else print(res.to_text())
    return 0
