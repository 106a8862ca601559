"""ODE dynamics of adaptive players (Billingham sec. 4.1): every named parameter moves up
its owner's payoff gradient, dx/dt = k_p x(1-x) s_x dE_p/dx.  Prints the final state and the
payoff integrals, or (--analyze) the equilibria with their eigenvalues and the first
integrals of the invariant planes; --plot FILE --phase X,Y[,Z] draws a phase portrait with
the cycle found.  The work is :func:`pokerdyn.api.dynamics.ode`."""
from __future__ import annotations

from pokerdyn.commands.common import GAME_HELP, emit_json


def add_arguments(p) -> None:
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--pot", default=None, help="pot size P")
    p.add_argument("--k", default=None, help="rates k per player, K1,K2,... (or one value); "
                   "default 1")
    p.add_argument("--init", default=None, help="initial frequencies x1,x2,... in [0, 1] in "
                   "parameter order (default 0.5 each)")
    p.add_argument("--t-end", default="100", help="end time (default 100)")
    p.add_argument("--method", default="DOP853", help="solve_ivp method (default DOP853)")
    p.add_argument("--normalisation", default="paper", choices=("paper", "raw"),
                   help="gradient scale s_x (default: paper, Billingham (21)-(23))")
    p.add_argument("--reduce", default="none", choices=("none", "dominance"),
                   help="dominance: hold the parameters iterated dominance fixes (the model "
                   "runs on the others; default none)")
    p.add_argument("--analyze", action="store_true", help="equilibria, eigenvalues, first "
                   "integrals (more than 6 parameters: equilibria found numerically, no "
                   "first integrals)")
    p.add_argument("--plot", default=None, help="write a PNG of the trajectory here (with "
                   "--phase: a phase portrait)")
    p.add_argument("--phase", default=None, metavar="X,Y[,Z]",
                   help="phase portrait in these 2 or 3 parameters: the run drawn from its "
                   "dense output and the cycle it approaches (found on a Poincare section, "
                   "its period in the JSON); with --analyze, the portrait's axes")
    p.add_argument("--json", action="store_true", help="print JSON")


def run(args) -> int:
    from pokerdyn.api.dynamics import ode

    res = ode(args.game, pot=args.pot, k=args.k, init=args.init, t_end=args.t_end,
              method=args.method, normalisation=args.normalisation, reduce=args.reduce,
              analyze=args.analyze, plot=args.plot, phase=args.phase, progress=not args.json)
    if args.json:
        emit_json(res.to_dict())
    else:
        print(res.to_text())
    return 0
