"""Agent logit quantal response equilibrium (McKelvey and Palfrey 1998): without --lambda
the principal branch from uniform play (lambda = 0) until the profile's NashConv is below
--tol, and its limit (matched with an enumerated equilibrium family where the game is
enumerable); with --lambda the QRE at those precisions; with --pots A:B the equilibrium the
branch selects at every pot in (A, B].  The work is :func:`pokerdyn.api.qre.qre`
(``pd.qre``); its JSON gives every strategy by information-set label and action and, under
``by_parameter``, by the game's parameter names."""
from __future__ import annotations

import sys

from pokerdyn.commands.common import GAME_HELP, emit_json


def add_arguments(p) -> None:
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--pot", default=None, help="pot size P")
    p.add_argument("--lambda", dest="lambdas", default=None,
                   help="comma-separated precisions in (0, 1e7]: the QRE at each (e.g. "
                        "1,10,100)")
    p.add_argument("--pots", default=None, help="A:B, the selection map over pots in (A, B]")
    p.add_argument("--tol", default="1e-6", help="stop the branch at this NashConv (default 1e-6)")
    p.add_argument("--grid", default="48", help="pots of the selection map's grid (default 48)")
    p.add_argument("--max-lambda", dest="max_lambda", default=None,
                   help="trace the branch to this precision instead of stopping at --tol "
                        "(e.g. where the QRE is the equilibrium from the start)")
    p.add_argument("--stability", action="store_true",
                   help="with the branch: the largest real part of the logit dynamics' "
                        "eigenvalues at every branch point, and the lambda ranges where the "
                        "QRE is unstable (Hopf points)")
    p.add_argument("--json", action="store_true", help="print JSON")


def run(args) -> int:
    from pokerdyn.api.qre import qre

    result = qre(args.game, args.pot, lambdas=args.lambdas, pots=args.pots, tol=args.tol,
                 grid=args.grid, max_lambda=args.max_lambda, stability=args.stability,
                 progress=not args.json and sys.stderr.isatty())
    if args.json:
        emit_json(result.to_dict())
    else:
        print(result.to_text())
    return 0
