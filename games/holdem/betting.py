"""Rounds of a hold'em-style game and their public betting trees.

A :class:`Round` posts antes, deals hole cards (to every seat) and shared cards, then runs
one betting round in one of two styles:

``"orbits"`` (Mercer's rules, exactly as ``PokerGame.buildActionNode`` of the paper's Java
    code): up to ``max_bets`` orbits; in each orbit every active player acts once, starting
    from the first active seat at or after ``first`` (seat 0 in the paper).  A bet amount
    ``b`` from ``bets`` (then 0 when ``check``; listed in that order, as the Java code adds
    the check last) is allowed when ``contrib + b >= max contrib``; in the last orbit a
    player whose "previous player" acts before him may only match exactly.  Fold is always
    allowed and listed last.  The orbits always run to ``max_bets`` (no early end when all
    checked).  The Java "previous player" is the seat just before, or the player himself when
    that seat has folded (``prevPlayer``'s loop runs ``i--``), so in the last orbit a player
    whose predecessor seat folded may still raise; we keep this quirk (it only matters with
    3+ players and ``check=True``); ``java_prev=False`` gives the intended rule (only the
    first active player of the orbit may raise in the last orbit).
``"limit"`` (OpenSpiel's ``leduc_poker``): fold (only when facing a bet), call/check, raise
    by ``bets[0]`` while fewer than ``raise_cap`` raises were made this round, in that
    action order; the round ends when every active player has called since the last raise
    (``ReadyForNextRound``); the first actor is the first active seat at or after ``first``.

Betting never depends on cards, so :func:`betting_template` enumerates one round's public
tree once per (round, active set, contributions) and the builder tiles it over card deals.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from numbers import Rational

from pokerdyn.games.errors import GameError

STYLES = ("orbits", "limit")


def _number(x, what: str):
    if isinstance(x, bool) or not isinstance(x, (int, float, Rational)):
        raise GameError(f"{what}={x!r} is not a number")
    return Fraction(x) if not isinstance(x, float) else Fraction(x).limit_denominator(10**6)


@dataclass(frozen=True)
class Round:
    """One round: antes of active players, ``hole_cards`` to every seat, ``shared_cards``
    on the board, then betting (none when ``bets`` is empty and ``check`` False)."""

    ante: object = 0
    hole_cards: int = 0
    shared_cards: int = 0
    bets: tuple = (4,)
    check: bool = False
    max_bets: int = 1
    style: str = "orbits"
    raise_cap: int | None = None
    first: int = 0
    java_prev: bool = True

    def __post_init__(self):
        object.__setattr__(self, "bets", tuple(self.bets))
        if _number(self.ante, "ante") < 0:
            raise GameError(f"ante={self.ante!r} is outside [0, inf)")
        for what in ("hole_cards", "shared_cards", "first"):
            v = getattr(self, what)
            if not isinstance(v, int) or v < 0:
                raise GameError(f"{what}={v!r} is outside [0, inf)")
        for b in self.bets:
            if _number(b, "bet") <= 0:
                raise GameError(f"bet {b!r} is outside (0, inf) (use check=True for a 0 bet)")
        if self.style not in STYLES:
            raise GameError(f"betting style {self.style!r} is not one of {', '.join(STYLES)}")
        if self.has_betting:
            if not isinstance(self.max_bets, int) or self.max_bets < 1:
                raise GameError(f"max_bets={self.max_bets!r} is outside [1, inf) for a round "
                                "with bets")
            if self.style == "limit":
                if len(self.bets) != 1:
                    raise GameError(f"a limit round has one raise size, got bets={self.bets}")
                cap = self.cap
                if not isinstance(cap, int) or cap < 0:
                    raise GameError(f"raise_cap={cap!r} is outside [0, inf)")

    @property
    def has_betting(self) -> bool:
        return bool(self.bets) or bool(self.check)

    @property
    def cap(self) -> int:
        return self.max_bets if self.raise_cap is None else self.raise_cap

    @property
    def amounts(self) -> tuple[Fraction, ...]:
        """Bet amounts in the Java order: the bets, then 0 when checking is allowed."""
        return tuple(_number(b, "bet") for b in self.bets) + ((Fraction(0),) if self.check else ())


@dataclass(frozen=True)
class Template:
    """One round's public betting tree.  ``nodes[i] = (parent, edge, player, actions,
    history)`` (parent -1: the round's entry); ``exits[k] = (parent, edge, active, contrib,
    history)``: where the round ends (one player left, or betting over)."""

    nodes: tuple
    exits: tuple


def _next_active(active, p):
    n = len(active)
    for i in range(1, n + 1):
        q = (p + i) % n
        if active[q]:
            return q
    raise AssertionError("no active player")


def _prev_active(active, p):
    n = len(active)
    return next(q for q in ((p - i) % n for i in range(1, n + 1)) if active[q])


class TooManyNodes(Exception):
    """A public tree outgrew the ``limit`` given to :func:`betting_template` (the resource
    guard's count stops there instead of enumerating an exponential tree)."""


def _grow(nodes, exits, limit):
    if limit is not None and len(nodes) + len(exits) > limit:
        raise TooManyNodes


def _orbits(rnd: Round, active, contrib, nodes, exits, limit=None):
    n = len(active)
    amounts = rnd.amounts
    first = rnd.first % n

    def rel(p):
        return (p - first) % n

    def rec(parent, edge, player, orbit, active, contrib, hist):
        _grow(nodes, exits, limit)
        if sum(active) == 1 or orbit >= rnd.max_bets:
            exits.append((parent, edge, active, contrib, hist))
            return
        nxt = _next_active(active, player)
        prev = (player - 1) % n
        if rnd.java_prev:
            prev = prev if active[prev] else player  # Java's prevPlayer (see module doc)
        else:
            prev = _prev_active(active, player)
        next_orbit = orbit if rel(nxt) > rel(player) else orbit + 1
        no_raises = orbit + 1 == rnd.max_bets and rel(prev) < rel(player)
        top = max(contrib)
        opts = []
        for b in amounts:
            c = contrib[player] + b
            if c >= top and (not no_raises or c == top):
                lab = "k" if b == 0 else "c" if c == top else "b" if len(rnd.bets) == 1 else f"b{b}"
                opts.append((lab, b))
        me = len(nodes)
        nodes.append((parent, edge, player, tuple(o[0] for o in opts) + ("f",), hist))
        for e, (lab, b) in enumerate(opts):
            c2 = list(contrib)
            c2[player] += b
            rec(me, e, nxt, next_orbit, active, tuple(c2), hist + (lab,))
        a2 = list(active)
        a2[player] = False
        rec(me, len(opts), nxt, next_orbit, tuple(a2), contrib, hist + ("f",))

    rec(-1, -1, _next_active(active, (first - 1) % n), 0, active, contrib, ())


def _limit(rnd: Round, active, contrib, nodes, exits, limit=None):
    n = len(active)
    size = rnd.amounts[0]

    def rec(parent, edge, player, active, contrib, stakes, raises, calls, hist):
        _grow(nodes, exits, limit)
        me = len(nodes)
        acts = (("f",) if stakes > contrib[player] else ()) + ("c",) + \
            (("r",) if raises < rnd.cap else ())
        nodes.append((parent, edge, player, acts, hist))
        rem = sum(active)
        for e, a in enumerate(acts):
            act, con, st, ra, ca, r2 = list(active), list(contrib), stakes, raises, calls, rem
            if a == "f":
                act[player] = False
                r2 -= 1
            elif a == "c":
                con[player] = stakes
                ca += 1
            else:
                st = stakes + size
                con[player] = st
                ra, ca = ra + 1, 0
            act, con = tuple(act), tuple(con)
            ready = (ra == 0 and ca == r2) or (ra > 0 and ca == r2 - 1)
            if r2 == 1 or (a != "r" and ready):
                exits.append((me, e, act, con, hist + (a,)))
            else:
                rec(me, e, _next_active(act, player), act, con, st, ra, ca, hist + (a,))

    rec(-1, -1, _next_active(active, (rnd.first - 1) % n), active, contrib, max(contrib), 0, 0, ())


@lru_cache(maxsize=None)
def betting_template(rnd: Round, active: tuple[bool, ...], contrib: tuple,
                     limit: int | None = None) -> Template:
    """The public betting tree of ``rnd`` entered with ``active`` seats and ``contrib``
    (antes of this round included); a round without betting is a single exit.
    ``limit``: raise :class:`TooManyNodes` once it has more nodes and exits than this (many
    orbits of several players make it exponential)."""
    nodes: list = []
    exits: list = []
    if not rnd.has_betting or sum(active) < 2:
        exits.append((-1, -1, active, contrib, ()))
    elif rnd.style == "orbits":
        _orbits(rnd, active, contrib, nodes, exits, limit)
    else:
        _limit(rnd, active, contrib, nodes, exits, limit)
    return Template(tuple(nodes), tuple(exits))


__all__ = ["Round", "STYLES", "Template", "TooManyNodes", "betting_template"]
