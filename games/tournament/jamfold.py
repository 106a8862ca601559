"""The N-player jam/fold (push/fold) game, built straight into flat arrays.

Rules (Ganzfried & Sandholm's jam/fold tournament endgame; the survey's push/fold charts):

* Seats ``0..N-1`` with ``stacks``; every seat posts ``ante``; with ``N >= 3`` the small
  blind is the seat after the ``button`` and the big blind the one after it; heads-up the
  button posts the small blind.  Every stack must exceed what its seat posts.
* Chance deals a hand class to each seat (:class:`~games.tournament.showdown.HandModel`).
  Heads-up the pair of classes has the exact card-removal probability ``pair_prob``.  With
  ``N >= 3`` the joint probability is the *pairwise* approximation
  ``P(c_1..c_N) ∝ prod_i m(c_i) * prod_{i<j} pair(c_i, c_j) / (m(c_i) m(c_j))`` (``m`` the
  marginal), normalised: each pair's card removal is exact, higher-order removal is not.
* Preflop order: UTG (the seat after the big blind) first, the big blind last; heads-up the
  small blind (button) first.  Until someone pushes a player pushes all-in (``p``) or folds
  (``f``); after a push every later player calls all-in (``c``) or folds (``f``), so several
  callers (over-calls) may follow.  If everyone folds to the big blind it wins the pot
  without acting.  Showdown with side pots (:func:`~games.tournament.showdown.settle`).
* Payoffs: net chips (final stack minus starting stack), or with ``payouts`` the ICM
  equity of the final stacks minus that of the starting stacks (:mod:`games.tournament.icm`),
  the expectation over showdown outcomes taken on ICM values (not on chips).  Both are
  zero-sum: chips are conserved, and ICM equities always sum to ``sum(payouts)`` (busted
  players take the bottom places).

Information sets are (seat, own class, public history), labelled ``P<seat+1>:<class>|<hist>``
(e.g. ``P2:AKs|p``).  The tree is a chance node per seat (K outcomes each), then one copy of
the small public tree per deal: ``K^N`` deals, so 169 classes are feasible heads-up
(28,561 deals, 114k nodes); with 3+ seats use few classes (an abstraction) or a solver that
does not enumerate deals.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from pokerdyn.games.arrays import game_from_arrays
from pokerdyn.games.errors import GameError
from pokerdyn.games.tournament.icm import check_payouts, icm_batch
from pokerdyn.games.tournament.showdown import HandModel, settle, weak_orderings
from pokerdyn.games.tree import CHANCE, DECISION, TERMINAL, Game, Infoset, infoset_label

MAX_SEATS = 6
MAX_NODES = 50_000_000
# deepest stack, in big blinds: jam/fold is a short-stack model, and deeper stacks make the
# chip payoffs so much larger than the blinds that the LP loses them (HiGHS: model error)
MAX_DEPTH = 10_000


@dataclass(frozen=True)
class Table:
    """Seats, posts and action order of one jam/fold hand."""

    stacks: NDArray[np.float64]
    posts: NDArray[np.float64]          # chips each seat posts (ante + blind)
    order: tuple[int, ...]              # acting order, big blind last
    sb: int
    bb: int


def table(stacks: ArrayLike, blinds: Sequence[float], ante: float = 0.0,
          button: int = 0) -> Table:
    """Check the table and return posts and acting order; GameError on bad input."""
    s = np.asarray(stacks, dtype=np.float64).ravel()
    n = s.size
    if not 2 <= n <= MAX_SEATS:
        raise GameError(f"{n} seats is outside [2, {MAX_SEATS}]; allowed: 2 to {MAX_SEATS} "
                        "values of stacks, one a seat")
    if not np.isfinite(s).all() or (s <= 0).any():
        bad = s[~np.isfinite(s) | (s <= 0)][0]
        raise GameError(f"stack {bad:g} is outside the allowed range (0, inf)")
    if len(blinds) != 2:
        raise GameError(f"blinds={list(blinds)} must be two numbers: small, big")
    sbv, bbv = (float(b) for b in blinds)
    if not (0 < sbv <= bbv) or not np.isfinite(bbv):
        raise GameError(f"blinds={sbv:g},{bbv:g} must satisfy 0 < small <= big")
    if not (np.isfinite(ante) and ante >= 0):
        raise GameError(f"ante={ante:g} is outside the allowed range [0, inf)")
    deep = np.flatnonzero(s > MAX_DEPTH * bbv)
    if deep.size:
        i = int(deep[0])
        raise GameError(f"stack {s[i]:g} of seat {i + 1} is {s[i] / bbv:.3g} big blinds; "
                        f"allowed: at most {MAX_DEPTH:,} big blinds (big blind {bbv:g})")
    if not isinstance(button, (int, np.integer)) or not 0 <= button < n:
        raise GameError(f"button={button!r} is outside [0, {n - 1}]")
    sb, bb = (button, (button + 1) % n) if n == 2 else ((button + 1) % n, (button + 2) % n)
    posts = np.full(n, float(ante))
    posts[sb] += sbv
    posts[bb] += bbv
    short = np.flatnonzero(posts >= s)
    if short.size:
        i = int(short[0])
        raise GameError(f"seat {i + 1} posts {posts[i]:g} (blind + ante), not below its stack "
                        f"{s[i]:g}; allowed: stacks larger than the blinds plus the ante")
    order = tuple((bb + 1 + k) % n for k in range(n))
    return Table(stacks=s, posts=posts, order=order, sb=sb, bb=bb)


def deal_probabilities(model: HandModel, n: int) -> NDArray[np.float64]:
    """Joint class probabilities of ``n`` seats, shape (K,)*n (module docstring)."""
    pair = np.asarray(model.pair_prob, dtype=np.float64)
    if n == 2:
        return pair
    m = pair.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(np.outer(m, m) > 0, pair / np.outer(m, m), 0.0)
    K = m.size
    joint = np.ones((K,) * n)
    for i in range(n):
        joint = joint * m.reshape([K if a == i else 1 for a in range(n)])
        for j in range(i + 1, n):
            shape = [1] * n
            shape[i] = shape[j] = K
            joint = joint * r.reshape(shape)
    return joint / joint.sum()


def _public_tree(t: Table):
    """Public nodes (kind, parent, edge, actor, actions, history, in-hand mask) in BFS order."""
    n = t.stacks.size
    # queue entries: parent, edge, next acting position, history, seats in, pushed yet
    queue = [(-1, -1, 0, (), np.zeros(n, dtype=bool), False)]
    nodes, k = [], 0
    while k < len(queue):
        par, e, pos, hist, inn, pushed = queue[k]
        k += 1
        folded_all = not pushed and pos == n - 1          # everyone folded to the big blind
        if pos == n or folded_all:
            win = inn.copy()
            if folded_all:
                win[t.order[-1]] = True
            nodes.append((TERMINAL, par, e, -1, (), hist, win))
            continue
        actor = t.order[pos]
        acts = ("f", "c") if pushed else ("f", "p")
        v = len(nodes)
        nodes.append((DECISION, par, e, actor, acts, hist, None))
        for a, act in enumerate(acts):
            inn2 = inn.copy()
            inn2[actor] = act != "f"
            queue.append((v, a, pos + 1, hist + (act,), inn2, pushed or act == "p"))
    return nodes


def _terminal_values(t: Table, inn: NDArray[np.bool_], payouts) -> NDArray[np.float64]:
    """Payoff vectors (W, N) of a terminal with players ``inn`` still in, one per weak
    ordering of their hands (one row when a single player is left)."""
    committed = np.where(inn, t.stacks, t.posts)
    m = int(inn.sum())
    W = weak_orderings(m) if m > 1 else np.zeros((1, 1), dtype=np.int64)
    finals = np.empty((len(W), t.stacks.size))
    for w, ranks in enumerate(W):
        strength = np.zeros(t.stacks.size, dtype=np.int64)
        strength[inn] = ranks
        finals[w] = t.stacks - committed + settle(committed, inn, strength)
    if payouts is None:
        return finals - t.stacks
    return icm_batch(finals, payouts) - icm_batch(t.stacks[None], payouts)


def jamfold_game(model: HandModel, stacks: ArrayLike, blinds: Sequence[float] = (0.5, 1.0),
                 ante: float = 0.0, button: int = 0, payouts: ArrayLike | None = None,
                 name: str = "jamfold") -> Game:
    """The jam/fold game of the module docstring.

    Parameters
    ----------
    model : HandModel
        Hand classes, deal probabilities and equities (heads-up: the 169-class table).
    stacks : array_like (N,)
        Chips per seat, 2 <= N <= 6, each above what the seat posts.
    blinds : (small, big)
    ante : float
        Posted by every seat.
    button : int
        0-based seat of the button.
    payouts : array_like, optional
        ICM payouts (fractions of the prize pool); None: payoffs in chips.
    """
    t = table(stacks, blinds, ante, button)
    n = t.stacks.size
    pay_arr = None if payouts is None else check_payouts(payouts, n)
    K = len(model.names)
    if n >= 3 and model.multiway is None:
        raise GameError(f"{n}-seat jam/fold: 3-way all-in equities need a multiway equity "
                        "provider (HandModel.multiway); none was given")
    pub = _public_tree(t)
    D = K ** n
    if D * len(pub) > MAX_NODES:
        raise GameError(f"{K} classes and {n} seats make {D:,} deals and {D * len(pub):,} "
                        f"nodes; allowed: at most {MAX_NODES:,} (use fewer hand classes)")
    joint = deal_probabilities(model, n)
    deals = np.indices((K,) * n).reshape(n, D).T                      # (D, n), row-major
    # chance levels: level j has K^j nodes (prefixes of deals), probabilities conditional
    kind, parent, edge, prob = [np.array([CHANCE], dtype=np.int8)], [np.array([-1])], \
        [np.array([0])], [np.array([1.0])]
    base, prev = 1, 0
    for j in range(1, n + 1):
        pre = joint.reshape(K ** j, -1).sum(axis=1)
        up = np.repeat(joint.reshape(K ** (j - 1), -1).sum(axis=1), K)
        with np.errstate(divide="ignore", invalid="ignore"):
            prob.append(np.where(up > 0, pre / up, 1.0 / K))
        kind.append(np.full(K ** j, CHANCE if j < n else DECISION, dtype=np.int8))
        parent.append(prev + np.arange(K ** j) // K)
        edge.append(np.arange(K ** j) % K)
        prev, base = base, base + K ** j
    # public node 0 (the first decision) is the last chance level; others follow in blocks
    off = np.empty(len(pub), dtype=np.int64)
    off[0] = prev
    infosets, ibase, player_of = [], {}, {}
    terms = []
    for v, (k, par, e, actor, acts, hist, inn) in enumerate(pub):
        if v > 0:
            off[v] = base
            base += D
            kind.append(np.full(D, k, dtype=np.int8))
            parent.append(off[par] + np.arange(D))
            edge.append(np.full(D, e))
            prob.append(np.ones(D))
        if k == DECISION:
            ibase[v] = len(infosets)
            player_of[v] = actor
            h = " ".join(hist)
            infosets.extend(Infoset(infoset_label(actor, c, h), actor, acts) for c in model.names)
        else:
            terms.append((v, inn))
    kind = np.concatenate(kind)
    N = kind.size
    player = np.full(N, -1, dtype=np.int8)
    infoset = np.full(N, -1, dtype=np.int32)
    for v, b in ibase.items():
        p = player_of[v]
        player[off[v]:off[v] + D] = p
        infoset[off[v]:off[v] + D] = b + deals[:, p]
    pays = []
    for v, inn in terms:
        vals = _terminal_values(t, inn, pay_arr)
        if int(inn.sum()) > 1:
            probs = model.outcome_probs(deals[:, inn])
            pays.append(probs @ vals)
        else:
            pays.append(np.broadcast_to(vals[0], (D, n)))
    return game_from_arrays(name, n, kind, np.concatenate(parent), np.concatenate(edge), player,
                            infoset, infosets, np.concatenate(prob), np.concatenate(pays),
                            description=f"jam/fold, stacks {t.stacks.tolist()}, blinds "
                                        f"{list(blinds)}, ante {ante:g}"
                                        + ("" if pay_arr is None else
                                           f", ICM payouts {pay_arr.tolist()}"))


__all__ = ["MAX_DEPTH", "MAX_SEATS", "Table", "deal_probabilities", "jamfold_game", "table"]
