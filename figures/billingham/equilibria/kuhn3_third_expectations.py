"""Billingham Fig. 3: expectations E1, E2, E3 of one-third street three-player Kuhn poker
against P with c_Q = 0 (families where c_Q must be positive, Solution B, left out; c_Q
set to 0 where it is free)."""
from __future__ import annotations

from pathlib import Path

import sympy as sp

from pokerdyn.figures.base import Figure, FigureResult, described, finish
from pokerdyn.figures.billingham.equilibria.plots import family_plot


def _c_q_zero_allowed(fam) -> bool:
    c = fam["strategy"].get("c_Q", sp.Integer(0))
    return c == 0 or str(c) in fam["free"]


def figure(seed: int = 0, quick: bool = False, out_dir: Path | None = None) -> Figure:
    """The figure (the families cached in ``out_dir`` when given)."""
    fig, numbers = family_plot("kuhn3-third", "payoffs", quick,
                               subs={sp.Symbol("c_Q", real=True): sp.Integer(0)},
                               keep=_c_q_zero_allowed, note="c_Q = 0", out_dir=out_dir)
    return described(fig, "kuhn3_third_expectations",
                     "Ex-showdown expectations of kuhn3-third against P with c_Q = 0: "
                     "E3 > 0 > E1, E2 for every P (player 3 has position).", numbers,
                     "Billingham Fig. 3, eqs (7)-(11)")


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/kuhn3_third_expectations.png`` (the families cached
    there); its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick, out_dir=out_dir), out_dir)
