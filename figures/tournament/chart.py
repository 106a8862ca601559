"""The heads-up push/fold chart as two 13x13 heatmaps: per hand class, the largest effective
stack (big blinds) at which the small blind pushes (the big blind calls); a cell whose class
is not played on the whole range below that stack (a gap) is outlined in red."""
from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib.patches import Rectangle

from figures.base import new_figure, save
from games.preflop.classes import RANKS


def draw(ax, top, gap, title: str, vmax: float):
    """Heatmap of ``top`` (13, 13) on ``ax``, cells with ``gap`` outlined; returns ``ax``."""
    im = ax.imshow(np.where(top > 0, top, np.nan), cmap="viridis", vmin=0, vmax=vmax)
    for r in range(13):
        for c in range(13):
            if top[r, c] > 0:
                ax.text(c, r, f"{top[r, c]:.1f}" if top[r, c] < vmax else "+", ha="center",
                        va="center", fontsize=5, color="w" if top[r, c] < vmax / 2 else "k")
            if gap[r, c]:
                ax.add_patch(Rectangle((c - 0.5, r - 0.5), 1, 1, fill=False, edgecolor="red",
                                       linewidth=1))
    ax.set_xticks(range(13), list(RANKS))
    ax.set_yticks(range(13), list(RANKS))
    ax.set_title(title, fontsize=9)
    return im


def chart_figure(path: Path, push, call, cells, vmax: float) -> Path:
    """Write the chart: ``push``/``call`` map class -> [[low, high], ...]; ``cells`` maps
    class -> (row, col)."""
    fig, axes = new_figure(1, 2, size=(11, 5.2))
    for ax, (title, table) in zip(axes, (("SB pushes up to (bb)", push),
                                         ("BB calls up to (bb)", call))):
        top, gap = np.zeros((13, 13)), np.zeros((13, 13), dtype=bool)
        for name, iv in table.items():
            if iv:
                top[cells[name]] = iv[-1][1]
                gap[cells[name]] = len(iv) > 1
        im = draw(ax, top, gap, title, vmax)
    fig.colorbar(im, ax=axes[1], fraction=0.046, pad=0.04)
    return save(fig, path.parent, path.name)
