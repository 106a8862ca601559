"""Cross-check the exact equilibrium families against fictitious play: for each pot, FP
(alternating schedule) from random starts; per run the max-norm distance over the named
parameters from its average strategy to the nearest enumerated family (free parameters
optimised under the constraints) and its NashConv; per family the exact NashConv of a sample
point (must be 0).  Families are numbered from 1 in the table, as in `pokerdyn equilibria
GAME --pot P`; JSON indices are 0-based list positions.  A run farther than --tol from every
family, or a nonzero exact NashConv, is a failure: exit code 1."""
from __future__ import annotations

from pokerdyn.api.exact import MAX_FP_ITERATIONS  # noqa: F401  (the limit, named here too)
from pokerdyn.commands.common import GAME_HELP, emit_json


def add_arguments(p) -> None:
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--pots", default="1.5,2,3,5,6,9,12", help="comma-separated pot sizes")
    p.add_argument("--starts", default="10", help="random starts per pot (default 10)")
    p.add_argument("--iterations", default="20000", help="FP iterations per run (default 20000)")
    p.add_argument("--seed", default="0", help="seed of the random starts (default 0)")
    p.add_argument("--tol", default="1e-2", help="distance counted as a failure (default 1e-2)")
    p.add_argument("--json", action="store_true", help="print JSON")


def run(args) -> int:
    from pokerdyn.api.exact import crosscheck

    res = crosscheck(args.game, args.pots, starts=args.starts, iterations=args.iterations,
                     seed=args.seed, tol=args.tol, force=getattr(args, "force", False))
    emit_json(res.to_dict()) if args.json else print(res.to_text())
    return 1 if res.failures else 0
