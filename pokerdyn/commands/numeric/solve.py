"""Solve a game numerically and report NashConv, expected payoffs and the strategy.

The strategy is keyed by the game's named parameters (``b_J``) when its author named them,
else (builder, OpenSpiel and .efg games) by information-set label, then action
(``{"P2:35|b": {"c": 0.97, "f": 0.03}}``).  ``--strategy-out FILE`` writes it (JSON, atomically)
to FILE instead of stdout; the text output lists at most PRINT_LIMIT entries.

Methods are looked up in METHODS (name -> function(cg, args) -> SolverResult)."""
from __future__ import annotations

from typing import Callable

from pokerdyn.commands.common import (GAME_HELP, add_game_option_arguments, atomic_write_text,
                                     check_output_file, check_solver_work, emit_json,
                                     game_with_options, int_arg, parse_float,
                                     refuse_lp_beyond_two_players)

PRINT_LIMIT = 60  # strategy lines of the text output


def _fp(cg, args):
    from pokerdyn.solvers import fictitious_play
    return fictitious_play(cg, iterations=args.iterations, tol=args.tol, schedule=args.schedule,
                           averaging=args.averaging, sigma0=args.sigma0,
                           progress=not args.json)


def _hedge(cg, args):
    from pokerdyn.solvers import hedge
    return hedge(cg, iterations=args.iterations, tol=args.tol, sigma0=args.sigma0,
                 progress=not args.json)


def _cfr_plus(cg, args):
    from pokerdyn.solvers import cfr
    return cfr(cg, iterations=args.iterations, tol=args.tol, sigma0=args.sigma0,
               progress=not args.json)


def _cfr(cg, args):
    from pokerdyn.solvers import cfr
    return cfr(cg, iterations=args.iterations, tol=args.tol, regret_matching_plus=False,
               alternating=False, linear_averaging=False, sigma0=args.sigma0,
               progress=not args.json)


def _lp(cg, args):
    from pokerdyn.solvers import solve_lp
    from pokerdyn.solvers.sequence.lp import lp_solver_result
    return lp_solver_result(cg, solve_lp(cg))


def _lcp(cg, args):
    from pokerdyn.solvers.sequence.lcp import lcp_solver_result, solve_lcp
    if not args.all:
        return lcp_solver_result(cg, solve_lcp(cg))
    from pokerdyn.solvers.sequence.lcp_all import solve_lcp_all, start_labels
    res = solve_lcp_all(cg)
    labels = start_labels(cg)
    args.equilibria = [{"start": labels[e.start], "pivots": e.pivots,
                        "expected_payoffs": [float(x) for x in e.payoffs],
                        "nash_conv": e.nash_conv,
                        "exact": {"nash_conv": str(e.exact_nash_conv),
                                  "expected_payoffs": [str(v) for v in e.exact_payoffs]},
                        "strategy": e.strategies} for e in res.equilibria]
    return lcp_solver_result(cg, res)


METHODS: dict[str, Callable] = {"fp": _fp, "hedge": _hedge, "cfr+": _cfr_plus, "cfr": _cfr,
                                "lp": _lp, "lcp": _lcp}


def add_arguments(p) -> None:
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--pot", default=None, help="pot size P")
    p.add_argument("--method", default="fp", help=f"one of: {', '.join(METHODS)} (default fp)")
    p.add_argument("--iterations", type=int_arg("iterations", 1), default=10_000,
                   help="iteration cap (default 10000)")
    p.add_argument("--tol", default=None, help="stop when NashConv <= TOL")
    p.add_argument("--schedule", default="simultaneous", choices=("simultaneous", "alternating"))
    p.add_argument("--averaging", default="reach", choices=("reach", "infoset"))
    p.add_argument("--init", default=None, metavar="NAME=X,...",
                   help="starting strategy: named parameters in [0, 1], e.g. b_J=0.3,c_K=0.5 "
                        "(others uniform); methods read it as args.sigma0")
    p.add_argument("--all", action="store_true",
                   help="lcp: every equilibrium Lemke's method reaches from the covering "
                        "vector of ones and of each pure plan of either player, each certified "
                        "(JSON key equilibria)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--strategy-out", default=None, metavar="FILE",
                   help="write the full strategy as JSON to FILE (written atomically) instead "
                        "of printing it")
    add_game_option_arguments(p)


