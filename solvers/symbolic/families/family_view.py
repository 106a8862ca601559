"""One form for an equilibrium family's record, whichever algorithm found it: its strategy
by information-set label and action (``strategy_by_infoset``, beside ``strategy`` by
parameter name) and its payoffs as expressions in its free parameters (``payoffs``; the
support method recorded only ``payoffs_at_witness``).  Records are JSON-ready dicts of
sympy strings (:mod:`solvers.symbolic.axis.family_records`); these functions add keys and change none."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import sympy as sp

from pokerdyn.games import Game
from pokerdyn.games.strategy import param_symbols, symbolic_strategy


def _locals(game: Game) -> dict[str, Any]:
    return {str(s): s for s in game.params} | dict(param_symbols(game))


def strategy_by_infoset(game: Game, strategy: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    """``{"<information set label>": {"<action>": "<probability>"}}`` of a family whose
    strategy is given by parameter name (sympy strings or expressions; free parameters
    stay symbols), for every information set with a named parameter: the action of a
    parameter gets its value, the set's other action(s) the rest (``1 - b_J``)."""
    loc = _locals(game)
    sub = {param_symbols(game)[k]: (sp.sympify(v, locals=loc) if isinstance(v, str) else v)
           for k, v in strategy.items()}
    named = {game.infoset_index(p.infoset) for p in game.named}
    out: dict[str, dict[str, str]] = {}
    for i, row in enumerate(symbolic_strategy(game)):
        if i not in named:
            continue
        info = game.infosets[i]
        out[info.label] = {a: str(sp.factor(sp.sympify(e).xreplace(sub)))
                           for a, e in zip(info.actions, row)}
    return out


def add_by_infoset(game: Game, families: Sequence[dict]) -> None:
    """Each family record given ``strategy_by_infoset`` (from its ``strategy``)."""
    for rec in families:
        if "strategy" in rec and "strategy_by_infoset" not in rec:
            rec["strategy_by_infoset"] = strategy_by_infoset(game, rec["strategy"])


def payoffs_in_free(game: Game, pot: Any, strategy: Mapping[str, str],
                    system: Any = None) -> list[str]:
    """Each player's expected payoff on a family (strategy by parameter name, sympy strings
    in its free parameters) at the exact pot ``pot`` (None: a game without a pot), as
    factored expressions in the free parameters: the game's payoff polynomials
    (:func:`solvers.symbolic.model.sparse_gains.gain_system`, exact over QQ) with the family's fixed values
    substituted in the ring, then its free expressions (``system``: that gain system, when
    built already)."""
    from pokerdyn.solvers.symbolic.model.sparse_gains import gain_system

    sysm = system if system is not None else gain_system(game, pot)
    loc = _locals(game)
    values = {k: sp.sympify(v, locals=loc) for k, v in strategy.items()}
    idx = {n: i for i, n in enumerate(sysm.names)}
    dom = sysm.ring.domain
    ground = [(sysm.ring.gens[idx[k]], dom.convert(v)) for k, v in values.items()
              if v.is_Rational and k in idx]
    rest = {param_symbols(game)[k]: v for k, v in values.items() if not v.is_Rational}
    out = []
    for f in sysm.payoffs:
        g = f.subs(ground) if ground else f
        e = g.as_expr() if hasattr(g, "as_expr") else sp.sympify(g)
        out.append(str(sp.factor_terms(sp.cancel(sp.expand(e.xreplace(rest))))))
    return out


def add_payoffs_in_free(game: Game, pot: Any, families: Sequence[dict]) -> None:
    """Each family record of the support method given ``payoffs`` in its free parameters
    (:func:`payoffs_in_free`; ``payoffs_at_witness`` kept)."""
    from pokerdyn.solvers.symbolic.model.sparse_gains import gain_system

    todo = [rec for rec in families if "payoffs" not in rec]
    sysm = gain_system(game, pot) if todo else None
    for rec in todo:
        rec["payoffs"] = payoffs_in_free(game, pot, rec["strategy"], sysm)


__all__ = ["add_by_infoset", "add_payoffs_in_free", "payoffs_in_free", "strategy_by_infoset"]
