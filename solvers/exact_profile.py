"""Exact (``fractions.Fraction``) expected payoffs and best-response values of a behaviour
profile with rational probabilities, for small games: a profile whose best-response values
equal its payoffs exactly is an exact equilibrium, and its payoff is then the exact value.

Chance probabilities and payoffs of builder games are floats of exact rationals (card-removal
weights, chip counts); :func:`rational` recovers them and refuses a float that is not one.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import numpy as np

from games import Game, GameError
from games.exact_values import exact_number
from games.tree import DECISION, TERMINAL


def rational(x: float, limit: int = 10**7) -> Fraction:
    """``x`` as a Fraction with denominator up to ``limit`` (the rational whose nearest float
    ``x`` is, games.exact_values.exact_number); GameError if there is none."""
    r = exact_number(float(x))
    if r.q > limit:
        raise GameError(f"{x!r} is not a rational with a denominator up to {limit}")
    return Fraction(int(r.p), int(r.q))


def exact_values(game: Game, sigma: dict[str, tuple]) -> tuple[list, list]:
    """Exact ``(payoffs, best_response_values)`` of every player under ``sigma`` (information
    set label -> action probabilities as Fractions, in the set's action order)."""
    kind, parent, edge = game.kind, game.parent, game.edge
    n = game.n_nodes
    children: list[list[int]] = [[] for _ in range(n)]
    for i in range(1, n):
        children[int(parent[i])].append(i)
    for c in children:
        c.sort(key=lambda j: int(edge[j]))
    term = {int(t): k for k, t in enumerate(np.asarray(game.terminal_node))}
    labels = [I.label for I in game.infosets]
    probs = [tuple(Fraction(p) for p in sigma[lab]) for lab in labels]

    def step(i: int, via: int) -> Fraction:
        if kind[i] == DECISION:
            return probs[int(game.infoset[i])][int(edge[via])]
        return rational(game.edge_prob[via])

    def payoff(i: int, p: int) -> Fraction:
        return rational(game.payoffs[term[i]][p])

    def expected(p: int) -> Fraction:
        @lru_cache(maxsize=None)
        def v(i):
            if kind[i] == TERMINAL:
                return payoff(i, p)
            return sum((step(i, c) * v(c) for c in children[i]), Fraction(0))
        return v(0)

    def best(p: int) -> Fraction:
        members: dict[int, list[int]] = {}
        for i in range(n):
            if kind[i] == DECISION and int(game.player[i]) == p:
                members.setdefault(int(game.infoset[i]), []).append(i)

        @lru_cache(maxsize=None)
        def v(i):    # p's value below i given i is reached, p best-responding below
            if kind[i] == TERMINAL:
                return payoff(i, p)
            if kind[i] == DECISION and int(game.player[i]) == p:
                return v(children[i][choice(int(game.infoset[i]))])
            return sum((step(i, c) * v(c) for c in children[i]), Fraction(0))

        @lru_cache(maxsize=None)
        def choice(I):
            # each node of I weighs by the probability that chance and the others reach it
            vals = [sum(reach(h) * v(children[h][a]) for h in members[I])
                    for a in range(len(children[members[I][0]]))]
            return max(range(len(vals)), key=vals.__getitem__)

        @lru_cache(maxsize=None)
        def reach(i):
            j = int(parent[i])
            if j < 0:
                return Fraction(1)
            own = kind[j] == DECISION and int(game.player[j]) == p
            return reach(j) * (Fraction(1) if own else step(j, i))

        return v(0)

    ps = list(range(game.n_players))
    return [expected(p) for p in ps], [best(p) for p in ps]


__all__ = ["exact_values", "rational"]
