"""Named points of SKP's strategy space: Billingham's equilibria S1, S2, S3 (eqs. (12)-(14)),
as exact functions of the pot P.  Used for initial conditions (the paper starts near S3) and
for the estimator study (frequencies held at S3).  S3 exists for P >= P* = (5 + sqrt 73)/2.

The formulas are not typed here: they are the three isolated equilibria that the exact
enumeration (:func:`solvers.symbolic.axis.piecewise.equilibrium_pieces`) finds on the last piece
of the P axis, named by the paper's description (sec. 3): S1 is the one where Player 2 never
bets the King (``c_K = 0``), S2 the one where Player 3 never calls with the Queen
(``d_Q = 0``), S3 the one where all three mix.  The enumeration runs once per process.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Callable, Iterator, Mapping

import sympy as sp

from pokerdyn.games import GameError, get_game

NAMES = ("b_J", "c_K", "d_Q")


@lru_cache(maxsize=1)
def _formulas() -> dict[str, tuple[sp.Expr, ...]]:
    """S1, S2, S3 as expressions in the game's pot symbol, from the enumeration."""
    from pokerdyn.solvers.symbolic.model.conditions import pot_symbol
    from pokerdyn.solvers.symbolic.axis.piecewise import equilibrium_pieces

    game = get_game("skp")
    last = equilibrium_pieces(game)[-1]
    points = [s.as_dict() for s in last.solutions if not s.free]
    named = {"S1": [q for q in points if q["c_K"] == 0],
             "S2": [q for q in points if q["d_Q"] == 0],
             "S3": [q for q in points if q["c_K"] != 0 and q["d_Q"] != 0]}
    if any(len(v) != 1 for v in named.values()) or len(points) != 3:
        raise GameError("the skp enumeration no longer gives three isolated equilibria on "
                        f"[P*, oo): {points}")
    p = pot_symbol(game)
    return {k: (p,) + tuple(sp.sympify(v[0][n]) for n in NAMES) for k, v in named.items()}


class _Points(Mapping):
    """``POINTS[name](P)`` -> exact ``(b_J, c_K, d_Q)``; formulas derived on first use."""

    def __getitem__(self, name: str) -> Callable[[sp.Expr], tuple[sp.Expr, ...]]:
        if name not in ("S1", "S2", "S3"):
            raise KeyError(name)

        def at(P, _name=name):
            p, *vals = _formulas()[_name]
            return tuple(sp.cancel(v.xreplace({p: sp.sympify(P)})) for v in vals)
        return at

    def __iter__(self) -> Iterator[str]:
        return iter(("S1", "S2", "S3"))

    def __len__(self) -> int:
        return 3


POINTS: Mapping[str, Callable[[sp.Expr], tuple[sp.Expr, ...]]] = _Points()


def skp_point(name: str, pot: float) -> dict[str, float]:
    """``{"b_J", "c_K", "d_Q"}`` of point ``name`` (S1, S2, S3) at pot ``pot``; GameError if
    unknown or outside [0, 1] (S3 needs P >= P*, S1 and S2 P >= 5)."""
    f = POINTS.get(name.upper())
    if f is None:
        raise GameError(f"unknown point {name!r}; allowed: {', '.join(POINTS)} or b,c,d")
    P = sp.nsimplify(pot, rational=True)
    vals = {n: float(v) for n, v in zip(NAMES, f(P))}
    if not all(0.0 <= v <= 1.0 for v in vals.values()):
        pstar = (5 + math.sqrt(73)) / 2
        raise GameError(f"point {name} at P={pot:g} is outside [0, 1]^3 ({vals}); S1 and S2 "
                        f"need P >= 5, S3 needs P >= P* = {pstar:.4f}")
    return vals
