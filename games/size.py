"""The resource guard (issue 33): a game's size estimated before it is built, checked
against a memory limit.

A built game holds a few flat arrays per node (:class:`games.tree.Game`: kind int8, parent
int32, edge int16, player int8, infoset int32, chance probability float64;
:class:`games.compiled.CompiledGame` adds an int32 terminal index and shares the rest) and
per terminal a float64 payoff per player and an int64 node index: :attr:`GameSize.bytes`.
Building takes more than the result (the builder's temporaries, the structure checks):
about :data:`BUILD_PEAK` times, measured on the hold'em builder, so the guard compares
:attr:`GameSize.needed` with the limit.

The limit is the machine's available memory unless set: ``--max-memory SIZE`` on the
command line, :func:`resource_limits` (a context) or the ``max_memory`` keyword of
:func:`games.catalog.registry.make_game`; ``force`` skips the check (never the hard limit
of :data:`MAX_NODES` nodes, the int32 node indices).
"""
from __future__ import annotations

import contextlib
import contextvars
import math
import os
import re
from dataclasses import dataclass
from typing import Callable, Iterator

from pokerdyn.games.errors import GameError

NODE_BYTES = 24
TERMINAL_BYTES = 8
BUILD_PEAK = 3
MAX_NODES = 2**31 - 1


@dataclass(frozen=True)
class GameSize:
    """Size of a game before it is built: ``nodes``, ``terminals``; ``exceeds``: the count
    stopped once it passed its limit (the game has more than ``nodes - 1`` nodes)."""

    nodes: int
    terminals: int
    n_players: int
    exceeds: bool = False

    @property
    def bytes(self) -> int:
        """Bytes of the built game and its compiled form (module docstring)."""
        return self.nodes * NODE_BYTES + self.terminals * (TERMINAL_BYTES + 8 * self.n_players)

    @property
    def needed(self) -> int:
        """Bytes needed while building (:data:`BUILD_PEAK` times :attr:`bytes`)."""
        return BUILD_PEAK * self.bytes


