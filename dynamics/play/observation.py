"""What each player sees of one hand, derived from the game tree.

Every terminal of a deal-first game (one chance node at the root whose outcome labels list
each player's private card in player order, e.g. ``"JQK"`` = P1 J, P2 Q, P3 K) is one
(deal, betting sequence) pair.  Player p observes

* their own card (the deal label's p-th character),
* the public actions (the decision edges on the path, e.g. ``"bfc"``),
* the cards shown at showdown: every player who did not fold shows when at least two players
  remain (the bettor and callers of a called bet; everybody when the hand is checked down);
  a hand won uncontested shows nothing.

Two terminals are in the same *observation class* of player p iff these three agree.
The *publicly known* cards of Billingham's Table 2 (``AXQ`` ...) are the shown cards plus what
everybody deduces from the public information: a card is known when it is the same in every
deal that is consistent with the public actions and shown cards and has a non-zero
probability for generic frequencies (e.g. a player who folds after a call cannot hold A in
SKP, so ``JKQ`` under ``bcf`` is fully known).

Probabilities are exact sympy expressions in the game's named parameters: ``prob`` is the
probability of the betting sequence given the deal (Table 2's entries), ``opp_prob[p]`` the
same without player p's own action probabilities (the likelihood factor of p's opponents,
used by maximum-likelihood estimators).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np
import sympy as sp
from numpy.typing import NDArray

from pokerdyn.games import CHANCE, Game, GameError, symbolic_strategy

FOLD = "f"  # the action label that drops a player from the hand
HIDDEN = "X"  # a card nobody but its owner knows


@dataclass(frozen=True)
class Outcome:
    """One (deal, betting sequence) pair = one terminal of the game."""

    terminal: int  # terminal index (row of the game's payoffs)
    deal: str  # the chance outcome label, one card per player in player order
    deal_index: int  # index of the chance outcome
    actions: str  # public betting sequence, e.g. "bfc"
    prob: sp.Expr  # P(actions | deal), in the named parameters
    opp_prob: tuple[sp.Expr, ...]  # per player p: prob without p's own action factors
    folded: tuple[bool, ...]
    shown: str  # per player, the card shown at showdown or HIDDEN
    public: str  # per player, the publicly known card (shown or deduced) or HIDDEN


@dataclass(frozen=True, eq=False)
class ObservationModel:
    """The observation classes of every player.

    Attributes
    ----------
    outcomes : one :class:`Outcome` per terminal, in terminal order.
    class_of : (n_players, n_terminals) int array: player p's class of each terminal.
    class_labels : per player, the label ``"<own card>|<actions>|<shown cards>"`` of each class.
    deal_prob : (n_deals,) chance probability of each deal.
    """

    game: Game
    outcomes: tuple[Outcome, ...]
    class_of: NDArray[np.int64]
    class_labels: tuple[tuple[str, ...], ...]
    deal_labels: tuple[str, ...]
    deal_prob: tuple[sp.Expr, ...]

    @property
    def n_players(self) -> int:
        return self.game.n_players

    def outcome(self, deal: str, actions: str) -> Outcome | None:
        """The outcome of ``deal`` (player order) and ``actions``, or None if impossible."""
        return self._index.get((deal, actions))

    @cached_property
    def _index(self) -> dict[tuple[str, str], Outcome]:
        return {(o.deal, o.actions): o for o in self.outcomes}

    def terminals_of_class(self, player: int, cls: int) -> tuple[int, ...]:
        return tuple(int(t) for t in np.nonzero(self.class_of[player] == cls)[0])


def _deal_children(game: Game) -> list[int]:
    if game.kind[0] != CHANCE:
        raise GameError(f"game {game.name!r}: the observation model needs a chance node "
                        f"(the deal) at the root")
    deals = [int(c) for c in game.children(0)]
    for c in deals:
        if len(game.edge_label[c]) != game.n_players:
            raise GameError(f"game {game.name!r}: deal label {game.edge_label[c]!r} must list "
                            f"one card per player")
    return deals


@lru_cache(maxsize=None)
def observation_model(game: Game) -> ObservationModel:
    """Derive the observation classes of ``game`` from its tree (cached per game)."""
    deals = _deal_children(game)
    n = game.n_players
    probs = symbolic_strategy(game)
    deal_of = np.full(game.n_nodes, -1, dtype=np.int64)
    reach: list = [sp.Integer(1)] * game.n_nodes
    opp: list = [(sp.Integer(1),) * n] * game.n_nodes
    folded: list = [()] * game.n_nodes
    for i, c in enumerate(deals):
        deal_of[c] = i
        folded[c] = (False,) * n
    for node in range(1, game.n_nodes):
        par = int(game.parent[node])
        if par == 0:
            continue
        if game.kind[par] == CHANCE:
            raise GameError(f"game {game.name!r}: only the root may be a chance node")
        deal_of[node] = deal_of[par]
        pl = int(game.player[par])
        w = probs[int(game.infoset[par])][int(game.edge[node])]
        reach[node] = reach[par] * w
        opp[node] = tuple(o if q == pl else o * w for q, o in enumerate(opp[par]))
        act = game.edge_label[node]
        folded[node] = tuple(f or (q == pl and act == FOLD) for q, f in enumerate(folded[par]))
    deal_labels = tuple(game.edge_label[c] for c in deals)
    raw = []
    for t, node in enumerate(game.terminal_node):
        node = int(node)
        d = int(deal_of[node])
        if d < 0:
            raise GameError(f"game {game.name!r}: terminal {t} is not below a deal")
        cards = deal_labels[d]
        fl = folded[node]
        active = [q for q in range(n) if not fl[q]]
        shown = "".join(cards[q] if (len(active) >= 2 and not fl[q]) else HIDDEN for q in range(n))
        actions = "".join(game.history(node)[1:])
        raw.append((t, cards, d, actions, sp.expand(reach[node]),
                    tuple(sp.expand(x) for x in opp[node]), fl, shown))
    public = _public_cards(raw, n)
    outcomes = tuple(Outcome(t, cards, d, a, pr, op, fl, sh, public[t])
                     for (t, cards, d, a, pr, op, fl, sh) in raw)
    class_of = np.empty((n, len(outcomes)), dtype=np.int64)
    labels = []
    for p in range(n):
        ids: dict[str, int] = {}
        for o in outcomes:
            lab = f"{o.deal[p]}|{o.actions}|{o.shown}"
            class_of[p, o.terminal] = ids.setdefault(lab, len(ids))
        labels.append(tuple(ids))
    class_of.setflags(write=False)
    return ObservationModel(game, outcomes, class_of, tuple(labels), deal_labels,
                            tuple(sp.sympify(game.edge_prob[c]) for c in deals))


def _public_cards(raw: list, n: int) -> dict[int, str]:
    """Cards known to everybody: shown, or the same in every deal consistent with the public
    actions and shown cards that has non-zero probability for generic frequencies."""
    groups: dict[tuple[str, str], list[str]] = {}
    for (t, cards, d, actions, pr, op, fl, shown) in raw:
        if pr != 0:
            groups.setdefault((actions, shown), []).append(cards)
    out = {}
    for (t, cards, d, actions, pr, op, fl, shown) in raw:
        cands = groups.get((actions, shown), [cards])
        out[t] = "".join(cards[q] if all(c[q] == cards[q] for c in cands) else HIDDEN
                         for q in range(n))
    return out


__all__ = ["FOLD", "HIDDEN", "ObservationModel", "Outcome", "observation_model"]
