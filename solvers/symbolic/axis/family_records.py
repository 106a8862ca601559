"""Equilibrium families as plain records of sympy strings (for JSON output and caches), and
back.  Every string parses with ``sympy.sympify``: intervals print as ``Interval.open(5,
5/2 + sqrt(73)/2)``, a single pot as the number itself."""
from __future__ import annotations

from typing import Any, Sequence

import sympy as sp

from pokerdyn.games import Game, GameError
from pokerdyn.games.strategy import param_symbols

from pokerdyn.solvers.symbolic.axis.piecewise import Piece, Solution


def set_str(p_set: sp.Set) -> str:
    """The P set as a sympify-able string: a point prints as the number."""
    if isinstance(p_set, sp.FiniteSet) and len(p_set) == 1:
        return str(next(iter(p_set)))
    return str(p_set)


def parse_set(text: str) -> sp.Set:
    """Inverse of :func:`set_str`."""
    obj = sp.sympify(text)
    return obj if isinstance(obj, sp.Set) else sp.FiniteSet(obj)


def record_constraint(rel: Any, text: str | None = None) -> tuple[sp.Expr, bool] | None:
    """A recorded inequality (parsed, ``text`` as recorded) as the constraint ``(expr,
    strict)`` of a :class:`~solvers.symbolic.model.conditions.Family` (``expr > 0`` or ``>= 0``);
    None when it holds identically (decided on parsing or after a substitution)."""
    if rel in (True, sp.true):
        return None
    if rel in (False, sp.false):
        raise GameError(f"recorded constraint {text or rel!r} is false")
    if isinstance(rel, (sp.Ge, sp.Gt)):
        return sp.expand(rel.lhs - rel.rhs), isinstance(rel, sp.Gt)
    if isinstance(rel, (sp.Le, sp.Lt)):
        return sp.expand(rel.rhs - rel.lhs), isinstance(rel, sp.Lt)
    raise GameError(f"recorded constraint {text or rel!r} is not an inequality")


def solution_record(p_set: sp.Set, sol: Solution) -> dict[str, Any]:
    """One family as the JSON record of ``pokerdyn equilibria --json`` (``intervals``: the
    exact end points of each free parameter whose constraints form an interval)."""
    return {"p_interval": set_str(p_set),
            "strategy": {k: str(v) for k, v in sol.strategy},
            "free": list(sol.free),
            "constraints": [str(c) for c in sol.constraints],
            "payoffs": [str(e) for e in sol.payoffs],
            "intervals": {x: {"low": str(lo), "high": str(hi), "low_open": lo_open,
                              "high_open": hi_open}
                          for x, lo, hi, lo_open, hi_open in sol.intervals}}


def constraint_text(sol: Solution) -> str:
    """The constraints for reading: ``a <= x <= b`` per free parameter where they are
    intervals (``<`` at an open end), else the non-redundant inequalities."""
    if sol.intervals:
        return ", ".join(f"{lo} {'<' if lo_open else '<='} {x} {'<' if hi_open else '<='} {hi}"
                         for x, lo, hi, lo_open, hi_open in sol.intervals)
    # several parameters: a lower and an upper bound on one expression print as one range
    out, used = [], set()
    for i, c in enumerate(sol.constraints):
        if i in used:
            continue
        pair = next((j for j, d in enumerate(sol.constraints) if j > i and j not in used
                     and d.lhs == c.lhs and isinstance(d, (sp.Lt, sp.Le)) != isinstance(c, (sp.Lt, sp.Le))),
                    None)
        if pair is None or not isinstance(c.lhs, (sp.Symbol, sp.Add)):
            out.append(str(c))
            continue
        used.add(pair)
        lo, hi = (c, sol.constraints[pair]) if isinstance(c, (sp.Gt, sp.Ge)) else (sol.constraints[pair], c)
        out.append(f"{lo.rhs} {'<' if isinstance(lo, sp.Gt) else '<='} {c.lhs} "
                   f"{'<' if isinstance(hi, sp.Lt) else '<='} {hi.rhs}")
    return ", ".join(out) or "none"


def pieces_records(pieces: Sequence[Piece]) -> list[dict[str, Any]]:
    """Every family of every piece, in P order."""
    return [solution_record(pc.p_set, s) for pc in pieces for s in pc.solutions]


def record_family(rec: dict[str, Any], game: Game) -> dict[str, Any]:
    """A record parsed back: p_set (Set), strategy (name -> Expr), free, constraints,
    payoffs, in ``game``'s own symbols so they compare equal to the enumeration's."""
    local = {str(s): s for s in game.params} | {str(k): v for k, v in param_symbols(game).items()}

    def parse(text: str) -> sp.Expr:
        return sp.sympify(text, locals=local)

    return {"p_set": parse_set(rec["p_interval"]),
            "strategy": {k: parse(v) for k, v in rec["strategy"].items()},
            "free": tuple(rec["free"]),
            "constraints": tuple(parse(c) for c in rec["constraints"]),
            "payoffs": tuple(parse(e) for e in rec["payoffs"])}
