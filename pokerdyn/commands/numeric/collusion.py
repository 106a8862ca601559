"""Payoffs under collusion (Mercer, hold'em paper sec. 5, Table 7): players A and B collude
against C in the public, private and suspicious cases, the dealer rotating every hand; per
hand, averaged over the rotation, the non-colluder C first.

GAME is a spec of a 3-player game whose factory takes the options ``collusion`` and
``colluders`` (e.g. ``mercer-mmh(players=3)``); the command builds the no-collusion game and
one collusion game per seating of the colluders, and solves each."""
from __future__ import annotations

from pokerdyn.commands.common import check_solver_work, emit_json, int_arg, parse_float

KINDS = ("strong", "weak", "pot")


def add_arguments(p) -> None:
    p.add_argument("game", help="game spec, without the collusion and colluders options")
    p.add_argument("--kind", required=True, choices=KINDS,
                   help="strong (colluders see each other's cards), weak (win sharing) or "
                        "pot (pot sharing)")
    p.add_argument("--method", default="cfr+", choices=("cfr+", "fp"),
                   help="solver of every game (default cfr+)")
    p.add_argument("--tol", default="0.01", help="stop each solve when NashConv <= TOL "
                                                 "(default 0.01)")
    p.add_argument("--iterations", type=int_arg("iterations", 1), default=10_000,
                   help="iteration cap of each solve (default 10000)")
    p.add_argument("--json", action="store_true", help="print JSON")


def game_maker(spec: str):
    """``make(collusion, colluders)`` for solvers.collusion from a spec whose game takes the
    collusion options; GameError (one line) for a game without them."""
    from games import GAMES, GameError
    from games.catalog.registry import GAME_OPTIONS, make_game
    from games.catalog.spec import parse_spec

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
    from solvers.collusion import ORDER, ROTATION, collusion_payoffs, iterative_solver

    tol = parse_float(args.tol, "tol", low=0, low_open=True)
    make_any = game_maker(args.game)
    base = make_any(None, None)
    # every solve (the game without collusion and one per seating), before any runs
    check_solver_work(args, [args.method], args.iterations, base.n_nodes,
                      runs=1 + len(ROTATION))

    def make(collusion, colluders):  # the game without collusion built once
        return base if collusion is None else make_any(collusion, colluders)

    solve = iterative_solver(args.method, tol, args.iterations, progress=not args.json)
    res = collusion_payoffs(make, args.kind, solve, progress=not args.json)
    out = {"game": base.name, "kind": args.kind, "method": args.method,
           "tol": tol, "players": list(ORDER),
           "public": [float(x) for x in res.public],
           "private": [float(x) for x in res.private],
           "suspicious": [float(x) for x in res.suspicious],
           "nash_conv": res.nash_conv,
           "converged": all(v <= tol for v in res.nash_conv.values()),
           "seats": [r.seats for r in res.arrangements],
           "hands": [{"seats": r.seats, "colluders": list(r.colluders),
                      "public": r.public.tolist(), "private": r.private.tolist(),
                      "suspicious": r.suspicious.tolist(), "nash_conv": r.nash_conv}
                     for r in res.arrangements],
           "seconds": res.seconds}
    if args.json:
        emit_json(out)
        return 0
    print(f"{out['game']}  collusion={args.kind}  method={args.method}  tol={tol:g}  "
          f"time={res.seconds:.2f}s  (payoff per hand, dealer rotating)")
    print(f"{'':<12}{'C (victim)':>12}{'A':>12}{'B':>12}")
    for case in ("public", "private", "suspicious"):
        print(f"{case:<12}" + "".join(f"{x:>+12.5f}" for x in out[case]))
    print("NashConv: " + "  ".join(f"{'no collusion' if k == 'none' else 'colluders ' + k}"
                                   f"={v:.2e}" for k, v in res.nash_conv.items()))
    return 0