def parse_init(text: str | None) -> dict[str, str]:
    """``NAME=X,NAME=X`` -> {name: text}; values are checked by strategy_from_params."""
    from pokerdyn.games import GameError

    out: dict[str, str] = {}
    for item in (text or "").split(","):
        if not item.strip():
            continue
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            raise GameError(f"--init item {item.strip()!r} is not NAME=VALUE")
        out[name.strip()] = value.strip()
    return out


def run(args) -> int:
    import json

    from pokerdyn.games import GameError, compile_game
    from pokerdyn.games.strategy import (has_declared_names, params_from_strategy, strategy_by_infoset,
                                strategy_from_params)

    if args.method not in METHODS:
        raise GameError(f"unknown method {args.method!r}; allowed: {', '.join(METHODS)}")
    args.tol = None if args.tol is None else parse_float(args.tol, "tol", low=0, low_open=True)
    if args.method == "lp":
        refuse_lp_beyond_two_players(args.game)
    if args.method == "lcp":
        refuse_lp_beyond_two_players(args.game, "the LCP solver needs a 2-player game")
    elif args.all:
        raise GameError("--all lists the equilibria of the LCP solver; use it with --method lcp")
    args.equilibria = None
    out_file = None if args.strategy_out is None else \
        check_output_file(args.strategy_out, "strategy-out")
    game, values = game_with_options(args)
    cg = compile_game(game, values)
    init = parse_init(args.init)
    args.sigma0 = strategy_from_params(cg, init) if init else None
    check_solver_work(args, [args.method], args.iterations, cg.n_nodes)  # lp, lcp: 0
    res = METHODS[args.method](cg, args)
    strategy = params_from_strategy(cg, res.strategy) if has_declared_names(game) else \
        strategy_by_infoset(cg, res.strategy)
    out = {"game": game.name, "pot": values.get("P"), "method": args.method,
           "iterations": res.iterations, "seconds": res.seconds, "nash_conv": res.nash_conv,
           "tol": args.tol, "converged": None if args.tol is None else bool(res.nash_conv <= args.tol),
           "expected_payoffs": [float(x) for x in res.expected_payoffs], "strategy": strategy,
           "strategy_file": None}
    if "exact_nash_conv" in res.options:
        out["exact"] = {"nash_conv": res.options["exact_nash_conv"],
                        "expected_payoffs": res.options["exact_payoffs"]}
    if args.equilibria is not None:
        view = params_from_strategy if has_declared_names(game) else strategy_by_infoset
        out["starts"] = res.options["starts"]
        out["equilibria"] = [{**e, "strategy": view(cg, e["strategy"])} for e in args.equilibria]
    if out_file is not None:
        atomic_write_text(out_file, json.dumps({"game": game.name, "method": args.method,
                                                "strategy": strategy}, indent=1) + "\n",
                          "strategy-out")
        out["strategy"], out["strategy_file"] = None, str(out_file)
    if args.json:
        emit_json(out)
        return 0
    print(f"{game.name}  method={args.method}  iterations={res.iterations}  "
          f"time={res.seconds:.3f}s  NashConv={res.nash_conv:.3e}"
          + ("" if args.tol is None else
             f"  ({'reached' if out['converged'] else 'did not reach'} tol={args.tol:g})"))
    print("expected payoffs: " + "  ".join(f"E{i + 1}={x:+.6f}"
                                            for i, x in enumerate(res.expected_payoffs)))
    if "exact" in out:
        print(f"exact: NashConv={out['exact']['nash_conv']}  payoffs="
              + ", ".join(out["exact"]["expected_payoffs"]))
    for k, e in enumerate(out.get("equilibria") or []):
        print(f"equilibrium {k + 1} (start {e['start']}): exact NashConv="
              f"{e['exact']['nash_conv']}  payoffs=" + ", ".join(e["exact"]["expected_payoffs"]))
    if out_file is not None:
        print(f"strategy ({len(strategy):,} entries) written to {out_file}")
        return 0
    for k, v in list(strategy.items())[:PRINT_LIMIT]:
        print(f"  {k:<16} {v:.6f}" if not isinstance(v, dict) else
              f"  {k:<24} " + "  ".join(f"{a}={x:.6f}" for a, x in v.items()))
    if len(strategy) > PRINT_LIMIT:
        print(f"  ... {len(strategy) - PRINT_LIMIT:,} more entries (--json or --strategy-out "
              "FILE for all)")
    return 0
