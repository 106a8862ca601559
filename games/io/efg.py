"""Gambit's extensive-form text format (.efg): export, and a reader of the whole format.

``to_efg(cg)`` writes a compiled game with decimal (float) numbers, which Gambit and OpenSpiel
(``pyspiel.load_efg_game``) read: lets other solvers cross-check ours on the same tree
(benchmarks/bench_cfr.py runs OpenSpiel's CFR+ on the river game this way).
``to_efg_exact(game, values)`` writes exact rationals (``1/24``, ``15/2``), so Gambit's exact
solvers see the very game pokerdyn solves symbolically.  ``game_from_efg(text)`` and
``read_efg(text)`` read any .efg file as Gambit 16 does (src/games/file.cc): information sets
keyed by player and number, outcomes on any node summed along the path, numbers exact; only
what the core cannot represent (imperfect recall) is refused (tests/test_gambit_grammar.py
compares with pygambit).
"""
from __future__ import annotations

import functools
import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Mapping, NoReturn, Sequence

import numpy as np
import sympy as sp

from pokerdyn.games.compiled import MAX_ABS_PAYOFF, CompiledGame
from pokerdyn.games.exact_values import exact_value, exact_values
from pokerdyn.games.tree import (CHANCE, DECISION, MAX_ACTIONS, MAX_NODES, MAX_PLAYERS, Game,
                        GameBuilder, GameError)


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


_TOKEN = re.compile(r'("(?:[^"\\]|\\.)*")|([{}])|([^\s{},"]+)|(")')

# Numbers in .efg/.nfg files are read exactly; these bounds keep that cheap (a payoff
# written 1e999999999 must not build a billion-digit integer) and are far beyond any game's.
MAX_NUMBER_CHARS = 1000      # characters of one number token
MAX_EXPONENT = 1000          # |decimal exponent| of a number's value
_DECIMAL = re.compile(r"([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?")
_FRACTION = re.compile(r"([+-]?\d+)/(\d+)")
_INTEGER = re.compile(r"[+-]?\d{1,18}")


def _show(v: str, kind: str = "sym") -> str:
    """A token as written, shortened for a one-line message."""
    v = " ".join(v.split())
    v = v if len(v) <= 40 else v[:37] + "..."
    return f'"{v}"' if kind == "str" else repr(v)


def _lex(text: str, fmt: str) -> list[tuple[str, str]]:
    """The tokens of a Gambit file, ``(kind, value)``: kind ``str`` (a quoted name, without
    the quotes) or ``sym`` (a brace or a bare word or number).  Commas separate like white
    space.  GameError (``<fmt>: line N: ...``) for a quote that is never closed.  Line
    numbers are found again only for a message (:func:`_line_of`): lexing stays one
    ``findall``."""
    found = _TOKEN.findall(text)
    out = [("str", _unescape(q[1:-1])) if q else ("sym", b or w) for q, b, w, _ in found]
    stray = next((i for i, t in enumerate(found) if t[3]), None) if '"' in text else None
    if stray is not None:
        raise GameError(f"{fmt}: line {_line_of(text, stray)}: unbalanced '\"' (a name opened "
                        "here or before is never closed); names must be quoted on both ends")
    return out


def _unescape(name: str) -> str:
    """A quoted name's text: ``\\"`` stands for a quote (Gambit's lexer); other
    backslashes stay as written."""
    return name.replace('\\"', '"') if "\\" in name else name


def _line_of(text: str, index: int) -> int:
    """The line (from 1) where token ``index`` of :func:`_lex` starts; the last token's
    line past the end."""
    start = 0
    for i, m in enumerate(_TOKEN.finditer(text)):
        start = m.start()
        if i == index:
            break
    return text.count("\n", 0, start) + 1


