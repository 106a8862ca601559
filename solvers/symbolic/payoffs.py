"""Symbolic expected payoffs: each player's expectation as a polynomial in the named
behaviour parameters, with game parameters such as the pot ``P`` kept symbolic.

Derived from the tree alone: the probability of every terminal is the product of its chance
and action probabilities along the path, and E_p is the sum of probability times payoff.
"""
from __future__ import annotations

import weakref
from typing import Any, Mapping

import numpy as np
import sympy as sp

from games import Game, GameError
from games.exact_values import exact_number
from games.strategy import symbolic_strategy
from games.tree import CHANCE, DECISION

# Symbolic expansion grows with the terminals times the terms of their reach products: 4,451
# nodes (mercer-smh) take about 1 s, Leduc's 1,939 deeper nodes about 10 s, mercer-mmh's
# 31,831 would take many minutes.  Larger games are refused at once (numeric solvers and
# games.compiled work at any size).
MAX_SYMBOLIC_NODES = 5_000

_CACHE: "weakref.WeakKeyDictionary[Game, tuple[sp.Expr, ...]]" = weakref.WeakKeyDictionary()


def symbolic_payoffs(game: Game, values: Mapping[str, Any] | None = None) -> tuple[sp.Expr, ...]:
    """Expected payoff of each player, expanded, in the named parameters of ``game``.

    ``values`` substitutes game parameters exactly (``{"P": 9}`` -> rationals); missing
    parameters stay symbolic.  Raises GameError for a game of more than
    ``MAX_SYMBOLIC_NODES`` nodes.
    """
    base = _CACHE.get(game)
    if base is None:
        if game.n_nodes > MAX_SYMBOLIC_NODES:
            raise GameError(f"game {game.name!r} has {game.n_nodes:,} nodes, more than the "
                            f"{MAX_SYMBOLIC_NODES:,} of symbolic payoffs (payoffs, equilibria, "
                            "ode); use pokerdyn solve")
        base = _derive(game)
        _CACHE[game] = base
    if not values:
        return base
    subs = {}
    for k, v in values.items():
        sym = next((s for s in game.params if s.name == k), None)
        if sym is None:
            raise GameError(f"game {game.name!r} has no parameter {k!r}")
        subs[sym] = sp.nsimplify(v, rational=True) if isinstance(v, float) else sp.sympify(v)
    return tuple(sp.expand(e.subs(subs)) for e in base)


def _exact(x: Any) -> sp.Expr:
    """Floats (builder and OpenSpiel games) as the rationals they round (games.exact_values)."""
    return exact_number(x) if isinstance(x, (float, np.floating)) else sp.sympify(x)


def _derive(game: Game) -> tuple[sp.Expr, ...]:
    probs = symbolic_strategy(game)
    reach: list[Any] = [sp.Integer(1)] * game.n_nodes
    kind, parent, edge, infoset = game.kind, game.parent, game.edge, game.infoset
    for n in range(1, game.n_nodes):
        p = int(parent[n])
        if kind[p] == CHANCE:
            w = _exact(game.edge_prob[n])
        elif kind[p] == DECISION:
            w = probs[int(infoset[p])][int(edge[n])]
        else:  # pragma: no cover - builder forbids it
            raise GameError("terminal with children")
        reach[n] = reach[p] * w
    totals = []
    for pl in range(game.n_players):
        terms = [reach[int(t)] * _exact(u[pl]) for t, u in zip(game.terminal_node, game.payoffs)]
        totals.append(sp.expand(sp.Add(*terms)))
    return tuple(totals)
