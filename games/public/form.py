"""The public-tree form of a game: one node per public state, a vector over each player's
private states at every node ("ranges"), chance weights and payoffs over joint deals at the
terminals only.

A history of the game is a pair (public node ``v``, joint private state ``(x_0, ..,
x_{n-1})``).  Player ``p``'s information set at a decision node ``v`` of hers is ``(v,
x_p)``: one *row* of a strategy array ``(n_rows, max_actions)``, as the history tree's
``(n_infosets, max_actions)``.  Everything a numeric kernel reads is a flat array:

* per public node ``v`` (parents before children): ``kind`` (TERMINAL, CHANCE, DECISION as
  in :mod:`games.tree`), ``parent``, ``edge`` (action at a decision parent, outcome index at
  a chance parent), ``actor`` (-1 unless decision), ``n_actions``, ``child_start`` (the
  children ``children[child_start[v]:child_start[v + 1]]`` in edge order);
* per (node, player): ``priv_n[v, p]`` private states and ``priv_off[v, p]``, where they
  start in one flat per-entry array of ``n_entries`` (reach and value vectors live there);
  ``up[i]``: the parent node's entry of entry ``i`` (the same private state below a
  decision; below a chance node the state the newly dealt cards refine, or the same);
* per decision node: ``row_off[v]``: its rows ``row_off[v] + x``, ``x < priv_n[v, actor]``;
  per row ``row_infoset`` (the history tree's information set, -1 where the state is
  impossible, or no history tree is known) and ``legal``;
* per terminal: joint deals ``jx[jstart[v]:jstart[v] + jlen[v]]`` (each player's private
  index) with chance weights ``jw`` (the probability of the deal, card removal exact);
  payoffs ``offset[v] + scale[v] * tdata[tstart[tab[v]] + j]`` (``tab[v] = -1``: the
  offset alone; builder games share one table per (board, active seats) and scale it by
  the pot); where the players' private-state counts multiply to at most ``DENSE_RATIO``
  times the joint deals, the same weights as dense tensors, one per player with her axis
  first (``doff[v, p]``; ``toff[v, p]``: weights times her payoff-table column).

Counterfactual value of player ``p``'s private state ``x`` at a terminal ``v``:
``sum_j [jx[j, p] = x] jw[j] prod_{q != p} r_q(v, jx[j, q]) u_p(v, j)`` with ``r_q`` the
players' own reach vectors (Johanson, Bowling, Waugh and Zinkevich 2011, "Accelerating
best response calculation in large extensive games", sect. 4: public tree, range vectors).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from pokerdyn.games.errors import GameError
from pokerdyn.games.tree import CHANCE, DECISION, TERMINAL

_ARRAYS = ("kind", "parent", "edge", "actor", "n_actions", "child_start", "children",
           "priv_n", "priv_off", "up", "row_off", "row_infoset", "row_player", "legal",
           "jstart", "jlen", "jx", "jw", "tab", "scale", "offset", "tstart", "tdata",
           "doff", "toff", "dense")

# A terminal's joint deals are also stored as dense tensors (one per player, her axis first)
# when the product of the players' private-state counts is at most DENSE_RATIO times the
# number of joint deals: the contraction is then axpy loops that vectorise and skip zero
# reach (strong collusion's (own, partner) states stay sparse).
DENSE_RATIO = 2.0


@dataclass(frozen=True, eq=False)
class PublicGame:
    """A game in public-tree form (module docstring); every array read-only."""

    name: str
    n_players: int
    kind: NDArray[np.int8]
    parent: NDArray[np.int32]
    edge: NDArray[np.int32]
    actor: NDArray[np.int8]
    n_actions: NDArray[np.int16]
    child_start: NDArray[np.int64]
    children: NDArray[np.int32]
    priv_n: NDArray[np.int32]
    priv_off: NDArray[np.int64]
    up: NDArray[np.int64]
    row_off: NDArray[np.int64]
    row_infoset: NDArray[np.int32]
    row_player: NDArray[np.int8]
    legal: NDArray[np.bool_]
    jstart: NDArray[np.int64]
    jlen: NDArray[np.int64]
    jx: NDArray[np.int32]
    jw: NDArray[np.float64]
    tab: NDArray[np.int32]
    scale: NDArray[np.float64]
    offset: NDArray[np.float64]
    tstart: NDArray[np.int64]
    tdata: NDArray[np.float64]
    doff: NDArray[np.int64]
    toff: NDArray[np.int64]
    dense: NDArray[np.float64]
    n_infosets: int = -1          # of the history tree the rows map to (-1: none known)
    labels: tuple = ()            # public history label per node (display only)
    # the history tree's information sets the rows map to (games.tree.Infoset: label, player,
    # actions), for reporting a profile by label and action without the history tree
    infosets: tuple = field(default=(), repr=False)
    cache: dict = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for name in _ARRAYS:
            a = np.ascontiguousarray(getattr(self, name))
            a.flags.writeable = False
            object.__setattr__(self, name, a)

    @property
    def n_nodes(self) -> int:
        return int(self.kind.shape[0])

    @property
    def n_rows(self) -> int:
        return int(self.legal.shape[0])

    @property
    def max_actions(self) -> int:
        return int(self.legal.shape[1])

    @property
    def n_entries(self) -> int:
        return int(self.up.shape[0])

    @property
    def n_joint(self) -> int:
        """Joint deals stored (terminals sharing a block count it once)."""
        return int(self.jw.shape[0])

    def nbytes(self) -> int:
        """Bytes held by the arrays (the whole public-tree form)."""
        return int(sum(getattr(self, name).nbytes for name in _ARRAYS))

    def size(self) -> dict:
        """Public nodes, rows (information sets incl. impossible private states), rows with
        a history information set, row actions, joint deals, bytes."""
        return {"public_nodes": self.n_nodes, "rows": self.n_rows,
                "infosets": int((self.row_infoset >= 0).sum()) if self.n_infosets >= 0
                else self.n_rows,
                "infoset_actions": int(self.legal.sum()),
                "joint_deals": self.n_joint, "bytes": self.nbytes()}

    def __repr__(self) -> str:
        s = self.size()
        return (f"PublicGame({self.name!r}, players={self.n_players}, "
                f"public_nodes={s['public_nodes']:,}, rows={s['rows']:,}, "
                f"joint_deals={s['joint_deals']:,}, bytes={s['bytes']:,})")

    def uniform(self) -> NDArray[np.float64]:
        """The uniform profile over each row's legal actions, ``(n_rows, max_actions)``."""
        return self.legal / self.legal.sum(axis=1, keepdims=True)


