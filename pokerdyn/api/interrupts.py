"""Interrupts that keep work: SIGINT and SIGTERM, while a command (or a front-door call run
by it) works, raise KeyboardInterrupt (:class:`Terminated` for SIGTERM) so every ``finally``
runs and what was finished is kept.  The command line (:mod:`pokerdyn.cli`) installs
:func:`_on_signal` while a command runs; long loops of the front door call
:func:`check_interrupted` between steps (an interrupt some callee swallowed still stops
them).  Called from Python without the command line, nothing is installed and
:func:`check_interrupted` never raises."""
from __future__ import annotations

import signal

class Terminated(KeyboardInterrupt):
    """SIGTERM while a command runs: raised like Ctrl-C's KeyboardInterrupt, so every
    ``except KeyboardInterrupt`` and ``finally`` of the command runs the same (exit 143)."""


_RECEIVED: list[int] = []  # SIGINT/SIGTERM received while the current command runs


def _on_signal(signum: int, frame) -> None:
    _RECEIVED.append(signum)
    raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


def check_interrupted() -> None:
    """Raise KeyboardInterrupt (:class:`Terminated` after SIGTERM) if the command was
    interrupted: Python cannot raise a signal's exception out of a weakref callback or a
    ``__del__`` (it prints "Exception ignored" and goes on), so long loops call this
    between steps, and :func:`main` after the command, so no interrupt ends in exit 0."""
    if _RECEIVED:
        raise Terminated() if signal.SIGTERM in _RECEIVED else KeyboardInterrupt()