@functools.lru_cache(maxsize=4096)  # files repeat their numbers (payoffs 1, -1, 1/6 ...)
def parse_number(text: str) -> sp.Rational:
    """An exact number of a Gambit file: an integer, a decimal (``-0.5``, ``1e-3``) or a
    fraction (``1/24``).  GameError (no line; the readers add it) for anything else, for a
    token longer than MAX_NUMBER_CHARS and for a value beyond 10**±MAX_EXPONENT: the
    exponent is checked before any exact arithmetic."""
    allowed = "allowed: integers, decimals (0.5, 1e-3) and fractions (1/24)"
    if len(text) > MAX_NUMBER_CHARS:
        raise GameError(f"number {_show(text)} has {len(text)} characters; allowed: at most "
                        f"{MAX_NUMBER_CHARS}")
    if _INTEGER.fullmatch(text):
        return sp.Integer(int(text))
    m = _FRACTION.fullmatch(text)
    if m:
        den = int(m.group(2))
        if den == 0:
            raise GameError(f"{_show(text)} is not a number (denominator 0); {allowed}")
        return sp.Rational(int(m.group(1)), den)
    m = _DECIMAL.fullmatch(text)
    if not m or not (m.group(2) or m.group(3)):
        raise GameError(f"{_show(text)} is not a number; {allowed}")
    sign, whole, frac, exp = m.group(1), m.group(2), m.group(3) or "", m.group(4)
    digits = (whole + frac).lstrip("0")
    if not digits:
        return sp.Integer(0)
    e = int(exp) if exp and len(exp) <= 8 else (0 if not exp else None)
    top = None if e is None else e - len(frac) + len(digits) - 1  # value ~ 10**top
    if top is None or not -MAX_EXPONENT <= top <= MAX_EXPONENT:
        raise GameError(f"number {_show(text)} is outside the allowed range: magnitudes "
                        f"from 1e-{MAX_EXPONENT} to 1e{MAX_EXPONENT}")
    k = e - len(frac)
    num = int(sign + digits)
    return sp.Rational(num * 10 ** k) if k >= 0 else sp.Rational(num, 10 ** -k)


_PAYOFF_BOUND = sp.Integer(10) ** round(math.log10(MAX_ABS_PAYOFF))


@functools.lru_cache(maxsize=4096)
def parse_payoff(text: str) -> sp.Rational:
    """A payoff: :func:`parse_number` within +-MAX_ABS_PAYOFF (games.compiled), else
    GameError with the allowed range (larger payoffs overflow the float solvers)."""
    x = parse_number(text)
    if abs(x) > _PAYOFF_BOUND:
        raise GameError(f"payoff {_show(text)} is outside the allowed range "
                        f"[-{MAX_ABS_PAYOFF:g}, {MAX_ABS_PAYOFF:g}] (rescale the payoffs)")
    return x


