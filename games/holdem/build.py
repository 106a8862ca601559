"""Build a hold'em-style game (deck, rounds, evaluator) straight into flat arrays.

The game tree is the product of a small *public tree* (betting templates of
:mod:`games.holdem.betting` joined by deal placeholders, built in Python, one node per public
history) and the *deal paths* of :mod:`games.holdem.deals`.  Every public node at deal depth
``d`` stands for one full node per deal path of depth ``d``; numpy repeats and gathers write
the node arrays (parents before children: nodes are ordered by public node, then by deal
path) with no Python object per node.

* Chance nodes: one per stage (hole cards of each seat in seat order, one node per seat,
  then the board), with exact card-removal probabilities; with ``merge`` (and an evaluator
  that ignores suits) outcomes are rank multisets, otherwise sets of distinct cards.
* Decision nodes only for active players; the game ends (no more deals or nodes) when one
  player remains, who takes the pot.
* Information sets: (player, the deals the player sees, public betting history).  Labels
  are ``P<seat>:<own cards>[+<partner's cards>]|<round 1>/<board 2>:<round 2>/...``, each
  round's actions separated by spaces, e.g. ``P2:35|b`` or ``P1:35|b c b c/22:b``.
  Actions: ``b`` bet/raise (``b<amount>`` with several sizes), ``c`` call, ``k`` check,
  ``f`` fold (orbits style); ``f``/``c``/``r`` (limit style).
* Payoffs: net chips (share of the pot minus own contributions), zero-sum; collusion
  wrappers as CollusionEvaluator.java: ``weak`` (the colluders' net payoffs are summed and
  split evenly), ``pot`` (their gross shares of the pot are pooled and split evenly, each
  paying its own bets) and ``strong`` (weak + they see each other's hole cards).
"""
from __future__ import annotations

import logging
import time
from math import comb
from collections.abc import Sequence

import numpy as np

from pokerdyn.games.arrays import game_from_arrays
from pokerdyn.games.collusion import check_seats
from pokerdyn.games.errors import GameError
from pokerdyn.games.holdem.betting import Round, TooManyNodes, betting_template
from pokerdyn.games.holdem.cards import Deck
from pokerdyn.games.holdem.collapse import BoardExpectation, expected_payoffs, trailing_round
from pokerdyn.games.holdem.deals import SHARED, Stage, deal_paths, hands, merged_counts, views
from pokerdyn.games.holdem.evaluators import Evaluator, MercerEvaluator, pot_shares
from pokerdyn.games.size import GameSize
from pokerdyn.games.tree import CHANCE, DECISION, TERMINAL, Game, Infoset, infoset_label

COLLUSION = ("weak", "pot", "strong")
# builds of at least this many nodes log their stages (logger "pokerdyn.games.holdem.build", INFO;
# the pokerdyn command shows them on stderr)
LOG_NODES = 10_000_000
log = logging.getLogger(__name__)


class _Public:
    """The public tree as Python lists (kind, parent, edge (-1 below a chance node), player,
    depth, actions, history, contributions, active seats)."""

    def __init__(self):
        self.kind, self.parent, self.edge, self.player, self.depth = [], [], [], [], []
        self.actions, self.hist, self.contrib, self.active = [], [], [], []

    def add(self, kind, parent, edge, depth, player=-1, actions=(), hist=(), contrib=None,
            active=None):
        self.kind.append(kind)
        self.parent.append(parent)
        self.edge.append(edge)
        self.depth.append(depth)
        self.player.append(player)
        self.actions.append(actions)
        self.hist.append(hist)
        self.contrib.append(contrib)
        self.active.append(active)
        return len(self.kind) - 1


def _stages(rounds: Sequence[Round], n: int) -> list[list[Stage]]:
    out = []
    for r, rnd in enumerate(rounds):
        st = [Stage(r, s, rnd.hole_cards) for s in range(n)] if rnd.hole_cards else []
        out.append(st + ([Stage(r, SHARED, rnd.shared_cards)] if rnd.shared_cards else []))
    return out


