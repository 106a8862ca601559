"""Chaos diagnostics of the adaptive-play ODE (Billingham sec. 4.1) on the parameters that
iterated dominance leaves free: the largest Lyapunov exponent by Benettin's method (running
estimate, its spread over the last quarter of each run and between seeded starts), Poincare
section crossings classified as periodic / quasi-periodic / chaotic, mean profit rates and,
with --equilibria, the game's equilibria (rest points) with their Jacobian eigenvalues.
The work is :func:`pokerdyn.api.dynamics.lyapunov`."""
from __future__ import annotations

from pokerdyn.commands.common import GAME_HELP, SEED_MAX, emit_json, int_arg


def add_arguments(p) -> None:
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--pot", default=None, help="pot size P")
    p.add_argument("--starts", type=int_arg("starts", 1, 1000), default=3,
                   help="seeded random initial points (default 3)")
    p.add_argument("--init", default=None, help="one initial point x1,x2,... in (0, 1) "
                   "(instead of --starts)")
    p.add_argument("--seed", type=int_arg("seed", 0, SEED_MAX), default=0,
                   help="random seed (default 0)")
    p.add_argument("--t-end", default="5000", help="end time of each run (default 5000)")
    p.add_argument("--t-skip", default=None, help="transient not counted (default t-end/5)")
    p.add_argument("--tau", default="1", help="renormalisation interval (default 1)")
    p.add_argument("--section", default=None, help="Poincare section NAME=VALUE, crossed "
                   "upward (default: the frequency that varies most, at its mean)")
    p.add_argument("--k", default=None, help="rates k per player, K1,K2,... (or one value)")
    p.add_argument("--normalisation", default="paper", choices=("paper", "raw"),
                   help="gradient scale s_x (default: paper)")
    p.add_argument("--reduce", default="dominance", choices=("dominance", "none"),
                   help="hold the parameters that iterated dominance fixes (default)")
    p.add_argument("--equilibria", action="store_true", help="also find the equilibria "
                   "(seeded CFR+ runs and the runs' time averages, polished), their "
                   "eigenvalues and the closest payoffs")
    p.add_argument("--cfr-starts", type=int_arg("cfr-starts", 0, 1000), default=6,
                   help="CFR+ starts for --equilibria (default 6)")
    p.add_argument("--plot", default=None, help="write a PNG: running exponent, section")
    p.add_argument("--json", action="store_true", help="print JSON")


def run(args) -> int:
    from pokerdyn.api.dynamics import lyapunov

    res = lyapunov(args.game, pot=args.pot, starts=args.starts, init=args.init, seed=args.seed,
                   t_end=args.t_end, t_skip=args.t_skip, tau=args.tau, section=args.section,
                   k=args.k, normalisation=args.normalisation, reduce=args.reduce,
                   equilibria=args.equilibria, cfr_starts=args.cfr_starts, plot=args.plot,
                   progress=not args.json)
    if args.json:
        emit_json(res.to_dict())
    else:
        print(res.to_text())
    return 0