class Assembler:
    """Collects public nodes, private vectors, joint blocks and payoff tables, then
    :meth:`finish` returns the :class:`PublicGame` (children after parents is the
    caller's duty: a node is added after its parent)."""

    def __init__(self, n_players: int):
        self.n = n_players
        self.kind, self.parent, self.edge, self.actor, self.n_act = [], [], [], [], []
        self.priv_n, self.up_parts, self.row_inf, self.labels = [], [], [], []
        self.jstart, self.jlen, self.tab, self.scale, self.offset = [], [], [], [], []
        self.jblocks, self.jtotal = [], 0
        self.tblocks, self.tstarts, self.ttotal = [], [], 0
        self.n_entries = 0
        self.node_off = []

    def add_joint(self, jx: np.ndarray, jw: np.ndarray) -> tuple[int, int]:
        """A block of joint deals (rows of private indices, weights); returns (start, len)."""
        jx = np.asarray(jx, dtype=np.int32).reshape(-1, self.n)
        start = self.jtotal
        self.jblocks.append((jx, np.asarray(jw, dtype=np.float64)))
        self.jtotal += jx.shape[0]
        return start, jx.shape[0]

    def add_table(self, rows: np.ndarray) -> int:
        """A payoff table aligned with a joint block; returns its id."""
        rows = np.asarray(rows, dtype=np.float64).reshape(-1, self.n)
        self.tblocks.append(rows)
        self.tstarts.append(self.ttotal)
        self.ttotal += rows.shape[0]
        return len(self.tblocks) - 1

    def add(self, kind: int, parent: int, edge: int, priv_n, up=None, actor: int = -1,
            n_actions: int = 0, row_infoset=None, joint=(0, 0), tab: int = -1,
            scale: float = 0.0, offset=None, label: str = "") -> int:
        """A node; ``priv_n`` per player; ``up[p]``: per private state the parent's local
        index (None at the root); ``row_infoset``: per private state of the actor."""
        v = len(self.kind)
        self.kind.append(kind)
        self.parent.append(parent)
        self.edge.append(edge)
        self.actor.append(actor)
        self.n_act.append(n_actions)
        pn = [int(k) for k in priv_n]
        self.priv_n.append(pn)
        offs = []
        for p in range(self.n):
            offs.append(self.n_entries)
            if parent < 0:
                self.up_parts.append(np.full(pn[p], -1, dtype=np.int64))
            else:
                loc = np.arange(pn[p]) if up is None or up[p] is None else \
                    np.asarray(up[p], dtype=np.int64)
                if loc.shape[0] != pn[p] or (pn[p] and (loc.min() < 0 or
                                                         loc.max() >= self.priv_n[parent][p])):
                    raise GameError(f"public node {v}: private map of player {p + 1} does not "
                                    "fit its parent")
                self.up_parts.append(self.node_off[parent][p] + loc)
            self.n_entries += pn[p]
        self.node_off.append(offs)
        if kind == DECISION:
            ri = np.full(pn[actor], -1, dtype=np.int32) if row_infoset is None else \
                np.asarray(row_infoset, dtype=np.int32)
            self.row_inf.append((v, ri))
        self.jstart.append(joint[0])
        self.jlen.append(joint[1])
        self.tab.append(tab)
        self.scale.append(scale)
        self.offset.append(np.zeros(self.n) if offset is None else np.asarray(offset, float))
        self.labels.append(label)
        return v

    def finish(self, name: str, n_infosets: int = -1, infosets: tuple = ()) -> PublicGame:
        n = self.n
        kind = np.array(self.kind, dtype=np.int8)
        V = kind.shape[0]
        parent = np.array(self.parent, dtype=np.int32)
        edge = np.array(self.edge, dtype=np.int32)
        actor = np.array(self.actor, dtype=np.int8)
        n_act = np.array(self.n_act, dtype=np.int16)
        # children in edge order (CSR)
        order = np.lexsort((edge[1:], parent[1:])) + 1
        counts = np.bincount(parent[1:], minlength=V) if V > 1 else np.zeros(V, np.int64)
        child_start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        children = order.astype(np.int32)
        for v in np.flatnonzero(kind == DECISION):
            kids = children[child_start[v]:child_start[v + 1]]
            if kids.shape[0] != n_act[v] or (edge[kids] != np.arange(n_act[v])).any():
                raise GameError(f"public node {v}: children do not match its {n_act[v]} actions")
        priv_n = np.array(self.priv_n, dtype=np.int32).reshape(V, n)
        priv_off = np.array(self.node_off, dtype=np.int64).reshape(V, n)
        up = np.concatenate(self.up_parts) if self.up_parts else np.zeros(0, np.int64)
        amax = max(1, int(n_act.max()) if V else 1)
        row_off = np.full(V, -1, dtype=np.int64)
        rows_inf, rows_p, rows_na, r = [], [], [], 0
        for v, ri in self.row_inf:
            row_off[v] = r
            r += ri.shape[0]
            rows_inf.append(ri)
            rows_p.append(np.full(ri.shape[0], actor[v], dtype=np.int8))
            rows_na.append(np.full(ri.shape[0], n_act[v], dtype=np.int64))
        row_infoset = np.concatenate(rows_inf) if rows_inf else np.zeros(0, np.int32)
        row_player = np.concatenate(rows_p) if rows_p else np.zeros(0, np.int8)
        na = np.concatenate(rows_na) if rows_na else np.zeros(0, np.int64)
        legal = np.arange(amax)[None, :] < na[:, None]
        jx = np.concatenate([b[0] for b in self.jblocks]) if self.jblocks else \
            np.zeros((0, n), np.int32)
        jw = np.concatenate([b[1] for b in self.jblocks]) if self.jblocks else np.zeros(0)
        tdata = np.concatenate(self.tblocks) if self.tblocks else np.zeros((0, n))
        tstart = np.array(self.tstarts, dtype=np.int64)
        jstart = np.array(self.jstart, dtype=np.int64)
        jlen = np.array(self.jlen, np.int64)
        tab = np.array(self.tab, dtype=np.int32)
        doff, toff, dense = _dense(kind, priv_n, jstart, jlen, jx.reshape(-1, n), jw, tab,
                                   tstart, tdata.reshape(-1, n))
        return PublicGame(
            name=name, n_players=n, kind=kind, parent=parent, edge=edge, actor=actor,
            n_actions=n_act, child_start=child_start, children=children, priv_n=priv_n,
            priv_off=priv_off, up=up, row_off=row_off, row_infoset=row_infoset,
            row_player=row_player, legal=legal,
            jstart=jstart, jlen=jlen, jx=jx.reshape(-1, n), jw=jw, tab=tab,
            scale=np.array(self.scale, dtype=np.float64),
            offset=np.array(self.offset, dtype=np.float64).reshape(V, n),
            tstart=tstart, tdata=tdata.reshape(-1, n), doff=doff, toff=toff, dense=dense,
            n_infosets=n_infosets, labels=tuple(self.labels), infosets=tuple(infosets))


