"""Mean and standard deviation of each estimator of the opponents' frequencies with the
frequencies held fixed (Billingham Appendix D, Figs. 16-17): one run per L, the first 10^6
rounds discarded.  The work is :func:`pokerdyn.api.dynamics.estimators`."""
from __future__ import annotations

from pokerdyn.commands.common import emit_json
from pokerdyn.commands.dynamics.simulate import add_play_arguments


def add_arguments(p) -> None:
    add_play_arguments(p)
    p.add_argument("--at", default="S3", help="S1, S2, S3 or explicit b,c,d (default S3)")
    p.add_argument("--L", default="6,12,24,48,96,192,384", help="window lengths")
    p.add_argument("--rounds", default="11000000", help="rounds per L (default 1.1e7)")
    p.add_argument("--discard", default="1000000", help="rounds discarded (default 1e6)")


def run(args) -> int:
    from pokerdyn.api.dynamics import estimators

    res = estimators(args.game, pot=args.pot, seed=args.seed, deals=args.deals,
                     estimator=args.estimator, at=args.at, L=args.L, rounds=args.rounds,
                     discard=args.discard, progress=not args.json)
    if args.json:
        emit_json(res.to_dict())
    else:
        print(res.to_text())
    return 0
