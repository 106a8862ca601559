"""``pokerdyn equilibria`` for games past the case search (more than 16 undominated
parameters, e.g. kuhn3): the support method, now chosen and run by
:func:`pokerdyn.solvers.symbolic.entry.solve_equilibria`; its text by
:mod:`pokerdyn.api.exact_text`.  Kept: the names that scripts and tests use."""
from __future__ import annotations

from pokerdyn.commands.common import emit_json


def run_supports(game, args) -> int:
    """The support method at one pot for a built ``game``, printed."""
    from pokerdyn.api.exact import equilibria_of

    res = equilibria_of(game, args.pot, None, method="supports", seeds=args.seeds,
                        seed=args.seed, workers=args.workers, progress=not args.json)
    emit_json(res.to_dict()) if args.json else print(res.to_text())
    return 0


def print_set(game, pot, res) -> None:
    """The families and curves of an equilibrium set, and the runs' largest distance."""
    from pokerdyn.api.exact_text import supports_set_text

    print(supports_set_text(game, pot, res))
