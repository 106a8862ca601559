"""Repeated play of a game by adaptive players with sliding-window estimators (Billingham
section 4.2): frequencies move by k times the payoff gradient at each player's estimates.
Mean payoffs are ex-showdown per round (with --deals 12: twice the 24-deal expectation)."""
from __future__ import annotations

from pokerdyn.commands.common import (GAME_HELP, SEED_MAX, atomic_write_text, check_output_file,
                                     check_plot_file, emit_json, game_and_values, int_arg,
                                     load_game, parse_int, parse_list)

# rounds and window lengths: the bounds of the sweep experiment (dynamics/sweep/experiments)
MAX_ROUNDS = 10**13


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


def parse_rates(args, n_players: int) -> tuple[list[float], list[int]]:
    """--k and --L: one value or one per player, checked (GameError names the bad value)."""
    from pokerdyn.dynamics.budget import K_MAX
    from pokerdyn.dynamics.play.repeated import MAX_L

    counts = (1, n_players)
    ks = parse_list(args.k, "k", counts, low=0.0, high=K_MAX)
    Ls = parse_list(args.L, "L", counts, integer=True, low=1, high=MAX_L)
    return ks, Ls


def play_setup(args):
    """Game, values and deal count of the repeated-play commands, with the estimator and the
    deals checked before any work (no progress bar on bad input)."""
    from pokerdyn.dynamics.play.estimators import ESTIMATORS
    from pokerdyn.dynamics.play.tables import deal_counts
    from pokerdyn.games import GameError

    game = load_game(args.game)
    if "P" not in game.param_names:  # the repeated-play model is Billingham's (pot P)
        raise GameError(f"{args.command} plays games with a pot parameter P (skp, kuhn3-third); "
                        f"{game.name!r} has none")
    game, values = game_and_values(args.game, args.pot)
    if args.estimator not in ESTIMATORS:
        raise GameError(f"unknown estimator {args.estimator!r}; allowed: "
                        f"{', '.join(ESTIMATORS)}")
    allowed = deal_counts(game)
    deals = allowed[0] if args.deals is None else args.deals
    if deals not in allowed:
        raise GameError(f"deals={deals} is not allowed for game {game.name!r}; allowed: "
                        f"{' or '.join(map(str, allowed))}")
    return game, values, deals


def run(args) -> int:
    from pokerdyn.dynamics.play.repeated import simulate

    # every output path before any work (a bad second path must not follow a written first)
    if args.plot:
        check_plot_file(args.plot)
    if args.counts_out:
        check_output_file(args.counts_out, "counts-out")
    game, values, deals = play_setup(args)
    ks, Ls = parse_rates(args, game.n_players)
    rounds = parse_int(args.rounds, "rounds", 1, MAX_ROUNDS)
    init = None if args.init is None else parse_list(
        args.init, "initial frequency", (len(game.named),), low=0.0, high=1.0)
    res = simulate(game.name, pot=values.get("P", 0.0), k=ks[0] if len(ks) == 1 else ks,
                   L=Ls[0] if len(Ls) == 1 else Ls, rounds=rounds, init=init, seed=args.seed,
                   deals=deals, n_points=args.points, estimator=args.estimator)
    counts = _counts_text(game, values, res) if args.counts_out else None
    if args.plot:
        _plot(res, args.plot)  # written atomically (figures.base.save)
    if counts is not None:
        atomic_write_text(args.counts_out, counts)
    if args.json:
        emit_json(res.to_json())
        return 0
    print(f"{game.name}  P={values.get('P')}  k={res.options['k']}  L={res.options['L']}  "
          f"rounds={res.rounds}  {res.seconds:.3f}s  ({res.rounds_per_second:.3g} rounds/s)")
    print("mean ex-showdown payoff per round: " +
          "  ".join(f"P{i + 1}={v:+.5f}" for i, v in enumerate(res.mean_payoffs)))
    print("final: " + "  ".join(f"{n}={v:.4f}" for n, v in res.final.items()))
    return 0


def _counts_text(game, values, res) -> str:
    """The --counts-out file's JSON: the actions taken at each information set."""
    import json

    from pokerdyn.games import compile_game
    from pokerdyn.solvers.qre.estimate import counts_from_terminals, counts_to_json

    cg = compile_game(game, values)
    counts = counts_to_json(cg, counts_from_terminals(cg, res.terminal_counts))
    return json.dumps(counts, indent=1) + "\n"


def _plot(res, path: str) -> None:
    from pathlib import Path

    from pokerdyn.figures.base import new_figure, save

    fig, ax = new_figure()
    for j, name in enumerate(res.names):
        ax.plot(res.times, res.frequencies[:, j], lw=0.8, label=name)
    ax.set_xlabel("round")
    ax.set_ylabel("frequency")
    ax.set_ylim(0, 1)
    ax.set_title(f"{res.options['game']}  P={res.options['pot']:g}  k={res.options['k']}  "
                 f"L={res.options['L']}")
    ax.legend()
    p = Path(path)
    save(fig, p.parent if str(p.parent) else Path("."), p.name)
