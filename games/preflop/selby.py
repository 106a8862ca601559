"""Selby's preflop hold'em: heads-up limit hold'em cut to its first betting round.

Rules (the LP survey, "Case Study: Preflop Analysis", after Selby 1999 and Borghetti's tree):

* The small blind (player 1, ``sb`` big blinds) and the big blind (player 2, 1 big blind) are
  dealt a hand class each, with the exact card-removal probability of the pair of classes
  (:func:`games.preflop.classes.disjoint_pair_counts`); pairs that cannot be dealt are
  dropped.
* One limit betting round, the small blind first.  At every decision a player may fold
  (``f``), call or check (``c``) or raise (``r``) by one big blind over the amount to call,
  while fewer than ``raises`` raises have been made; the small blind's first raise (to 2
  big blinds) counts.  The survey's strategy lists fix this: the small blind's "raise, then
  re-raise" and the big blind's "raise, then fold / call" after a raise make r-r-r the
  longest sequence, and after a limp the big blind's "raise, then re-raise" makes c-r-r-r.
  Folding is allowed even where checking is free (the survey's big blind may "Fold" after
  a limp), so "the big blind never folds" is a statement about every situation.
* A call ends the betting, except the small blind's limp (``c`` first), after which the big
  blind has its option.  Then there is no more betting: the pot is shared by the all-in
  equity of the two classes (:func:`games.preflop.equity.hu_equity_table`), so a player's
  payoff is ``equity * pot - own contribution`` (net chips, in big blinds; zero-sum).  A fold
  loses the folder's contribution to the other player.

With the default 3 raises the public tree has 8 decision nodes and 15 terminals; tiled over
the 28,561 class pairs it makes 656,904 nodes.  Information sets are (player, own class,
public history), labelled ``P1:AKs|`` (the small blind's first action), ``P2:72o|c`` (the big
blind after a limp), ``P1:T9s|r r`` (the small blind facing a re-raise), ...
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from numbers import Real

import numpy as np
from numpy.typing import NDArray

from pokerdyn.games.arrays import game_from_arrays
from pokerdyn.games.errors import GameError
from pokerdyn.games.preflop.classes import CLASSES, N_CLASSES, N_DEALS, disjoint_pair_counts
from pokerdyn.games.preflop.equity import hu_equity_table
from pokerdyn.games.tree import CHANCE, DECISION, TERMINAL, Game, Infoset, infoset_label

MAX_RAISES = 8
SITUATIONS = {"": "SB first action", "c": "BB after a limp", "r": "BB after a raise",
              "c r": "SB after limp, BB raise", "r r": "SB after a re-raise",
              "c r r": "BB after limp, raise, re-raise", "r r r": "BB after a third raise",
              "c r r r": "SB after limp and three raises"}


@dataclass(frozen=True)
class PublicNode:
    """One node of the public betting tree.  ``history``: actions so far; ``actor``: 0 (SB)
    or 1 (BB), -1 at a terminal; ``put``: each player's chips in the pot; ``folder``: the
    player who folded (-1 for a showdown or a decision)."""

    parent: int
    edge: int
    history: tuple[str, ...]
    actor: int
    actions: tuple[str, ...]
    put: tuple[float, float]
    folder: int


def _check(raises, sb) -> tuple[int, float]:
    if isinstance(raises, bool) or not isinstance(raises, (int, np.integer)) \
            or not 0 <= raises <= MAX_RAISES:
        raise GameError(f"raises={raises!r} is outside the allowed range: an integer in "
                        f"[0, {MAX_RAISES}]")
    if isinstance(sb, bool) or not isinstance(sb, (Real, Fraction)) or not 0 < float(sb) <= 1:
        raise GameError(f"sb={sb!r} is outside the allowed range (0, 1] (big blinds)")
    return int(raises), float(sb)


def betting_tree(raises: int = 3, sb: float = 0.5) -> tuple[PublicNode, ...]:
    """The public betting tree of the module docstring, parents before children."""
    raises, sb = _check(raises, sb)
    nodes = []
    queue = [(-1, -1, (), 0, (sb, 1.0), -1, False)]   # parent, edge, hist, actor, put, folder, end
    k = 0
    while k < len(queue):
        par, e, hist, actor, put, folder, end = queue[k]
        k += 1
        if end:
            nodes.append(PublicNode(par, e, hist, -1, (), put, folder))
            continue
        acts = ("f", "c", "r") if hist.count("r") < raises else ("f", "c")
        v = len(nodes)
        nodes.append(PublicNode(par, e, hist, actor, acts, put, -1))
        other = 1 - actor
        for a, act in enumerate(acts):
            new = list(put)
            if act == "c":
                new[actor] = put[other]
            elif act == "r":
                new[actor] = put[other] + 1.0
            ends = act == "f" or (act == "c" and hist != ())
            queue.append((v, a, hist + (act,), other, tuple(new), actor if act == "f" else -1,
                          ends))
    return tuple(nodes)


def deal_matrix() -> NDArray[np.float64]:
    """``p[i, j]``: probability that the SB holds class i and the BB class j (169, 169)."""
    return disjoint_pair_counts() / N_DEALS


def selby_game(raises: int = 3, sb: float = 0.5, name: str = "selby") -> Game:
    """Selby's preflop game (module docstring) as flat arrays.

    Parameters
    ----------
    raises : int
        Cap on the number of raises in the round (0 to MAX_RAISES; the survey's 3).
    sb : float
        The small blind in big blinds, in (0, 1].
    """
    pub = betting_tree(raises, sb)
    counts = disjoint_pair_counts()
    deals = np.argwhere(counts > 0)                     # (D, 2): SB class, BB class
    D = deals.shape[0]
    eq = hu_equity_table().equity[deals[:, 0], deals[:, 1]]
    P = len(pub)
    kind = np.empty((P, D), dtype=np.int8)
    parent = np.empty((P, D), dtype=np.int64)
    edge = np.empty((P, D), dtype=np.int64)
    player = np.full((P, D), -1, dtype=np.int8)
    infoset = np.full((P, D), -1, dtype=np.int64)
    infosets: list[Infoset] = []
    pays = []
    for v, node in enumerate(pub):
        # node (v, d) sits at 1 + v * D + d; the chance root is node 0
        parent[v] = 0 if v == 0 else 1 + node.parent * D + np.arange(D)
        edge[v] = np.arange(D) if v == 0 else node.edge
        if node.actor >= 0:
            kind[v] = DECISION
            player[v] = node.actor
            infoset[v] = len(infosets) + deals[:, node.actor]
            h = " ".join(node.history)
            infosets.extend(Infoset(infoset_label(node.actor, c, h), node.actor, node.actions)
                            for c in CLASSES)
            continue
        kind[v] = TERMINAL
        put = np.asarray(node.put)
        if node.folder >= 0:
            u1 = np.full(D, -put[0] if node.folder == 0 else put[1])
        else:
            u1 = eq * put.sum() - put[0]
        pays.append(np.stack([u1, -u1], axis=1))
    prob = np.ones(1 + P * D)
    prob[1:1 + D] = counts[deals[:, 0], deals[:, 1]] / N_DEALS
    cat = lambda first, a: np.concatenate([[first], a.ravel()])  # noqa: E731
    return game_from_arrays(name, 2, cat(CHANCE, kind), cat(-1, parent), cat(0, edge),
                            cat(-1, player), cat(-1, infoset), infosets, prob,
                            np.concatenate(pays),
                            description=f"Selby's preflop hold'em: limit, one round, SB {sb:g} "
                                        f"BB 1, at most {raises} raises, showdown by equity")


def strategy_grids(game: Game, sigma: NDArray[np.float64]) -> dict[str, NDArray[np.float64]]:
    """Each public history's strategy as 13x13 grids: ``{history: (13, 13, n_actions)}``
    (history ``""`` the SB's first action, ``"c"`` the BB after a limp, ...; cells in the
    chart order of :data:`games.preflop.classes.GRID`; actions ``f, c, r`` or ``f, c``)."""
    rows: dict[str, list] = {}
    for I, info in enumerate(game.infosets):
        head, hist = info.label.split("|", 1)
        rows.setdefault(hist, [None] * N_CLASSES)[CLASSES.index(head.split(":", 1)[1])] = \
            sigma[I, :len(info.actions)]
    return {h: np.asarray(r, dtype=np.float64).reshape(13, 13, -1) for h, r in rows.items()}


def own_reach(grids: dict[str, NDArray[np.float64]], history: str) -> NDArray[np.float64]:
    """Both players' own reach of ``history`` per class, shape (2, 169): the product of the
    player's own action probabilities along it (SB acts at even positions, BB at odd)."""
    acts = history.split()
    reach = np.ones((2, N_CLASSES))
    for k, a in enumerate(acts):
        g = grids[" ".join(acts[:k])].reshape(N_CLASSES, -1)
        reach[k % 2] *= g[:, "fcr".index(a)]
    return reach


def history_probabilities(grids: dict[str, NDArray[np.float64]]) -> dict[str, float]:
    """Probability that the betting follows each history (every prefix, terminals included),
    over the exact deal probabilities: ``sum_ij p_ij reach_SB(i) reach_BB(j)``."""
    p = deal_matrix()
    out = {}
    for h, g in grids.items():
        for a in "fcr"[:g.shape[2]]:
            hist = (h + " " + a).strip()
            r = own_reach(grids, hist)
            out[hist] = float(r[0] @ p @ r[1])
    return out


def chart(grid: NDArray[np.float64], reached: NDArray[np.bool_] | None = None,
          tol: float = 1e-9) -> str:
    """A 13x13 grid of strategies as text: the letter of the action played with probability
    1 (``F``, ``C``, ``R``), ``M`` where the hand mixes, ``.`` where ``reached`` (13, 13) is
    False.  Rows and columns A, K, ..., 2 (suited above the diagonal)."""
    head = "    " + " ".join("AKQJT98765432")
    lines = [head]
    for r in range(13):
        cells = []
        for c in range(13):
            p = grid[r, c]
            if reached is not None and not reached[r, c]:
                cells.append(".")
            elif (p > tol).sum() > 1:
                cells.append("M")
            else:
                cells.append("FCR"[int(np.argmax(p))])
        lines.append(f"{'AKQJT98765432'[r]}   " + " ".join(cells))
    return "\n".join(lines)


__all__ = ["MAX_RAISES", "PublicNode", "SITUATIONS", "betting_tree", "chart", "deal_matrix",
           "history_probabilities", "own_reach", "selby_game", "strategy_grids"]
