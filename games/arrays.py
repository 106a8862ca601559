"""Build a :class:`~games.tree.Game` from flat numpy arrays, without Python objects per node.

:class:`~games.tree.GameBuilder` is convenient for small trees written by hand; games of
millions of nodes (hold'em-like trees, synthetic benchmarks) are generated level by level
with numpy and handed over as arrays.  Validation is vectorised (bincount sums, unique
(parent, edge) pairs) and perfect recall is checked by the numba kernel shared with the
builder.  Probabilities and payoffs are float arrays, so :func:`games.compiled.compile_game`
takes them over without copying.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Mapping

import numpy as np
from numpy.typing import ArrayLike

from pokerdyn.games._checks import STRUCTURE_ERRORS, check_perfect_recall, structure_error
from pokerdyn.games.tree import (DECISION, MAX_ACTIONS, TERMINAL, Game, GameError, Infoset,
                        NamedParameter, _complete_named, check_n_edges, check_n_players)


def _int_array(what: str, values: ArrayLike, dtype) -> np.ndarray:
    """``values`` as a contiguous array of the integer ``dtype``, refusing values that the
    cast would wrap or truncate (an edge of 40000 must not become -25536)."""
    try:
        a = np.asarray(values)
    except (OverflowError, ValueError, TypeError):
        raise GameError(f"{what} must hold integers") from None
    if a.dtype != dtype and a.size:
        if a.dtype.kind not in "biuf":
            raise GameError(f"{what} must hold integers, got dtype {a.dtype}")
        info = np.iinfo(dtype)
        lo, hi = a.min(), a.max()
        if not (info.min <= lo and hi <= info.max):
            bad = lo if not info.min <= lo else hi
            raise GameError(f"{what} holds {bad}, outside the allowed range "
                            f"[{info.min}, {info.max}] ({np.dtype(dtype).name})")
        if a.dtype.kind == "f" and not np.array_equal(a, np.trunc(a)):
            raise GameError(f"{what} must hold integers, got {a[a != np.trunc(a)][0]}")
    return np.ascontiguousarray(a, dtype=dtype)


class EdgeLabels(Sequence):
    """Per-node edge labels computed on demand: the action name below a decision node, the
    outcome index (as text) below a chance node, '' for the root."""

    def __init__(self, kind, parent, edge, infoset, infosets):
        self._a = (kind, parent, edge, infoset)
        self._infosets = infosets

    def __len__(self) -> int:
        return int(self._a[0].shape[0])

    def __getitem__(self, i):
        if isinstance(i, slice):
            return tuple(self[j] for j in range(*i.indices(len(self))))
        kind, parent, edge, infoset = self._a
        p = int(parent[i])
        if p < 0:
            return ""
        if kind[p] == DECISION:
            return self._infosets[int(infoset[p])].actions[int(edge[i])]
        return str(int(edge[i]))


def _describe(code, i, nchild, total, kind, parent, edge, player, infoset, infosets, prob):
    """Message of a structure_error code for node ``i``."""
    p = int(parent[i])
    I = infoset[i] if kind[i] == DECISION else -1
    label = infosets[I].label if 0 <= I < len(infosets) else ""
    return STRUCTURE_ERRORS[code].format(
        n=i, kind=kind[i], parent=p, infoset=infoset[i], max_infoset=len(infosets) - 1,
        label=label, owner=infosets[I].player + 1 if label else 0, player=player[i] + 1,
        edge=edge[i], nchild=nchild, nact=len(infosets[I].actions) if label else 0,
        prob=prob[i], sum=total)


def game_from_arrays(name: str, n_players: int, kind: ArrayLike, parent: ArrayLike,
                     edge: ArrayLike, player: ArrayLike, infoset: ArrayLike,
                     infosets: Sequence[Infoset], chance_prob: ArrayLike, payoffs: ArrayLike,
                     named: Sequence[NamedParameter] = (), description: str = "",
                     edge_label: Sequence[str] | None = None, atol: float = 1e-9) -> Game:
    """Validate flat node arrays and return the immutable :class:`Game`.

    Parameters
    ----------
    kind, parent, edge, player, infoset : array_like, shape (n_nodes,)
        As in :class:`Game`: node kind (TERMINAL=0, CHANCE=1, DECISION=2), parent (-1 for
        the root, every parent before its children), edge index from the parent, acting
        player and information-set index (-1 unless decision).
    infosets : sequence of Infoset
        Label, owner and actions of each information set.
    chance_prob : array_like of float, shape (n_nodes,)
        Probability of the edge from a chance parent (ignored, stored as 1, elsewhere).
    payoffs : array_like of float, shape (n_terminals, n_players)
        One row per terminal node, in node order.
    edge_label : sequence of str, optional
        Per-node edge labels; by default computed on demand (:class:`EdgeLabels`).

    Raises
    ------
    GameError
        Naming the first bad node or information set.
    """
    n_players = check_n_players(n_players)
    kind = _int_array("kind", kind, np.int8)
    n = kind.shape[0]
    parent = _int_array("parent", parent, np.int32)
    edge = _int_array("edge", edge, np.int16)
    player = _int_array("player", player, np.int8)
    infoset = _int_array("infoset", infoset, np.int32)
    prob = np.array(chance_prob, dtype=np.float64)
    pay = np.ascontiguousarray(payoffs, dtype=np.float64)
    infosets = tuple(infosets)
    if n == 0:
        raise GameError(f"game {name!r} has no nodes")
    for what, arr in (("parent", parent), ("edge", edge), ("player", player),
                      ("infoset", infoset), ("chance_prob", prob)):
        if arr.shape != (n,):
            raise GameError(f"{what} has shape {arr.shape}, expected ({n},)")
    n_inf = len(infosets)
    iplayer = np.fromiter((I.player for I in infosets), dtype=np.int64, count=n_inf)
    n_act = np.fromiter((len(I.actions) for I in infosets), dtype=np.int64, count=n_inf)
    if n_inf and n_act.max() > MAX_ACTIONS:
        I = infosets[int(np.argmax(n_act))]
        check_n_edges(len(I.actions), f"information set {I.label!r}")
    if ((iplayer < 0) | (iplayer >= n_players)).any():
        I = infosets[int(np.flatnonzero((iplayer < 0) | (iplayer >= n_players))[0])]
        raise GameError(f"information set {I.label!r} has player {I.player + 1} outside "
                        f"[1, {n_players}]")
    iplayer = iplayer.astype(np.int8)  # in range: n_players <= MAX_PLAYERS
    code, i, nch, total = structure_error(kind, parent, edge, player, infoset, iplayer, n_act,
                                          prob, atol)
    if code:
        raise GameError(_describe(code, i, nch, total, kind, parent, edge, player, infoset,
                                  infosets, prob))
    dec = kind == DECISION
    player = np.where(dec, player, -1).astype(np.int8)
    infoset = np.where(dec, infoset, -1).astype(np.int32)

    # terminal payoffs
    term = np.flatnonzero(kind == TERMINAL).astype(np.int32)
    if pay.shape != (term.size, n_players):
        raise GameError(f"payoffs have shape {pay.shape}, expected (n_terminals, n_players) = "
                        f"({term.size}, {n_players})")
    if not np.isfinite(pay).all():
        bad = term[np.flatnonzero(~np.isfinite(pay).all(axis=1))[0]]
        raise GameError(f"terminal node {bad} has a payoff that is not finite")

    check_perfect_recall(kind, parent, edge, player, infoset, infosets)

    for arr in (kind, parent, edge, player, infoset, prob, term, pay):
        arr.setflags(write=False)
    game = Game(name=name, n_players=int(n_players), kind=kind, parent=parent, edge=edge,
                player=player, infoset=infoset, edge_prob=prob,
                edge_label=EdgeLabels(kind, parent, edge, infoset, infosets)
                if edge_label is None else tuple(edge_label),
                terminal_node=term, payoffs=pay, infosets=infosets, description=description)
    object.__setattr__(game, "named", _complete_named(game, tuple(named)))
    return game


def game_to_arrays(game: Game) -> Mapping[str, np.ndarray]:
    """The arguments of :func:`game_from_arrays` for a game with numeric probabilities and
    payoffs (e.g. a GameBuilder game), for round trips and tests; symbolic parameters take
    the game's default values (a parameter without one is an error)."""
    missing = [s.name for s in game.params if s.name not in game.defaults]
    if missing:
        raise GameError(f"{game.name}: parameter(s) {', '.join(missing)} have no default value; "
                        "give values before converting to arrays")
    subs = {s: game.defaults[s.name] for s in game.params}

    def num(x) -> float:
        return float(x.subs(subs)) if subs and hasattr(x, "subs") else float(x)

    return {"name": game.name, "n_players": game.n_players, "kind": game.kind,
            "parent": game.parent, "edge": game.edge, "player": game.player,
            "infoset": game.infoset, "infosets": game.infosets,
            "chance_prob": np.asarray([num(x) for x in game.edge_prob]),
            "payoffs": np.asarray([[num(u) for u in row] for row in game.payoffs]),
            "named": game.named, "description": game.description,
            "edge_label": game.edge_label}