def _public_tree(rounds, n: int, stages, stop: int | None = None, weights=None,
                 limit: int | None = None) -> _Public:
    """``stop``: the first collapsed round (its deals and the later rounds become one
    terminal node whose payoff is the expectation over them).  ``weights[d]``: full nodes
    per public node of deal depth ``d``; with ``limit``, TooManyNodes once the weighted
    count passes it (checked while the tree grows, so an exponential tree stops early)."""
    pub = _Public()
    if limit is not None:
        total = [0]
        add = pub.add

        def counted(kind, parent, edge, depth, *a, **kw):
            total[0] += int(weights[depth])
            if total[0] > limit:
                raise TooManyNodes
            return add(kind, parent, edge, depth, *a, **kw)

        pub.add = counted

    def enter(r, active, contrib, parent, edge, depth, hist):
        if r == len(rounds) or r == stop:
            for rnd in rounds[r:]:            # antes of the collapsed rounds
                contrib = tuple(c + rnd.ante if a else c for c, a in zip(contrib, active))
            pub.add(TERMINAL, parent, edge, depth, hist=hist, contrib=contrib, active=active)
            return
        rnd = rounds[r]
        contrib = tuple(c + rnd.ante if a else c for c, a in zip(contrib, active))
        for _ in stages[r]:
            parent = pub.add(CHANCE, parent, edge, depth)
            edge, depth = -1, depth + 1
        room = None if limit is None else (limit - total[0]) // max(int(weights[depth]), 1) + 1
        tpl = betting_template(rnd, active, contrib, room)
        ids = []
        for (p, e, player, acts, h) in tpl.nodes:
            ids.append(pub.add(DECISION, ids[p] if p >= 0 else parent, e if p >= 0 else edge,
                               depth, player, acts, hist + (h,)))
        for (p, e, act, con, h) in tpl.exits:
            par, ed = (ids[p], e) if p >= 0 else (parent, edge)
            if sum(act) == 1:
                pub.add(TERMINAL, par, ed, depth, hist=hist + (h,), contrib=con, active=act)
            else:
                enter(r + 1, act, con, par, ed, depth, hist + (h,))

    enter(0, (True,) * n, (0,) * n, -1, -1, 0, ())
    return pub


def _check_cards(deck: Deck, rounds, n: int):
    need = sum(r.hole_cards * n + r.shared_cards for r in rounds)
    if need > deck.size:
        raise GameError(f"the deck has {deck.size} cards, too few for the deal of {need} cards "
                        f"({n} players)")


def _team(collusion, colluders, n: int) -> tuple[int, ...]:
    if collusion is None or collusion == "none":
        return ()
    if collusion not in COLLUSION:
        raise GameError(f"collusion {collusion!r} is not one of none, {', '.join(COLLUSION)}")
    team = tuple(colluders) if colluders is not None else (n - 2, n - 1)
    return check_seats(team, n, base=0)


def _shares(deck, evaluator, paths, n, active_sets):
    """Pot shares per (active set, final path, player)."""
    hs = [hands(paths, p) for p in range(n)]
    out = np.zeros((len(active_sets), len(paths.cards[-1]), n))
    if hasattr(evaluator, "shares"):
        allh = np.stack(hs, axis=1)
        for i, act in enumerate(active_sets):
            a = np.array(act)
            sh = np.asarray(evaluator.shares(deck, allh, a), dtype=np.float64)
            bad = (np.abs(sh.sum(axis=1) - 1) > 1e-9) | (np.abs(sh[:, ~a]) > 0).any(axis=1) | \
                (sh < 0).any(axis=1)
            if bad.any():
                j = int(np.flatnonzero(bad)[0])
                raise GameError(f"evaluator shares {sh[j].tolist()} for active seats "
                                f"{np.flatnonzero(a).tolist()} do not sum to 1 over the "
                                "active players")
            out[i] = sh
        return out
    strength = np.stack([np.asarray(evaluator.strength(deck, h), dtype=np.int64) for h in hs],
                        axis=1)
    for i, act in enumerate(active_sets):
        out[i] = pot_shares(strength, np.array(act))
    return out


def _label(name_of, stages_flat, p, team, view, hist) -> str:
    def cards(cs):
        return "".join(name_of(c) for c in cs)

    own = "".join(cards(c) for st, c in zip(stages_flat, view)
                  if c is not None and st.seat == p)
    if p in team:
        mate = "".join(cards(c) for st, c in zip(stages_flat, view)
                       if c is not None and st.seat in team and st.seat != p)
        own += "+" + mate
    segs = []
    for r, acts in enumerate(hist):
        board = "".join(cards(c) for st, c in zip(stages_flat, view)
                        if c is not None and st.seat == SHARED and st.round == r)
        segs.append((board + ":" if board else "") + " ".join(acts))
    return infoset_label(p, own, "/".join(segs))


