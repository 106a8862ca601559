"""Papadopoulos Table 13 ("One bet, bet size 0.5 - Strategies"), regenerated from the rules.

The paper writes strategies in its normal form (sec. 2.1): per hand type, player 1 mixes
over the plans {CF, CC, B} (check then fold or call a bet; bet) and player 2 over
{CF, CC, BF, BC} (after a check: check or bet; after a bet: fold or call).  Our copy of the
paper withholds the table's cells, so it is regenerated here: for each of the 16 range pairs
the LP equilibrium of the one-bet river game (pot 1, bet 0.5), as the paper's per-type mixes
read off the reduced normal form (games.normal_form; the product mixed strategy's marginal
per hand type).  Each mix is mapped back to a behaviour strategy (Kuhn's theorem) and its
NashConv measured: exactly the equilibrium's, and with the mixes rounded to two decimals as a
printed table shows them (the rounding's cost in NashConv).  Beside it, the paper's own
procedure (sec. 3-4): simultaneous fictitious play on the normal form from uniform mixes,
stopped when each player gains at most 1e-3 (solvers.learning.matrix_fp), its mixes read and
measured the same way.
"""
from __future__ import annotations

from pathlib import Path
from typing import Mapping

import numpy as np
from numpy.typing import NDArray

from pokerdyn.games import CompiledGame, compile_game
from pokerdyn.games.catalog.registry import make_game
from pokerdyn.games.catalog.river import DISTRIBUTIONS, TYPES
from pokerdyn.games.normal_form import NormalForm, behaviour_from_mixed, mixed_from_behaviour, normal_form
from pokerdyn.solvers import nash_conv, solve_lp
from pokerdyn.solvers.learning.matrix_fp import matrix_fictitious_play

from pokerdyn.figures.base import Figure, FigureResult, described, finish, new_figure

PLANS = (("CF", "CC", "B"), ("CF", "CC", "BF", "BC"))   # the paper's sec. 2.1, per player
Mix = Mapping[str, Mapping[str, float]]                  # hand type -> paper plan -> prob
FP_EPSILON = 1e-3                                        # the paper's stop (sec. 4)


def table13_game(d1: str, d2: str) -> CompiledGame:
    """The game of Table 13's cell (d1, d2): one bet of 0.5 into a pot of 1, full street."""
    return compile_game(make_game("river", dist1=DISTRIBUTIONS[d1], dist2=DISTRIBUTIONS[d2],
                                  max_bets=1, bet_size=0.5))


def paper_codes(nf: NormalForm, player: int) -> list[dict[str, str]]:
    """Per reduced plan of ``player``, its paper code per hand type (``{"A": "CC", ...}``)."""
    g = nf.game
    out = []
    for row in nf.plans[player]:
        def act(label: str) -> str:
            I = g.infoset_index(label)
            return g.infosets[I].actions[row[I]] if row[I] >= 0 else ""
        codes = {}
        for t in TYPES:
            if player == 0:
                first = act(f"P1:{t}|")
                codes[t] = "B" if first == "b" else "C" + act(f"P1:{t}|kb").upper()
            else:
                codes[t] = ("C" if act(f"P2:{t}|k") == "k" else "B") + act(f"P2:{t}|b").upper()
        out.append(codes)
    return out


def paper_mix(nf: NormalForm, player: int, mixed: NDArray[np.float64]) -> dict:
    """The paper's per-type mixes of a mixed strategy over reduced plans (its marginals)."""
    out = {t: dict.fromkeys(PLANS[player], 0.0) for t in TYPES}
    for codes, w in zip(paper_codes(nf, player), mixed):
        for t, c in codes.items():
            out[t][c] += float(w)
    return out


def behaviour_from_paper(nf: NormalForm, mixes: tuple[Mix, Mix]) -> NDArray[np.float64]:
    """The behaviour profile of the paper's per-type mixes: each player's plans weighted by
    the product over hand types of the mix of the plan's code (types are independent
    information), then Kuhn's theorem (games.normal_form.behaviour_from_mixed)."""
    mixed = []
    for p, mix in enumerate(mixes):
        mixed.append(np.array([np.prod([mix[t].get(c, 0.0) for t, c in codes.items()])
                               for codes in paper_codes(nf, p)]))
    return behaviour_from_mixed(nf, mixed)


def round_mix(mix: Mix, digits: int = 2) -> dict:
    """Each type's mix rounded to ``digits`` decimals, the largest entry taking the rest so
    that it still sums to 1 (as a printed table would be read)."""
    out = {}
    for t, m in mix.items():
        r = {c: round(v, digits) for c, v in m.items()}
        big = max(r, key=r.get)
        r[big] = round(1.0 - sum(v for c, v in r.items() if c != big), digits)
        out[t] = r
    return out


