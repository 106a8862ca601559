"""Named points of SKP's strategy space: Billingham's equilibria S1, S2, S3 (eqs. (12)-(14)),
as exact functions of the pot P.  Used for initial conditions (the paper starts near S3) and
for the estimator study (frequencies held at S3).  S3 exists for P >= P* = (5 + sqrt 73)/2.
"""
from __future__ import annotations

import math
from typing import Mapping

import sympy as sp

from games import GameError

POINTS: Mapping[str, object] = {
    "S1": lambda P: (2 / (P + 1), sp.Integer(0), (P - 5) / (P + 1)),  # Billingham (12)
    "S2": lambda P: (2 / P, (P - 5) / (P + 1), sp.Integer(0)),  # Billingham (13)
    "S3": lambda P: (2 / P, 2 / (P + 2), (P ** 2 - 5 * P - 12) / (P * (P + 1))),  # (14)
}
NAMES = ("b_J", "c_K", "d_Q")


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