def checked_setup(deck: Deck, rounds: Sequence[Round], n_players: int,
                  collusion: str | None, colluders: Sequence[int] | None
                  ) -> tuple[tuple[Round, ...], tuple[int, ...], list]:
    """``(rounds, team, stages)`` of a hold'em game after the checks every form of it makes
    (the history tree here, the public tree in :mod:`pokerdyn.games.public.holdem`): at
    least 2 players, at least one round, enough cards, valid colluders."""
    if not isinstance(n_players, int) or n_players < 2:
        raise GameError(f"n_players={n_players!r} is outside [2, inf)")
    rounds = tuple(rounds)
    if not rounds:
        raise GameError("a game needs at least one round")
    _check_cards(deck, rounds, n_players)
    return rounds, _team(collusion, colluders, n_players), _stages(rounds, n_players)


def build_game(deck: Deck, rounds: Sequence[Round], evaluator: Evaluator, n_players: int,
               name: str = "holdem", collusion: str | None = None,
               colluders: Sequence[int] | None = None, merge: bool = True,
               description: str = "", collapse: bool | None = None) -> Game:
    """The game of ``rounds`` dealt from ``deck`` and settled by ``evaluator``.

    Parameters
    ----------
    collusion : None, "weak", "pot" or "strong"
        Payoff sharing between the ``colluders`` (0-based seats; default the last two).
    merge : bool
        Deal rank multisets (exact card-removal weights) when the evaluator ignores suits;
        False deals distinct cards (one outcome per card set, as OpenSpiel does).
    collapse : None, True or False
        Boards dealt after the last betting round (no decision below them, as in Mercer's
        SMH) become terminal nodes paying the exact expectation over the board
        (:mod:`games.holdem.collapse`): the same information sets and expected payoffs,
        far fewer nodes.  None: whenever possible; True: required (GameError if not).
    """
    rounds, team, stages = checked_setup(deck, rounds, n_players, collusion, colluders)
    n = n_players
    start = time.perf_counter()
    merged = bool(merge and not evaluator.suited)
    stop = trailing_round(rounds, merged, evaluator, collapse)
    flat = tuple(s for st in stages[:stop] for s in st)
    paths = deal_paths(deck, flat, merged)
    pub = _public_tree(rounds, n, stages, stop)

    # ---- information sets: (public decision node, view of its player at its depth)
    strong_team = team if collusion == "strong" else ()
    vids, vtabs = zip(*(views(paths, p, strong_team, deck.per_rank if merged else 0)
                        for p in range(n)))
    name_of = (lambda r: deck.rank_name(r)) if merged else deck.card_name
    ibase, infosets = {}, []
    for v, k in enumerate(pub.kind):
        if k == DECISION:
            p, d = pub.player[v], pub.depth[v]
            ibase[v] = len(infosets)
            infosets.extend(Infoset(_label(name_of, flat, p, strong_team, view, pub.hist[v]), p,
                                    pub.actions[v]) for view in vtabs[p][d])

    # ---- payoff ingredients per terminal public node
    sets = sorted({pub.active[v] for v, k in enumerate(pub.kind)
                   if k == TERMINAL and sum(pub.active[v]) > 1})
    if stop is None:
        share_tab = _shares(deck, evaluator, paths, n, sets) if sets else None
    elif sets:
        board = BoardExpectation(deck, evaluator, paths, n,
                                 sum(rnd.shared_cards for rnd in rounds[stop:]))

    def rows(v):
        """Net payoffs of the terminal public node ``v`` for every deal path of its depth."""
        contrib = np.array([float(c) for c in pub.contrib[v]])
        pot = contrib.sum()
        act = pub.active[v]
        if sum(act) > 1 and stop is not None:      # collapsed: exact expectation
            return expected_payoffs(*board.shares(act), pub.contrib[v], collusion, team)
        if sum(act) > 1:
            if pub.depth[v] != len(flat):
                raise AssertionError("showdown before all cards are dealt")
            gross = share_tab[sets.index(act)] * pot
        else:
            gross = np.broadcast_to(np.array(act, dtype=np.float64) * pot,
                                    (len(paths.cards[pub.depth[v]]), n)).copy()
        if collusion == "pot":
            gross[:, team] = gross[:, team].mean(axis=1, keepdims=True)
        pay = gross - contrib
        if collusion in ("weak", "strong"):
            pay[:, team] = pay[:, team].mean(axis=1, keepdims=True)
        return pay

    # ---- tile: public node v stands for one node per deal path of its depth, in one block
    npath = paths.counts
    cnt = npath[np.array(pub.depth, dtype=np.int64)]
    off = np.concatenate([[0], np.cumsum(cnt)])
    N = int(off[-1])
    if N >= 2**31:
        raise GameError(f"the game has {N} nodes, more than the 2^31 - 1 of int32 indices")
    loud = N >= LOG_NODES
    if loud:
        log.info("%s: %s nodes, %s information sets (%.1f s); filling the node arrays", name,
                 f"{N:,}", f"{len(infosets):,}", time.perf_counter() - start)
    kind = np.empty(N, dtype=np.int8)
    parent = np.empty(N, dtype=np.int32)
    edge = np.zeros(N, dtype=np.int16)
    player = np.full(N, -1, dtype=np.int8)
    infoset = np.full(N, -1, dtype=np.int32)
    prob = np.ones(N, dtype=np.float64)
    n_term = int(sum(cnt[v] for v, k in enumerate(pub.kind) if k == TERMINAL))
    pay = np.empty((n_term, n), dtype=np.float64)
    ar = np.arange(int(npath.max()), dtype=np.int64)
    t = 0
    for v, k in enumerate(pub.kind):
        a, b = int(off[v]), int(off[v + 1])
        d, u = pub.depth[v], pub.parent[v]
        kind[a:b] = k
        if u < 0:
            parent[a:b] = -1
        elif pub.edge[v] >= 0:                 # below a decision node: same deal path
            parent[a:b] = off[u] + ar[:b - a]
            edge[a:b] = pub.edge[v]
        else:                                  # below a chance node: one more stage dealt
            parent[a:b] = off[u] + paths.parent[d]
            edge[a:b] = paths.edge[d]
            prob[a:b] = paths.prob[d]
        if k == DECISION:
            p = pub.player[v]
            player[a:b] = p
            infoset[a:b] = ibase[v] + vids[p][d]
        elif k == TERMINAL:
            pay[t:t + b - a] = rows(v)
            t += b - a

    if loud:
        log.info("%s: arrays filled (%.1f s); checking structure and perfect recall", name,
                 time.perf_counter() - start)
    game = game_from_arrays(name, n, kind, parent, edge, player, infoset, infosets, prob, pay,
                            description=description)
    if loud:
        log.info("%s: built in %.1f s", name, time.perf_counter() - start)
    return game