def regenerate(d1: str, d2: str, fp: bool = True) -> dict:
    """Table 13's cell (d1, d2): the LP equilibrium's paper mixes, its value, and the
    NashConv of the mixes mapped back to behaviour, exact and rounded to 2 decimals; with
    ``fp``, the same for the paper's fictitious play."""
    cg = table13_game(d1, d2)
    nf = normal_form(cg)
    lp = solve_lp(cg)
    mixes = tuple(paper_mix(nf, p, mixed_from_behaviour(nf, lp.strategies, p))
                  for p in range(2))
    sigma = behaviour_from_paper(nf, mixes)
    rounded = tuple(round_mix(m) for m in mixes)
    out = {"value": lp.value, "mixes": mixes, "nash_conv": max(nash_conv(cg, sigma), 0.0),
           "rounded": rounded,
           "nash_conv_rounded": max(nash_conv(cg, behaviour_from_paper(nf, rounded)), 0.0)}
    if fp:
        run = matrix_fictitious_play(nf.payoffs, epsilon=FP_EPSILON)
        fp_mixes = tuple(paper_mix(nf, p, run.mixed[p]) for p in range(2))
        out.update(fp_iterations=run.iterations, fp_mixes=fp_mixes,
                   fp_nash_conv=nash_conv(cg, behaviour_from_paper(nf, fp_mixes)),
                   fp_nash_conv_rounded=nash_conv(cg, behaviour_from_paper(
                       nf, tuple(round_mix(m) for m in fp_mixes))))
    return out


def _fmt(mix: Mix, plans) -> str:
    return "  ".join(t + " " + "/".join(f"{100 * mix[t][c]:.0f}" for c in plans)
                     for t in TYPES)


def _draw(quick: bool) -> tuple[Figure, list[str]]:
    """The figure and the lines of river_table13.txt (every mix)."""
    names = list(DISTRIBUTIONS)
    # quick: the paper's fictitious play on the diagonal only (about a quarter of the time)
    cells = {(a, b): regenerate(a, b, fp=not quick or a == b) for a in names for b in names}
    lines = ["Table 13 regenerated (one bet of 0.5, pot 1): per hand type, % of each plan; "
             f"P1 {'/'.join(PLANS[0])}, P2 {'/'.join(PLANS[1])}"]
    numbers = {}
    for (a, b), c in cells.items():
        lines.append(f"P1 {a} vs P2 {b}: value {c['value']:+.4f}; NashConv exact "
                     f"{c['nash_conv']:.1e}, 2-decimal {c['nash_conv_rounded']:.2e}")
        lines.append("  P1 " + _fmt(c["mixes"][0], PLANS[0]))
        lines.append("  P2 " + _fmt(c["mixes"][1], PLANS[1]))
        numbers[f"{a}-{b} NashConv of 2-decimal mixes"] = f"{c['nash_conv_rounded']:.2e}"
        if "fp_mixes" not in c:
            continue
        lines.append(f"  paper's FP (normal form, epsilon {FP_EPSILON:g}): {c['fp_iterations']} "
                     f"iterations, NashConv {c['fp_nash_conv']:.2e}, 2-decimal "
                     f"{c['fp_nash_conv_rounded']:.2e}")
        lines.append("    P1 " + _fmt(c["fp_mixes"][0], PLANS[0]))
        lines.append("    P2 " + _fmt(c["fp_mixes"][1], PLANS[1]))
        numbers[f"{a}-{b} FP: iterations, NashConv, 2-decimal"] = (
            f"{c['fp_iterations']}, {c['fp_nash_conv']:.2e}, {c['fp_nash_conv_rounded']:.2e}")
    fig, ax = new_figure(size=(6.2, 4.6))
    grid = np.array([[cells[(a, b)]["nash_conv_rounded"] for b in names] for a in names])
    im = ax.imshow(grid, cmap="viridis")
    ax.set_xticks(range(4), names)
    ax.set_yticks(range(4), names)
    ax.set_xlabel("player 2's range")
    ax.set_ylabel("player 1's range")
    for i in range(4):
        for j in range(4):
            dark = im.norm(grid[i, j]) < 0.55  # viridis: light text on its dark half only
            ax.text(j, i, f"{grid[i, j]:.1e}", ha="center", va="center", fontsize=9,
                    color="white" if dark else "black")
    ax.figure.colorbar(im, ax=ax, label="NashConv")
    ax.set_title("River game, Table 13: NashConv of the equilibrium mixes\nrounded to 2 "
                 "decimals, for each pair of ranges", fontsize=10)
    return described(
        fig, "river_table13",
        "Papadopoulos Table 13 regenerated from the rules (the cells are withheld in our "
        "copy): the LP equilibrium of each range pair as the paper's per-type plan mixes, "
        "mapped back to behaviour strategies through the reduced normal form; the exact mixes "
        "have NashConv 0 up to the LP's tolerance, the 2-decimal ones the values shown. The "
        "paper's own fictitious play on the normal form (stop at a gain of 1e-3 per player) "
        "ends with NashConv 1.2e-3 to 1.9e-3 (river_table13.txt lists every mix).",
        numbers, "Papadopoulos, Table 13 (appendix), sec. 2.1"), lines


def figure(seed: int = 0, quick: bool = False) -> Figure:
    """NashConv of the 2-decimal Table 13 mixes per range pair (every mix: :func:`main`'s
    river_table13.txt)."""
    return _draw(quick)[0]


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/river_table13.png`` and every mix as
    ``river_table13.txt``; the :class:`FigureResult`."""
    fig, lines = _draw(quick)
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    (Path(out_dir) / "river_table13.txt").write_text("\n".join(lines) + "\n")
    return finish(fig, out_dir)
