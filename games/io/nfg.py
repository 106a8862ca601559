"""Gambit's strategic-form text format (.nfg): export of a reduced normal form and a reader.

``to_nfg(nf)`` writes the *outcome version*: a header ``NFG 1 R "title" { players }``, each
player's strategy names (the reduced plans, games.normal_form), one outcome per distinct
payoff vector, then the outcome number of every pure-strategy profile, player 1's strategy
changing fastest (Gambit's file-format documentation, "The strategic game (.nfg) file
format").  Payoffs are exact rationals (``-1/18``) where the normal form holds them, else
decimals.  ``read_nfg(text)`` reads both the outcome and the payoff version back, exactly.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import sympy as sp

from games.io.efg import _tokens
from games.normal_form import NormalForm
from games.tree import GameError


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
    players = " ".join(_q(f"Player {p + 1}") for p in range(nf.n_players))
    lines = [f"NFG 1 R {_q(title or nf.game.name)} {{ {players} }}", "", "{"]
    for p in range(nf.n_players):
        lines.append("{ " + " ".join(_q(s) for s in nf.plan_labels(p)) + " }")
    lines += ["}", _q(nf.game.description), "", "{"]
    outcome: dict[tuple[str, ...], int] = {}
    numbers = []
    for prof in _profiles(nf.shape):
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


def _nest(text: str) -> list:
    """The tokens with every ``{ ... }`` turned into a nested list."""
    stack: list[list] = [[]]
    for kind, v in _tokens(text):
        if (kind, v) == ("sym", "{"):
            stack.append([])
        elif (kind, v) == ("sym", "}"):
            if len(stack) == 1:
                raise GameError("nfg: unbalanced '}'")
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append((kind, v))
    if len(stack) != 1:
        raise GameError("nfg: unbalanced '{'")
    return stack[0]


def _text(item, kind: str, what: str) -> str:
    if not isinstance(item, tuple) or item[0] != kind:
        raise GameError(f"nfg: expected {what}, got {item!r}")
    return item[1]


def read_nfg(text: str) -> NfgGame:
    """Parse .nfg text (outcome or payoff version); GameError names what is malformed."""
    items = _nest(text)
    if [_text(x, "sym", "the header") for x in items[:3]] != ["NFG", "1", "R"]:
        raise GameError("nfg: the file does not start with 'NFG 1 R'")
    try:
        title = _text(items[3], "str", "the title")
        players = tuple(_text(x, "str", "a player name") for x in items[4])
        n = len(players)
        spec = items[5]
        if spec and isinstance(spec[0], list):       # outcome version: strategy names
            strategies = tuple(tuple(_text(x, "str", "a strategy name") for x in s)
                               for s in spec)
        else:                                        # payoff version: strategy counts
            strategies = tuple(tuple(str(i + 1) for i in range(int(_text(x, "sym", "a count"))))
                               for x in spec)
        rest = [x for x in items[6:] if not (isinstance(x, tuple) and x[0] == "str")][:2]
        shape = tuple(len(s) for s in strategies)
        total = int(np.prod(shape))
        if rest and isinstance(rest[0], list):        # outcomes, then one number per profile
            outcomes = [[sp.Rational(_text(v, "sym", "a payoff")) for v in o
                         if v[0] == "sym"] for o in rest[0]]
            numbers = [int(_text(x, "sym", "an outcome number")) for x in items[-total:]]
            flat = [outcomes[k - 1] if k else [sp.Integer(0)] * n for k in numbers]
        else:
            vals = [sp.Rational(_text(x, "sym", "a payoff")) for x in items[-total * n:]]
            flat = [vals[k * n:(k + 1) * n] for k in range(total)]
    except (IndexError, ValueError, TypeError) as exc:
        raise GameError(f"nfg: malformed file ({exc!r})") from None
    if len(flat) != total:
        raise GameError(f"nfg: {len(flat)} profiles given; the strategies make {total}")
    T = np.empty(shape + (n,), dtype=object)
    for prof, u in zip(_profiles(shape), flat):
        if len(u) != n:
            raise GameError(f"nfg: an outcome has {len(u)} payoffs; the game has {n} players")
        T[prof] = u
    return NfgGame(title, players, strategies, T)


__all__ = ["NfgGame", "read_nfg", "to_nfg"]
