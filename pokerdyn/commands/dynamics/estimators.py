"""Mean and standard deviation of each estimator of the opponents' frequencies with the
frequencies held fixed (Billingham Appendix D, Figs. 16-17): one run per L, the first 10^6
rounds discarded."""
from __future__ import annotations

from pokerdyn.commands.common import emit_json, parse_int, parse_list
from pokerdyn.commands.dynamics.simulate import MAX_ROUNDS, add_play_arguments, play_setup


def add_arguments(p) -> None:
    add_play_arguments(p)
    p.add_argument("--at", default="S3", help="S1, S2, S3 or explicit b,c,d (default S3)")
    p.add_argument("--L", default="6,12,24,48,96,192,384", help="window lengths")
    p.add_argument("--rounds", default="11000000", help="rounds per L (default 1.1e7)")
    p.add_argument("--discard", default="1000000", help="rounds discarded (default 1e6)")


def run(args) -> int:
    from pokerdyn.dynamics.play.repeated import MAX_L, estimator_study

    from pokerdyn.dynamics.skp_points import skp_point

    game, values, deals = play_setup(args)
    if "," in args.at:
        at = parse_list(args.at, "at", (len(game.named),), low=0.0, high=1.0)
    else:
        # resolved here, not in the study: a bad name fails before the progress bar
        at = list(skp_point(args.at, values.get("P", 9.0)).values())
    Ls = parse_list(args.L, "L", integer=True, low=1, high=MAX_L)
    rounds = parse_int(args.rounds, "rounds", 1, MAX_ROUNDS)
    discard = parse_int(args.discard, "discard", 0, rounds - 1)
    res = estimator_study(pot=values.get("P", 9.0), at=at, L=Ls, rounds=rounds,
                          seed=args.seed, discard=discard, estimator=args.estimator,
                          deals=deals, game=game.name, progress=not args.json)
    if args.json:
        emit_json(res.to_json())
        return 0
    print(f"{game.name}  P={values.get('P')}  at {res.at}  estimator={res.estimator}  "
          f"rounds={res.rounds} (first {res.discard} discarded)  {res.seconds:.2f}s")
    print("L".rjust(6) + "".join(f"{n:>22}" for n in res.names))
    print("truth".rjust(6) + "".join(f"{t:>22.4f}" for t in res.truth))
    for i, L in enumerate(res.L):
        print((f"{L:>6}" + "".join(f"{m:>12.4f} ±{s:<9.4f}"
                                   for m, s in zip(res.mean[i], res.std[i]))).rstrip())
    return 0
