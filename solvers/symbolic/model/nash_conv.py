"""Exact NashConv of a behaviour profile given by its named parameters.

``E_p`` is multilinear in player p's own behaviour parameters (one per information set, each
of degree at most 1), so its maximum over p's strategies is attained at a pure strategy: the
best-response value is the maximum over p's pure strategies (the 2^k vertices of the box with
two actions per set), computed in exact arithmetic.
A NashConv of sympy zero certifies that the point is an equilibrium of the game as declared
(for ``kuhn3-third``: with the paper's obvious actions fixed).
"""
from __future__ import annotations

import itertools
from typing import Any, Mapping, Sequence

import numpy as np
import sympy as sp

from pokerdyn.games import Game
from pokerdyn.games.exact_values import exact_number
from pokerdyn.games.strategy import param_symbols

from pokerdyn.solvers.symbolic.model.payoffs import symbolic_payoffs


def payoffs_at(game: Game, pot: Any) -> tuple[sp.Expr, ...]:
    """The payoff polynomials with the pot ``P`` substituted exactly (``pot`` None: a game
    without a pot)."""
    has_pot = any(s.name == "P" for s in game.params)
    return symbolic_payoffs(game, {"P": sp.sympify(pot)} if has_pot and pot is not None else None)


def nash_conv_with(game: Game, pays: Sequence[sp.Expr], point: Mapping[str, Any]) -> sp.Expr:
    """Sum over players of the exact best-response gain at ``point`` (name -> exact value),
    with ``pays`` from :func:`payoffs_at` (computed once for many points)."""
    syms = param_symbols(game)
    at = {syms[k]: sp.sympify(v) for k, v in point.items()}
    total = sp.Integer(0)
    for pl, E in enumerate(pays):
        own = [syms[n.name] for n in game.named if game.owner(n.name) == pl]
        Ep = sp.expand(E.xreplace({s: v for s, v in at.items() if s not in own}))
        value = Ep.xreplace(at)
        best = max((Ep.xreplace(dict(zip(own, vx))) for vx in _pure_vertices(game, own)),
                   key=lambda e: float(sp.N(e, 30)), default=value)
        total += best - value
    total = sp.expand(total)
    if total.is_Rational:
        return total
    return sp.nsimplify(sp.radsimp(sp.simplify(total)))


def _pure_vertices(game: Game, own: Sequence[sp.Symbol]):
    """The owner's pure strategies as values of ``own`` (0/1 tuples): per information set
    one named action at 1, or all at 0 (its unnamed action).  With two actions per set this
    is the box {0, 1}^k; with more, the box's other vertices are not strategies."""
    sets: dict[str, list[int]] = {}
    for k, s in enumerate(own):
        prm = next(n for n in game.named if n.name == s.name)
        sets.setdefault(prm.infoset, []).append(k)
    blocks = list(sets.values())
    zero, one = sp.Integer(0), sp.Integer(1)
    for pick in itertools.product(*[range(len(b) + 1) for b in blocks]):
        vx = [zero] * len(own)
        for b, j in zip(blocks, pick):
            if j < len(b):
                vx[b[j]] = one
        yield tuple(vx)


def exact_nash_conv(game: Game, pot: Any, point: dict[str, Any]) -> sp.Expr:
    """Sum over players of the exact best-response gain at the profile ``point`` (name ->
    exact value) and pot ``pot``; sympy zero exactly at an equilibrium.

    A rational profile of a game with numeric chance at a rational pot goes to the one exact
    NashConv, :func:`solvers.exact_profile.nash_conv` (sequence-form passes in Fractions);
    the vertex enumeration of :func:`nash_conv_with` remains for values that are not
    rational (algebraic numbers, symbols) and points that are not profiles."""
    p = next((s for s in game.params if s.name == "P"), None)
    sub = {p: sp.sympify(pot)} if p is not None else {}
    pt = {k: sp.sympify(v).xreplace(sub) for k, v in point.items()}
    exact = _rational_nash_conv(game, sub, pt)
    if exact is not None:
        return exact
    return nash_conv_with(game, payoffs_at(game, pot), pt)


def _rational_nash_conv(game: Game, sub: dict, pt: dict[str, sp.Expr]) -> sp.Rational | None:
    """:func:`solvers.exact_profile.nash_conv` of the rational profile ``pt`` with the
    terminal payoffs at the exact pot ``sub``, or None where it does not apply."""
    from fractions import Fraction

    from pokerdyn.games import GameError
    from pokerdyn.games.tree import CHANCE
    from pokerdyn.solvers.exact_profile import named_profile, nash_conv

    if not all(v.is_Rational for v in [*sub.values(), *pt.values()]):
        return None
    try:
        sigma = named_profile(game, pt)
    except GameError:  # a parameter missing or unknown: the symbolic path's business
        return None
    if any(q < 0 for row in sigma.values() for q in row):
        return None  # not a profile: the polynomials are still defined there
    kind, parent = game.kind, game.parent
    if not all(isinstance(game.edge_prob[i], (int, float, np.floating, np.integer))
               or getattr(game.edge_prob[i], "is_Rational", False)
               for i in range(1, game.n_nodes) if kind[int(parent[i])] == CHANCE):
        return None
    pays = []
    for row in game.payoffs:
        out = []
        for u in row:
            e = exact_number(u) if isinstance(u, (float, np.floating)) else sp.sympify(u)
            e = e.xreplace(sub) if sub else e
            if not e.is_Rational:
                return None
            out.append(Fraction(int(e.p), int(e.q)))
        pays.append(out)
    try:
        nc = nash_conv(game, sigma, pays)
    except GameError:  # a chance probability that is not a small rational
        return None
    return sp.Rational(nc.numerator, nc.denominator)
