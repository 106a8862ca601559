"""Full-street simplified 3-player Kuhn poker (Billingham, arXiv 1707.01392): the 13
frequencies iterated dominance leaves free, along every equilibrium family of the
whole-axis enumeration (:mod:`solvers.symbolic.axis`), against the pot P.

Both modes read the committed result ``data/full_street_families.json`` (written by
``pokerdyn equilibria kuhn3-full-simplified --json`` through
``benchmarks/bench_full_street.py --record``; the enumeration itself takes minutes).  A
family with free parameters is drawn at its certificate's values of them.  ``quick``
(the default in reproduce) draws only; the full mode also re-checks every family's exact
NashConv at its certificate pot.  Families with a square root of a polynomial in P (F10 on
[(3+sqrt 97)/4, (3+sqrt 15)/2]) come from the library's result like the others
(:mod:`solvers.symbolic.feasibility.radical`).
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from pokerdyn.figures.base import Figure, FigureResult, described, finish, new_figure

RECORD = Path(__file__).with_name("data") / "full_street_families.json"
SOURCE = "Billingham, arXiv 1707.01392 (full street simplified three player Kuhn poker)"


def families(rec: dict) -> list[tuple[float, float, dict]]:
    """(low, high, family record) of every family on an interval piece, in P order."""
    import sympy as sp

    out = []
    for pc in rec["pieces"]:
        s = sp.sympify(pc["p_set"])
        if not isinstance(s, sp.Interval):
            continue
        hi = float(s.end) if s.end is not sp.oo else float("inf")
        out += [(float(s.start), hi, fam) for fam in pc["families"]]
    return out


def figure(seed: int = 0, quick: bool = False) -> Figure:
    """Every family's frequencies against P (not quick: each family's certificate checked
    again)."""
    import sympy as sp

    rec = json.loads(RECORD.read_text())
    names = list(rec["free_names"])
    P = sp.Symbol("P", positive=True)
    fams = families(rec)
    top = float(rec["p_max"])
    nrows, ncols = -(-len(names) // 4), 4
    fig, axes = new_figure(nrows, ncols, size=(3.2 * ncols, 2.4 * nrows), squeeze=False)
    colours: dict[str, str] = {}
    checked = 0
    for lo, hi, fam in fams:
        hi = min(hi, top)
        if hi <= lo:
            continue
        free = {sp.Symbol(k): sp.sympify(fam["certificate"]["sample"][k])
                for k in fam["free"]}
        xs = np.linspace(lo, hi, 40)
        col = colours.setdefault(fam["support"], f"C{len(colours) % 10}")
        for ax, n in zip(axes.flat, names):
            e = sp.sympify(fam["strategy"][n], locals={"P": P}).xreplace(free)
            f = sp.lambdify(P, e, "numpy")
            ax.plot(xs, np.broadcast_to(f(xs), xs.shape), color=col, lw=1.4, alpha=0.8)
        if not quick:
            from pokerdyn.games import get_game
            from pokerdyn.solvers.symbolic.model.nash_conv_fraction import nash_conv_fraction

            c = fam["certificate"]
            if c.get("method", "rational") == "rational":  # else certified by sympy
                assert nash_conv_fraction(get_game(rec["game"]), sp.Rational(c["pot"]),
                                          c["sample"]) == 0
                checked += 1
    for ax, n in zip(axes.flat, names):
        ax.set_title(n, fontsize=9)
        ax.set_ylim(-0.05, 1.05)
        ax.set_xlim(2, top)
        ax.set_xlabel("P")
    for ax in list(axes.flat)[len(names):]:
        ax.axis("off")
    counts = [len(pc["families"]) for pc in rec["pieces"]]
    return described(fig, "full_street_frequencies",
                     "Equilibrium frequencies of full-street simplified 3-player Kuhn "
                     "poker against the pot P, every family of the exact whole-axis "
                     "enumeration (colour: support).",
                     {"pieces": len(counts), "max_coexisting": max(counts, default=0),
                      "supports": len(colours), "certified_again": checked}, SOURCE)


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/full_street_frequencies.png``; its
    :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick), out_dir)
