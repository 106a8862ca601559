"""The 3-seat jam/fold game over the 169 preflop classes as a public tree over private
classes (:class:`games.ranges.RangeGame`): no deal is a tree node.

* Rules, public tree and terminal payoffs (chips or ICM, side pots, ties split) are those of
  :mod:`games.tournament.jamfold` (``_public_tree``, ``_terminal_values``).
* Deal: the exact probability of every ordered class triple with full card removal among
  the three hands (:func:`games.preflop.multiway.triple_probabilities`).
* Heads-up showdowns: the exact 169-class table (:func:`games.preflop.equity.hu_equity_table`,
  win / tie / lose).  The folded third hand's cards are *not* removed from the deck of that
  showdown (the table averages over the 48 other cards); the deal probabilities do keep
  exact card removal between all three hands.
* Three-way showdowns: the Monte Carlo outcome probabilities of
  :class:`games.preflop.multiway.ThreeWayTable` for the triples it has computed; any other
  triple gets a stand-in (``fallback_three_way``: strict orders only, the probability of an
  order proportional to the product of the three heads-up equities it needs), whose effect on
  any value is bounded by the weight it carries (:func:`uncovered`).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations

import numpy as np
from numba import njit
from numpy.typing import ArrayLike, NDArray

from pokerdyn.games.errors import GameError
from pokerdyn.games.preflop.classes import CLASSES, N_CLASSES
from pokerdyn.games.preflop.multiway import ThreeWayTable, triple_probabilities
from pokerdyn.games.ranges import RangeGame
from pokerdyn.games.tournament.icm import check_payouts
from pokerdyn.games.tournament.jamfold import Table, _public_tree, _terminal_values, table
from pokerdyn.games.tournament.showdown import weak_orderings
from pokerdyn.games.tree import TERMINAL

K = N_CLASSES


@dataclass(frozen=True)
class ClassJamfold:
    """The game, its table, the all-in node (``showdown3``), the payoff of each outcome
    there (``outcome_values`` (13, 3), rows ``weak_orderings(3)``) and which ordered class
    triples have Monte Carlo outcomes (``computed`` (K, K, K) bool)."""

    game: RangeGame
    table: Table
    showdown3: int
    outcome_values: NDArray[np.float64]
    computed: NDArray[np.bool_]


@dataclass(frozen=True)
class OrderedOutcomes:
    """Every ordered class triple ``x`` (X, 3) whose sorted triple the table has computed,
    its table row ``row`` (X,) and ``perm`` (X, 13): outcome ``W`` of the sorted triple is
    outcome ``perm[x, W]`` of the seats."""

    x: NDArray[np.int64]
    row: NDArray[np.int64]
    perm: NDArray[np.int64]


def ordered_outcomes(three_way: ThreeWayTable) -> OrderedOutcomes:
    """The seat orders of the computed sorted triples (a seat order of a triple with a
    repeated class counted once: equal classes keep their sorted order, the stable argsort)."""
    W = weak_orderings(3)
    index = {tuple(r): i for i, r in enumerate(W)}
    T = three_way.sorted_triples()
    xs, rows, perms = [], [], []
    for pi in permutations(range(3)):          # sorted position m sits at seat pi[m]
        keep = np.ones(len(T), dtype=bool)
        for m in range(2):
            if pi[m] > pi[m + 1]:              # equal classes must keep their order
                keep &= T[:, m] != T[:, m + 1]
        x = np.empty_like(T)
        x[:, list(pi)] = T
        v = np.empty_like(W)
        v[:, list(pi)] = W
        xs.append(x[keep])
        rows.append(np.flatnonzero(keep))
        perms.append(np.broadcast_to([index[tuple(r)] for r in v], (int(keep.sum()), len(W))))
    return OrderedOutcomes(np.concatenate(xs), np.concatenate(rows), np.concatenate(perms))


@njit(cache=True)
def _fallback(e, strict, values):
    n = e.shape[0]
    out = np.zeros((n, n, n, values.shape[1]))
    for i in range(n):
        for j in range(n):
            for k in range(n):
                c = (i, j, k)
                den = 0.0
                for w in range(strict.shape[0]):
                    s = strict[w]
                    p = 1.0
                    for a in range(3):
                        for b in range(a + 1, 3):
                            eab = e[c[a], c[b]]
                            p *= eab if s[a] > s[b] else 1.0 - eab
                    den += p
                    for m in range(values.shape[1]):
                        out[i, j, k, m] += p * values[w, m]
                if den > 0:
                    for m in range(values.shape[1]):
                        out[i, j, k, m] /= den
    return out


def fallback_three_way(equity: NDArray[np.float64], values: NDArray[np.float64]
                       ) -> NDArray[np.float64]:
    """Stand-in expected payoffs (K, K, K, N) of a three-way showdown: strict orders only,
    ``P(order) ∝ prod_{i<j} (e[c_i, c_j] if i above j else e[c_j, c_i])``."""
    W = weak_orderings(3)
    strict = np.flatnonzero([len(set(r.tolist())) == 3 for r in W])
    return _fallback(np.ascontiguousarray(equity, dtype=np.float64),
                     np.ascontiguousarray(W[strict]),
                     np.ascontiguousarray(values[strict], dtype=np.float64))


def _two_way(model, values: NDArray[np.float64]) -> NDArray[np.float64]:
    """Expected payoffs (K, K, N) of a heads-up showdown of the seats' classes (rows of
    ``values``: weak_orderings(2) = second seat wins, first seat wins, tie)."""
    e = np.asarray(model.equity)
    t = np.asarray(model.tie)
    probs = np.stack([1 - e - t / 2, e - t / 2, t], axis=-1)
    return probs @ values


def class_jamfold(stacks: ArrayLike, blinds: Sequence[float] = (0.5, 1.0), ante: float = 0.0,
                  button: int = 0, payouts: ArrayLike | None = None,
                  three_way: ThreeWayTable | None = None) -> ClassJamfold:
    """The 3-seat class-level jam/fold game of the module docstring."""
    from pokerdyn.games.tournament.hands import preflop_model
    t = table(stacks, blinds, ante, button)
    if t.stacks.size != 3:
        raise GameError(f"{t.stacks.size} seats; the class-level game has 3 (use the sampled "
                        "game for 4 to 6)")
    pay = None if payouts is None else check_payouts(payouts, 3)
    model = preflop_model()
    pub = _public_tree(t)
    kind = np.array([k for k, *_ in pub], dtype=np.int8)
    seats, pays, show3, v3 = [], [], -1, None
    for v, (k, par, e, actor, acts, hist, inn) in enumerate(pub):
        if k != TERMINAL:
            seats.append(None)
            pays.append(None)
            continue
        vals = _terminal_values(t, inn, pay)
        live = tuple(int(s) for s in np.flatnonzero(inn))
        if len(live) == 1:
            seats.append(())
            pays.append(vals[0].copy())
        elif len(live) == 2:
            seats.append(live)
            pays.append(_two_way(model, vals))
        else:
            show3, v3 = v, vals
            seats.append(live)
            pays.append(None)
    computed = np.zeros((K, K, K), dtype=bool)
    u3 = fallback_three_way(model.equity, v3)
    if three_way is not None and three_way.keys.size:
        oo = ordered_outcomes(three_way)
        p = three_way.probabilities(oo.row)
        i, j, k = oo.x.T
        u3[i, j, k] = np.einsum("xw,xwn->xn", p, v3[oo.perm])
        computed[i, j, k] = True
    pays[show3] = u3
    game = RangeGame(n_players=3, n_classes=K, deal=triple_probabilities(), kind=kind,
                     parent=np.array([n[1] for n in pub], dtype=np.int64),
                     edge=np.array([n[2] for n in pub], dtype=np.int64),
                     actor=np.array([n[3] for n in pub], dtype=np.int64),
                     actions=tuple(n[4] for n in pub), seats=tuple(seats),
                     payoffs=tuple(pays), labels=tuple(" ".join(n[5]) for n in pub),
                     names=CLASSES)
    return ClassJamfold(game=game, table=t, showdown3=show3, outcome_values=v3,
                        computed=computed)


def uncovered(cj: ClassJamfold, reach: NDArray[np.float64], p: int) -> NDArray[np.float64]:
    """Bound (K,) on how far player ``p``'s counterfactual value at the all-in node can move,
    per own class, from the stand-in on triples without Monte Carlo outcomes: their weight
    (deal probability times the others' reach ``reach`` (3, K)) times p's payoff spread."""
    w = cj.game.deal * ~cj.computed
    others = [q for q in range(3) if q != p]
    subs = "abc," + ",".join("abc"[q] for q in others) + "->" + "abc"[p]
    spread = float(np.ptp(cj.outcome_values[:, p]))
    return spread * np.einsum(subs, w, *(reach[q] for q in others))


__all__ = ["ClassJamfold", "OrderedOutcomes", "class_jamfold", "fallback_three_way",
           "ordered_outcomes", "uncovered"]
