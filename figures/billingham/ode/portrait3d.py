"""3-D phase portrait of the skp ODE model (P = 9, k = 1): trajectories from random initial
frequencies, integrated together (vectorised), with the equilibria S1, S2, S3."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from pokerdyn.dynamics import simulate_batch
from pokerdyn.dynamics.plotting import mark_points, phase_3d

from pokerdyn.figures.billingham.ode._skp import named_equilibria, skp_model
from pokerdyn.figures.base import Figure, FigureResult, described, finish, new_figure


def figure(seed: int = 0, quick: bool = False) -> Figure:
    m = skp_model()
    eqs = named_equilibria()
    rng = np.random.default_rng(seed)
    n = 8 if quick else 24
    Y0 = rng.uniform(0.05, 0.95, (n, m.n))
    trs = simulate_batch(m, Y0, 300.0, t_eval=np.linspace(0, 300, 1201))
    fig, ax = new_figure(size=(6, 5.5), subplot_kw={"projection": "3d"})
    phase_3d(ax, trs, m.names, arrows=2, lw=0.6)
    mark_points(ax, [e.point for e in eqs.values()], m.names, list(eqs))
    ax.set_title(f"Phase portrait, {n} trajectories ({m.label()})", fontsize=9)
    fate = {"c_K -> 0": sum(t.final["c_K"] < 1e-2 for t in trs),
            "d_Q -> 0": sum(t.final["d_Q"] < 1e-2 for t in trs)}
    return described(
        fig, "ode_portrait3d",
        "Trajectories from random initial frequencies: each decays onto one of the "
        "attracting invariant planes c_K = 0 or d_Q = 0 and then cycles around S1 or S2.",
        {"trajectories": n, **fate}, "pokerdyn (Billingham sec. 4.1)")


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/<name>.png``; its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick), out_dir)
