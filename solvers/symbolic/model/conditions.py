"""The equilibrium conditions of a game with two actions per information set: each named
parameter's counterfactual gain ``g_x`` (:class:`Condition`, :func:`conditions`), the owner's
own reach probability, the pot symbol ``P``, and the record of a set of equilibria every stage
of the wing passes on (:class:`Family`: closed-form values, free parameters, constraints)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

import sympy as sp

from pokerdyn.games import Game, GameError
from pokerdyn.games.strategy import param_symbols, symbolic_strategy
from pokerdyn.games.tree import DECISION

from pokerdyn.solvers.symbolic.feasibility import pot_split
from pokerdyn.solvers.symbolic.model.payoffs import symbolic_payoffs

MAX_PARAMETERS = 16


@dataclass(frozen=True)
class Condition:
    """The equilibrium condition of one named parameter: its owner and its gain ``g_x``."""

    name: str
    player: int
    symbol: sp.Symbol
    gradient: sp.Expr


@dataclass(frozen=True)
class Family:
    """A set of equilibria: closed-form values of every named parameter (in ``P`` and the
    ``free`` parameters), and affine constraints on the free parameters
    (``(expr, strict)``: ``expr > 0`` or ``expr >= 0``).  ``cases`` is the (a)/(b)/(c) case
    of each enumerated parameter; ``only_at`` holds polynomials in ``P`` that must vanish
    (a family of one critical value)."""

    strategy: tuple[tuple[str, sp.Expr], ...]
    free: tuple[str, ...]
    constraints: tuple[pot_split.Constraint, ...]
    cases: str
    only_at: tuple[sp.Expr, ...] = ()
    pivots: tuple[sp.Expr, ...] = field(default=(), compare=False)

    def as_dict(self) -> dict[str, sp.Expr]:
        return dict(self.strategy)

    def free_symbols(self) -> list[sp.Symbol]:
        return [sp.Symbol(n, real=True) for n in self.free]


def pot_symbol(game: Game) -> sp.Symbol | None:
    """The game's pot parameter ``P`` (None if the game has none)."""
    return next((s for s in game.params if s.name == "P"), None)


def own_reach(game: Game, infoset: int) -> sp.Expr:
    """The owner's own probability of reaching ``infoset`` (product of the owner's action
    probabilities on the path; equal for all nodes of the set by perfect recall)."""
    probs = symbolic_strategy(game)
    owner = game.infosets[infoset].player
    node = int(next(n for n in range(game.n_nodes) if game.infoset[n] == infoset))
    out = sp.Integer(1)
    while game.parent[node] >= 0:
        par = int(game.parent[node])
        if game.kind[par] == DECISION and game.player[par] == owner:
            out *= probs[int(game.infoset[par])][int(game.edge[node])]
        node = par
    return out


def require_two_actions(game: Game) -> None:
    """GameError naming the first information set with more than two actions: the gains
    ``g_x`` (here and in :mod:`solvers.symbolic.model.sparse_gains`) treat each named parameter
    as a probability in ``[0, 1]`` of its own, which is right only for two actions."""
    for I in game.infosets:
        if len(I.actions) > 2:
            raise GameError(f"information set {I.label!r} has {len(I.actions)} actions; "
                            "enumeration supports at most 2 actions per information set "
                            "(pokerdyn equilibria enumerates such games over behaviour "
                            "supports: solvers.symbolic.axis.support_families)")


def conditions(game: Game, values: Mapping[str, Any] | None = None,
               fixed: Mapping[str, Any] | None = None) -> tuple[Condition, ...]:
    """The gain ``g_x`` of every named parameter not in ``fixed`` (``fixed`` values, e.g.
    from dominance elimination, are substituted; ``values`` sets game parameters)."""
    fixed = dict(fixed or {})
    if not game.named:
        raise GameError(f"game {game.name!r} has no named parameters to enumerate")
    require_two_actions(game)
    syms = param_symbols(game)
    sub = {syms[k]: sp.sympify(v) for k, v in fixed.items()}
    pays = [sp.expand(e.xreplace(sub)) for e in symbolic_payoffs(game, values)]
    out = []
    for prm in game.named:
        if prm.name in fixed:
            continue
        x, owner = syms[prm.name], game.owner(prm.name)
        g = sp.expand(sp.diff(pays[owner], x))
        reach = sp.expand(own_reach(game, game.infoset_index(prm.infoset)).xreplace(sub))
        if reach == 0:
            raise GameError(f"parameter {prm.name!r} is unreachable after fixing {fixed}")
        if reach != 1:
            q, r = sp.div(sp.Poly(g, *syms.values()), sp.Poly(reach, *syms.values()))
            g = q.as_expr() if r.is_zero else sp.cancel(g / reach)
        out.append(Condition(prm.name, owner, x, sp.expand(g)))
    if len(out) > MAX_PARAMETERS:
        raise GameError(f"game {game.name!r} has {len(out)} undominated named parameters; "
                        f"enumeration allows at most {MAX_PARAMETERS} (3^{MAX_PARAMETERS} cases)")
    return tuple(out)

