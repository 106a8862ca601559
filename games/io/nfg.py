"""Gambit's strategic-form text format (.nfg): export of a reduced normal form and a reader.

``to_nfg(nf)`` writes the *outcome version*: a header ``NFG 1 R "title" { players }``, each
player's strategy names (the reduced plans, games.normal_form), one outcome per distinct
payoff vector, then the outcome number of every pure-strategy profile, player 1's strategy
changing fastest (Gambit's file-format documentation, "The strategic game (.nfg) file
format").  Payoffs are exact rationals (``-1/18``) where the normal form holds them, else
decimals.  ``read_nfg(text)`` reads both the outcome and the payoff version back, exactly.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import sympy as sp

from pokerdyn.games.io.efg import _Reader, normalize_labels
from pokerdyn.games.normal_form import NormalForm
from pokerdyn.games.tree import MAX_NODES, GameError


def _q(text: str) -> str:
    return '"' + text.replace('"', "'") + '"'


def _profiles(shape: tuple[int, ...]):
    """Plan profiles in Gambit's order: the first player's strategy changes fastest."""
    for rev in np.ndindex(*shape[::-1]):
        yield rev[::-1]


def to_nfg(nf: NormalForm, exact: bool | None = None, title: str | None = None) -> str:
    """The normal form as .nfg text (outcome version); ``exact`` (default: when the normal
    form holds exact payoffs) writes rationals, else decimals (``repr`` of the floats)."""
    exact = nf.exact_payoffs is not None if exact is None else exact
    if exact and nf.exact_payoffs is None:
        raise GameError("this normal form holds no exact payoffs (normal_form(..., exact=True))")
    T = nf.exact_payoffs if exact else nf.payoffs
    fmt = str if exact else (lambda x: repr(float(x)))
    players = tuple(f"Player {p + 1}" for p in range(nf.n_players))
    strategies = tuple(tuple(nf.plan_labels(p)) for p in range(nf.n_players))
    return _outcome_version(title or nf.game.name, players, strategies, T, fmt,
                            nf.game.description)


def write_nfg(game: "NfgGame") -> str:
    """A game read by :func:`read_nfg` as .nfg text again (outcome version, exact
    rationals): ``read_nfg(write_nfg(g))`` has the same players, strategies and payoffs."""
    return _outcome_version(game.title, game.players, game.strategies, game.payoffs, str, "")


def _outcome_version(title: str, players: tuple[str, ...], strategies: tuple[tuple[str, ...], ...],
                     T: np.ndarray, fmt, comment: str) -> str:
    """Gambit's outcome version: strategy names, one outcome per distinct payoff vector
    (``fmt`` writes a payoff), then the outcome number of every profile."""
    names = " ".join(_q(p) for p in players)
    lines = [f"NFG 1 R {_q(title)} {{ {names} }}", "", "{"]
    for labels in strategies:
        lines.append("{ " + " ".join(_q(s) for s in labels) + " }")
    lines += ["}", _q(comment), "", "{"]
    outcome: dict[tuple[str, ...], int] = {}
    numbers = []
    for prof in _profiles(T.shape[:-1]):
        key = tuple(fmt(x) for x in T[prof])
        if key not in outcome:
            outcome[key] = len(outcome) + 1
            lines.append(f'{{ "" {", ".join(key)} }}')
        numbers.append(outcome[key])
    lines.append("}")
    lines.append(" ".join(map(str, numbers)))
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class NfgGame:
    """What :func:`read_nfg` returns: title, player names, each player's strategy names
    and the payoff tensor ``(n_strategies_0, ..., n_players)`` of sympy Rationals."""
    title: str
    players: tuple[str, ...]
    strategies: tuple[tuple[str, ...], ...]
    payoffs: np.ndarray


# The payoff tensor has one axis per player and one for the payoff vector; numpy allows
# at most 64 axes.
MAX_NFG_PLAYERS = 63


def read_nfg(text: str) -> NfgGame:
    """Parse .nfg text exactly as Gambit 16 reads it (src/games/file.cc, ``ReadNfgFile``):
    ``NFG 1 R`` (or ``D``), title, players, strategies as name lists or counts, an optional
    comment, then either an outcome list and one outcome number per profile or one payoff
    per player and profile (player 1's strategy changing fastest); empty or repeated
    strategy names are made unique as Gambit does.  GameError ``nfg: line N: ...``
    names the line and what is wrong.  Numbers as in .efg files (games.io.efg.parse_number),
    payoffs within +-MAX_ABS_PAYOFF, outcome numbers in [0, number of outcomes] (0: the
    null outcome, payoffs 0)."""
    r = _Reader(text, "nfg")
    r.header(("NFG", "1", "R"), "Gambit's strategic-form format")
    title = r.take("the title (a quoted name)", "str")
    players = r.players(MAX_NFG_PLAYERS)
    n = len(players)
    at = r.pos
    if r.pos + 1 < r.n and r.toks[r.pos + 1] == ("sym", "{"):   # strategy names
        strategies = tuple(normalize_labels(s) for s in r.braced("the strategy lists",
                           lambda: r.names("a player's strategies", "a strategy name")))
        counts = [len(s) for s in strategies]
    else:                                                           # strategy counts
        counts = r.braced("the strategy counts",
                          lambda: r.integer("strategy count", 1, MAX_NODES))
        strategies = tuple(tuple(str(i + 1) for i in range(c)) for c in counts)
    if len(counts) != n:
        r.fail(f"{len(counts)} strategy lists for {n} players; one per player must be given",
               at)
    if 0 in counts:
        r.fail(f"player {counts.index(0) + 1} has no strategies; each needs at least one", at)
    if r.peek("str"):
        r.pos += 1  # the comment
    shape = tuple(counts)
    total = math.prod(shape)
    if r.peek("sym", "{"):  # Gambit's test: an outcome list, then outcome numbers
        outcomes = r.braced("the outcomes", lambda: _outcome(r, n))
        left = r.n - r.pos
        if total > left:  # checked before any list of that size is made
            r.fail(f"the strategies make {total} profiles but {left} outcome numbers follow; "
                   "one per profile must be given", r.n)
        flat = []
        for _ in range(total):
            k = r.integer("outcome", 0, len(outcomes))
            flat.append(outcomes[k - 1] if k else [sp.Integer(0)] * n)
    else:                   # a payoff list
        left = r.n - r.pos
        if total * n > left:
            r.fail(f"the strategies make {total} profiles, {total * n} payoffs, but {left} "
                   f"numbers follow; {n} payoffs per profile must be given", r.n)
        flat = [[r.payoff() for _ in range(n)] for _ in range(total)]
    r.end("the last profile")
    T = np.empty(shape + (n,), dtype=object)
    for prof, u in zip(_profiles(shape), flat):
        T[prof] = u
    return NfgGame(title, players, strategies, T)


def _outcome(r: _Reader, n: int) -> list[sp.Rational]:
    """One outcome ``{ "name" u1, u2, ... }``: an optional name, then ``n`` payoffs."""
    at = r.pos
    pays = r.braced("an outcome", r.payoff, name_first=True)
    if len(pays) != n:
        r.fail(f"an outcome has {len(pays)} payoffs; the game has {n} players, one payoff "
               "each must be given", at)
    return pays


__all__ = ["NfgGame", "read_nfg", "to_nfg", "write_nfg"]
