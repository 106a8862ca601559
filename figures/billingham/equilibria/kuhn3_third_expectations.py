"""Billingham Fig. 3: expectations E1, E2, E3 of one-third street three-player Kuhn poker
against P with c_Q = 0 (families where c_Q must be positive, Solution B, left out; c_Q
set to 0 where it is free)."""
from __future__ import annotations

from pathlib import Path

import sympy as sp

from pokerdyn.figures.base import FigureResult
from pokerdyn.figures.billingham.equilibria.plots import family_figure


def _c_q_zero_allowed(fam) -> bool:
    c = fam["strategy"].get("c_Q", sp.Integer(0))
    return c == 0 or str(c) in fam["free"]


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    path, numbers = family_figure("kuhn3-third", out_dir, "payoffs",
                                  "kuhn3_third_expectations.png", quick,
                                  subs={sp.Symbol("c_Q", real=True): sp.Integer(0)},
                                  keep=_c_q_zero_allowed, note="c_Q = 0")
    return FigureResult("kuhn3_third_expectations", (path,),
                        "Ex-showdown expectations of kuhn3-third against P with c_Q = 0: "
                        "E3 > 0 > E1, E2 for every P (player 3 has position).", numbers,
                        "Billingham Fig. 3, eqs (7)-(11)")
