"""``pokerdyn equilibria GAME`` (no --pot) for games past the case search whose dominance-
reduced frequencies fit it: the whole-axis path, now chosen and run by
:func:`pokerdyn.solvers.symbolic.entry.solve_equilibria`
(:mod:`pokerdyn.solvers.symbolic.certificates.axis_run`; its state files are read by
:mod:`pokerdyn.api.exact`).  Kept: the names that scripts and
tests use."""
from __future__ import annotations

from pokerdyn.api.exact import read_proof_state, read_state  # noqa: F401
from pokerdyn.api.exact_text import completeness_line  # noqa: F401
from pokerdyn.commands.common import emit_json
from pokerdyn.solvers.symbolic.certificates.axis_run import ROUNDS, START
from pokerdyn.solvers.symbolic.entry import MAX_NAMED


def applies(game, args) -> bool:
    """Whether this path answers: no --pot, a pot parameter, at most MAX_NAMED frequencies."""
    from pokerdyn.api.exact import axis_applies

    return axis_applies(game, args)


def run_axis(game, args) -> int:
    """The whole-axis path for a built ``game`` and the parsed ``args``, printed."""
    from pokerdyn.api.exact import equilibria_of

    res = equilibria_of(game, None, getattr(args, "pots", None), method="axis",
                        workers=getattr(args, "workers", None),
                        state=getattr(args, "state", None),
                        prove_complete=getattr(args, "prove_complete", False),
                        progress=not args.json)
    if args.json:
        emit_json(res.to_dict())
    else:
        print(res.to_text())
    return 0
