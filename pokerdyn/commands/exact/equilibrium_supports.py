"""``pokerdyn equilibria`` for games past the case search (more than 16 undominated
parameters, e.g. kuhn3): families at one pot from supports proposed by seeded CFR+ and FP
runs, solved and certified exactly (solvers.symbolic.supports)."""
from __future__ import annotations

from pokerdyn.commands.common import emit_json


def run_supports(game, args) -> int:
    import sympy as sp

    from solvers.symbolic.supports.equilibrium_set import (check_size, equilibrium_set,
                                                           set_record)

    from pokerdyn.commands.common import parse_pot

    check_size(game)
    if args.pot is not None:
        pot = parse_pot(args.pot, game)
    else:
        pot = sp.sympify(game.defaults.get("P")) if "P" in game.param_names else None
    res = equilibrium_set(game, pot, seeds=args.seeds, seed=args.seed, workers=args.workers)
    if args.json:
        emit_json(set_record(res))
        return 0
    print(f"{game.name} at P = {pot}: {len(res.families)} certified families from "
          f"{len(res.runs)} runs (dominance fixes {len(res.fixed)} parameters)")
    for k, c in enumerate(res.families, 1):
        f = c.family
        print(f"  family {k}: free {', '.join(f.free) or 'none'}; payoffs at a certified point "
              + ", ".join(f"E{i + 1} = {e}" for i, e in enumerate(c.payoffs)))
        for n, v in f.strategy:
            if n not in res.fixed:
                print(f"    {n} = {v}")
    worst = max(d for d, _ in res.distances)
    print(f"  largest distance of a learned limit to its nearest family: {worst:.2e}")
    return 0