class _Reader:
    """A cursor over the tokens of a Gambit file (.efg or .nfg, ``fmt``) whose every error
    is one GameError line ``<fmt>: line N: <what is wrong and what is allowed>``."""

    def __init__(self, text: str, fmt: str):
        self.fmt = fmt
        self.text = text
        self.toks = _lex(text, fmt)
        self.n = len(self.toks)
        self.pos = 0

    def fail(self, what: str, at: int | None = None) -> NoReturn:
        """GameError naming the line of token ``at`` (default: the current one)."""
        at = self.pos if at is None else at
        line = _line_of(self.text, min(at, self.n - 1))
        raise GameError(f"{self.fmt}: line {line}: {what}")

    def peek(self, kind: str, value: str | None = None) -> bool:
        """Whether the next token is of ``kind`` (and ``value``)."""
        if self.pos >= self.n:
            return False
        k, v = self.toks[self.pos]
        return k == kind and (value is None or v == value)

    def take(self, what: str, kind: str | None = None) -> str:
        """The next token's value; ``what`` names it in messages ("the title")."""
        if self.pos >= self.n:
            self.fail(f"unexpected end of file: {what} must follow")
        k, v = self.toks[self.pos]
        if kind is not None and k != kind:
            self.fail(f"{_show(v, k)} found where {what} must be")
        self.pos += 1
        return v

    def header(self, words: tuple[str, ...], what: str) -> None:
        """The file's first words (``EFG 2 R``); the last may also be ``D`` (Gambit's
        "floating-point" flag: the numbers are read exactly all the same)."""
        got = tuple(v for k, v in self.toks[:len(words)] if k == "sym")
        if got[:-1] != words[:-1] or got[-1:] not in ((words[-1],), ("D",)):
            self.fail(f"the file must start with '{' '.join(words)}' or "
                      f"'{' '.join(words[:-1] + ('D',))}' ({what})", 0)
        self.pos = len(words)

    def braced(self, what: str, read_item: Callable[[], Any], name_first: bool = False) -> list:
        """Items read by ``read_item`` up to the closing brace; ``what``: the list;
        ``name_first``: a quoted name may come first (skipped)."""
        at = self.pos
        if self.take(f"'{{' opening {what}", "sym") != "{":
            self.fail(f"{_show(self.toks[at][1])} found where '{{' opening {what} must be", at)
        if name_first and self.peek("str"):
            self.pos += 1
        items = []
        while not self.peek("sym", "}"):
            if self.pos >= self.n:
                self.fail(f"unexpected end of file: {what} must end with '}}'")
            items.append(read_item())
        self.pos += 1
        return items

    def integer(self, what: str, low: int, high: int) -> int:
        """An integer token in [low, high]; ``what``: its name ("player", "outcome")."""
        v = self.take(f"the {what} number", "sym")
        if not _INTEGER.fullmatch(v) or not low <= int(v) <= high:
            self.fail(f"{what} {_show(v)[1:-1]} is outside the allowed range: integers in "
                      f"[{low}, {high}]", self.pos - 1)
        return int(v)

    def number(self, what: str) -> sp.Rational:
        """An exact number (:func:`parse_number`); ``what`` names it."""
        v = self.take(what, "sym")
        try:
            return parse_number(v)
        except GameError as exc:
            self.fail(f"{what}: {exc}", self.pos - 1)

    def payoff(self) -> sp.Rational:
        """A payoff: an exact number within +-MAX_ABS_PAYOFF (:func:`parse_payoff`)."""
        v = self.take("a payoff", "sym")
        try:
            return parse_payoff(v)
        except GameError as exc:
            self.fail(str(exc), self.pos - 1)

    def names(self, what: str, item: str) -> tuple[str, ...]:
        """A braced list of quoted names."""
        return tuple(self.braced(what, lambda: self.take(f"{item} (a quoted name)", "str")))

    def players(self, limit: int) -> tuple[str, ...]:
        """The header's braced list of player names, 1 to ``limit`` of them."""
        players = self.names("the list of player names", "a player name")
        if not 1 <= len(players) <= limit:
            self.fail(f"the file lists {len(players)} players; allowed: 1 to {limit}",
                      self.pos - 1)
        return players

    def end(self, what: str) -> None:
        """The file must end here."""
        if self.pos != self.n:
            k, v = self.toks[self.pos]
            self.fail(f"{_show(v, k)} found after {what}; the file must end there")


def read_efg(text: str) -> EfgTree:
    """The terminals and information sets of a .efg file's text (see :func:`_parse`)."""
    return _parse(text, want_tree=True)[0]


def game_from_efg(text: str, name: str = "efg") -> Game:
    """The :class:`Game` of a .efg file's text: the same tree, chance probabilities and
    payoffs (exact rationals); information sets keep their names where these are pokerdyn
    labels (``P<player>:...``), else become ``P<player>:<name>|`` (the set's number where it
    has no name; a name that another set of the player has already taken gets
    ``#<number>`` appended).  GameError names the line and what is malformed."""
    return _parse(text, name)[1]


