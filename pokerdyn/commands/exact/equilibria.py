"""Equilibrium families of a game, exactly: without --pot, piecewise over the pot size P
(each P interval or critical value with its families); with --pot, the families at that pot.
Free parameters range over the set cut out by the listed constraints.  The algorithm is
chosen by :func:`pokerdyn.solvers.symbolic.entry.solve_equilibria` (JSON keys method,
method_reason); this module parses, calls :func:`pokerdyn.api.exact.equilibria` and
prints."""
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
                        "symbolic (solvers.symbolic.certificates.completeness; JSON key completeness)")
    top = max_workers()
    p.add_argument("--workers", type=int_arg("workers", 1, top), default=None,
                   help="processes for the seeded runs and for the pots of the whole-axis "
                        "enumeration (default: one per CPU), and for the proof of "
                        f"--prove-complete (default 1); at most {top} (4 per CPU)")
    p.add_argument("--force", action="store_true",
                   help="run the exact case search past its size limit (more than 300 case "
                        "combinations are refused, with the size: minutes to hours)")
    p.add_argument("--plot", default=None,
                   help="write a picture of every family's frequencies against P over the "
                        "pots asked (PNG, SVG, PDF ... by the suffix)")


def families(game_name: str, pot: str | None, fixed: dict | None = None) -> tuple:
    """(game, [(p_set, Solution), ...]): the case search piecewise, or at one exact pot
    (:func:`pokerdyn.solvers.symbolic.entry.case_search`)."""
    from pokerdyn.api.inputs import load_game, parse_pot, require_pot
    from pokerdyn.solvers.symbolic.entry import case_search

    game = load_game(game_name)
    v = None
    if pot is not None:
        require_pot(game)
        v = parse_pot(pot, game)
    return game, case_search(game, v, fixed)


def run(args) -> int:
    from pokerdyn.api.exact import equilibria_of, save_plot
    from pokerdyn.api.inputs import check_plot_file

    if args.plot:
        check_plot_file(args.plot)
    res = equilibria_of(args.game, args.pot, args.pots, seeds=args.seeds, seed=args.seed,
                        workers=args.workers, state=args.state,
                        prove_complete=args.prove_complete, progress=not args.json,
                        force=getattr(args, "force", False))
    if args.plot:
        save_plot(res, args.plot)
    if args.json:
        emit_json(res.to_dict())
    else:
        print(res.to_text())
    return 0
