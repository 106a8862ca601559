"""The ``pokerdyn`` command.  Each subcommand is a module of ``pokerdyn.commands`` with
``add_arguments(parser)`` and ``run(args) -> int``; adding one is one line in COMMANDS.

Bad input (GameError, the front door's one exception type; UsageError and argparse's usage
errors; OSError on a file named on the command line) prints one line and exits 2.  Any other
exception, a plain ValueError included, is a defect, not bad input: it is not dressed up as
a one-line error but shown with its traceback.  SIGINT and SIGTERM raise
KeyboardInterrupt (:class:`Terminated` for SIGTERM) in the command, so its ``finally``
blocks run and what it finished is kept; the exit code is then 130 (143 for SIGTERM), also
when the command swallowed the interrupt (:func:`check_interrupted`).
"""
from __future__ import annotations

import argparse
import importlib
import contextlib
import logging
import signal
import sys
import threading
from typing import Iterable

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


# Commands without --max-memory/--force (pokerdyn.commands.common.add_resource_arguments):
# reproduce has a --force of its own (recompute finished figures).
NO_RESOURCE_GUARD = ("reproduce",)


def build_parser(load: Iterable[str] | None = None) -> argparse.ArgumentParser:
    """The ``pokerdyn`` parser.  Every command is listed with its help line (from
    :data:`COMMANDS`, no import); the commands in ``load`` (default: all) get their module's
    arguments, so :func:`main` imports only the module of the command it runs (``pokerdyn
    --help`` imports none: issue 35, cheap start)."""
    from pokerdyn import __version__

    parser = _Parser(prog="pokerdyn", description="Equilibria and dynamics of small poker games")
    parser.add_argument("--version", action="version", version=f"pokerdyn {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    load = set(COMMANDS if load is None else load)
    for name, (module, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if name in load:
            _fill(p, name, module)
    return parser


def _fill(p: argparse.ArgumentParser, name: str, module: str) -> None:
    """The arguments of command ``name`` (its module's ``add_arguments``, the resource flags)."""
    from pokerdyn.commands.common import add_resource_arguments

    mod = importlib.import_module(f"pokerdyn.commands.{module}")
    p.description = mod.__doc__
    mod.add_arguments(p)
    if name not in NO_RESOURCE_GUARD:
        add_resource_arguments(p)
    p.set_defaults(_module=mod)


def _asked(argv: list[str]) -> tuple[str, ...]:
    """The command named in ``argv`` (its first word that is not an option; the parser has
    no top-level option that takes a value), or none."""
    word = next((a for a in argv if not a.startswith("-")), None)
    return (word,) if word in COMMANDS else ()


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
    log = logging.getLogger("pokerdyn.games")
    handler, level = _StageMessages(), log.level
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    try:
        yield
    finally:
        log.removeHandler(handler)
        log.setLevel(level)


# The interrupt state lives below the command line, so the front door can check it too.
from pokerdyn.api.interrupts import (  # noqa: E402,F401  (re-exported: tests and scripts import them here)
    _RECEIVED, Terminated, _on_signal, check_interrupted)


@contextlib.contextmanager
def _signals():
    """SIGINT and SIGTERM raise in the command (:func:`_on_signal`) while it runs; the
    handlers found are put back afterwards (main() called in-process, from a test)."""
    del _RECEIVED[:]
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set handlers; Python's own SIGINT handler stays
        return
    sigs = (signal.SIGINT, signal.SIGTERM)
    old = {s: signal.getsignal(s) for s in sigs}
    for s in sigs:
        signal.signal(s, _on_signal)
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, signal.SIG_DFL if h is None else h)


# after SIGINT/SIGTERM the process is gone within this (_watchdog): the backstop for native
# code that holds the interpreter; commands stop in about a second by themselves, and the
# margin is for their cleanup (terminating workers, writing state) on a loaded machine
GRACE_S = 10.0


@contextlib.contextmanager
def _watchdog(grace: float | None = None):
    """After SIGINT or SIGTERM the process ends within ``grace`` seconds (default GRACE_S)
    even where Python cannot run the handler: a numba kernel holds the interpreter until it
    returns (the handler runs after it, maybe minutes later).  A forked watchdog process
    learns of the signal at C level (the wakeup fd of signal.set_wakeup_fd) and kills this
    process (SIGKILL, exit 137) if it is still there ``grace`` s later; the command's own
    handling (:func:`_signals`) normally ends it long before."""
    import os

    grace = GRACE_S if grace is None else grace

    if not hasattr(os, "fork") or threading.current_thread() is not threading.main_thread():
        yield
        return
    r, w = os.pipe()
    os.set_blocking(w, False)
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the watchdog process)
        _watch(r, w, parent, grace)
    os.close(r)
    old = signal.set_wakeup_fd(w, warn_on_full_buffer=False)
    try:
        yield
    finally:
        signal.set_wakeup_fd(old)
        os.close(w)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)


def _watch(r: int, w: int, parent: int, grace: float) -> None:  # pragma: no cover
    """The watchdog process of :func:`_watchdog`: wait for a signal byte, then ``grace``
    seconds, then kill the parent if it is still there; never returns."""
    import os
    import time

    try:
        os.close(w)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):  # hold none of the parent's pipes (a reader waits for EOF)
            os.dup2(null, fd)
        while data := os.read(r, 64):
            if signal.SIGINT in data or signal.SIGTERM in data:
                time.sleep(grace)
                if os.getppid() == parent:
                    os.kill(parent, signal.SIGKILL)
                break
    finally:
        os._exit(0)


def main(argv: list[str] | None = None) -> int:
    """The command line ``argv`` (default sys.argv[1:]: then, as the process's entry point,
    with the :func:`_watchdog` as well); the exit code."""
    entry = argv is None
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(_asked(argv))
    args = parser.parse_args(argv)
    code = None
    try:
        with _watchdog() if entry else contextlib.nullcontext(), _signals():
            code = _run(args)
            check_interrupted()
    except KeyboardInterrupt:
        code = None
    if code is None or _RECEIVED:  # interrupted, even where the command swallowed it
        term = signal.SIGTERM in _RECEIVED
        print(f"pokerdyn: {'terminated' if term else 'interrupted'}", file=sys.stderr)
        return 143 if term else 130
    return code


def _run(args) -> int:
    """Run the command: bad input (GameError, UsageError, OSError) is one line on stderr
    and exit 2; KeyboardInterrupt goes to :func:`main`."""
    from pokerdyn.games import GameError

    from pokerdyn.commands.common import UsageError, resource_context

    try:
        with _stage_messages(), resource_context(args):
            return int(args._module.run(args) or 0)
    except (GameError, UsageError) as exc:
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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
