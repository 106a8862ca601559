"""Basin map of the skp ODE model (P = 9, k = 1): on the slice b_J = b_J(S3) = 2/P, which
attracting plane (c_K = 0 or d_Q = 0) each initial (c_K, d_Q) approaches."""
from __future__ import annotations

from pathlib import Path

from pokerdyn.dynamics import basin_map, grid_points
from pokerdyn.dynamics.plotting import basin_image, mark_points

from pokerdyn.figures.billingham.ode._skp import named_equilibria, skp_model
from pokerdyn.figures.base import Figure, FigureResult, described, finish, new_figure


def figure(seed: int = 0, quick: bool = False) -> Figure:
    m = skp_model()
    s3 = named_equilibria()["S3"]
    n = 24 if quick else 80
    pts = grid_points(m, {"b_J": s3.point["b_J"]}, ("c_K", "d_Q"), n)
    bm = basin_map(m, pts, t_end=800.0, faces=[("c_K", 0.0), ("d_Q", 0.0)])
    fig, ax = new_figure(size=(5.5, 5))
    basin_image(ax, bm, ("c_K", "d_Q"), m.names)
    mark_points(ax, [s3.point], ("c_K", "d_Q"), ["S3"])
    ax.set_title(f"Basins on b_J = {s3.exact['b_J']} ({m.label()})", fontsize=9)
    return described(
        fig, "ode_basin",
        "Each grid point of initial frequencies (c_K, d_Q) with b_J = 2/P is coloured by the "
        "invariant plane its trajectory approaches; the boundary is the trace of the stable "
        "manifold of S3 (Fig. 8); grey: undecided by t = 800.",
        {"grid": f"{n}x{n}", **bm.counts()}, "pokerdyn (Billingham sec. 4.1, Fig. 8)")


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/<name>.png``; its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick), out_dir)
