"""Billingham Fig. 17: standard deviation of each estimator against L (log-log) with the
L^(-1/2) slope drawn, from the same study as Fig. 16; fitted slopes in the key numbers."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from pokerdyn.figures.base import Figure, FigureResult, described, finish, new_figure
from pokerdyn.figures.billingham.play.fig16 import COLORS
from pokerdyn.figures.billingham.play.series import study


def figure(seed: int = 0, quick: bool = False) -> Figure:
    st = study(quick, seed)
    L = np.asarray(st.L, dtype=float)
    fig, ax = new_figure(size=(6.4, 4.4))
    numbers = {"rounds": st.rounds, "L": list(st.L)}
    for j, name in enumerate(st.names):
        ax.loglog(L, st.std[:, j], "o-", ms=3, color=COLORS[j % len(COLORS)], label=name)
        tail = L >= min(24, L.max())
        slope = np.polyfit(np.log(L[tail]), np.log(st.std[tail, j]), 1)[0]
        numbers[f"{name}: std by L"] = [round(float(v), 4) for v in st.std[:, j]]
        numbers[f"{name}: fitted slope (L >= 24)"] = round(float(slope), 3)
    ref = st.std[0].max() * (L / L[0]) ** -0.5
    ax.loglog(L, ref, "k--", lw=1, label="$\\propto L^{-1/2}$")
    ax.set_xlabel("L (window length, hands)")
    ax.set_ylabel("standard deviation of the estimate")
    ax.set_title("Estimator noise at S3, P = 9", fontsize=9)
    ax.legend(fontsize=7)
    return described(fig, "billingham_fig17",
                     "Standard deviation of every estimate against L (log-log), frequencies "
                     "fixed at S3, P = 9, with an L^(-1/2) reference line; the fitted "
                     "slopes for L >= 24 are close to -1/2.", numbers,
                     "Billingham (three-player Kuhn), Fig. 17 (Appendix D)")


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/<name>.png``; its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick), out_dir)
