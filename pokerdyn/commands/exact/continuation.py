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
    """``A:B`` as two pots (solvers.symbolic.pot_values.POT_RANGE) with A < B and a span
    the branches can cover (GameError otherwise)."""
    from pokerdyn.games import GameError
    from pokerdyn.solvers.continuation.trace import Options
    from pokerdyn.solvers.symbolic.pot_values import POT_MAX_EXP, POT_MIN_EXP

    from pokerdyn.commands.common import parse_float

    parts = text.split(":")
    if len(parts) != 2:
        raise GameError(f"--pots={text!r} is not a range A:B (two numbers, A < B)")
    a, b = (parse_float(s, "--pots", low=10.0**POT_MIN_EXP, high=10.0**POT_MAX_EXP)
            for s in parts)
    if not a < b:
        raise GameError(f"--pots={text} is an empty or reversed range; give A:B with A < B")
    # each branch moves P by at most hmax a step and takes at most max_steps steps: a wider
    # range would run for hours before the branches' limit stops it
    span = Options.hmax * Options.max_steps
    if b - a > span:
        raise GameError(f"--pots={text} spans {b - a:g}; allowed: ranges of at most {span:g} "
                        f"(continuation steps P by at most {Options.hmax:g})")
    return a, b


def run(args) -> int:
    import sys

    from pokerdyn.games import GameError
    from pokerdyn.solvers.continuation.api import branch_record, continuation
    from pokerdyn.solvers.continuation.trace import Options

    from pokerdyn.commands.common import load_game, parse_float

    a, b = parse_pots(args.pots)
    start = None if args.start is None else parse_float(args.start, "--start", a, b)
    if args.plot:
        check_plot_file(args.plot)
    game = load_game(args.game)
    if "P" not in game.param_names:
        raise GameError(f"game {game.name!r} has no pot parameter P to continue in")
    res = continuation(game, (a, b), start=start, opts=Options(max_branches=args.max_branches),
                       progress=not args.no_progress and sys.stderr.isatty())
    out = res.to_json()
    if args.plot:
        from pokerdyn.figures.base import new_figure, save
        from pokerdyn.figures.frontier.n_card import plot_branches
        from pathlib import Path

        fig, ax = new_figure(size=(8, 4.5))
        plot_branches(ax, res)
        ax.set_title(f"{game.name}: {len(res.branches)} branches")
        p = Path(args.plot)
        save(fig, p.parent, p.name)
        out["plot"] = args.plot
    if args.json:
        emit_json(out)
        return 0
    names = res.names
    print(f"{game.name}: {len(res.branches)} branches for P in [{a:g}, {b:g}] from the "
          f"equilibrium at P = {res.start_pot:g} ({res.start_method}); {res.dominance}; "
          f"largest exact NashConv at a branch point {res.max_certificate():.2e}; "
          f"{res.seconds:.1f} s")
    for i, br in enumerate(res.branches):
        rec = branch_record(br, names, i, res.system)
        lo, hi = rec["pot_range"]
        if hi - lo < 1e-9 and i + 1 < len(res.branches):
            continue   # a support passed through at one pot: its end shows on the next line
        sup = rec["support"]
        end = rec["bifurcation_points"][-1]
        print(f"  branch {i}: P in [{lo:.6g}, {hi:.6g}], mixed {len(sup['mixed'])} "
              f"(held {len(sup['held'])}, unreached {len(sup['unreached'])}), "
              f"at 1: {len(sup['one'])}; ends: {end['kind']}"
              f"{' ' + end['set'] if end['set'] else ''} at P = {end['pot']:.8g} "
              f"(exact NashConv {end.get('nash_conv', float('nan')):.1e})")
    return 0
