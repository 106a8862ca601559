"""Billingham Fig. 7: nested periodic orbits around S1 in the invariant plane c_K = 0
(P = 9, k = 1), found on the Poincare section d_Q = d_Q(S1); arrows show the direction."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from dynamics import cycle_family, find_first_integrals
from dynamics.plotting import mark_points, phase_plane

from ._ode_skp import named_equilibria, skp_model
from .base import FigureResult, new_figure, save


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    m = skp_model()
    s1 = named_equilibria()["S1"]
    amps = np.linspace(0.03, 0.17, 4 if quick else 8)
    direction = np.array([1.0, 0.0, 0.0])           # along b_J, within c_K = 0
    cycles = cycle_family(m, s1.x, direction, amps, ("d_Q", s1.point["d_Q"]),
                          n_returns=1, rtol=1e-10, atol=1e-12, n_samples=300)
    (H,) = find_first_integrals(m, {"c_K": 0})
    fig, ax = new_figure(size=(5.5, 5))
    for c in cycles:
        phase_plane(ax, c.orbit, "b_J", "d_Q", arrows=3, lw=1)
    mark_points(ax, [s1.point], ("b_J", "d_Q"), ["S1"])
    ax.set_title(f"Nested cycles in c_K = 0 ({m.label()})", fontsize=9)
    drift = max(float(np.ptp(H.along(c.orbit.names, c.orbit.states)) /
                      abs(H.along(c.orbit.names, c.orbit.states)[0])) for c in cycles)
    numbers = {"periods": [round(c.period, 4) for c in cycles],
               "max relative drift of H on a cycle": f"{drift:.1e}",
               "max closure of return map": f"{max(c.closure for c in cycles):.1e}"}
    path = save(fig, out_dir, "ode_cycles.png")
    return FigureResult(
        "ode_cycles", (path,),
        "Periodic orbits in the invariant plane c_K = 0 around S1 = (2/(P+1), 0, "
        "(P-5)/(P+1)), started at b_J = b_J(S1) + a. They are level sets of the first "
        "integral H(b_J, d_Q); the motion is anticlockwise (Player 3 bluffs more, Player 2 "
        "calls more, Player 3 bluffs less, ...). Periods grow with amplitude.",
        numbers, "Billingham, Fig. 7")
