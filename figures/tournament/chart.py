"""The heads-up push/fold chart as two 13x13 heatmaps: per hand class, the largest effective
stack (big blinds) at which the small blind pushes (the big blind calls); a cell whose class
is not played on the whole range below that stack (a gap) is outlined in red, a class whose
choice is optional over the optimal face at some stack is hatched, and one whose EV margin
is below the user's threshold at some stack away from its thresholds (near-indifferent,
:func:`near_classes`) has a dashed orange outline."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle

from pokerdyn.figures.base import Figure, FigureResult, described, finish, new_figure, save
from pokerdyn.games.preflop.classes import RANKS, grid_cell

NAME = "tournament_chart"
DATA = Path(__file__).resolve().parent / "data" / "hu_chart.json"


def draw(ax, top, gap, title: str, vmax: float, optional=None, near=None):
    """Heatmap of ``top`` (13, 13) on ``ax``, cells with ``gap`` outlined in red, with
    ``optional`` hatched and ``near`` outlined dashed (both (13, 13) bool, optional);
    returns the image."""
    im = ax.imshow(np.where(top > 0, top, np.nan), cmap="viridis", vmin=0, vmax=vmax)
    for r in range(13):
        for c in range(13):
            if top[r, c] > 0:
                ax.text(c, r, f"{top[r, c]:.1f}" if top[r, c] < vmax else "+", ha="center",
                        va="center", fontsize=5, color="w" if top[r, c] < vmax / 2 else "k")
            if gap[r, c]:
                ax.add_patch(Rectangle((c - 0.5, r - 0.5), 1, 1, fill=False, edgecolor="red",
                                       linewidth=1))
            if optional is not None and optional[r, c]:
                ax.add_patch(Rectangle((c - 0.5, r - 0.5), 1, 1, fill=False, hatch="////",
                                       edgecolor="0.85", linewidth=0))
            if near is not None and near[r, c]:
                ax.add_patch(Rectangle((c - 0.42, r - 0.42), 0.84, 0.84, fill=False,
                                       edgecolor="orange", linestyle="--", linewidth=0.9))
    ax.set_xticks(range(13), list(RANKS))
    ax.set_yticks(range(13), list(RANKS))
    ax.set_xlabel("second card (suited above the diagonal, pairs on it, offsuit below)",
                  fontsize=8)
    ax.set_ylabel("first card", fontsize=8)
    ax.set_title(title, fontsize=10)
    return im


def chart_figure(path: Path, push, call, cells, vmax: float, optional=None, near=None,
                 margin_bb: float | None = None) -> Path:
    """Write the chart of :func:`draw_chart` (same arguments) to ``path``; the path."""
    path = Path(path)
    return save(draw_chart(push, call, cells, vmax, optional, near, margin_bb), path.parent,
                path.name)


def draw_chart(push, call, cells, vmax: float, optional=None, near=None,
               margin_bb: float | None = None) -> Figure:
    """The chart: ``push``/``call`` map class -> [[low, high], ...]; ``cells`` maps
    class -> (row, col); ``optional``/``near`` (optional) map ``"push"``/``"call"`` to the
    classes optional over the optimal face at some stack of the chart, hatched, and to
    those near-indifferent (|EV margin| < ``margin_bb`` big blinds, :func:`near_classes`),
    outlined dashed."""
    fig, axes = new_figure(1, 2, size=(12, 6.4))
    marks = {}
    for ax, key, title, table in zip(axes, ("push", "call"), ("SB pushes up to (bb)",
                                                               "BB calls up to (bb)"),
                                     (push, call)):
        top, gap = np.zeros((13, 13)), np.zeros((13, 13), dtype=bool)
        for name, iv in table.items():
            if iv:
                top[cells[name]] = iv[-1][1]
                gap[cells[name]] = len(iv) > 1
        for kind, given in (("optional", optional), ("near", near)):
            marks[kind] = np.zeros((13, 13), dtype=bool)
            for name in (given or {}).get(key, ()):
                marks[kind][cells[name]] = True
        im = draw(ax, top, gap, title, vmax, marks["optional"], marks["near"])
    fig.subplots_adjust(left=0.05, right=0.88, bottom=0.16, top=0.88, wspace=0.15)
    fig.fixed_layout = True  # the colour bar's own axes: save() keeps this layout
    bar = fig.colorbar(im, cax=fig.add_axes((0.9, 0.16, 0.014, 0.72)))
    bar.set_label(f"stack (big blinds) up to which the hand is played; + = all stacks to "
                  f"{vmax:g} bb", fontsize=8)
    fig.suptitle("Heads-up jam/fold equilibrium: the largest stack at which each hand is "
                 "pushed (small blind) or calls (big blind)", fontsize=11)
    handles = [Patch(fill=False, edgecolor="red", label="gap (folded inside the range)")]
    if optional is not None:
        handles.append(Patch(fill=False, hatch="////", edgecolor="0.5",
                             label="optional at some stack (optimal face)"))
    if near is not None:
        handles.append(Line2D([], [], color="orange", linestyle="--",
                              label="near-indifferent away from its thresholds (|EV "
                                    f"margin| < {margin_bb:g} bb)" if margin_bb is not None
                              else "near-indifferent away from its thresholds"))
    fig.legend(handles=handles, loc="lower center", ncol=len(handles), fontsize=8,
               frameon=False, bbox_to_anchor=(0.47, -0.01))
    return fig


def intervals(grid_stacks, played) -> list[list[float]]:
    """Runs of consecutive played grid stacks as [low, high] pairs."""
    on = np.concatenate([[False], np.asarray(played, dtype=bool), [False]])
    starts = np.flatnonzero(on[1:] & ~on[:-1])
    ends = np.flatnonzero(~on[1:] & on[:-1]) - 1
    return [[float(grid_stacks[a]), float(grid_stacks[b])] for a, b in zip(starts, ends)]


def _bb(x: float) -> float:
    """A margin in big blinds for JSON: 6 decimals, no negative zero."""
    return round(float(x), 6) + 0.0


def chart_tables(ch, names, idx, near_bb: float = 0.01) -> dict:
    """The chart's tables (the JSON of ``pokerdyn pushfold --chart``) from a
    :class:`solvers.tournament.HuChart`, for the classes ``names`` at columns ``idx``:
    ``push``/``call`` intervals of played stacks (probability above 1/2), ``*_mixed``
    ``[stack, probability]`` where the LP mixes, ``*_optional`` ``[stack, low, high]``
    where the choice is optional over the optimal face, ``*_near`` ``[stack, margin]``
    where ``|margin| < near_bb``, and ``*_margin_bb`` the margin at every stack (classes
    with nothing to list are left out of the ``*_mixed``, ``*_optional``, ``*_near``
    tables)."""
    grid = ch.stacks
    res = {}
    for key in ("push", "call"):
        probs, margin = getattr(ch, key), getattr(ch, f"{key}_margin")
        low, high = getattr(ch, f"{key}_low"), getattr(ch, f"{key}_high")
        optional, near = ch.optional(key), np.abs(margin) < near_bb
        mixed = (probs > 1e-6) & (probs < 1 - 1e-6)
        res[key] = {h: intervals(grid, probs[:, i] > 0.5) for h, i in zip(names, idx)}
        res[f"{key}_mixed"] = {h: [[float(grid[k]), round(float(probs[k, i]), 6)]
                                   for k in np.flatnonzero(mixed[:, i])]
                               for h, i in zip(names, idx)}
        res[f"{key}_optional"] = {h: [[float(grid[k]), round(float(low[k, i]), 6),
                                       round(float(high[k, i]), 6)]
                                      for k in np.flatnonzero(optional[:, i])]
                                  for h, i in zip(names, idx)}
        res[f"{key}_near"] = {h: [[float(grid[k]), _bb(margin[k, i])]
                                  for k in np.flatnonzero(near[:, i])]
                              for h, i in zip(names, idx)}
        for part in ("mixed", "optional", "near"):
            res[f"{key}_{part}"] = {h: v for h, v in res[f"{key}_{part}"].items() if v}
        res[f"{key}_margin_bb"] = {h: [_bb(m) for m in margin[:, i]]
                                   for h, i in zip(names, idx)}
    return res


def near_classes(r: dict, key: str) -> set[str]:
    """Classes of the tables ``r`` (:func:`chart_tables` with ``stacks``) near-indifferent
    in ``key`` (push or call) *away from their thresholds*: at some stack of ``r[key +
    "_near"]`` whose margin is not 0 (the LP's choice is pure) and whose two neighbouring
    stacks have the same played status and are not in ``r[key + "_mixed"]`` either.  (Near
    its threshold every class's margin passes through 0, so the plain near list marks half
    the chart.)"""
    stacks = np.asarray(r["stacks"])
    out = set()
    for h, near in r[f"{key}_near"].items():
        played, pure = np.zeros(stacks.size, dtype=bool), np.ones(stacks.size, dtype=bool)
        for a, b in r[key][h]:
            played |= (stacks >= a - 1e-9) & (stacks <= b + 1e-9)
        pure[np.searchsorted(stacks, [s for s, _ in r[f"{key}_mixed"].get(h, [])])] = False
        inside = np.zeros(stacks.size, dtype=bool)
        inside[1:-1] = ((played[:-2] == played[1:-1]) & (played[2:] == played[1:-1])
                        & pure[:-2] & pure[2:])
        at = np.searchsorted(stacks, [s for s, x in near if x != 0])
        if inside[at].any():
            out.add(h)
    return out


def chart_data(step: float = 0.1, max_stack: float = 20.0, near_bb: float = 0.01) -> dict:
    """The heads-up chip-EV chart (blinds 0.5/1, no ante) at stacks ``step``, ``2 step``, ...
    ``max_stack`` big blinds (above the big blind): :func:`chart_tables` of every class."""
    from pokerdyn.games.tournament.hands import preflop_model
    from pokerdyn.solvers.tournament import hu_chart_faces
    grid = np.round(np.arange(1, int(np.floor(max_stack / step + 1e-9)) + 1) * step, 10)
    grid = grid[grid > 1 + 1e-12]
    model = preflop_model()
    ch = hu_chart_faces(model, grid, (0.5, 1.0))
    return {"stacks": grid.tolist(), "blinds": [0.5, 1.0], "ante": 0.0,
            "margin_threshold_bb": near_bb,
            **chart_tables(ch, model.names, range(len(model.names)), near_bb)}


def figure(seed: int = 0, quick: bool = False) -> Figure:
    """The chart from the committed run (``figures/tournament/data/hu_chart.json``: ``pokerdyn
    pushfold --chart --blinds 0.5,1 --max-stack 20 --step 0.1 --json`` without the
    ``*_margin_bb`` tables, 600 KB; the margins near zero are in ``*_near``) when ``quick``;
    else recomputed (190 LPs and the margins, about 30 s)."""
    r = json.loads(DATA.read_text()) if quick else chart_data()
    top = float(r["stacks"][-1])
    fig = draw_chart(r["push"], r["call"], {h: grid_cell(h) for h in r["push"]}, top,
                     optional={k: set(r[f"{k}_optional"]) for k in ("push", "call")},
                     near={k: near_classes(r, k) for k in ("push", "call")},
                     margin_bb=r["margin_threshold_bb"])
    gaps = sorted(h for h, iv in r["push"].items() if len(iv) > 1)
    numbers = {"classes pushed at every stack": sum(1 for iv in r["push"].values()
                                                    if iv and iv[0][0] <= r["stacks"][0]
                                                    and iv[-1][1] >= top and len(iv) == 1),
               "largest push stack of T3s, Q2o call (bb)": (
                   r["push"]["T3s"][-1][1] if r["push"]["T3s"] else None,
                   r["call"]["Q2o"][-1][1] if r["call"]["Q2o"] else None),
               "push ranges with a gap": ", ".join(gaps),
               "optional (hand, stack) cells, push and call": (
                   sum(map(len, r["push_optional"].values())),
                   sum(map(len, r["call_optional"].values()))),
               "63s push margin at 5.9 bb (bb)": dict(map(tuple, r["push_near"]["63s"]))[5.9]}
    return described(fig, NAME, "Heads-up jam/fold chart (chip EV, blinds 0.5/1): per "
                     "class the largest effective stack at which the small blind pushes "
                     "and the big blind calls, gaps outlined in red, classes near "
                     "indifference (|EV margin| < 0.01 bb) at some stack dashed, optional "
                     "ones hatched.", numbers,
                     "Tournament paper (Ganzfried & Sandholm), HoldemResources' Nash charts")


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/tournament_chart.png``; its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick), Path(out_dir))


__all__ = ["chart_data", "chart_figure", "chart_tables", "draw", "draw_chart", "figure",
           "intervals", "main", "near_classes"]
