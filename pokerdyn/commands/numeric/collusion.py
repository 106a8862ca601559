"""Payoffs under collusion (Mercer, hold'em paper sec. 5, Table 7): players A and B collude
against C in the public, private and suspicious cases, the dealer rotating every hand; per
hand, averaged over the rotation, the non-colluder C first.

GAME is a spec of a 3-player game whose factory takes the options ``collusion`` and
``colluders`` (e.g. ``mercer-mmh(players=3)``); the command builds the no-collusion game and
one collusion game per seating of the colluders, and solves each: by CFR+ or fictitious play
to a NashConv (``--tol``), or by the paper's own fictitious play stopped once the largest
single-player regret is below ``--epsilon`` (``--method paper-fp``, as the paper computed its
Tables 2-6 and 8).

Parse -> :func:`pokerdyn.api.numeric.collusion` -> print."""
from __future__ import annotations

from pokerdyn.api.numeric import KINDS
from pokerdyn.commands.common import emit_json, int_arg
from pokerdyn.solvers.methods import COLLUSION_METHODS


def add_arguments(p) -> None:
    p.add_argument("game", help="game spec, without the collusion and colluders options")
    p.add_argument("--kind", required=True, choices=KINDS,
                   help="strong (colluders see each other's cards), weak (win sharing) or "
                        "pot (pot sharing)")
    p.add_argument("--method", default="cfr+", choices=COLLUSION_METHODS,
                   help="solver of every game (default cfr+); paper-fp: the paper's "
                        "fictitious play (Mercer's Strategies.nes) stopped at --epsilon")
    p.add_argument("--tol", default=None, help="cfr+ and fp: stop each solve when NashConv "
                                               "<= TOL (default 0.01)")
    p.add_argument("--epsilon", default=None,
                   help="paper-fp: stop each solve when the largest single-player regret is "
                        "below EPSILON, in (0, the game's payoff range) (default 0.01, the "
                        "paper's 0.01-equilibrium; its tables used 0.1)")
    p.add_argument("--iterations", type=int_arg("iterations", 1), default=10_000,
                   help="iteration cap of each solve (default 10000)")
    p.add_argument("--json", action="store_true", help="print JSON")


def run(args) -> int:
    from pokerdyn.api.numeric import collusion

    res = collusion(args.game, args.kind, method=args.method, tol=args.tol,
                    epsilon=args.epsilon, iterations=args.iterations, progress=not args.json,
                    force=getattr(args, "force", False),
                    max_memory=getattr(args, "max_memory", None))
    if args.json:
        emit_json(res.to_dict())
    else:
        print(res.to_text())
    return 0