def _dense(kind, priv_n, jstart, jlen, jx, jw, tab, tstart, tdata):
    """Dense tensors of the terminals' joint deals (see DENSE_RATIO): ``doff[v, p]`` the
    offset in ``dense`` of the weights with ``p``'s axis first, the others ascending;
    ``toff[v, p]`` of the weights times ``p``'s payoff-table column (-1: none)."""
    V, n = priv_n.shape
    doff = np.full((V, n), -1, dtype=np.int64)
    toff = np.full((V, n), -1, dtype=np.int64)
    parts, total = [], 0
    wblocks: dict = {}
    tblocks: dict = {}

    def put(arr):
        nonlocal total
        parts.append(arr.ravel())
        total += arr.size
        return total - arr.size

    for v in np.flatnonzero(kind == TERMINAL):
        dims = tuple(int(k) for k in priv_n[v])
        size = int(np.prod(dims, dtype=np.float64))
        if jlen[v] == 0 or size > DENSE_RATIO * jlen[v]:
            continue
        sl = slice(jstart[v], jstart[v] + jlen[v])
        idx = tuple(jx[sl, q] for q in range(n))
        key = (int(jstart[v]), int(jlen[v]), dims)
        if key not in wblocks:
            w = np.zeros(dims)
            np.add.at(w, idx, jw[sl])
            wblocks[key] = [put(np.moveaxis(w, p, 0).copy()) for p in range(n)]
        doff[v] = wblocks[key]
        if tab[v] >= 0:
            tkey = key + (int(tab[v]),)
            if tkey not in tblocks:
                rows = tdata[tstart[tab[v]]:tstart[tab[v]] + jlen[v]]
                offs = []
                for p in range(n):
                    w = np.zeros(dims)
                    np.add.at(w, idx, jw[sl] * rows[:, p])
                    offs.append(put(np.moveaxis(w, p, 0).copy()))
                tblocks[tkey] = offs
            toff[v] = tblocks[tkey]
    dense = np.concatenate(parts) if parts else np.zeros(0)
    return doff, toff, dense


