"""The heads-up push/fold chart as two 13x13 heatmaps: per hand class, the largest effective
stack (big blinds) at which the small blind pushes (the big blind calls); a cell whose class
is not played on the whole range below that stack (a gap) is outlined in red."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from matplotlib.patches import Rectangle

from figures.base import FigureResult, new_figure, save
from games.preflop.classes import RANKS, grid_cell

NAME = "tournament_chart"
DATA = Path(__file__).resolve().parent / "data" / "hu_chart.json"


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


def intervals(grid_stacks, played) -> list[list[float]]:
    """Runs of consecutive played grid stacks as [low, high] pairs."""
    on = np.concatenate([[False], np.asarray(played, dtype=bool), [False]])
    starts = np.flatnonzero(on[1:] & ~on[:-1])
    ends = np.flatnonzero(~on[1:] & on[:-1]) - 1
    return [[float(grid_stacks[a]), float(grid_stacks[b])] for a, b in zip(starts, ends)]


def chart_data(step: float = 0.1, max_stack: float = 20.0) -> dict:
    """The heads-up chip-EV chart (blinds 0.5/1, no ante) at stacks ``step``, ``2 step``, ...
    ``max_stack`` big blinds (above the big blind): per class the push and call intervals."""
    from games.tournament.hands import preflop_model
    from solvers.tournament import hu_chart
    grid = np.round(np.arange(1, int(np.floor(max_stack / step + 1e-9)) + 1) * step, 10)
    grid = grid[grid > 1 + 1e-12]
    model = preflop_model()
    push, call = hu_chart(model, grid, (0.5, 1.0))
    return {"stacks": grid.tolist(), "blinds": [0.5, 1.0], "ante": 0.0,
            "push": {h: intervals(grid, push[:, i] > 0.5) for i, h in enumerate(model.names)},
            "call": {h: intervals(grid, call[:, i] > 0.5) for i, h in enumerate(model.names)}}


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """The chart from the committed run (``figures/tournament/data/hu_chart.json``: ``pokerdyn
    pushfold --chart --blinds 0.5,1 --max-stack 20 --step 0.1 --json``) when ``quick``;
    else recomputed (190 LPs, about 20 s)."""
    out_dir = Path(out_dir)
    r = json.loads(DATA.read_text()) if quick else chart_data()
    top = float(r["stacks"][-1])
    png = chart_figure(out_dir / f"{NAME}.png", r["push"], r["call"],
                       {h: grid_cell(h) for h in r["push"]}, top)
    gaps = sorted(h for h, iv in r["push"].items() if len(iv) > 1)
    numbers = {"classes pushed at every stack": sum(1 for iv in r["push"].values()
                                                    if iv and iv[0][0] <= r["stacks"][0]
                                                    and iv[-1][1] >= top and len(iv) == 1),
               "largest push stack of T3s, Q2o call (bb)": (
                   r["push"]["T3s"][-1][1] if r["push"]["T3s"] else None,
                   r["call"]["Q2o"][-1][1] if r["call"]["Q2o"] else None),
               "push ranges with a gap": ", ".join(gaps)}
    return FigureResult(NAME, (png,), "Heads-up jam/fold chart (chip EV, blinds 0.5/1): per "
                        "class the largest effective stack at which the small blind pushes "
                        "and the big blind calls, gaps outlined.", numbers,
                        "Tournament paper (Ganzfried & Sandholm), HoldemResources' Nash charts")


__all__ = ["chart_data", "chart_figure", "draw", "intervals", "main"]
