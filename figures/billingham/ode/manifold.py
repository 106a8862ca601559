"""Billingham Fig. 8: an integral path in the 2-D stable manifold of S3, computed by
integrating backwards in time from a point close to S3 (P = 9, k = 1)."""
from __future__ import annotations

from pathlib import Path

from pokerdyn.dynamics import manifold_paths
from pokerdyn.dynamics.plotting import mark_points, phase_3d

from pokerdyn.figures.billingham.ode._skp import named_equilibria, skp_model
from pokerdyn.figures.base import Figure, FigureResult, described, finish, new_figure


def figure(seed: int = 0, quick: bool = False) -> Figure:
    m = skp_model()
    eqs = named_equilibria()
    (path,) = manifold_paths(m, eqs["S3"], "stable", radius=1e-3,
                             t_end=600.0 if quick else 900.0, n_samples=3000)
    fig, ax = new_figure(size=(6, 5.5), subplot_kw={"projection": "3d"})
    phase_3d(ax, [path], m.names, arrows=0, lw=0.8, colors=["C0"])
    mark_points(ax, [e.point for e in eqs.values()], m.names, list(eqs))
    ax.set_title(f"Stable manifold of S3, backward path ({m.label()})", fontsize=9)
    lam = eqs["S3"].eigenvalues
    return described(
        fig, "ode_manifold",
        "A backward-time integral path from a point 1e-3 from S3 in its stable eigenspace: "
        "it spirals outwards on the 2-D stable manifold of S3, the surface that separates "
        "the basins of attraction of the planes c_K = 0 (around S1) and d_Q = 0 (around S2).",
        {"S3 eigenvalues": [f"{z.real:.4g}{z.imag:+.4g}i" for z in lam],
         "final distance from S3": float(((path.states[-1] - eqs["S3"].x) ** 2).sum() ** .5)},
        "Billingham, Fig. 8")


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/<name>.png``; its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick), out_dir)
