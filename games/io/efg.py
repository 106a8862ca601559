"""Gambit's extensive-form text format (.efg): export and a reader for the subset we write.

``to_efg(cg)`` writes a compiled game with decimal (float) numbers, which Gambit and OpenSpiel
(``pyspiel.load_efg_game``) read: lets other solvers cross-check ours on the same tree
(benchmarks/bench_cfr.py runs OpenSpiel's CFR+ on the river game this way).
``to_efg_exact(game, values)`` writes exact rationals (``1/24``, ``15/2``), so Gambit's exact
solvers see the very game pokerdyn solves symbolically.  ``read_efg(text)`` parses such a file
back (tests compare every terminal exactly with the tree).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping

import numpy as np
import sympy as sp

from games.compiled import CompiledGame
from games.exact_values import exact_value, exact_values
from games.tree import CHANCE, DECISION, Game, GameBuilder, GameError


def _q(text: str) -> str:
    return '"' + text.replace('"', "'") + '"'


def _write(game: Game, prob: Callable[[int], str], payoff: Callable[[int], str]) -> str:
    """EFG text of ``game``'s tree: nodes in depth-first preorder, information sets numbered
    per player from 1, one outcome per terminal; ``prob(node)`` and ``payoff(terminal)``
    format the numbers."""
    parent, edge = np.asarray(game.parent), np.asarray(game.edge)
    n = len(parent)
    order = np.argsort(parent, kind="stable")
    starts = np.searchsorted(parent[order], np.arange(n))
    ends = np.searchsorted(parent[order], np.arange(n), side="right")
    local, counts = {}, [0] * game.n_players
    for I, info in enumerate(game.infosets):
        counts[info.player] += 1
        local[I] = counts[info.player]
    term = np.full(n, -1, dtype=np.int64)
    term[np.asarray(game.terminal_node)] = np.arange(len(game.terminal_node))
    players = " ".join(_q(f"Player {p + 1}") for p in range(game.n_players))
    lines = [f"EFG 2 R {_q(game.name)} {{ {players} }}", _q(game.description)]
    stack, chance_no = [0], 0
    while stack:
        i = stack.pop()
        kids = order[starts[i]:ends[i]]
        kids = kids[np.argsort(edge[kids], kind="stable")]
        if game.kind[i] == CHANCE:
            chance_no += 1
            outs = " ".join(f"{_q(game.edge_label[k])} {prob(int(k))}" for k in kids)
            lines.append(f'c "" {chance_no} "" {{ {outs} }} 0')
        elif game.kind[i] == DECISION:
            I = int(game.infoset[i])
            info = game.infosets[I]
            acts = " ".join(_q(a) for a in info.actions)
            lines.append(f'p "" {int(game.player[i]) + 1} {local[I]} {_q(info.label)} '
                         f'{{ {acts} }} 0')
        else:
            t = int(term[i])
            lines.append(f't "" {t + 1} "" {{ {payoff(t)} }}')
        stack.extend(int(k) for k in kids[::-1])
    return "\n".join(lines) + "\n"


def to_efg(cg: CompiledGame) -> str:
    """The compiled game as EFG text with decimal (float) probabilities and payoffs."""
    return _write(cg.game, lambda k: repr(float(cg.chance_prob[k])),
                  lambda t: ", ".join(repr(float(x)) for x in cg.payoffs[t]))


def to_efg_exact(game: Game, values: Mapping[str, Any] | None = None) -> str:
    """The game as EFG text with exact rational probabilities and payoffs.

    ``values`` gives every game parameter exactly (``{"P": "15/2"}``, ``{"P": 9}``); a game
    parameter left symbolic raises GameError naming it.
    """
    subs = exact_values(game, values or {})

    def prob(k: int) -> str:
        return str(exact_value(game, game.edge_prob[k], subs))

    def payoff(t: int) -> str:
        return ", ".join(str(exact_value(game, u, subs)) for u in game.payoffs[t])

    return _write(game, prob, payoff)


@dataclass(frozen=True)
class EfgTerminal:
    """One terminal of a read-back .efg: the labels on its path (chance outcomes and actions),
    the product of the chance probabilities, the moves ``(player, infoset name, action)``
    (players 1-based) and the payoff vector, all exact."""
    path: tuple[str, ...]
    chance: sp.Rational
    moves: tuple[tuple[int, str, str], ...]
    payoffs: tuple[sp.Rational, ...]


@dataclass(frozen=True)
class EfgTree:
    """What :func:`read_efg` returns: the title, the player names, every terminal in
    preorder, and each information set ``(player, number) -> (name, actions)``."""
    title: str
    players: tuple[str, ...]
    terminals: tuple[EfgTerminal, ...]
    infosets: dict[tuple[int, int], tuple[str, tuple[str, ...]]]

    def expected_payoffs(self, behaviour: Mapping[str, Mapping[str, Any]]) -> tuple[sp.Expr, ...]:
        """Expected payoff vector under ``behaviour``: infoset name -> action -> probability
        (exact when the probabilities are); single-action information sets may be left out."""
        total = [sp.Integer(0)] * len(self.players)
        for term in self.terminals:
            w = term.chance
            for _, name, action in term.moves:
                probs = behaviour.get(name)
                w = w * (sp.Integer(1) if probs is None else sp.sympify(probs[action]))
            for p, u in enumerate(term.payoffs):
                total[p] += w * u
        return tuple(sp.expand(x) for x in total)


_TOKEN = re.compile(r'"((?:[^"\\]|\\.)*)"|([{}])|([^\s{},"]+)')


def _tokens(text: str) -> list[tuple[str, str]]:
    out = []
    for m in _TOKEN.finditer(text):
        if m.group(1) is not None:
            out.append(("str", m.group(1)))
        else:
            out.append(("sym", m.group(2) or m.group(3)))
    return out


def read_efg(text: str) -> EfgTree:
    """The terminals and information sets of a .efg file's text (see :func:`_parse`)."""
    return _parse(text)[0]