def node_limit(max_bytes: float) -> int:
    """The most nodes whose build fits in ``max_bytes`` (counting can stop there)."""
    return int(min(MAX_NODES, max(max_bytes, 0) // (BUILD_PEAK * NODE_BYTES)))


_UNITS = {"": 1, "B": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
_SIZE = re.compile(r"\s*(\d+(?:\.\d*)?|\.\d+)\s*([KMGT]?)(?:I?B)?\s*", re.IGNORECASE)
SIZE_HELP = "a size in bytes with an optional unit K, M, G or T (powers of 1024), e.g. 4G, 500M"


def parse_memory(text: str | float, what: str = "max-memory") -> int:
    """``"4G"``, ``"500M"``, ``"1.5GB"``, ``"1048576"`` -> bytes (GameError naming the value
    and the allowed form otherwise)."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        value = float(text)
    else:
        m = _SIZE.fullmatch(str(text)) if len(str(text)) < 40 else None
        if m is None:
            shown = str(text) if len(str(text)) < 40 else str(text)[:30] + "..."
            raise GameError(f"{what}={shown!r} is not a size; allowed: {SIZE_HELP}")
        value = float(m.group(1)) * _UNITS[m.group(2).upper()]
    if not math.isfinite(value) or value < 1:
        raise GameError(f"{what}={text} is outside the allowed range: at least 1 byte ("
                        f"{SIZE_HELP})")
    return int(value)


def format_bytes(n: float) -> str:
    """``1536`` -> ``"1.5 KiB"``."""
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(n) < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    raise AssertionError


def available_memory() -> int:
    """Bytes this process can still allocate: the kernel's MemAvailable, capped by a cgroup
    memory limit (containers); the physical memory if neither can be read."""
    avail = None
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    avail = int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    if avail is None:
        try:
            avail = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (ValueError, OSError, AttributeError):
            avail = 2**34  # unknown platform: assume 16 GiB
    try:
        with open("/sys/fs/cgroup/memory.max") as f:
            cap = f.read().strip()
        with open("/sys/fs/cgroup/memory.current") as f:
            used = int(f.read().strip())
        if cap != "max":
            avail = min(avail, max(int(cap) - used, 0))
    except (OSError, ValueError):
        pass
    return int(avail)


@dataclass(frozen=True)
class Limits:
    """``max_memory`` bytes (None: the available memory) and ``force`` (skip the check)."""

    max_memory: int | None = None
    force: bool = False


_LIMITS: contextvars.ContextVar[Limits] = contextvars.ContextVar("pokerdyn_limits",
                                                                 default=Limits())


def current_limits() -> Limits:
    """The limits set by the innermost :func:`resource_limits` (default: none set)."""
    return _LIMITS.get()


@contextlib.contextmanager
def resource_limits(max_memory: str | int | None = None, force: bool = False) -> Iterator[Limits]:
    """Within this context, games are built under ``max_memory`` (bytes or a size such as
    ``"4G"``; None: the available memory) unless ``force``."""
    limits = Limits(None if max_memory is None else parse_memory(max_memory), bool(force))
    token = _LIMITS.set(limits)
    try:
        yield limits
    finally:
        _LIMITS.reset(token)


def format_count(n: int) -> str:
    """A count for a message: in full below 10^12, else ``1.23e+15``, also past the float
    range (in integers: no OverflowError for any Python int)."""
    if n < 10**12:
        return f"{n:,}"
    if n < 10**300:
        return f"{n:.2e}"
    e = int((n.bit_length() - 1) * math.log10(2))  # the power of ten, or one less
    e += n >= 10**(e + 1)
    m = n // 10**(e - 2)  # three significant digits, truncated
    return f"{m // 100}.{m % 100:02d}e+{e}"


def check_size(spec: str, size: Callable[[int], GameSize | None],
               max_memory: str | int | None = None, force: bool | None = None) -> GameSize | None:
    """Refuse, before anything is built, a game whose build would not fit.

    ``size(limit)``: the game's :class:`GameSize` (counting may stop past ``limit`` nodes)
    or None when unknown.  ``max_memory``/``force``: as in :func:`resource_limits`, whose
    values they default to.  Raises GameError with one line giving the estimate and the
    limit; ``force`` skips the memory check but not the hard limit of MAX_NODES nodes."""
    ctx = current_limits()
    force = ctx.force if force is None else bool(force)
    if max_memory is None:
        limit, source = (ctx.max_memory, "--max-memory") if ctx.max_memory is not None else \
            (available_memory(), "the available memory")
    else:
        limit, source = parse_memory(max_memory), "--max-memory"
    cap = MAX_NODES if force else node_limit(limit)
    est = size(cap)
    if est is None:
        return None
    if est.exceeds and cap < MAX_NODES:  # a closer estimate for the message, if cheap
        est = size(min(MAX_NODES, 10 * cap + 10))
    nodes = f"more than {format_count(est.nodes - 1)}" if est.exceeds else \
        f"about {format_count(est.nodes)}"
    if est.nodes > MAX_NODES:
        raise GameError(f"game {spec} has {nodes} nodes, more than the allowed {MAX_NODES:,} "
                        "(int32 node indices; --force cannot override this)")
    if not force and est.needed > limit:
        need = f"more than {format_bytes(est.needed)}" if est.exceeds else \
            f"about {format_bytes(est.needed)}"
        raise GameError(f"game {spec} is too large: {nodes} nodes, {need} to build "
                        f"(estimate); the allowed memory limit is {format_bytes(limit)} "
                        f"({source}); set --max-memory SIZE (e.g. 64G) or --force to build "
                        "anyway")
    return est


__all__ = ["BUILD_PEAK", "GameSize", "Limits", "MAX_NODES", "NODE_BYTES", "available_memory",
           "check_size", "current_limits", "format_bytes", "node_limit", "parse_memory",
           "resource_limits"]
