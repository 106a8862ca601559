"""Which equilibrium the limit of the principal logit QRE branch selects along the pot axis:
the selected frequencies of SKP and of the one-third street game against P in (0, 12], with
the pots where the selection jumps (solvers.qre.selection), and of 3-player Kuhn poker
(``kuhn3``, 48 frequencies, too large to enumerate: segments between the jumps of the limit,
solvers.qre.jumps) from its committed map (figures/qre/data/kuhn3_selection.json, written by
benchmarks/bench_qre.py; a few minutes to recompute).  ``quick``: SKP on a coarse grid without
the family matching, and the committed kuhn3 map."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from pokerdyn.games import get_game
from pokerdyn.solvers.qre.selection import limit_at_pot, selected_frequencies, selection_map

from pokerdyn.figures.base import Figure, FigureResult, described, finish, new_figure


def _quick(name: str, grid: int):
    game = get_game(name)
    pots = 12.0 * (np.arange(grid) + 0.5) / grid
    pts = [limit_at_pot(game, float(p), pieces=[]) for p in pots]
    names = list(pts[0].params)
    return pots, {n: np.array([p.params[n] for p in pts]) for n in names}, []


KUHN3 = Path(__file__).with_name("data") / "kuhn3_selection.json"


def _kuhn3(top: int = 8):
    """The committed kuhn3 map: grid pots, the ``top`` frequencies that move most over P,
    and the jumps."""
    segs = json.loads(KUHN3.read_text())["selection"]
    pts = [p for s in segs for p in s["points"]]
    pots = np.array([p["pot"] for p in pts])
    freqs = {k: np.array([p["strategy"][k] for p in pts]) for k in pts[0]["strategy"]}
    keep = sorted(freqs, key=lambda k: -float(np.ptp(freqs[k])))[:top]
    return pots, {k: freqs[k] for k in keep}, [s["pots_float"][1] for s in segs[:-1]]


def _full(name: str, grid: int):
    segs = selection_map(get_game(name), 0.0, 12.0, grid=grid)
    pots, freqs = selected_frequencies(segs)
    return pots, freqs, [float(s.high) for s in segs[:-1]]


def figure(seed: int = 0, quick: bool = False) -> Figure:
    games = ["skp", "kuhn3"] if quick else ["skp", "kuhn3-third", "kuhn3"]
    fig, axes = new_figure(1, len(games), size=(6.0 * len(games), 4.2), squeeze=False)
    numbers = {}
    for ax, name in zip(axes[0], games):
        pots, freqs, jumps = (_kuhn3() if name == "kuhn3" else _quick(name, 16) if quick
                              else _full(name, 48))
        order = np.argsort(pots)
        for k, vals in freqs.items():
            ax.plot(pots[order], vals[order], ".-", ms=3, lw=1, label=k)
        for j in jumps:
            ax.axvline(j, color="0.6", ls=":", lw=0.8)
        ax.set_xlabel("pot P")
        ax.set_ylabel("selected frequency (limit of the logit QRE branch)")
        ax.set_title(name)
        ax.set_xlim(0, 12)
        ax.legend(fontsize=7, ncol=2)
        numbers[f"{name}_jumps"] = jumps
    return described(fig, "qre_selection",
                     "frequencies selected by the logit QRE branch limit against P", numbers)


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/<name>.png``; its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick), out_dir)
