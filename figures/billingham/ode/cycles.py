"""Billingham Fig. 7: nested periodic orbits around S1 in the invariant plane c_K = 0 (left)
and, alike, around S2 in d_Q = 0 (right) (P = 9, k = 1), found on Poincare sections through
the centres; arrows show the direction of motion."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from pokerdyn.dynamics import cycle_family, find_first_integrals
from pokerdyn.dynamics.plotting import mark_points, phase_plane

from pokerdyn.figures.billingham.ode._skp import named_equilibria, skp_model
from pokerdyn.figures.base import Figure, FigureResult, described, finish, new_figure

# centre, plane, plotted axes (the first is also the direction of the start offsets)
FAMILIES = (("S1", {"c_K": 0}, ("b_J", "d_Q")), ("S2", {"d_Q": 0}, ("b_J", "c_K")))


def figure(seed: int = 0, quick: bool = False) -> Figure:
    m = skp_model()
    eqs = named_equilibria()
    amps = np.linspace(0.03, 0.17, 3 if quick else 8)
    fig, axes = new_figure(1, 2, size=(10, 4.8))
    numbers = {}
    for ax, (name, plane, (x, y)) in zip(axes, FAMILIES):
        e = eqs[name]
        direction = np.array([1.0 if n == x else 0.0 for n in m.names])
        cycles = cycle_family(m, e.x, direction, amps, (y, e.point[y]), n_returns=1,
                              rtol=1e-10, atol=1e-12, n_samples=300)
        (H,) = find_first_integrals(m, plane)
        for c in cycles:
            phase_plane(ax, c.orbit, x, y, arrows=3, lw=1)
        mark_points(ax, [e.point], (x, y), [name])
        pl = ", ".join(f"{k} = {v}" for k, v in plane.items())
        ax.set_title(f"Nested cycles in {pl} ({m.label()})", fontsize=9)
        drift = max(float(np.ptp(h) / abs(h[0])) for h in
                    (H.along(c.orbit.names, c.orbit.states) for c in cycles))
        numbers[f"periods around {name}"] = [round(c.period, 4) for c in cycles]
        numbers[f"max relative drift of H on a cycle ({name})"] = f"{drift:.1e}"
        numbers[f"max closure of return map ({name})"] = f"{max(c.closure for c in cycles):.1e}"
    return described(
        fig, "ode_cycles",
        "Periodic orbits in the invariant planes c_K = 0 around S1 and d_Q = 0 around S2, "
        "started at b_J = b_J(S) + a. They are level sets of the first integrals H; the "
        "motion is anticlockwise in (b_J, d_Q) (Player 3 bluffs more, Player 2 calls more, "
        "Player 3 bluffs less, ...). Periods grow with amplitude.",
        numbers, "Billingham, Fig. 7")


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/<name>.png``; its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick), out_dir)
