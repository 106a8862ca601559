"""3-player Kuhn poker (4 cards) at P = 4: the two curves of equilibria found by
:func:`solvers.symbolic.supports.curves.support_curves`
(figures/frontier/data/kuhn3_p4_curves.json, ``python benchmarks/kuhn3_p4_curves.py``).  One is rational in player 3's K call after
check-bet (x3_K_kb_c), the other carries the square root of a quartic in player 2's J bet
after a check (x2_J_k_b): an elliptic curve, certified by an exact NashConv of 0 in a
quadratic field.

Left: the players' payoffs (E1 against E2; E3 = -E1 - E2) along both curves, with the
isolated equilibrium C of 4.21 <= P <= 5 (-4/75, 1/300, 1/20), where the elliptic curve
ends; player 1's payoff is not constant on the P = 4 set.  Right: the frequencies that move
most along each curve against its parameter.  Reads only the committed data."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from figures.base import FigureResult, finish, new_figure

DATA = Path(__file__).with_name("data") / "kuhn3_p4_curves.json"
C_PAYOFFS = (-4 / 75, 1 / 300, 1 / 20)  # the isolated equilibrium C at P = 4 (README)


def recorded() -> list[dict]:
    """Every recorded curve (``curve_record`` with its ``samples``)."""
    data = json.loads(DATA.read_text())
    return [c for sup in data["supports"] for c in sup["curves"]]


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    cs = recorded()
    fig, axes = new_figure(1, 1 + len(cs), size=(5 + 4.5 * len(cs), 4.4))
    ax = axes[0]
    numbers = {}
    for k, c in enumerate(cs, 1):
        pay = np.array(c["samples"]["payoffs"])
        kind = "elliptic" if c["radicand"] else "rational"
        ax.plot(pay[:, 0], pay[:, 1], lw=2, c=f"C{k}", label=f"curve {k} ({kind}, "
                f"{c['parameter']})")
        for q in c["certificates"]:
            ax.plot(*q["payoffs_float"][:2], "o", c=f"C{k}", ms=5)
        numbers[f"curve{k}_E1"] = [float(pay[:, 0].min()), float(pay[:, 0].max())]
        t = np.array(c["samples"]["parameter"])
        fr = c["samples"]["frequencies"]
        moving = sorted((n for n in fr if n != c["parameter"]),
                        key=lambda n: -np.ptp(fr[n]))[:6]
        for j, n in enumerate(moving):
            axes[k].plot(t, fr[n], lw=1.5, ls=("-", "--", ":", "-.")[j % 4], c=f"C{j}",
                         label=n)
        axes[k].set_xlabel(c["parameter"])
        axes[k].locator_params(axis="x", nbins=5)
        axes[k].set_title(f"curve {k}: the six frequencies that move most", fontsize=9)
        axes[k].legend(fontsize=6)
    ax.plot(*C_PAYOFFS[:2], "k*", ms=10, label="C (-4/75, 1/300, 1/20)")
    ax.set_xlabel("E1 (player 1)")
    ax.set_ylabel("E2 (player 2)")
    ax.set_title("kuhn3 at P = 4: payoffs along the curves\n(dots: certified points)",
                 fontsize=9)
    ax.legend(fontsize=6)
    summary = (f"kuhn3 at P = 4 has {len(cs)} curves of equilibria the support solver did not "
               "finish: player 1's payoff runs over "
               + "; ".join(f"[{lo:.5f}, {hi:.5f}]" for lo, hi in numbers.values())
               + " on them, against -4/75 = -0.05333 at C")
    return finish(fig, out_dir, "kuhn3_p4_curves", summary, numbers,
                  "pokerdyn (issue 14): solvers.symbolic.supports.curves on kuhn3 at P = 4")
