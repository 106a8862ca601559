"""Exact (sympy) versions of small builder games, optionally with a symbolic bet size.

The builder writes float arrays.  For small games :func:`exact_game` rebuilds the same tree
with :class:`~games.tree.GameBuilder`, with sympy ``Rational`` chance probabilities and
payoffs.  With one bet size the tree does not depend on its value (every contribution is
``ante + k * bet`` and the betting rules only compare such sums), and every payoff (a share
``1/k`` of the pot minus own contributions, shared among colluders or not) is affine in the
bet.  So the game is built at two bet sizes and each payoff is the exact affine function
through the two values; the two trees are checked to be identical.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Callable

import numpy as np
import sympy as sp

from pokerdyn.games.errors import GameError
from pokerdyn.games.tree import CHANCE, DECISION, Game, GameBuilder, ParameterDomain

PROBES = (4, 5)


def _rational(x: float, limit: int = 10**6) -> sp.Rational:
    f = Fraction(float(x)).limit_denominator(limit)
    if abs(float(f) - float(x)) > 1e-12 * max(1.0, abs(float(x))):
        raise GameError(f"{x!r} is not a rational with a denominator up to {limit}")
    return sp.Rational(f.numerator, f.denominator)


def exact_game(build: Callable[..., Game], bet: sp.Symbol | str | None = None, default=4,
               max_nodes: int = 200_000) -> Game:
    """The game ``build(bet=...)`` with exact sympy probabilities and payoffs.

    ``bet``: a symbol (or its name) for the bet size, a game parameter with default
    ``default`` and domain (0, inf); None keeps the bet ``default`` (exact numbers only).
    """
    if bet is None:
        a = b = build(bet=default)
        probes = (default, default)
    else:
        probes = PROBES
        a, b = build(bet=probes[0]), build(bet=probes[1])
        if not (np.array_equal(a.kind, b.kind) and np.array_equal(a.parent, b.parent)
                and np.array_equal(a.edge, b.edge) and a.infosets == b.infosets):
            raise GameError("the game tree depends on the bet size: no symbolic bet")
    if a.n_nodes > max_nodes:
        raise GameError(f"game {a.name!r} has {a.n_nodes} nodes, more than the "
                        f"{max_nodes} of an exact build")
    B = sp.Symbol(bet) if isinstance(bet, str) else bet
    gb = GameBuilder(a.name, a.n_players, params=(B,) if B is not None else ())
    pa, pb = np.asarray(a.payoffs), np.asarray(b.payoffs)
    t = 0
    kind, parent = a.kind, a.parent
    for i in range(a.n_nodes):
        p = int(parent[i])
        via = None if p < 0 else a.edge_label[i]
        prob = _rational(a.edge_prob[i]) if p >= 0 and kind[p] == CHANCE else None
        if kind[i] == CHANCE:
            gb.chance(None if p < 0 else p, via, prob)
        elif kind[i] == DECISION:
            I = a.infosets[int(a.infoset[i])]
            gb.decision(I.player, I.label, I.actions, None if p < 0 else p, via, prob)
        else:
            u0 = [_rational(x) for x in pa[t]]
            if B is None:
                pay = u0
            else:
                slope = [(_rational(y) - x) / (probes[1] - probes[0]) for x, y in zip(u0, pb[t])]
                pay = [sp.expand(x + s * (B - probes[0])) for x, s in zip(u0, slope)]
            gb.terminal(pay, None if p < 0 else p, via, prob)
            t += 1
    kw = {}
    if B is not None:
        kw = {"defaults": {B.name: default}, "domains": {B.name: ParameterDomain(0, np.inf)}}
    return gb.build(description=a.description + " (exact" +
                    (f", bet {B.name})" if B is not None else ")"), **kw)


__all__ = ["exact_game"]
