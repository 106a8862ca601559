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


def families(game_name: str, pot: str | None, fixed: dict | None = None) -> tuple:
    """(game, [(p_set, Solution), ...]) for the CLI: piecewise, or at one exact pot;
    ``fixed``: parameters set by dominance (:func:`reduced`), the rest enumerated."""
    import sympy as sp

    from pokerdyn.games import GameError
    from pokerdyn.solvers.symbolic.enumeration import MAX_PARAMETERS
    from pokerdyn.solvers.symbolic.piecewise import equilibrium_pieces, solutions_at

    from pokerdyn.commands.common import game_and_values, parse_pot

    game, values = game_and_values(game_name, pot)
    n = len(game.named) - len(fixed or {})
    if len(game.named) == 0:
        raise GameError(f"game {game.name!r} has no named parameters to enumerate")
    from pokerdyn.solvers.symbolic.behaviour_supports import many_actions
    if many_actions(game):  # more than two actions somewhere: over behaviour supports
        from pokerdyn.solvers.symbolic.support_families import solutions
        if pot is None:
            return game, [(sp.S.Reals, s) for s in solutions(game)]
        v = parse_pot(pot, game)
        return game, [(sp.FiniteSet(v), s) for s in solutions(game, {"P": v})]
    if n > MAX_PARAMETERS:  # run() sends these to the support method first
        raise GameError(f"game {game.name!r}: too many parameters to enumerate "
                        f"({n} > {MAX_PARAMETERS}); follow its equilibria along P with "
                        "`pokerdyn continuation GAME --pots A:B`")
    if pot is None:
        return game, [(pc.p_set, s) for pc in equilibrium_pieces(game, fixed)
                      for s in pc.solutions]
    v = parse_pot(pot, game)
    return game, [(sp.FiniteSet(v), s) for s in solutions_at(game, v, fixed)]


def reduced(game, seeds: int | None) -> dict | None:
    """For a game without a pot past the case search by its named parameters: the
    parameters that iterated strict dominance (counterfactual gains, exact) fixes, when the
    rest fit the case search.  The case search then finds every equilibrium that plays no
    action strictly dominated wherever reached, the same reduction the support method
    starts from (nim7.efg: 20 named, 3 left; mercer-smh: 30, 8 left).  More left: None
    with ``seeds`` (the support method, from that many learning runs), else GameError
    with the size (the learning runs take minutes and claim no completeness)."""
    from pokerdyn.games import GameError
    from pokerdyn.solvers.symbolic.enumeration import MAX_PARAMETERS, require_two_actions
    from pokerdyn.solvers.symbolic.supports.gains import undominated

    require_two_actions(game)
    fixed = undominated(game, None)[2]
    left = len(game.named) - len(fixed)
    if left <= MAX_PARAMETERS:
        return fixed
    if seeds is None:
        raise GameError(f"game {game.name!r} has {left} undominated parameters (of "
                        f"{len(game.named)}); the exact case search takes at most "
                        f"{MAX_PARAMETERS}: --seeds N proposes supports from N learning runs "
                        "instead (minutes; complete only for the supports the runs reach)")
    return None


def run(args) -> int:
    from pokerdyn.solvers.symbolic.enumeration import MAX_PARAMETERS
    from pokerdyn.solvers.symbolic.family_records import constraint_text, set_str, solution_record

    from pokerdyn.commands.common import load_game, require_pot

    if args.state is not None:  # before the game's build: a bad --state is refused at once
        from pokerdyn.commands.exact.equilibrium_axis import read_state
        read_state(args.state, args.prove_complete)
    game = load_game(args.game)
    if args.pot is not None:  # before the paths below, some of which would not read it
        require_pot(game)
    from pokerdyn.solvers.symbolic.behaviour_supports import many_actions
    many = many_actions(game)  # enumerated over behaviour supports, whatever its size
    fixed = None
    if len(game.named) > MAX_PARAMETERS and "P" not in game.param_names and not args.pots \
            and not many:
        fixed = reduced(game, args.seeds)  # dominance may bring it within the case search
    if len(game.named) > MAX_PARAMETERS and fixed is None and not many:  # supports from learning
        from pokerdyn.commands.exact.equilibrium_axis import applies, run_axis
        from pokerdyn.commands.exact.equilibrium_supports import run_pot_sweep, run_supports
        if applies(game, args):
            return run_axis(game, args)
        return run_pot_sweep(game, args) if args.pots else run_supports(game, args)
    if args.pots:
        from pokerdyn.games import GameError
        if many:
            raise GameError(f"--pots is for two-action games past the case search; "
                            f"{game.name!r} has information sets of more than 2 actions and "
                            "is enumerated over behaviour supports (at one pot: --pot)")
        raise GameError(f"--pots is for games past the case search (> {MAX_PARAMETERS} "
                        f"parameters); {game.name!r} is enumerated over every P without --pot")
    game, fams = families(args.game, args.pot, fixed)
    if args.json:
        rec = {"game": game.name, "families": [solution_record(s, f) for s, f in fams]}
        if fixed is not None:
            rec["dominance_fixed"] = {k: int(v) for k, v in fixed.items()}
        emit_json(rec)
        return 0
    if fixed is not None:
        print(f"{len(game.named)} parameters; iterated strict dominance fixes {len(fixed)}, "
              f"the case search takes the other {len(game.named) - len(fixed)}")
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