def count_nodes(deck: Deck, rounds: Sequence[Round], n_players: int,
                collapse: bool | None = None, evaluator: Evaluator | None = None) -> int:
    """Nodes of :func:`build_game`'s game (rank-merged deals, any collusion: it changes only
    payoffs and information sets) without building it: the public tree's nodes, each
    counted once per deal path of its depth (:func:`games.holdem.deals.merged_counts`).
    ``collapse`` as in :func:`build_game` (``evaluator``: default a strength evaluator)."""
    return estimate_size(deck, rounds, n_players, collapse, evaluator).nodes


def _distinct_counts(deck: Deck, stages) -> np.ndarray:
    """Deal paths per depth when every set of distinct cards is its own outcome."""
    out, left = [1], deck.size
    for st in stages:
        out.append(out[-1] * comb(left, st.k))
        left -= st.k
    return np.array(out, dtype=np.float64)


def estimate_size(deck: Deck, rounds: Sequence[Round], n_players: int,
                  collapse: bool | None = None, evaluator: Evaluator | None = None,
                  merge: bool = True, limit: int | None = None) -> GameSize:
    """Nodes and terminals of :func:`build_game`'s game (a :class:`games.size.GameSize`:
    bytes too) without building it (the public
    tree, each node counted once per deal path of its depth), within milliseconds for any
    size: with ``limit`` the count stops once it passes ``limit`` nodes (``exceeds``).
    ``merge`` and ``collapse`` as in :func:`build_game`; ``evaluator``: default a strength
    evaluator that ignores suits."""
    rounds = tuple(rounds)
    _check_cards(deck, rounds, n_players)
    evaluator = evaluator or MercerEvaluator()
    merged = bool(merge and not evaluator.suited)
    stages = _stages(rounds, n_players)
    stop = trailing_round(rounds, merged, evaluator, collapse)
    flat = tuple(s for st in stages[:stop] for s in st)
    cnt = merged_counts(deck, flat) if merged else _distinct_counts(deck, flat)
    try:
        pub = _public_tree(rounds, n_players, stages, stop, cnt, limit)
    except TooManyNodes:
        return GameSize(int(limit) + 1, 0, n_players, exceeds=True)
    depth, kind = np.array(pub.depth), np.array(pub.kind)
    nodes = int(round(cnt[depth].sum()))
    terms = int(round(cnt[depth[kind == TERMINAL]].sum()))
    return GameSize(nodes, terms, n_players)


__all__ = ["COLLUSION", "build_game", "checked_setup", "count_nodes", "estimate_size"]
