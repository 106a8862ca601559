"""Payoffs under collusion (Mercer, hold'em paper sec. 5, Table 7): players A and B collude
against C in the public, private and suspicious cases, the dealer rotating every hand; per
hand, averaged over the rotation, the non-colluder C first.

GAME is a spec of a 3-player game whose factory takes the options ``collusion`` and
``colluders`` (e.g. ``mercer-mmh(players=3)``); the command builds the no-collusion game and
one collusion game per seating of the colluders, and solves each: by CFR+ or fictitious play
to a NashConv (``--tol``), or by the paper's own fictitious play stopped once the largest
single-player regret is below ``--epsilon`` (``--method paper-fp``, as the paper computed its
Tables 2-6 and 8)."""
from __future__ import annotations

from pokerdyn.commands.common import check_solver_work, emit_json, int_arg, parse_float

KINDS = ("strong", "weak", "pot")


def add_arguments(p) -> None:
    p.add_argument("game", help="game spec, without the collusion and colluders options")
    p.add_argument("--kind", required=True, choices=KINDS,
                   help="strong (colluders see each other's cards), weak (win sharing) or "
                        "pot (pot sharing)")
    p.add_argument("--method", default="cfr+", choices=("cfr+", "fp", "paper-fp"),
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


def game_maker(spec: str):
    """``make(collusion, colluders)`` for solvers.collusion from a spec whose game takes the
    collusion options; GameError (one line) for a game without them."""
    from pokerdyn.games import GAMES, GameError
    from pokerdyn.games.catalog.registry import GAME_OPTIONS, make_game
    from pokerdyn.games.catalog.spec import parse_spec

    base, opts = parse_spec(spec)
    if base not in GAMES:
        make_game(spec)  # the unknown-game (or OpenSpiel) error
    need = ("collusion", "colluders")
    if not all(k in GAME_OPTIONS.get(base, ()) for k in need):
        have = [g for g, o in GAME_OPTIONS.items() if all(k in o for k in need)]
        raise GameError(f"game {base!r} has no collusion and colluders options; games with "
                        f"them: {', '.join(have) or 'none'}")
    if any(k in opts for k in need):
        raise GameError(f"{spec!r}: leave collusion and colluders out of the spec; --kind "
                        "sets the collusion and the command seats the colluders in turn")

    def make(collusion, colluders):
        if collusion is None:
            return make_game(spec)
        return make_game(spec, collusion=collusion, colluders=tuple(colluders))
    return make


def run(args) -> int:
    from pokerdyn.games import GameError
    from pokerdyn.games.errors import shown
    from pokerdyn.solvers.collusion import (ROTATION, check_epsilon, collusion_payoffs,
                                   iterative_solver, record)

    paper = args.method == "paper-fp"
    if paper and args.tol is not None:
        raise GameError(f"--tol={shown(args.tol)} is not allowed with --method paper-fp (it stops "
                        "at --epsilon); allowed with cfr+ and fp")
    if not paper and args.epsilon is not None:
        raise GameError(f"--epsilon={shown(args.epsilon)} is allowed with --method paper-fp only; "
                        f"{args.method} stops at --tol")
    tol = eps = None
    if paper:
        eps = parse_float("0.01" if args.epsilon is None else args.epsilon, "epsilon", low=0,
                          low_open=True)
    else:
        tol = parse_float("0.01" if args.tol is None else args.tol, "tol", low=0,
                          low_open=True)
    make_any = game_maker(args.game)
    base = make_any(None, None)
    if paper:  # the upper end needs the game: a regret is below its payoff range
        eps = check_epsilon(eps, base)
    # every solve (the game without collusion and one per seating), before any runs; the
    # paper's fictitious play costs what fictitious play does per iteration
    check_solver_work(args, ["fp" if paper else args.method], args.iterations, base.n_nodes,
                      runs=1 + len(ROTATION))

    def make(collusion, colluders):  # the game without collusion built once
        return base if collusion is None else make_any(collusion, colluders)

    solve = iterative_solver(args.method, tol, args.iterations, progress=not args.json,
                             epsilon=eps)
    res = collusion_payoffs(make, args.kind, solve, progress=not args.json)
    out = record(res, base.name, args.method, tol, eps)
    if args.json:
        emit_json(out)
        return 0
    stop = f"epsilon={eps:g}" if paper else f"tol={tol:g}"
    print(f"{out['game']}  collusion={args.kind}  method={args.method}  {stop}  "
          f"time={res.seconds:.2f}s  (payoff per hand, dealer rotating)")
    print(f"{'':<12}{'C (victim)':>12}{'A':>12}{'B':>12}")
    for case in ("public", "private", "suspicious"):
        print(f"{case:<12}" + "".join(f"{x:>+12.5f}" for x in out[case]))
    print("NashConv: " + "  ".join(f"{'no collusion' if k == 'none' else 'colluders ' + k}"
                                   f"={v:.2e}" for k, v in res.nash_conv.items()))
    if paper:
        print("iterations: " + "  ".join(f"{k}={v}" for k, v in res.iterations.items())
              + ("" if out["converged"] else "  (not all below epsilon: raise --iterations)"))
    return 0
