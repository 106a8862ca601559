"""Solve a game numerically and report NashConv, expected payoffs and the strategy.

Methods are looked up in METHODS (name -> function(cg, args) -> SolverResult)."""
from __future__ import annotations

from typing import Callable

from pokerdyn.commands.common import (GAME_HELP, add_game_option_arguments, emit_json, game_with_options, int_arg,
                     parse_float)


def _fp(cg, args):
    from solvers import fictitious_play
    return fictitious_play(cg, iterations=args.iterations, tol=args.tol, schedule=args.schedule,
                           averaging=args.averaging, sigma0=args.sigma0,
                           progress=not args.json)


def _hedge(cg, args):
    from solvers import hedge
    return hedge(cg, iterations=args.iterations, tol=args.tol, sigma0=args.sigma0,
                 progress=not args.json)


def _cfr_plus(cg, args):
    from solvers import cfr
    return cfr(cg, iterations=args.iterations, tol=args.tol, sigma0=args.sigma0,
               progress=not args.json)


def _cfr(cg, args):
    from solvers import cfr
    return cfr(cg, iterations=args.iterations, tol=args.tol, regret_matching_plus=False,
               alternating=False, linear_averaging=False, sigma0=args.sigma0,
               progress=not args.json)


def _lp(cg, args):
    from solvers import solve_lp
    from solvers.sequence.lp import lp_solver_result
    return lp_solver_result(cg, solve_lp(cg))


METHODS: dict[str, Callable] = {"fp": _fp, "hedge": _hedge, "cfr+": _cfr_plus, "cfr": _cfr,
                                "lp": _lp}


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
    p.add_argument("--json", action="store_true", help="print JSON")
    add_game_option_arguments(p)


def parse_init(text: str | None) -> dict[str, str]:
    """``NAME=X,NAME=X`` -> {name: text}; values are checked by strategy_from_params."""
    from games import GameError

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
    from games import GameError, compile_game
    from games.strategy import params_from_strategy, strategy_from_params, strategy_to_dict

    if args.method not in METHODS:
        raise GameError(f"unknown method {args.method!r}; allowed: {', '.join(METHODS)}")
    args.tol = None if args.tol is None else parse_float(args.tol, "tol", low=0, low_open=True)
    game, values = game_with_options(args)
    cg = compile_game(game, values)
    init = parse_init(args.init)
    args.sigma0 = strategy_from_params(cg, init) if init else None
    res = METHODS[args.method](cg, args)
    strategy = params_from_strategy(cg, res.strategy) if game.named else \
        strategy_to_dict(cg, res.strategy)
    out = {"game": game.name, "pot": values.get("P"), "method": args.method,
           "iterations": res.iterations, "seconds": res.seconds, "nash_conv": res.nash_conv,
           "tol": args.tol, "converged": None if args.tol is None else bool(res.nash_conv <= args.tol),
           "expected_payoffs": [float(x) for x in res.expected_payoffs], "strategy": strategy}
    if args.json:
        emit_json(out)
        return 0
    print(f"{game.name}  method={args.method}  iterations={res.iterations}  "
          f"time={res.seconds:.3f}s  NashConv={res.nash_conv:.3e}"
          + ("" if args.tol is None else
             f"  ({'reached' if out['converged'] else 'did not reach'} tol={args.tol:g})"))
    print("expected payoffs: " + "  ".join(f"E{i + 1}={x:+.6f}"
                                            for i, x in enumerate(res.expected_payoffs)))
    for k, v in strategy.items():
        print(f"  {k:<16} {v:.6f}")
    return 0
