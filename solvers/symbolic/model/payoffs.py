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
from sympy.polys.domains import QQ
from sympy.polys.polyerrors import CoercionFailed
from sympy.polys.rings import PolyRing

from pokerdyn.games import Game, GameError
from pokerdyn.games.exact_values import exact_number, rational_of_float
from pokerdyn.games.strategy import symbolic_strategy
from pokerdyn.games.tree import CHANCE, DECISION

# Symbolic expansion grows with the terminals times the terms of their reach products: 4,451
# nodes (mercer-smh) take about 1 s, Leduc's 1,939 deeper nodes about 10 s, mercer-mmh's
# 31,831 would take many minutes.  Larger games are refused at once (numeric solvers and
# games.compiled work at any size).
MAX_SYMBOLIC_NODES = 5_000

_CACHE: "weakref.WeakKeyDictionary[Game, tuple[sp.Expr, ...]]" = weakref.WeakKeyDictionary()
# the same payoffs as elements of their polynomial ring, where _derive could use one: a pot
# substituted there costs a fraction of sympy's subs and expand of the expressions
_RING: "weakref.WeakKeyDictionary[Game, tuple]" = weakref.WeakKeyDictionary()


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
        base, ring = _derive(game)
        _CACHE[game] = base
        if ring is not None:
            _RING[game] = ring
    if not values:
        return base
    subs = _substitution(game, values)
    elems = _ring_at(game, subs)
    if elems is not None:
        return tuple(e.as_expr() for e in elems)
    return tuple(sp.expand(e.subs(subs)) for e in base)


def payoff_elements(game: Game, values: Mapping[str, Any] | None, ring: PolyRing):
    """The payoffs of :func:`symbolic_payoffs` (``values`` substituted) as elements of
    ``ring``, whose symbols must hold every symbol left, taken straight from the polynomial
    ring the payoffs were derived in (no round trip through sympy expressions); None where
    they were derived as expressions or a value is not a rational number."""
    symbolic_payoffs(game)
    elems = _ring_at(game, _substitution(game, values or {}))
    return None if elems is None else tuple(e.set_ring(ring) for e in elems)


def _substitution(game: Game, values: Mapping[str, Any]) -> dict:
    """Game parameter symbol -> exact value (a float as the rational it rounds)."""
    subs = {}
    for k, v in values.items():
        sym = next((s for s in game.params if s.name == k), None)
        if sym is None:
            raise GameError(f"game {game.name!r} has no parameter {k!r}")
        subs[sym] = rational_of_float(v) if isinstance(v, float) else sp.sympify(v)
    return subs


def _ring_at(game: Game, subs: Mapping[sp.Symbol, sp.Expr]):
    """The ring payoffs with the rational ``subs`` substituted (in their ring), or None."""
    ring = _RING.get(game)
    if ring is None or not all(v.is_Rational for v in subs.values()):
        return None
    R, elems = ring
    at = [(R.gens[R.symbols.index(s)], QQ(int(v.p), int(v.q)))
          for s, v in subs.items() if s in R.symbols]
    return tuple(e.subs(at) for e in elems) if at else elems


def _exact(x: Any) -> sp.Expr:
    """Floats (builder and OpenSpiel games) as the rationals they round (games.exact_values)."""
    return exact_number(x) if isinstance(x, (float, np.floating)) else sp.sympify(x)


def _derive(game: Game) -> tuple[tuple[sp.Expr, ...], tuple | None]:
    """The payoffs in a sparse polynomial ring over QQ (many times faster than expanding
    sympy expressions), or by expression expansion where a payoff or chance probability is
    not a polynomial in the game's symbols (e.g. ``1/P``); the same expanded expressions
    either way (tests/test_payoffs_ring.py).  Returns them with ``(ring, elements)``, or
    None for the expression path."""
    probs = symbolic_strategy(game)
    chance = {n: _exact(game.edge_prob[n]) for n in range(1, game.n_nodes)
              if game.kind[int(game.parent[n])] == CHANCE}
    pays = [[_exact(x) for x in u] for u in game.payoffs]
    gens = sorted(set().union(*(e.free_symbols for row in probs for e in row),
                              *(x.free_symbols for u in pays for x in u),
                              *(w.free_symbols for w in chance.values())), key=str)
    if not gens:
        return _derive_expr(game, probs, chance, pays), None
    R = PolyRing(gens, QQ)
    try:
        conv = R.from_expr
        probs_r = [[conv(e) for e in row] for row in probs]
        chance_r = {n: conv(w) for n, w in chance.items()}
        pays_r = [[conv(x) for x in u] for u in pays]
    except (ValueError, TypeError, sp.PolynomialError, CoercionFailed):
        return _derive_expr(game, probs, chance, pays), None
    elems = tuple(R.add(*t) for t in _reach_terms(game, probs_r, chance_r, pays_r, R.one))
    return tuple(e.as_expr() for e in elems), (R, elems)


def _reach_terms(game: Game, probs, chance, pays, one) -> list[list]:
    """Per player, the terms reach probability times payoff of every terminal, in whatever
    arithmetic the arguments bring (ring elements or sympy expressions)."""
    reach: list[Any] = [one] * game.n_nodes
    kind, parent, edge, infoset = game.kind, game.parent, game.edge, game.infoset
    for n in range(1, game.n_nodes):
        p = int(parent[n])
        if kind[p] == CHANCE:
            w = chance[n]
        elif kind[p] == DECISION:
            w = probs[int(infoset[p])][int(edge[n])]
        else:  # pragma: no cover - builder forbids it
            raise GameError("terminal with children")
        reach[n] = reach[p] * w
    return [[reach[int(t)] * u[pl] for t, u in zip(game.terminal_node, pays)]
            for pl in range(game.n_players)]


def _derive_expr(game: Game, probs, chance, pays) -> tuple[sp.Expr, ...]:
    """The payoffs by sympy expression expansion (any exact payoff expressions)."""
    terms = _reach_terms(game, probs, chance, pays, sp.Integer(1))
    return tuple(sp.expand(sp.Add(*t)) for t in terms)
