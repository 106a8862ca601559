"""The selection map of games too large to enumerate (kuhn3: 48 frequencies): segments of
the pot axis over which the limit of the principal QRE branch moves continuously, split
where it jumps.

With no families to match, the limit's support is no key: next to the pots where the
selection changes, the branch converges slowly and probabilities that tend to 0 sit near
any cut, so supports flicker between neighbouring pots (kuhn3 near P = 2), and a support
also changes where a probability reaches 0 continuously.  A jump is instead a change of the
limit (max over the named parameters) that stays above ``JUMP`` as its bracket shrinks:
bisection keeps the half with the larger change and stops (no jump) when both halves change
by less than ``JUMP``.  Within about 1e-5 of a jump the branch reaches its asymptotic regime
only at lambda far beyond NashConv 1e-6 (kuhn3 at P = 2 -+ 5e-7: NashConv 2e-8, the limits
0.013 apart, between the selections on the two sides), so what bisection brackets there is a
steep ramp of width ~1e-5 near the jump (not always around it: SKP's ramp ends 7e-5 below
P = 5), and the jump is reported at the simplest rational (denominator <= 12) within
``SNAP`` = 1e-4 of the bracket (the payoffs are affine in P with small integer
coefficients, so the critical pots of the algebra are such rationals); a bracket with none
is reported at its midpoint (bisected to ``pot_tol``).
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable

import numpy as np
import sympy as sp

from pokerdyn.games import Game
from pokerdyn.solvers.qre.pots import PotPoint, Segment, limit_at_pot

JUMP = 1e-3          # a change of the limit (max over parameters) that may be a jump
SNAP = 1e-4          # a bracket this close to a simple rational is a jump at the rational
SCREEN = 0.25        # grid neighbours with the same support further apart are bisected too


def distance(a: PotPoint, b: PotPoint) -> float:
    """Largest change of a named parameter between two limits."""
    return max((abs(a.params[k] - b.params[k]) for k in a.params), default=0.0)


def simple_rational(lo: float, hi: float, max_den: int = 12) -> sp.Rational | None:
    """The rational of smallest denominator (<= ``max_den``) in ``[lo, hi]``, or None."""
    for q in range(1, max_den + 1):
        p = int(np.ceil(lo * q - 1e-12))
        if p <= hi * q + 1e-12:
            f = Fraction(p, q)
            return sp.Rational(f.numerator, f.denominator)
    return None


def locate_jump(game: Game, a: PotPoint, b: PotPoint, pot_tol: float
                ) -> tuple[Any, PotPoint] | None:
    """The pot between ``a.pot`` and ``b.pot`` where the limit jumps, with the limit just
    after it, or None where it moves continuously (module docstring)."""
    lo, hi = a, b
    while hi.pot - lo.pot > pot_tol:
        mid = limit_at_pot(game, 0.5 * (lo.pot + hi.pot), [])
        dl, dr = distance(lo, mid), distance(mid, hi)
        if max(dl, dr) < JUMP:
            return None                     # both halves moved little: continuous here
        lo, hi = (lo, mid) if dl >= dr else (mid, hi)
    c = simple_rational(lo.pot - SNAP, hi.pot + SNAP)
    return (c if c is not None else 0.5 * (lo.pot + hi.pot)), hi


def continuity_map(game: Game, low: float, high: float, grid: int = 48,
                   pot_tol: float = 1e-6, progress: Callable[[int], None] | None = None
                   ) -> list[Segment]:
    """Segments of ``(low, high]`` between the jumps of the principal branch's limit, for
    games without enumerated families; each segment's ``points`` hold the limits at the
    grid pots inside it (``strategy`` None: floats only)."""
    pots = np.append(low + (high - low) * (np.arange(grid) + 0.5) / grid, high)
    pts = []
    for k, p in enumerate(pots):
        pts.append(limit_at_pot(game, float(p), []))
        if progress is not None:
            progress(k + 1)
    segs: list[Segment] = []
    start: Any = sp.nsimplify(low)
    group = [pts[0]]
    for a, b in zip(pts, pts[1:]):
        jump = None
        if a.support != b.support or distance(a, b) > SCREEN:
            jump = locate_jump(game, a, b, pot_tol)
        if jump is not None:
            segs.append(Segment(start, jump[0], None, (), tuple(group)))
            start, group = jump[0], []
        group.append(b)
    segs.append(Segment(start, sp.nsimplify(high), None, (), tuple(group)))
    return segs
