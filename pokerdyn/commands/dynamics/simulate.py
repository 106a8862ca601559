"""Repeated play of a game by adaptive players with sliding-window estimators (Billingham
section 4.2): frequencies move by k times the payoff gradient at each player's estimates.
Mean payoffs are ex-showdown per round (with --deals 12: twice the 24-deal expectation).
The work is :func:`pokerdyn.api.dynamics.simulate`."""
from __future__ import annotations

from pokerdyn.commands.common import GAME_HELP, SEED_MAX, emit_json, int_arg


def add_play_arguments(p) -> None:
    """Arguments shared with ``pokerdyn estimators``."""
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--pot", default="9", help="pot size P (default 9)")
    p.add_argument("--seed", type=int_arg("seed", 0, SEED_MAX), default=0,
                   help="random seed (default 0)")
    p.add_argument("--deals", type=int_arg("deals", 1), default=None,
                   help="deals drawn: the informative ones only (default; skp: 12, the paper's "
                        "P3 holds A or J) or all (skp: 24)")
    p.add_argument("--estimator", default="unbiased",
                   help="unbiased (default; binomial forms of Billingham (44)-(47)), paper "
                        "(as printed), corrected (printed, (46) with an unbiased denominator) "
                        "or ml (maximum likelihood)")
    p.add_argument("--json", action="store_true", help="print JSON")


def add_arguments(p) -> None:
    add_play_arguments(p)
    p.add_argument("--k", default="0.001", help="adaptation rate(s): K or K1,K2,K3 (>= 0)")
    p.add_argument("--L", default="6", help="window length(s): L or L1,L2,L3 (>= 1)")
    p.add_argument("--rounds", default="10000000", help="hands to play (default 1e7)")
    p.add_argument("--init", default=None, help="initial frequencies b,c,d (default: near S3)")
    p.add_argument("--points", type=int_arg("points", 2, 10**7), default=1000,
                   help="samples of the time series")
    p.add_argument("--plot", default=None, help="write the frequency time series to FILE")
    p.add_argument("--counts-out", default=None,
                   help="write the actions taken at each information set over the simulated "
                        "hands to FILE (JSON, the input of `pokerdyn qre-fit --counts`)")


def run(args) -> int:
    from pokerdyn.api.dynamics import simulate

    res = simulate(args.game, pot=args.pot, seed=args.seed, deals=args.deals,
                   estimator=args.estimator, k=args.k, L=args.L, rounds=args.rounds,
                   init=args.init, points=args.points, plot=args.plot,
                   counts_out=args.counts_out, progress=not args.json)
    if args.json:
        emit_json(res.to_dict())
    else:
        print(res.to_text())
    return 0
