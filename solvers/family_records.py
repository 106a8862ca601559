"""Equilibrium families as plain records of sympy strings (for JSON output and caches), and
back.  Every string parses with ``sympy.sympify``: intervals print as ``Interval.open(5,
5/2 + sqrt(73)/2)``, a single pot as the number itself."""
from __future__ import annotations

from typing import Any, Sequence

import sympy as sp

from .piecewise import Piece, Solution


def set_str(p_set: sp.Set) -> str:
    """The P set as a sympify-able string: a point prints as the number."""
    if isinstance(p_set, sp.FiniteSet) and len(p_set) == 1:
        return str(next(iter(p_set)))
    return str(p_set)


def parse_set(text: str) -> sp.Set:
    """Inverse of :func:`set_str`."""
    obj = sp.sympify(text)
    return obj if isinstance(obj, sp.Set) else sp.FiniteSet(obj)


def solution_record(p_set: sp.Set, sol: Solution) -> dict[str, Any]:
    """One family as the JSON record of ``pokerdyn equilibria --json``."""
    return {"p_interval": set_str(p_set),
            "strategy": {k: str(v) for k, v in sol.strategy},
            "free": list(sol.free),
            "constraints": [str(c) for c in sol.constraints],
            "payoffs": [str(e) for e in sol.payoffs]}


def pieces_records(pieces: Sequence[Piece]) -> list[dict[str, Any]]:
    """Every family of every piece, in P order."""
    return [solution_record(pc.p_set, s) for pc in pieces for s in pc.solutions]


def _real(text: str, names: Sequence[str]) -> sp.Expr:
    """Parse with the package's real symbols (``P`` and the named parameters)."""
    local = {n: sp.Symbol(n, real=True) for n in names}
    return sp.sympify(text, locals=local)


def record_family(rec: dict[str, Any]) -> dict[str, Any]:
    """A record parsed back: p_set (Set), strategy (name -> Expr), free, constraints,
    payoffs, with real symbols so the expressions compare equal to the enumeration's."""
    names = ["P", *rec["strategy"], *rec["free"]]
    return {"p_set": parse_set(rec["p_interval"]),
            "strategy": {k: _real(v, names) for k, v in rec["strategy"].items()},
            "free": tuple(rec["free"]),
            "constraints": tuple(_real(c, names) for c in rec["constraints"]),
            "payoffs": tuple(_real(e, names) for e in rec["payoffs"])}