def _parse(text: str, name: str = "efg",
           want_tree: bool = False) -> tuple[EfgTree | None, Game | None]:
    """Parse a .efg file as Gambit 16 reads it (src/games/file.cc, ``ReadEfgFile``): an
    ``EFG 2 R`` (or ``D``) header, a title, the player names and an optional comment, then
    the nodes in preorder:

    - ``c "node" SET ["set name" { "outcome" prob ... }] OUTCOME``: chance
    - ``p "node" PLAYER SET ["set name" { "action" ... }] OUTCOME``: personal
    - ``t "node" OUTCOME``: terminal

    where OUTCOME is ``0`` (none), ``K "name" { u1, u2, ... }`` (outcome K defined here) or
    ``K`` (outcome K as defined before).  An information set is identified by its player
    and number (chance sets by number); its name and list, given at its first node, may be
    left out at the others.  Outcomes may sit on any node: a terminal's payoffs are the sum
    of the outcomes on its path, as in Gambit.  Empty or repeated action labels are made
    unique as Gambit does (``_1``, ``_2``).  Numbers are read exactly (``1/24``, ``0.1`` is
    1/10, ``1e-3``), payoffs within +-MAX_ABS_PAYOFF.  Refused: what the core cannot
    represent (imperfect recall, chance probabilities that do not sum to 1) and malformed
    text, each one GameError ``efg: line N: ...``.  The tree is read with an explicit stack,
    so any depth works; the :class:`EfgTree` (paths and moves of every terminal) is built
    only with ``want_tree``, and then instead of the frozen :class:`Game`."""
    r = _Reader(text, "efg")
    r.header(("EFG", "2", "R"), "Gambit's extensive-form format")
    title = r.take("the title (a quoted name)", "str")
    players = r.players(MAX_PLAYERS)
    n = len(players)
    if r.peek("str"):
        r.pos += 1  # the comment
    infosets: dict[tuple[int, int], tuple[str, tuple[str, ...]]] = {}
    labels: dict[tuple[int, int], str] = {}
    used_labels: set[str] = set()
    chance_sets: dict[int, list[tuple[str, sp.Rational]]] = {}
    outcomes: dict[int, tuple[sp.Rational, ...]] = {}
    terminals: list[EfgTerminal] = []
    zeros = (sp.Integer(0),) * n
    builder = GameBuilder(name, n)
    node_token: list[int] = []  # per node, the index of its first token

    def outcome() -> tuple[sp.Rational, ...]:
        """A node's outcome: its payoffs, () for outcome 0."""
        at = r.pos
        no = r.integer("outcome", 0, MAX_NODES)
        named = r.peek("str")
        if named:
            r.pos += 1  # the outcome's name
        if r.peek("sym", "{"):
            pays = tuple(r.braced(f"the payoffs of outcome {no}", r.payoff))
            if no == 0:
                r.fail("outcome 0 means no outcome and takes no payoffs; allowed: outcome "
                       "numbers from 1", at)
            if pays and len(pays) != n:
                r.fail(f"outcome {no} has {len(pays)} payoffs; the game has {n} players, one "
                       "payoff each must be given", at)
            pays = pays or zeros
            if no in outcomes and outcomes[no] != pays:
                r.fail(f"outcome {no} is given the payoffs {_pays(pays)} here and "
                       f"{_pays(outcomes[no])} before; an outcome's payoffs must be the same",
                       at)
            outcomes[no] = pays
        elif named and no == 0:
            r.fail("outcome 0 means no outcome and takes no name; allowed: outcome numbers "
                   "from 1", at)
        if no and no not in outcomes:
            r.fail(f"outcome {no} is used before its payoffs are given; its first use must "
                   "list them", at)
        return outcomes.get(no, ())

    def accumulate(acc: tuple | None, at: int) -> tuple | None:
        """The payoffs of the path so far plus this node's outcome (None: none yet)."""
        own = outcome()
        if not own:
            return acc
        if acc is None:
            return own
        total = tuple(a + b for a, b in zip(acc, own))
        if any(abs(x) > _PAYOFF_BOUND for x in total):
            r.fail(f"the payoffs on the path to this node add up to {_pays(total)}, outside "
                   f"the allowed range [-{MAX_ABS_PAYOFF:g}, {MAX_ABS_PAYOFF:g}] (rescale "
                   "the payoffs)", at)
        return total

    def add(make: Callable[[], int], at: int) -> int:
        """``make()``, the builder's call adding the node of token ``at``."""
        try:
            node_id = make()
        except GameError as exc:
            r.fail(str(exc), at)
        node_token.append(at)
        return node_id

    # each pending slot: (parent node, edge label, chance probability, path, chance reach,
    # moves, payoffs so far); path and moves are linked (head, rest) pairs, built only with
    # want_tree
    stack: list[tuple] = [(None, None, None, None, sp.Integer(1), None, None)]
    while stack:
        parent, via, prob, path, reach, moves, acc = stack.pop()
        at = r.pos
        kind = r.take("a node ('c', 'p' or 't')", "sym")
        if kind not in ("c", "p", "t"):
            r.fail(f"unknown node type {_show(kind)}; allowed: c (chance), p (personal), "
                   "t (terminal)", at)
        r.take(f"the name of the node ({kind!r}, a quoted name)", "str")
        if kind == "t":
            pays = accumulate(acc, at) or zeros
            if want_tree:
                terminals.append(EfgTerminal(_unlink(path), reach, _unlink(moves), pays))
            add(lambda: builder.terminal(pays, parent, via, prob), at)
            continue
        if kind == "c":
            no = r.integer("chance information set", 1, MAX_NODES)
            if r.peek("str"):
                r.pos += 1  # the chance set's name
            if r.peek("sym", "{"):
                listed = r.braced("the chance outcomes", lambda: (
                    r.take("an outcome label (a quoted name)", "str"),
                    r.number("the probability of a chance outcome")))
                if not listed:
                    r.fail("a chance node needs at least one outcome", at)
                if len(listed) > MAX_ACTIONS:
                    r.fail(f"chance information set {no} has {len(listed)} outcomes; "
                           f"allowed: at most {MAX_ACTIONS}", at)
                for lbl, pr in listed:
                    if not 0 <= pr <= 1:
                        r.fail(f"chance probability {pr} of outcome {_show(lbl, 'str')} is "
                               "outside the allowed range [0, 1]", at)
                total = sum((pr for _, pr in listed), sp.Integer(0))
                if total != 1:
                    r.fail(f"the chance probabilities sum to {total}; they must sum to 1", at)
                listed = list(zip(normalize_labels([lbl for lbl, _ in listed]),
                                  (pr for _, pr in listed)))
                if no in chance_sets and chance_sets[no] != listed:
                    r.fail(f"chance information set {no} is listed with other outcomes "
                           "before; its outcomes must be the same at every node", at)
                chance_sets[no] = listed
            if no not in chance_sets:
                r.fail(f"chance information set {no} has no outcomes; its first node must "
                       "list them", at)
            here_acc = accumulate(acc, at)
            here = add(lambda: builder.chance(parent, via, prob), at)
            for lbl, pr in reversed(chance_sets[no]):
                stack.append((here, lbl, pr, (lbl, path) if want_tree else None,
                              reach * pr if want_tree else None, moves, here_acc))
            continue
        player = r.integer("player", 1, n)
        no = r.integer("information set", 1, MAX_NODES)
        iname = r.take("", "str") if r.peek("str") else ""
        if r.peek("sym", "{"):
            acts = r.names("the actions", "an action")
            if len(acts) > MAX_ACTIONS:
                r.fail(f"information set {no} of player {player} has {len(acts)} actions; "
                       f"allowed: at most {MAX_ACTIONS}", at)
            if not acts:
                r.fail(f"information set {no} of player {player} has no actions; allowed: "
                       "one or more", at)
            acts = normalize_labels(acts)
            known = infosets.get((player, no))
            if known is not None and known[1] != acts:
                r.fail(f"information set {no} of player {player} is listed with other actions "
                       "before; its actions must be the same at every node", at)
            if known is None:
                infosets[(player, no)] = (iname, acts)
        if (player, no) not in infosets:
            r.fail(f"information set {no} of player {player} has no actions; its first node "
                   "must list them", at)
        here_acc = accumulate(acc, at)
        iname, acts = infosets[(player, no)]
        label = labels.get((player, no))
        if label is None:
            label = iname if iname.startswith(f"P{player}:") else f"P{player}:{iname or no}|"
            while label in used_labels:  # two sets of one name: keep them apart
                label += f"#{no}"
            used_labels.add(label)
            labels[(player, no)] = label
        here = add(lambda: builder.decision(player - 1, label, acts, parent, via, prob), at)
        for a in reversed(acts):
            stack.append((here, a, None, (a, path) if want_tree else None, reach,
                          ((player, iname, a), moves) if want_tree else None, here_acc))
    r.end("the tree")
    if want_tree:  # read_efg: the terminals, without freezing (and checking) the Game
        return EfgTree(title, players, tuple(terminals), infosets), None
    try:
        return None, builder.build(description=f"read from .efg ({name})")
    except GameError as exc:
        at, msg = _build_error(builder, node_token, labels, text, exc)
        r.fail(msg, at)


