"""Compare solvers on one game: NashConv against iterations and against time for each
method, each run for the same wall-clock budget (table, optional JSON and figure)."""
from __future__ import annotations

import math

from pokerdyn.commands.common import (GAME_HELP, add_game_option_arguments, check_plot_file,
                                     check_solver_work, emit_json, game_with_options, int_arg,
                                     parse_float, refuse_lp_beyond_two_players)

ITER_MARKS = [10.0**k for k in range(0, 10)]
TIME_MARKS = [0.001, 0.01, 0.1, 1.0, 10.0, 100.0, 1000.0]


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


def _fmt(x: float) -> str:
    return "-" if math.isnan(x) else f"{x:.2e}"


def run(args) -> int:
    from pokerdyn.games import GameError, compile_game
    from pokerdyn.solvers.compare import METHOD_NAMES, compare, value_at

    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    if not methods:
        raise GameError(f"methods={args.methods!r} names no method; allowed: "
                        f"{', '.join(METHOD_NAMES)}")
    for m in methods:
        if m not in METHOD_NAMES:
            raise GameError(f"unknown method {m!r}; allowed: {', '.join(METHOD_NAMES)}")
    if args.plot:
        check_plot_file(args.plot)
    seconds = parse_float(args.seconds, "seconds", low=0, low_open=True)
    tol = None if args.tol is None else parse_float(args.tol, "tol", low=0, low_open=True)
    if "lp" in methods:
        refuse_lp_beyond_two_players(args.game)
    game, values = game_with_options(args)
    cg = compile_game(game, values)
    check_solver_work(args, methods, args.iterations, cg.n_nodes, seconds=seconds)
    results = compare(cg, methods, seconds=seconds, iterations=args.iterations, tol=tol,
                      progress=not args.json)
    if args.plot:
        _plot(args.plot, results, game)
    if args.json:
        emit_json({"game": game.name, "description": game.description, "pot": values.get("P"),
                   "seconds": seconds, "methods": {m: {
                       "iterations": r.iterations, "seconds": r.seconds,
                       "nash_conv": r.nash_conv,
                       "iterations_per_second": r.iterations / r.seconds if r.seconds else None,
                       "expected_payoffs": [float(x) for x in r.expected_payoffs],
                       "history": [[int(h[0]), float(h[1]), float(h[2])] for h in r.history]}
                       for m, r in results.items()}, "plot": args.plot})
        return 0
    print(f"{game.description}")
    print(f"{'method':<8}{'iterations':>12}{'seconds':>10}{'it/s':>12}{'NashConv':>11}")
    for m, r in results.items():
        print(f"{m:<8}{r.iterations:>12}{r.seconds:>10.3f}{r.iterations / r.seconds:>12.0f}"
              f"{r.nash_conv:>11.2e}")
    top = max(r.iterations for r in results.values())
    marks = [x for x in ITER_MARKS if x <= top]
    print("\nNashConv against iterations")
    print(f"{'iteration':>10}" + "".join(f"{m:>11}" for m in results))
    cols = {m: value_at(r.history, 0, marks) for m, r in results.items()}
    for i, x in enumerate(marks):
        print(f"{x:>10.0f}" + "".join(f"{_fmt(cols[m][i]):>11}" for m in results))
    tmarks = [x for x in TIME_MARKS if x <= max(r.seconds for r in results.values())]
    print("\nNashConv against time")
    print(f"{'seconds':>10}" + "".join(f"{m:>11}" for m in results))
    cols = {m: value_at(r.history, 2, tmarks) for m, r in results.items()}
    for i, x in enumerate(tmarks):
        print(f"{x:>10g}" + "".join(f"{_fmt(cols[m][i]):>11}" for m in results))
    if args.plot:
        print(f"\nwrote {args.plot}")
    return 0


def _plot(path: str, results, game) -> None:
    from pathlib import Path

    from pokerdyn.figures.base import new_figure, save
    from pokerdyn.figures.convergence.convergence_compare import plot_convergence

    fig, (a, b) = new_figure(1, 2, size=(10, 4))
    plot_convergence(a, b, results, title=game.description[:70])
    out = Path(path)
    save(fig, out.parent if str(out.parent) else Path("."), out.name)
