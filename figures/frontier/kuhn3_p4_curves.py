"""3-player Kuhn poker (4 cards) at P = 4: the curves of equilibria found by
:func:`solvers.symbolic.algebra.curves.support_curves` in the supports the support solver
skips and in the supports next to their ends (figures/frontier/data/kuhn3_p4_curves.json,
``python experiments/kuhn3_p4_curves.py``).  Some are rational in their parameter; one
carries the square root of a quartic in player 2's J bet after a check (x2_J_k_b), an
elliptic curve certified by an exact NashConv of 0 in a quadratic field.

Left: the players' payoffs (E1 against E2; E3 = -E1 - E2) along the curves, with the
isolated equilibrium C of 4.21 <= P <= 5 (-4/75, 1/300, 1/20): player 1's payoff is not
constant on the P = 4 set.  Right: player 2's J and Q bets after a check along the curves,
with the far CFR+ limit (seed 1: 0.40, 0.02).  Reads only the committed data."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from pokerdyn.figures.base import Figure, FigureResult, described, finish, new_figure

DATA = Path(__file__).with_name("data") / "kuhn3_p4_curves.json"
C_PAYOFFS = (-4 / 75, 1 / 300, 1 / 20)  # the isolated equilibrium C at P = 4 (README)
CFR_SEED1 = (0.40, 0.02)  # x2_J_k_b, x2_Q_k_b of the far CFR+ limit (README)


def recorded() -> list[dict]:
    """Every recorded curve (``curve_record`` with its ``samples``)."""
    return json.loads(DATA.read_text())["curves"]


def _frequency(c: dict, name: str) -> np.ndarray:
    fr = c["samples"]["frequencies"]
    n = len(c["samples"]["parameter"])
    return np.array(fr[name]) if name in fr else np.full(n, float(eval(c["others"][name])))


def figure(seed: int = 0, quick: bool = False) -> Figure:
    cs = recorded()
    fig, (ax, bx) = new_figure(1, 2, size=(11, 4.6))
    numbers = {}
    for k, c in enumerate(cs, 1):
        pay = np.array(c["samples"]["payoffs"])
        kind = "sqrt" if c["radicand"] else "rational"
        label = f"{k}: {c['support']} ({kind} in {c['parameter']})"
        ax.plot(pay[:, 0], pay[:, 1], lw=2, c=f"C{k % 10}", label=label)
        for q in c["certificates"]:
            ax.plot(*q["payoffs_float"][:2], "o", c=f"C{k % 10}", ms=4)
        bx.plot(_frequency(c, "x2_J_k_b"), _frequency(c, "x2_Q_k_b"), lw=2, c=f"C{k % 10}")
        numbers[f"curve{k}_E1"] = [float(pay[:, 0].min()), float(pay[:, 0].max())]
    ax.plot(*C_PAYOFFS[:2], "k*", ms=10, label="C (-4/75, 1/300, 1/20)")
    ax.set_xlabel("E1 (player 1)")
    ax.set_ylabel("E2 (player 2)")
    ax.set_title("kuhn3 at P = 4: payoffs along the curves of equilibria\n(dots: certified "
                 "points)", fontsize=9)
    ax.legend(fontsize=5.5)
    bx.plot(*CFR_SEED1, "kx", ms=9, label="CFR+ seed 1 (NashConv 3.1e-4)")
    bx.set_xlabel("x2_J_k_b (player 2 bets J after a check)")
    bx.set_ylabel("x2_Q_k_b (player 2 bets Q after a check)")
    bx.set_title("player 2's bluffs along the curves", fontsize=9)
    bx.legend(fontsize=7)
    e1 = [v for r in numbers.values() for v in r]
    summary = (f"kuhn3 at P = 4: {len(cs)} curves of equilibria in the supports the support "
               f"solver skips and next to them; player 1's payoff runs over "
               f"[{min(e1):.5f}, {max(e1):.5f}] on them, against -4/75 = -0.05333 at C")
    return described(fig, "kuhn3_p4_curves", summary, numbers,
                     "pokerdyn (issue 14): solvers.symbolic.algebra.curves on kuhn3 at P = 4")


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/<name>.png``; its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick), out_dir)
