"""The public-tree form derived from a compiled history tree whose histories factor into a
public state and one private state per player (Kuhn, Leduc, imported OpenSpiel poker).

Public states are the finest partition of the histories that (i) keeps every information
set inside one state, (ii) is closed upward (the parents of two histories of one state share
a state) and (iii) downward through actions (the children of one state by one action share a
state): a fixed point of connected components (:func:`_closure`).  A player's private
states are the same closure started from her information sets alone (actions are seen by
all; a chance outcome is private to her until an information set of hers, or an upward
link, says otherwise; a finer split than necessary is harmless).  The game factors when
every public state holds nodes of one kind (one actor and action count at decisions), the
root is alone, children by different actions of a decision state fall in different states
and each private state of a decision's actor lies in one information set; otherwise
:class:`GameError` says which condition fails (a move that others cannot see, e.g. a
private action, or a player who forgets).
"""
from __future__ import annotations

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from pokerdyn.games.errors import GameError
from pokerdyn.games.public.form import Assembler, PublicGame
from pokerdyn.games.tree import CHANCE, DECISION, TERMINAL


def _components(n: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    g = coo_matrix((np.ones(a.shape[0], dtype=np.int8), (a, b)), shape=(n, n))
    return connected_components(g, directed=False)[1]


def _closure(cg, seed_a: np.ndarray, seed_b: np.ndarray, child_of: np.ndarray) -> np.ndarray:
    """Labels of the finest partition containing the links ``seed`` and closed upward and
    downward through decision nodes' actions (module docstring): connected components,
    repeated until their number stops falling (each round links every node to its class's
    first node, so the graph stays ``O(nodes)``)."""
    n = cg.n_nodes
    parent = cg.parent.astype(np.int64)
    nonroot = np.arange(1, n)
    dec = np.flatnonzero(cg.kind == DECISION)
    amax = child_of.shape[1]
    links_a, links_b = seed_a, seed_b
    count = -1
    while True:
        lab = _components(n, links_a, links_b)
        k = int(lab.max()) + 1 if n else 0
        if k == count:
            return lab
        count = k
        rep = np.full(k, n, dtype=np.int64)
        np.minimum.at(rep, lab, np.arange(n))
        a, b = [np.arange(n)], [rep[lab]]
        # upward: parents of a class in one class
        r = rep[lab[nonroot]]
        keep = r > 0
        a.append(parent[nonroot[keep]])
        b.append(parent[r[keep]])
        # downward: children by the same action of a class's decision nodes
        rd = rep[lab[dec]]
        for e in range(amax):
            ca, cb = child_of[dec, e], child_of[rd, e]
            ok = (ca >= 0) & (cb >= 0)
            a.append(ca[ok])
            b.append(cb[ok])
        links_a, links_b = np.concatenate(a), np.concatenate(b)


def public_from_compiled(cg, name: str | None = None) -> PublicGame:
    """The public-tree form of the compiled game ``cg`` (module docstring), its rows mapped
    to ``cg``'s information sets.  GameError when the histories do not factor."""
    n, N = cg.n_players, cg.n_nodes
    kind = np.asarray(cg.kind)
    parent = np.asarray(cg.parent, dtype=np.int64)
    edge = np.asarray(cg.edge, dtype=np.int64)
    infoset = np.asarray(cg.infoset, dtype=np.int64)
    amax = max(cg.max_actions, 1)
    child_of = np.full((N, amax), -1, dtype=np.int64)     # children of decision nodes
    kids = np.arange(1, N)
    kids = kids[kind[parent[kids]] == DECISION]
    child_of[parent[kids], edge[kids]] = kids
    dec = np.flatnonzero(kind == DECISION)
    inf_first = np.full(cg.n_infosets, -1, dtype=np.int64)
    inf_first[infoset[dec][::-1]] = dec[::-1]
    pub = _closure(cg, dec, inf_first[infoset[dec]], child_of)
    if (pub == pub[0]).sum() > 1:
        raise GameError(f"{cg.name}: the histories do not factor into public and private "
                        "states (the root shares its public state with other histories)")
    priv = []
    for p in range(n):
        mine = dec[cg.player[dec] == p]
        priv.append(_closure(cg, mine, inf_first[infoset[mine]], child_of))

    # public states in order of their first node (parents first)
    P = int(pub.max()) + 1
    first = np.full(P, N, dtype=np.int64)
    np.minimum.at(first, pub, np.arange(N))
    order = np.argsort(first)
    new_id = np.empty(P, dtype=np.int64)
    new_id[order] = np.arange(P)
    pub = new_id[pub]
    members = np.split(np.argsort(pub, kind="stable"),
                       np.cumsum(np.bincount(pub, minlength=P))[:-1])

    # chance reach of every node (parents before children)
    chance = np.ones(N)
    cp = np.asarray(cg.chance_prob)
    is_ch = np.zeros(N, dtype=bool)
    is_ch[1:] = kind[parent[1:]] == CHANCE
    fac = np.where(is_ch, cp, 1.0)
    pl = parent.tolist()
    fl = fac.tolist()
    ch = chance.tolist()
    for i in range(1, N):
        ch[i] = ch[pl[i]] * fl[i]
    chance = np.array(ch)
    term_row = np.asarray(cg.terminal_index)

    asm = Assembler(n)
    local = [np.full(N, -1, dtype=np.int64) for _ in range(n)]   # node -> local private index
    pub_parent = np.full(P, -1, dtype=np.int64)
    chance_kids: dict[int, int] = {}
    for s in range(P):
        nodes = members[s]
        ks = np.unique(kind[nodes])
        if ks.shape[0] != 1:
            raise GameError(f"{cg.name}: the histories do not factor: public state of node "
                            f"{int(nodes[0])} mixes node kinds")
        k = int(ks[0])
        counts = []
        for p in range(n):
            cls = priv[p][nodes]
            _, first_pos, inv = np.unique(cls, return_index=True, return_inverse=True)
            rank = np.empty(first_pos.shape[0], dtype=np.int64)
            rank[np.argsort(first_pos)] = np.arange(first_pos.shape[0])
            local[p][nodes] = rank[inv.ravel()]
            counts.append(first_pos.shape[0])
        up = None
        par = -1
        e = -1
        if s > 0:
            pn = parent[nodes]
            ps = np.unique(pub[pn])
            if ps.shape[0] != 1:
                raise AssertionError("a public state with two parent states")
            par = int(ps[0])
            pub_parent[s] = par
            up = []
            for p in range(n):
                m = np.full(counts[p], -1, dtype=np.int64)
                m[local[p][nodes]] = local[p][pn]
                chk = np.zeros(counts[p], dtype=np.int64)
                chk[local[p][nodes]] = local[p][pn]
                if (m != chk).any():
                    raise AssertionError("a private state with two parents")
                up.append(m)
            pk = kind[pn[0]]
            if pk == DECISION:
                es = np.unique(edge[nodes])
                if es.shape[0] != 1:
                    raise GameError(f"{cg.name}: the histories do not factor: different "
                                    f"actions at node {int(pn[0])} lead to one public state "
                                    "(an action the others cannot see)")
                e = int(es[0])
                for p in range(n):
                    if counts[p] != asm.priv_n[par][p] or \
                            np.unique(up[p]).shape[0] != counts[p]:
                        raise GameError(f"{cg.name}: the histories do not factor: player "
                                        f"{p + 1}'s private states change at an action")
                    local[p][nodes] = up[p][local[p][nodes]]   # the parent's numbering
                    up[p] = np.arange(counts[p])
            else:
                e = chance_kids.get(par, 0)
                chance_kids[par] = e + 1
        label = f"node {int(nodes[0])}"
        if k == DECISION:
            who = np.unique(cg.player[nodes])
            if who.shape[0] != 1:
                raise GameError(f"{cg.name}: the histories do not factor: public state of node "
                                f"{int(nodes[0])} has several actors")
            p = int(who[0])
            na = np.unique(np.asarray(cg.n_actions)[infoset[nodes]])
            if na.shape[0] != 1:
                raise GameError(f"{cg.name}: the histories do not factor: public state of node "
                                f"{int(nodes[0])} has information sets of different sizes")
            rows = np.full(counts[p], -1, dtype=np.int64)
            rows[local[p][nodes]] = infoset[nodes]
            chk = np.zeros(counts[p], dtype=np.int64)
            chk[local[p][nodes]] = infoset[nodes]
            if (rows != chk).any():
                raise GameError(f"{cg.name}: the histories do not factor: a private state of "
                                f"player {p + 1} spans two information sets at node "
                                f"{int(nodes[0])}")
            asm.add(DECISION, par, e, counts, up, actor=p, n_actions=int(na[0]),
                    row_infoset=rows, label=label)
        elif k == CHANCE:
            asm.add(CHANCE, par, e, counts, up, label=label)
        else:
            jx = np.stack([local[p][nodes] for p in range(n)], axis=1)
            joint = asm.add_joint(jx, chance[nodes])
            tab = asm.add_table(np.asarray(cg.payoffs)[term_row[nodes]])
            asm.add(TERMINAL, par, e, counts, up, joint=joint, tab=tab, scale=1.0,
                    label=label)
    return asm.finish(name or cg.name, n_infosets=cg.n_infosets,
                      infosets=tuple(cg.game.infosets))


__all__ = ["public_from_compiled"]
