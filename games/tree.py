"""Extensive-form games as immutable flat data.

A game is a rooted tree of three kinds of node: chance (outcomes with probabilities),
decision (a player chooses one of the actions of the node's information set) and terminal
(one payoff per player).  Trees are written with :class:`GameBuilder`, which stores nodes
in flat lists with every parent before its children, and frozen into a :class:`Game` by
:meth:`GameBuilder.build`, which validates the tree (chance probabilities, information-set
consistency, perfect recall).

Chance probabilities and payoffs may be sympy expressions in named game parameters (the pot
``P``, a bet size ...).  The same :class:`Game` then yields a symbolic game (solvers.symbolic)
and, through :func:`games.compiled.compile_game`, numeric games for given parameter values.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Mapping, Sequence

import numpy as np
import sympy as sp

from pokerdyn.games.errors import GameError

TERMINAL, CHANCE, DECISION = 0, 1, 2

# Integer widths of the flat node arrays (8 + 32 + 16 + 8 + 32 bits per node for kind,
# parent, edge, player, infoset): wide enough for every real game and small enough to keep
# large trees in memory.  Games beyond them are refused with these limits in the message
# rather than overflowing.
MAX_PLAYERS = int(np.iinfo(np.int8).max)      # players are int8: 127
MAX_ACTIONS = int(np.iinfo(np.int16).max)     # edge indices and action counts are int16: 32767
MAX_NODES = int(np.iinfo(np.int32).max)       # parent and information-set indices are int32


def check_n_players(n_players: int) -> int:
    """``n_players`` as an int in [1, MAX_PLAYERS], else GameError with the allowed range."""
    if not 1 <= n_players <= MAX_PLAYERS:
        raise GameError(f"n_players={n_players} is outside the allowed range [1, {MAX_PLAYERS}] "
                        "(players are stored as int8)")
    return int(n_players)


def check_n_edges(n: int, where: str) -> None:
    """At most MAX_ACTIONS actions or chance outcomes below one node (edges are int16)."""
    if n > MAX_ACTIONS:
        raise GameError(f"{where} has {n} actions or outcomes; allowed: at most {MAX_ACTIONS} "
                        "(edge indices are stored as int16)")


@dataclass(frozen=True)
class Infoset:
    """An information set: its label (``P1:K|b``), owner (0-based) and action labels."""

    label: str
    player: int
    actions: tuple[str, ...]


@dataclass(frozen=True)
class NamedParameter:
    """A behaviour-strategy parameter: the probability of ``action`` at ``infoset``.

    For a two-action information set the other action gets ``1 - x``.
    """

    name: str
    infoset: str
    action: str


@dataclass(frozen=True)
class ParameterDomain:
    """Allowed open/closed interval of a game parameter, for clear error messages."""

    low: float = -np.inf
    high: float = np.inf
    low_open: bool = True
    high_open: bool = True

    def contains(self, x: float) -> bool:
        lo_ok = x > self.low if self.low_open else x >= self.low
        hi_ok = x < self.high if self.high_open else x <= self.high
        return bool(lo_ok and hi_ok)

    def describe(self) -> str:
        lb = "(" if self.low_open else "["
        rb = ")" if self.high_open else "]"
        return f"{lb}{self.low:g}, {self.high:g}{rb}"


def infoset_label(player: int, private: str, public: str) -> str:
    """Readable information-set label ``P<player+1>:<private>|<public>``."""
    return f"P{player + 1}:{private}|{public}"


@dataclass(frozen=True, eq=False)
class Game:
    """An immutable extensive-form game (nodes in flat arrays, parents before children).

    Attributes
    ----------
    kind, parent, edge, player, infoset : ndarray
        Per node: kind (TERMINAL/CHANCE/DECISION), parent index (-1 for the root), index of
        the edge from the parent (action index at a decision parent, outcome index at a
        chance parent), acting player (-1 unless decision), information-set index (-1 unless
        decision).
    edge_prob : tuple
        Per node, the probability of the edge from a chance parent (number or sympy
        expression); 1 for other nodes.
    edge_label : tuple[str]
        Per node, the label of the edge from the parent ('' for the root).
    terminal_node : ndarray
        Node index of each terminal, in order; ``payoffs[t]`` belongs to it.
    payoffs : tuple[tuple]
        One payoff per player for each terminal (numbers or sympy expressions).

    Games built by :func:`games.arrays.game_from_arrays` hold ``edge_prob`` as a float array,
    ``payoffs`` as a float array ``(n_terminals, n_players)`` and ``edge_label`` as a lazy
    sequence, so that no Python object exists per node.
    """

    name: str
    n_players: int
    kind: np.ndarray
    parent: np.ndarray
    edge: np.ndarray
    player: np.ndarray
    infoset: np.ndarray
    edge_prob: tuple
    edge_label: tuple
    terminal_node: np.ndarray
    payoffs: tuple
    infosets: tuple[Infoset, ...]
    params: tuple[sp.Symbol, ...] = ()
    defaults: Mapping[str, Any] = field(default_factory=dict)
    domains: Mapping[str, ParameterDomain] = field(default_factory=dict)
    named: tuple[NamedParameter, ...] = ()
    description: str = ""

    @property
    def n_nodes(self) -> int:
        return int(self.kind.shape[0])

    @property
    def n_infosets(self) -> int:
        return len(self.infosets)

    def __repr__(self) -> str:
        # short (a notebook cell, issue 35): the dataclass repr listed every node (35 kB)
        return (f"Game({_short_text(self.name, 200)!r}, players={self.n_players}, "
                f"nodes={self.n_nodes:,}, terminals={len(self.terminal_node):,}, "
                f"infosets={self.n_infosets:,}, game_parameters={_names(self.param_names)}, "
                f"parameters={_names(self.named_names)}, "
                f"description={_short_text(self.description, 200)!r})")

    @property
    def param_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.params)

    @property
    def named_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.named)

    def infoset_index(self, label: str) -> int:
        """Index of the information set with this label (GameError if unknown)."""
        idx = self._label_index.get(label)
        if idx is None:
            raise GameError(f"unknown information set {label!r} in game {self.name!r}")
        return idx

    @cached_property
    def _label_index(self) -> dict[str, int]:
        return {I.label: i for i, I in enumerate(self.infosets)}

    def owner(self, name: str) -> int:
        """0-based player who controls the named parameter ``name``."""
        for p in self.named:
            if p.name == name:
                return self.infosets[self.infoset_index(p.infoset)].player
        raise GameError(f"unknown parameter {name!r} of game {self.name!r}; "
                        f"allowed: {', '.join(self.named_names)}")

    def children(self, node: int) -> np.ndarray:
        """Indices of the children of ``node`` (ordered by edge index)."""
        ch = np.nonzero(self.parent == node)[0]
        return ch[np.argsort(self.edge[ch], kind="stable")]

    def history(self, node: int) -> tuple[str, ...]:
        """Edge labels from the root to ``node``."""
        out = []
        while node > 0:
            out.append(self.edge_label[node])
            node = int(self.parent[node])
        return tuple(reversed(out))


class GameBuilder:
    """Writes a game tree node by node; every node must be added after its parent.

    Example
    -------
    >>> b = GameBuilder("coin", n_players=2)
    >>> r = b.chance()
    >>> for face in ("H", "T"):
    ...     d = b.decision(0, "P1:" + face + "|", ("x", "y"), parent=r, via=face, prob=sp.Rational(1, 2))
    ...     for a in ("x", "y"):
    ...         _ = b.terminal((1, -1) if a == "x" else (-1, 1), parent=d, via=a)
    >>> g = b.build()
    """

    def __init__(self, name: str, n_players: int, params: Sequence[sp.Symbol] = ()):
        self.name = name
        self.n_players = check_n_players(n_players)
        self.params = tuple(params)
        self._kind: list[int] = []
        self._parent: list[int] = []
        self._edge: list[int] = []
        self._player: list[int] = []
        self._infoset: list[int] = []
        self._prob: list[Any] = []
        self._label: list[str] = []
        self._terminals: list[int] = []
        self._payoffs: list[tuple] = []
        self._infosets: list[Infoset] = []
        self._iindex: dict[str, int] = {}
        self._aindex: list[dict[str, int]] = []  # per set, action -> index (wide sets)
        self._nchild: list[int] = []
        self._used_edges: dict[int, set[int]] = {}

    # -- node constructors -------------------------------------------------------------
    def chance(self, parent: int | None = None, via: str | None = None, prob: Any = None) -> int:
        """Add a chance node; its children are added with ``prob=`` their probability."""
        return self._add(CHANCE, parent, via, prob, -1, -1)

    def decision(self, player: int, infoset: str, actions: Sequence[str],
                 parent: int | None = None, via: str | None = None, prob: Any = None) -> int:
        """Add a decision node of ``player`` in information set ``infoset``."""
        if not 0 <= player < self.n_players:
            raise GameError(f"player {player} out of range [0, {self.n_players - 1}] "
                            f"at information set {infoset!r}")
        actions = tuple(actions)
        check_n_edges(len(actions), f"information set {infoset!r}")
        if not actions or len(set(actions)) != len(actions):
            raise GameError(f"information set {infoset!r} needs distinct actions, got {actions}")
        idx = self._iindex.get(infoset)
        if idx is None:
            idx = len(self._infosets)
            self._iindex[infoset] = idx
            self._aindex.append({a: i for i, a in enumerate(actions)})
            self._infosets.append(Infoset(infoset, player, actions))
        else:
            known = self._infosets[idx]
            if known.player != player:
                raise GameError(f"information set {infoset!r} has nodes of players "
                                f"{known.player + 1} and {player + 1}")
            if known.actions != actions:
                raise GameError(f"information set {infoset!r} has action lists "
                                f"{known.actions} and {actions}")
        return self._add(DECISION, parent, via, prob, player, idx)

    def terminal(self, payoffs: Sequence[Any], parent: int | None = None,
                 via: str | None = None, prob: Any = None) -> int:
        """Add a terminal node with one payoff per player."""
        payoffs = tuple(payoffs)
        if len(payoffs) != self.n_players:
            raise GameError(f"terminal after {via!r} has {len(payoffs)} payoffs, "
                            f"expected {self.n_players}")
        node = self._add(TERMINAL, parent, via, prob, -1, -1)
        self._terminals.append(node)
        self._payoffs.append(payoffs)
        return node

    def _add(self, kind: int, parent: int | None, via: str | None, prob: Any,
             player: int, infoset: int) -> int:
        node = len(self._kind)
        if parent is None:
            if node != 0:
                raise GameError("only the first node may have no parent (the root)")
            parent, edge, label, prob = -1, 0, "", 1
        else:
            if not 0 <= parent < node:
                raise GameError(f"parent {parent} of node {node} must be an existing node")
            pk = self._kind[parent]
            if pk == TERMINAL:
                raise GameError(f"terminal node {parent} cannot have children")
            if pk == DECISION:
                acts = self._infosets[self._infoset[parent]].actions
                edge = self._aindex[self._infoset[parent]].get(via)
                if edge is None:
                    raise GameError(f"action {via!r} is not one of {acts} at information set "
                                    f"{self._infosets[self._infoset[parent]].label!r}")
                if prob is not None:
                    raise GameError(f"a decision node's child (action {via!r}) takes no prob")
                prob = 1
            else:
                edge = self._nchild[parent]
                check_n_edges(edge + 1, f"chance node {parent}")
                if prob is None:
                    raise GameError(f"the child {via!r} of chance node {parent} needs a prob")
                prob = _as_number(prob)
                if _is_number(prob) and not 0 <= float(prob) <= 1:
                    raise GameError(f"chance probability {prob} of outcome {via!r} at node "
                                    f"{parent} is outside [0, 1]")
            used = self._used_edges.setdefault(parent, set())
            if edge in used:
                raise GameError(f"node {parent} already has a child for {via!r}")
            used.add(edge)
            self._nchild[parent] += 1
            label = "" if via is None else str(via)
        self._kind.append(kind)
        self._parent.append(parent)
        self._edge.append(edge)
        self._player.append(player)
        self._infoset.append(infoset)
        self._prob.append(prob)
        self._label.append(label)
        self._nchild.append(0)
        return node

    # -- freezing ----------------------------------------------------------------------
    def build(self, named: Sequence[NamedParameter] = (), defaults: Mapping[str, Any] | None = None,
              domains: Mapping[str, ParameterDomain] | None = None, description: str = "") -> Game:
        """Validate the tree and return the immutable :class:`Game`."""
        if not self._kind:
            raise GameError(f"game {self.name!r} has no nodes")
        kind = np.asarray(self._kind, dtype=np.int8)
        parent = np.asarray(self._parent, dtype=np.int32)
        edge = np.asarray(self._edge, dtype=np.int16)
        player = np.asarray(self._player, dtype=np.int8)
        infoset = np.asarray(self._infoset, dtype=np.int32)
        nchild = np.asarray(self._nchild, dtype=np.int64)
        self._check_children(kind, nchild)
        self._check_chance_sums(kind, parent)
        _check_perfect_recall(kind, parent, edge, player, infoset, self._infosets)
        game = Game(
            name=self.name, n_players=self.n_players, kind=kind, parent=parent, edge=edge,
            player=player, infoset=infoset, edge_prob=tuple(self._prob),
            edge_label=tuple(self._label), terminal_node=np.asarray(self._terminals, np.int32),
            payoffs=tuple(self._payoffs), infosets=tuple(self._infosets), params=self.params,
            defaults=dict(defaults or {}), domains=dict(domains or {}), named=(),
            description=description,
        )
        for arr in (kind, parent, edge, player, infoset):
            arr.setflags(write=False)
        object.__setattr__(game, "named", _complete_named(game, tuple(named)))
        return game

    def _check_children(self, kind: np.ndarray, nchild: np.ndarray) -> None:
        for n in np.nonzero(kind != TERMINAL)[0]:
            if kind[n] == DECISION:
                I = self._infosets[self._infoset[n]]
                if nchild[n] != len(I.actions):
                    missing = [a for i, a in enumerate(I.actions)
                               if i not in self._used_edges.get(int(n), set())]
                    raise GameError(f"decision node {n} at information set {I.label!r} has no "
                                    f"child for action(s) {missing}")
            elif nchild[n] == 0:
                raise GameError(f"chance node {n} has no outcomes")

    def _check_chance_sums(self, kind: np.ndarray, parent: np.ndarray) -> None:
        sums: dict[int, list] = {}
        for n in range(1, len(kind)):
            if kind[parent[n]] == CHANCE:
                sums.setdefault(int(parent[n]), []).append(self._prob[n])
        for n, ps in sums.items():
            if all(_is_number(p) for p in ps):
                total = sum(ps)
                ok = total == 1 if all(isinstance(p, (int, sp.Rational)) for p in ps) \
                    else abs(float(total) - 1.0) <= 1e-9
            else:
                ok = sp.simplify(sp.Add(*ps) - 1) == 0
            if not ok:
                raise GameError(f"chance probabilities at node {n} sum to {sp.Add(*ps)}, not 1")


def _short_text(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters (with "...") for a repr."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _names(names: Sequence[str], shown: int = 8) -> str:
    """At most ``shown`` names for a repr, then how many there are: ``(a, b, ... 960 in all)``."""
    if len(names) <= shown:
        return "(" + ", ".join(_short_text(n, 40) for n in names) + ")"
    return ("(" + ", ".join(_short_text(n, 40) for n in names[:shown])
            + f", ... {len(names):,} in all)")


def _is_number(x: Any) -> bool:
    if isinstance(x, (int, float, np.integer, np.floating)):
        return True
    return isinstance(x, sp.Basic) and x.is_number


def _as_number(x: Any) -> Any:
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, np.floating):
        return float(x)
    return x


def _check_perfect_recall(kind, parent, edge, player, infoset, infosets) -> None:
    """Every node of an information set must share its owner's own sequence of past
    (information set, action) pairs (numba kernel in games._checks, imported here so that
    building a small game does not load numba)."""
    from pokerdyn.games._checks import check_perfect_recall

    check_perfect_recall(kind, parent, edge, player, infoset, infosets)


def _auto_name(I: Infoset, action: str) -> str:
    priv, _, pub = I.label.partition("|")
    priv = priv.split(":", 1)[-1]
    clean = lambda s: "".join(ch if ch.isalnum() else "_" for ch in s)
    return f"x{I.player + 1}_{clean(priv) or '0'}_{clean(pub) or '0'}_{clean(action)}"


def _complete_named(game: Game, declared: tuple[NamedParameter, ...]) -> tuple[NamedParameter, ...]:
    """Check declared named parameters and name the remaining multi-action information sets."""
    covered: dict[int, list[str]] = {}
    seen: set[str] = set()
    for p in declared:
        if p.name in seen or p.name in game.param_names:
            raise GameError(f"parameter name {p.name!r} is used twice")
        seen.add(p.name)
        I = game.infoset_index(p.infoset)
        acts = game.infosets[I].actions
        if p.action not in acts:
            raise GameError(f"parameter {p.name!r}: action {p.action!r} not in {acts} at "
                            f"{p.infoset!r}")
        covered.setdefault(I, []).append(p.action)
    out = list(declared)
    for i, I in enumerate(game.infosets):
        if len(I.actions) < 2:
            continue
        have = covered.get(i, [])
        if len(have) >= len(I.actions):
            raise GameError(f"information set {I.label!r} has a parameter for every action; "
                            f"leave one out (it gets 1 minus the others)")
        if have and len(I.actions) - len(have) != 1:
            raise GameError(f"information set {I.label!r}: name all actions but one")
        if not have:
            for a in I.actions[1:]:
                out.append(NamedParameter(_auto_name(I, a), I.label, a))
    return tuple(out)