def normalize_labels(labels: Sequence[str]) -> tuple[str, ...]:
    """Labels made distinct and nonempty as Gambit does (file.cc, ``NormalizeLabels``): a
    label that is empty or repeated becomes ``label_1``, ``label_2``, ... (skipping names
    already present); the others stay."""
    counts = Counter(labels)
    if all(c == 1 for c in counts.values()) and "" not in counts:
        return tuple(labels)
    used, visited, out = set(labels), Counter(), []
    for lbl in labels:
        if counts[lbl] == 1 and lbl != "":
            out.append(lbl)
            continue
        while True:
            visited[lbl] += 1
            candidate = f"{lbl}_{visited[lbl]}"
            if candidate not in used:
                break
        used.add(candidate)
        out.append(candidate)
    return tuple(out)


def _pays(pays: tuple) -> str:
    return "{" + ", ".join(str(x) for x in pays) + "}"


def _unlink(link) -> tuple:
    """The items of a linked ``(head, rest)`` list, first pushed first."""
    out = []
    while link is not None:
        out.append(link[0])
        link = link[1]
    return tuple(reversed(out))


def _build_error(builder: GameBuilder, node_token: list[int],
                 labels: dict[tuple[int, int], str], text: str,
                 exc: GameError) -> tuple[int, str]:
    """Token index and message for an error of ``builder.build()``: a perfect-recall
    violation (the only check of build that the parser leaves to it) becomes "imperfect
    recall" naming the information set by player and number and the lines of the two nodes
    that differ; anything else keeps its message, at the last token."""
    from pokerdyn.games._checks import find_recall_violation

    b = builder
    bad = find_recall_violation(np.asarray(b._kind, np.int8), np.asarray(b._parent, np.int32),
                                np.asarray(b._edge, np.int16), np.asarray(b._player, np.int8),
                                np.asarray(b._infoset, np.int32),
                                [len(I.actions) for I in b._infosets])
    if bad is None:
        return (node_token[-1] if node_token else 0), str(exc)
    I, first, second, who = bad
    player, no = next(k for k, v in labels.items() if v == b._infosets[I].label)
    lines = [_line_of(text, node_token[x]) for x in (first, second)]
    return node_token[second], (
        f"imperfect recall at information set {no} of player {player} "
        f"({b._infosets[I].label!r}): its nodes on lines {lines[0]} and {lines[1]} differ in "
        f"player {who + 1}'s own past moves; allowed: games with perfect recall (the "
        "solvers need it)")


__all__ = ["EfgTerminal", "EfgTree", "MAX_EXPONENT", "MAX_NUMBER_CHARS",
           "game_from_efg", "normalize_labels", "parse_number", "parse_payoff", "read_efg",
           "to_efg", "to_efg_exact"]
