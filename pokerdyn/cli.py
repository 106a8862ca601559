"""The ``pokerdyn`` command.  Each subcommand is a module of ``pokerdyn.commands`` with
``add_arguments(parser)`` and ``run(args) -> int``; adding one is one line in COMMANDS.

Bad input (GameError, ValueError from argument checks, argparse's usage errors, OSError on
a file named on the command line) prints one line and exits 2.
"""
from __future__ import annotations

import argparse
import importlib
import contextlib
import logging
import sys

# name -> (module below pokerdyn.commands, grouped by capability; one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "games": ("games", "list the games and their parameters"),
    "payoffs": ("exact.payoffs", "expected payoffs as polynomials in the named parameters"),
    "solve": ("numeric.solve", "solve a game numerically (fictitious play, ...)"),
    "compare": ("numeric.compare",
                "NashConv against iterations and time of several solvers on one game"),
    "collusion": ("numeric.collusion",
                  "payoffs under collusion: public, private, suspicious (Mercer sec. 5)"),
    "sweep": ("dynamics.sweep", "run a parameter sweep from a TOML file (local processes or dask)"),
    "ode": ("dynamics.ode",
            "ODE dynamics of adaptive players: trajectories, equilibria, first integrals"),
    "lyapunov": ("dynamics.lyapunov",
                 "chaos diagnostics of the ODE: Lyapunov exponent, Poincare section, profits"),
    "simulate": ("dynamics.simulate",
                 "repeated play with estimator-based adaptive players (Billingham sec. 4.2)"),
    "estimators": ("dynamics.estimators",
                   "mean and std of the frequency estimators at fixed frequencies (App. D)"),
    "export": ("exact.export", "write a game in Gambit's .efg format with exact rationals"),
    "equilibria": ("exact.equilibria", "exact equilibrium families, piecewise in the pot size P"),
    "continuation": ("exact.continuation",
                     "equilibrium branches in the pot P by pseudo-arclength continuation"),
    "crosscheck": ("exact.crosscheck",
                   "cross-check the exact equilibrium families against fictitious play"),
    "icm": ("tournament.icm", "ICM tournament equity of a stack vector (Malmuth-Harville)"),
    "pushfold": ("tournament.pushfold",
                 "jam/fold equilibria: push and call ranges, heads-up thresholds chart"),
    "qre": ("qre.qre", "agent logit QRE: the principal branch, its limit, the selection "
                       "along the pot axis"),
    "qre-fit": ("qre.fit", "the logit precision lambda of observed action counts (maximum "
                           "likelihood over the QRE branch, with its interval)"),
    "reproduce": ("reproduce", "regenerate the figures of the reference papers and a report"),
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2, no usage dump
        print(f"pokerdyn: error: {' '.join(message.split())}", file=sys.stderr)
        raise SystemExit(2)

    def _get_values(self, action, arg_strings):
        # argparse drops a "--" value as if it were the separator and hands the command an
        # empty list ("--plot=--" would then silently mean no plot): keep it as the value
        if action.nargs is None and arg_strings == ["--"]:
            value = self._get_value(action, "--")
            self._check_value(action, value)
            return value
        return super()._get_values(action, arg_strings)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="pokerdyn", description="Equilibria and dynamics of small poker games")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name, (module, help_text) in COMMANDS.items():
        mod = importlib.import_module(f"pokerdyn.commands.{module}")
        p = sub.add_parser(name, help=help_text, description=mod.__doc__)
        mod.add_arguments(p)
        p.set_defaults(_module=mod)
    return parser


def _one_line(exc: BaseException) -> str:
    """The message on one line (some library messages, e.g. TOML's, span several)."""
    return " ".join(str(exc).split())


class _StageMessages(logging.Handler):
    """Stage messages of long builds (the library logs them at INFO; it prints nothing):
    one line each on the current stderr."""

    def emit(self, record: logging.LogRecord) -> None:
        print(f"pokerdyn: {record.getMessage()}", file=sys.stderr, flush=True)


@contextlib.contextmanager
def _stage_messages():
    """Show the library's stage messages on stderr while a command runs, and take the
    handler off again afterwards (main() called in-process must leave logging as found)."""
    log = logging.getLogger("games")
    handler, level = _StageMessages(), log.level
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    try:
        yield
    finally:
        log.removeHandler(handler)
        log.setLevel(level)


def main(argv: list[str] | None = None) -> int:
    from games import GameError

    from pokerdyn.commands.common import UsageError

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        with _stage_messages():
            return int(args._module.run(args) or 0)
    except (GameError, UsageError, ValueError) as exc:
        print(f"pokerdyn: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (`pokerdyn games | head`): not an error
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:  # a file named on the command line cannot be read or written
        what = f"{exc.filename!r}: " if exc.filename else ""
        print(f"pokerdyn: error: {what}{exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("pokerdyn: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
