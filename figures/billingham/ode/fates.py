"""Billingham Fig. 9: two solutions with different fates, one attracted to the plane
c_K = 0 (cycling around S1), one to d_Q = 0 (cycling around S2) (P = 9, k = 1)."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from pokerdyn.dynamics import simulate_ode as simulate
from pokerdyn.dynamics.plotting import time_series

from pokerdyn.figures.billingham.ode._skp import STARTS, skp_model
from pokerdyn.figures.base import Figure, FigureResult, described, finish, new_figure


def two_solutions(quick: bool):
    m = skp_model()
    t_end = 400.0 if quick else 800.0
    return [simulate(m, y0, t_end, t_eval=np.linspace(0, t_end, 1601)) for y0 in STARTS]


def figure(seed: int = 0, quick: bool = False) -> Figure:
    m = skp_model()
    trs = two_solutions(quick)
    fig, axes = new_figure(1, 2, size=(10, 4), sharey=True)
    for ax, tr, y0 in zip(axes, trs, STARTS):
        time_series(ax, tr)
        ax.set_title(f"start (b_J, c_K, d_Q) = {y0}", fontsize=9)
    fig.suptitle(f"Two solutions with different fates ({m.label()})", fontsize=10)
    fin = [tr.final for tr in trs]
    return described(
        fig, "ode_fates",
        "Two solutions started either side of the stable manifold of S3: the first decays "
        "onto c_K = 0 and cycles around S1, the second onto d_Q = 0 around S2.",
        {"final states": [{k: round(v, 5) for k, v in f.items()} for f in fin]},
        "Billingham, Fig. 9")


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/<name>.png``; its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick), out_dir)