def game_from_efg(text: str, name: str = "efg") -> Game:
    """The :class:`Game` of a .efg file's text: the same tree, chance probabilities and
    payoffs (exact rationals); information sets keep their names where these are pokerdyn
    labels (``P<player>:...``), else become ``P<player>:<name>|`` (the set's number where it
    has no name).  GameError names what is malformed."""
    return _parse(text, name)[1].build(description=f"read from .efg ({name})")


def _parse(text: str, name: str = "efg") -> tuple[EfgTree, GameBuilder]:
    """Parse the .efg subset that :func:`to_efg` / :func:`to_efg_exact` write (and Gambit
    writes for such trees): an ``EFG 2 R`` header, chance nodes with labelled outcomes and
    probabilities, personal nodes with information-set numbers and action labels (the action
    list may be omitted on a repeated set), terminals with payoff vectors (or a repeated
    outcome number).  Numbers are read exactly (``1/24``, ``0.5``, ``1e-3``)."""
    toks = _tokens(text)
    pos = 0

    def take(kind: str | None = None) -> str:
        nonlocal pos
        if pos >= len(toks):
            raise GameError("efg: unexpected end of file")
        k, v = toks[pos]
        if kind is not None and k != kind:
            raise GameError(f"efg: expected a {kind} at token {pos}, got {v!r}")
        pos += 1
        return v

    def braced(read_item: Callable[[], Any]) -> list:
        nonlocal pos
        if take("sym") != "{":
            raise GameError(f"efg: expected '{{' at token {pos - 1}")
        items = []
        while toks[pos] != ("sym", "}"):
            items.append(read_item())
        pos += 1
        return items

    if not toks or take() != "EFG" or take() != "2" or take() != "R":
        raise GameError("efg: the file does not start with 'EFG 2 R'")
    title = take("str")
    players = tuple(braced(lambda: take("str")))
    if pos < len(toks) and toks[pos][0] == "str":
        take("str")  # comment
    infosets: dict[tuple[int, int], tuple[str, tuple[str, ...]]] = {}
    chance_sets: dict[int, list[tuple[str, sp.Rational]]] = {}
    outcomes: dict[int, tuple[sp.Rational, ...]] = {}
    terminals: list[EfgTerminal] = []

    def number() -> sp.Rational:
        return sp.Rational(take("sym"))

    def outcome() -> tuple[sp.Rational, ...]:
        no = int(take("sym"))
        if pos < len(toks) and toks[pos][0] == "str":
            take("str")
        if pos < len(toks) and toks[pos] == ("sym", "{"):
            outcomes[no] = tuple(braced(number))
        if no and no not in outcomes:
            raise GameError(f"efg: outcome {no} used before its payoffs are given")
        return outcomes.get(no, ())

    builder = GameBuilder(name, len(players))

    def node(path: tuple, chance: sp.Rational, moves: tuple, parent: int | None = None,
             prob: sp.Rational | None = None) -> None:
        via = path[-1] if path else None
        kind = take("sym")
        take("str")  # node name
        if kind == "t":
            pays = outcome()
            terminals.append(EfgTerminal(path, chance, moves, pays))
            builder.terminal(pays or (sp.Integer(0),) * len(players), parent, via, prob)
            return
        if kind == "c":
            no = int(take("sym"))
            take("str")
            if toks[pos] == ("sym", "{"):
                chance_sets[no] = [(lbl, p) for lbl, p in
                                   zip(*[iter(braced(lambda: take("str") if toks[pos][0] == "str"
                                                     else number()))] * 2)]
            if outcome():
                raise GameError("efg: payoffs at non-terminal nodes are not supported")
            here = builder.chance(parent, via, prob)
            for lbl, p in chance_sets[no]:
                node(path + (lbl,), chance * p, moves, here, p)
            return
        if kind != "p":
            raise GameError(f"efg: unknown node type {kind!r}")
        player, no = int(take("sym")), int(take("sym"))
        name = take("str")
        if toks[pos] == ("sym", "{"):
            infosets[(player, no)] = (name, tuple(braced(lambda: take("str"))))
        if outcome():
            raise GameError("efg: payoffs at non-terminal nodes are not supported")
        if (player, no) not in infosets:
            raise GameError(f"efg: information set {no} of player {player} has no actions")
        iname, acts = infosets[(player, no)]
        if not 1 <= player <= len(players):
            raise GameError(f"efg: player {player} at information set {iname!r} is outside "
                            f"1..{len(players)}")
        label = iname if iname.startswith(f"P{player}:") else f"P{player}:{iname or no}|"
        here = builder.decision(player - 1, label, acts, parent, via, prob)
        for a in acts:
            node(path + (a,), chance, moves + ((player, iname, a),), here)

    try:
        node((), sp.Integer(1), ())
    except GameError:
        raise
    except (IndexError, KeyError, ValueError, TypeError) as exc:
        raise GameError(f"efg: malformed file near token {pos} ({exc!r})") from None
    if pos != len(toks):
        raise GameError(f"efg: unexpected text after the tree at token {pos}: {toks[pos][1]!r}")
    return EfgTree(title, players, tuple(terminals), infosets), builder


__all__ = ["EfgTerminal", "EfgTree", "game_from_efg", "read_efg", "to_efg", "to_efg_exact"]
