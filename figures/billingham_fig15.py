"""Billingham Fig. 15: bistability at P = 9 > P*, L = 6, from two initial conditions on
either side of S3: A = S3 + 0.01 (the paper's start) and B = (2/9, 0.15, 0.30) (S3 moved
towards the plane c_K = 0 that contains S1).

At the paper's k = 0.001 both runs of our model end up cycling around S2 within about 10^6
rounds (the estimator noise pushes the cycle around S1 across b_J = 2/P, where c_K grows);
the bistability the paper describes ("for k and L sufficiently small") appears here at
k = 0.0001: A ends near S2, B near S1.  Both rows are drawn; the key numbers give the
late-time mean frequencies and the nearer of S1 and S2."""
from __future__ import annotations

from pathlib import Path

from dynamics.skp_points import skp_point

from .base import FigureResult, new_figure, save
from .skp_series import POT, late_mean, nearest_point, plot_frequencies, rounds_for, run

KS = (0.001, 0.0001)
L = 6


def initial_conditions() -> dict[str, tuple[float, ...]]:
    s3 = skp_point("S3", POT)
    return {"A": tuple(min(1.0, v + 0.01) for v in s3.values()),
            "B": (2 / POT, 0.15, 0.30)}


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    rounds = rounds_for(quick)
    inits = initial_conditions()
    fig, axes = new_figure(len(KS), len(inits), size=(10, 6.4), sharex=True, sharey=True)
    numbers = {"rounds": rounds}
    for i, k in enumerate(KS):
        for j, (lab, x0) in enumerate(inits.items()):
            res = run(k, L, rounds, seed, init=x0)
            late = late_mean(res)
            near = nearest_point(late)
            plot_frequencies(axes[i, j], res, point="S2",
                             title=f"k = {k}, L = {L}, start {lab} = "
                                   f"({', '.join(f'{v:.3f}' for v in x0)}): ends near {near}")
            numbers[f"k={k} start {lab}: late-time mean"] = late
            numbers[f"k={k} start {lab}: nearer equilibrium"] = near
    axes[0, 0].legend(fontsize=7)
    path = save(fig, out_dir, "billingham_fig15.png")
    return FigureResult(
        "billingham_fig15", (path,),
        "P = 9, L = 6, two initial conditions on either side of S3, at the paper's k = 0.001 "
        "and at k = 0.0001 (dashed: S2). Bistability (one run near S1, one near S2) needs the "
        "smaller k in this model; see the module docstring.",
        numbers, "Billingham (three-player Kuhn), Fig. 15")