def to_history(pg: PublicGame, sigma: NDArray[np.float64], n_infosets: int | None = None,
               fill: NDArray[np.float64] | None = None) -> NDArray[np.float64]:
    """The public profile ``sigma`` (``(n_rows, max_actions)``) as the history tree's
    ``(n_infosets, max_actions)`` array (rows without an information set dropped;
    information sets without a row, none for a derived or built form, keep ``fill``'s
    rows, default zeros)."""
    n_inf = pg.n_infosets if n_infosets is None else n_infosets
    if n_inf < 0:
        raise GameError(f"{pg.name}: this public form has no history tree to map to")
    out = np.zeros((n_inf, pg.max_actions)) if fill is None else np.array(fill, dtype=float)
    ok = pg.row_infoset >= 0
    out[pg.row_infoset[ok]] = np.asarray(sigma)[ok][:, :out.shape[1]]
    return out


def from_history(pg: PublicGame, sigma: NDArray[np.float64]) -> NDArray[np.float64]:
    """The history tree's profile ``(n_infosets, max_actions)`` as public rows (rows of
    impossible private states uniform)."""
    sigma = np.asarray(sigma, dtype=np.float64)
    if pg.n_infosets < 0 or sigma.shape[0] != pg.n_infosets:
        raise GameError(f"sigma has {sigma.shape[0]} rows; {pg.name} maps to "
                        f"{pg.n_infosets} information sets")
    out = pg.uniform().copy()
    ok = pg.row_infoset >= 0
    out[ok, :sigma.shape[1]] = sigma[pg.row_infoset[ok]]
    return out


__all__ = ["Assembler", "PublicGame", "from_history", "to_history", "CHANCE", "DECISION",
           "TERMINAL"]
