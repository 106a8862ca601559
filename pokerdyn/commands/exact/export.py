"""Write a game to a file in another solver's format: Gambit's .efg (the tree) or .nfg (the
reduced normal form), with exact rationals (``--pot`` fixes P; games with a symbolic pot
need it)."""
from __future__ import annotations

from pokerdyn.api.exact import FORMATS, MAX_EXPORT_NODES  # noqa: F401  (named here too)
from pokerdyn.commands.common import GAME_HELP, add_game_option_arguments, game_options


def add_arguments(p) -> None:
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--pot", default=None, help="pot size P, exact (9, 15/2 or 7.5)")
    p.add_argument("--format", default=None, help=f"output format ({', '.join(FORMATS)}; "
                   "default: the file's suffix)")
    p.add_argument("file", help="output file ('-' for stdout)")
    add_game_option_arguments(p)


def run(args) -> int:
    import sys

    from pokerdyn.api import exact
    from pokerdyn.games import GameError

    if args.format is None:  # "-" has no suffix either: the format must be given
        from pathlib import Path

        fmt = Path(args.file).suffix.lstrip(".").lower()
        if fmt not in FORMATS:
            raise GameError(f"file={args.file!r}: the format is not told by the suffix; give "
                            f"--format ({', '.join(FORMATS)}) or name the file *.efg or *.nfg")
    res = exact.export(args.game, args.file, args.pot, format=args.format,
                       **game_options(args))
    if args.file == "-":
        sys.stdout.write(res.content)
    else:
        print(res.to_text())
    return 0
