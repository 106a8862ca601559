"""Solve a game numerically and report NashConv, expected payoffs and the strategy.

The strategy is keyed by the game's named parameters (``b_J``) when its author named them,
else (builder, OpenSpiel and .efg games) by information-set label, then action
(``{"P2:35|b": {"c": 0.97, "f": 0.03}}``); ``strategy_by_infoset`` always gives it by label and
action.  ``--strategy-out FILE`` writes both (JSON, atomically) to FILE instead of stdout; the
text output lists at most PRINT_LIMIT (pokerdyn.api.numeric) entries.

Parse -> :func:`pokerdyn.api.numeric.solve` -> print; the methods are the registry's
(:mod:`pokerdyn.solvers.methods`)."""
from __future__ import annotations

from pokerdyn.commands.common import (GAME_HELP, add_game_option_arguments, emit_json,
                                     game_options, int_arg)
# the numeric methods' one registry (the same dict object: `--method` looks it up there)
from pokerdyn.solvers.methods import METHODS, SOLVE_METHODS  # noqa: F401


def add_arguments(p) -> None:
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--pot", default=None, help="pot size P")
    p.add_argument("--method", default="fp",
                   help=f"one of: {', '.join(SOLVE_METHODS)} (default fp; cfr is vanilla CFR, "
                        "cfr+ CFR+, lcfr linear CFR, dcfr discounted CFR, pcfr+ predictive "
                        "CFR+, pdcfr+ predictive discounted CFR+; pokerdyn.solvers.methods)")
    p.add_argument("--iterations", type=int_arg("iterations", 1), default=10_000,
                   help="iteration cap (default 10000)")
    p.add_argument("--tol", default=None, help="stop when NashConv <= TOL")
    p.add_argument("--schedule", default=None, choices=("simultaneous", "alternating"),
                   help="fp and the CFR family: update the players together or in turn "
                        "(default: the method's own; simultaneous for fp and cfr, alternating "
                        "for the other CFR methods)")
    p.add_argument("--averaging", default="reach", choices=("reach", "infoset"))
    p.add_argument("--alpha", default=None, metavar="A",
                   help="CFR family: discount positive regrets by t^A/(t^A+1) (dcfr 1.5, "
                        "pdcfr+ 2.3, lcfr 1; default: the method's own)")
    p.add_argument("--beta", default=None, metavar="B",
                   help="CFR family: discount negative regrets by t^B/(t^B+1) (dcfr 0, lcfr 1)")
    p.add_argument("--gamma", default=None, metavar="G",
                   help="CFR family: weight iteration t of the average by t^G, G >= 0 (cfr 0, "
                        "cfr+ 1, dcfr and pcfr+ 2, pdcfr+ 5)")
    p.add_argument("--storage", default=None, choices=("float64", "float32", "int16"),
                   help="CFR family: regret storage (default float64; int16: 16-bit regrets "
                        "with one float scale per information set)")
    p.add_argument("--engine", default="tree", choices=("tree", "public", "auto"),
                   help="CFR family: run on the history tree (default), the public tree with "
                        "range vectors (leduc, mercer-smh, mercer-mmh from the rules, MMH "
                        "with 4 and 5 players only there; other games derived from their "
                        "compiled form), or auto (the public tree for those builder games)")
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


def run(args) -> int:
    from pokerdyn.api.numeric import solve

    res = solve(args.game, args.method, pot=args.pot, tol=args.tol, iterations=args.iterations,
                schedule=args.schedule, averaging=args.averaging, init=args.init,
                all_equilibria=args.all, strategy_out=args.strategy_out,
                progress=not args.json, force=getattr(args, "force", False),
                max_memory=getattr(args, "max_memory", None), alpha=args.alpha,
                beta=args.beta, gamma=args.gamma, storage=args.storage, engine=args.engine,
                **game_options(args))
    if args.json:
        emit_json(res.to_dict())
    else:
        print(res.to_text())
    return 0
