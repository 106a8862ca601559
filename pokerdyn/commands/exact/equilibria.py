"""Equilibrium families of a game, exactly: without --pot, piecewise over the pot size P
(each P interval or critical value with its families); with --pot, the families at that pot.
Free parameters range over the set cut out by the listed constraints."""
from __future__ import annotations

import os

from pokerdyn.commands.common import GAME_HELP, SEED_MAX, emit_json, int_arg


def max_workers() -> int:
    """The largest --workers: 4 per CPU (forked processes beyond a few per CPU only add
    memory, each holding the game, and wait for their turn)."""
    return (os.cpu_count() or 1) * 4


def add_arguments(p) -> None:
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--pot", default=None, help="pot size P (exact: 2.5 means 5/2)")
    p.add_argument("--json", action="store_true", help="print JSON (every string parses with sympy)")
    p.add_argument("--seeds", type=int_arg("seeds", 1, 1000), default=None,
                   help="games past the case search (> 16 parameters): seeded CFR+ and FP "
                        "runs proposing supports (default 20 each; with --pots 4 per pot)")
    p.add_argument("--seed", type=int_arg("seed", 0, SEED_MAX), default=0,
                   help="root of the runs' numpy SeedSequence (default 0)")
    p.add_argument("--pots", default=None,
                   help="games past the case search, no --pot: the pot range A:B (exact, "
                        "e.g. 2:10): up to 40 frequencies the whole-axis enumeration "
                        "(default 2:20; B may be oo: P >= A), beyond that the families piecewise in P from runs at "
                        "sample pots (default seeds 4)")
    p.add_argument("--state", default=None,
                   help="whole-axis enumeration: file of the pots done, to resume "
                        "(default .pokerdyn-GAME-axis.json)")
    p.add_argument("--prove-complete", action="store_true",
                   help="whole-axis enumeration: then prove it complete on the range with P "
                        "symbolic (solvers.symbolic.fullaxis.complete; JSON key completeness)")
    top = max_workers()
    p.add_argument("--workers", type=int_arg("workers", 1, top), default=None,
                   help="processes for the seeded runs and for the pots of the whole-axis "
                        "enumeration (default: one per CPU), and for the proof of "
                        f"--prove-complete (default 1); at most {top} (4 per CPU)")


def families(game_name: str, pot: str | None) -> tuple:
    """(game, [(p_set, Solution), ...]) for the CLI: piecewise, or at one exact pot."""
    import sympy as sp

    from games import GameError
    from solvers.symbolic.enumeration import MAX_PARAMETERS
    from solvers.symbolic.piecewise import equilibrium_pieces, solutions_at

    from pokerdyn.commands.common import game_and_values, parse_pot

    game, values = game_and_values(game_name, pot)
    n = len(game.named)
    if n == 0:
        raise GameError(f"game {game.name!r} has no named parameters to enumerate")
    if n > MAX_PARAMETERS:  # run() sends these to the support method first
        raise GameError(f"game {game.name!r}: too many parameters to enumerate "
                        f"({n} > {MAX_PARAMETERS}); follow its equilibria along P with "
                        "`pokerdyn continuation GAME --pots A:B`")
    if pot is None:
        return game, [(pc.p_set, s) for pc in equilibrium_pieces(game)
                      for s in pc.solutions]
    v = parse_pot(pot, game)
    return game, [(sp.FiniteSet(v), s) for s in solutions_at(game, v)]


def run(args) -> int:
    from solvers.symbolic.enumeration import MAX_PARAMETERS
    from solvers.symbolic.family_records import constraint_text, set_str, solution_record

    from pokerdyn.commands.common import load_game, require_pot

    if args.state is not None:  # before the game's build: a bad --state is refused at once
        from pokerdyn.commands.exact.equilibrium_axis import read_state
        read_state(args.state, args.prove_complete)
    game = load_game(args.game)
    if args.pot is not None:  # before the paths below, some of which would not read it
        require_pot(game)
    if len(game.named) > MAX_PARAMETERS:  # past the case search: supports from learning
        from pokerdyn.commands.exact.equilibrium_axis import applies, run_axis
        from pokerdyn.commands.exact.equilibrium_supports import run_pot_sweep, run_supports
        if applies(game, args):
            return run_axis(game, args)
        return run_pot_sweep(game, args) if args.pots else run_supports(game, args)
    if args.pots:
        from games import GameError
        raise GameError(f"--pots is for games past the case search (> {MAX_PARAMETERS} "
                        f"parameters); {game.name!r} is enumerated over every P without --pot")
    game, fams = families(args.game, args.pot)
    if args.json:
        emit_json({"game": game.name, "families": [solution_record(s, f) for s, f in fams]})
        return 0
    last = None
    for k, (p_set, sol) in enumerate(fams, 1):
        where = set_str(p_set)
        if where != last:
            print(f"P in {where}:" if not p_set.is_FiniteSet else f"P = {where}:")
            last = where
        strat = ", ".join(f"{n} = {v}" for n, v in sol.strategy)
        print(f"  family {k}: {strat}")
        if sol.free:
            print(f"    free: {', '.join(sol.free)}; constraints: {constraint_text(sol)}")
        print("    payoffs: " + ", ".join(f"E{i + 1} = {e}" for i, e in enumerate(sol.payoffs)))
    return 0
