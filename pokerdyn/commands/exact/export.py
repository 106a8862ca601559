"""Write a game to a file in another solver's format: Gambit's .efg (the tree) or .nfg (the
reduced normal form), with exact rationals (``--pot`` fixes P; games with a symbolic pot
need it)."""
from __future__ import annotations

from pokerdyn.games import GameError

from pokerdyn.commands.common import (GAME_HELP, add_game_option_arguments, atomic_write_text,
                                      check_output_file, game_with_options, parse_pot,
                                      require_pot, with_notice)

FORMATS = ("efg", "nfg")
# Exact .efg text is written at about 20,000 nodes/s (3P-SMH: 227,991 nodes, 10 s, 8 MB);
# larger games are refused at once rather than run for minutes into hundreds of MB.
MAX_EXPORT_NODES = 1_000_000


def add_arguments(p) -> None:
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--pot", default=None, help="pot size P, exact (9, 15/2 or 7.5)")
    p.add_argument("--format", default=None, help=f"output format ({', '.join(FORMATS)}; "
                   "default: the file's suffix)")
    p.add_argument("file", help="output file ('-' for stdout)")
    add_game_option_arguments(p)


def run(args) -> int:
    import sys

    from pokerdyn.games.io.efg import to_efg_exact

    if args.format is None:
        from pathlib import Path

        args.format = Path(args.file).suffix.lstrip(".").lower()
        if args.format not in FORMATS:
            raise GameError(f"file={args.file!r}: the format is not told by the suffix; give "
                            f"--format ({', '.join(FORMATS)}) or name the file *.efg or *.nfg")
    if args.format not in FORMATS:
        raise GameError(f"format={args.format!r} is not one of {', '.join(FORMATS)}")
    if args.file != "-":
        check_output_file(args.file, "file")
    game = game_with_options(args)[0]
    if game.n_nodes > MAX_EXPORT_NODES:
        raise GameError(f"game {game.name!r} has {game.n_nodes:,} nodes, more than the "
                        f"{MAX_EXPORT_NODES:,} that export writes")
    values = {}
    if args.pot is not None:
        require_pot(game)
        v = parse_pot(args.pot, game)
        if not v.is_Rational:
            raise GameError(f"pot={args.pot} is not rational; the .efg format holds rational "
                            "payoffs (allowed: a rational in (0, inf), e.g. 9 or 15/2)")
        values["P"] = v
    elif "P" in game.param_names and "P" not in game.defaults:
        raise GameError(f"game {game.name!r} has a symbolic pot P: give it with --pot "
                        "(e.g. --pot 9 or --pot 15/2)")
    if args.format == "efg":
        text = with_notice(f"writing {args.file}", lambda: to_efg_exact(game, values),
                           lambda t: f"{len(t):,} characters")
        size = f"{text.count(chr(10)) - 2} nodes"
    else:
        from pokerdyn.games import compile_game
        from pokerdyn.games.io.nfg import to_nfg
        from pokerdyn.games.normal_form import normal_form

        nf = with_notice("building the reduced normal form", lambda: normal_form(
            compile_game(game, values), exact=True, exact_params=values),
            lambda nf: " x ".join(f"{n:,}" for n in nf.shape) + " plans")
        text = with_notice(f"writing {args.file}", lambda: to_nfg(nf),
                           lambda t: f"{len(t):,} characters")
        size = " x ".join(f"{n:,}" for n in nf.shape) + " reduced plans"
    if args.file == "-":
        sys.stdout.write(text)
    else:
        atomic_write_text(args.file, text, "file")
        print(f"wrote {args.file} ({game.name}, {size})")
    return 0
