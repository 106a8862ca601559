"""N-card three-player Kuhn poker (Billingham, arXiv 1802.04670): equilibrium frequencies
against the pot P along the branches found by continuation, and the bets that are a value
bet against one opponent and a bluff against the other (the paper's mid-range bet, N > 5).

A bet of player p holding card c is classified against each opponent q by the equity of c
against q's *calling* hands when the other opponent has folded (q's call frequency at her
card weighted by the probability that chance and the others reach the bet): above 1/2 it is
a value bet against q, below a bluff.  ``quick`` draws N = 3 (seconds); the full run draws
N = 4..7 over the whole range 2 <= P <= 10 (about 90 s of CPU, most for N = 7).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.lines import Line2D

from pokerdyn.figures.base import Figure, FigureResult, described, finish, new_figure
from pokerdyn.games import get_game
from pokerdyn.games.catalog.kuhn import RANKS
from pokerdyn.solvers import _kernels as K
from pokerdyn.solvers.continuation.api import ContinuationResult, continuation
from pokerdyn.solvers.continuation.system import IndifferenceSystem
from pokerdyn.solvers.continuation.arclength import HELD, MIXED
from pokerdyn.solvers.continuation.trace import Options

SOURCE = "Billingham, arXiv 1802.04670 (figures of frequencies against P; the mid-range bet)"


def _deal_of(game, node: int) -> str:
    while int(game.parent[node]) != 0:
        node = int(game.parent[node])
    return game.edge_label[node]


def bet_equities(system: IndifferenceSystem, x: np.ndarray) -> list[dict[str, Any]]:
    """Every bet made with positive frequency at frequencies ``x`` (of ``system``'s sets):
    who bets which card after which history, its frequency and its equity against each
    opponent's heads-up calling range (the calls weighted by chance's and the players'
    reach of the bet; the pot does not enter)."""
    S = system
    game = S.game
    cg = S.cg
    sig = S.sigma(x)
    out = []
    for I, inf in enumerate(game.infosets):
        if "b" not in inf.actions or sig[I, inf.actions.index("b")] < 1e-9:
            continue
        p = int(inf.label[1]) - 1
        card, public = inf.label.split(":")[1].split("|")
        reach = K.reach_probs(cg.kind, cg.player, cg.parent, cg.edge, cg.infoset,
                              cg.chance_prob, sig, p)
        nodes = np.nonzero((cg.infoset == I) & (cg.kind == K.DECISION))[0]
        row = {"player": p + 1, "card": card, "history": public,
               "frequency": float(sig[I, inf.actions.index("b")]), "equity": {}}
        for k, q in enumerate(((p + 1) % 3, (p + 2) % 3)):
            num = den = 0.0
            for n in nodes:
                d = _deal_of(game, int(n))[q]
                lbl = f"P{q + 1}:{d}|{public}b{'f' * k}"
                J = game.infoset_index(lbl)
                w = reach[n] * sig[J, game.infosets[J].actions.index("c")]
                den += w
                num += w * (RANKS[card] > RANKS[d])
            if den > 1e-12:
                row["equity"][q + 1] = num / den
        out.append(row)
    return out


def split_bets(res: ContinuationResult, every: int = 10) -> list[dict[str, Any]]:
    """Bets that value-bet one opponent and bluff the other, on sampled branch points;
    ``mid_range`` marks a card that is neither among the two lowest nor the two highest of
    the deck (Billingham's mid-range bet; the second-best card splits already for N = 5)."""
    found: dict[tuple, dict] = {}
    for bi, b in enumerate(res.branches):
        for i in list(range(0, len(b.pots), every)) + [len(b.pots) - 1]:
            for r in bet_equities(res.system, b.xs[i]):
                eq = r["equity"]
                if len(eq) == 2 and min(eq.values()) < 0.5 < max(eq.values()):
                    key = (r["player"], r["card"], r["history"])
                    rec = found.setdefault(key, {**{k: r[k] for k in ("player", "card",
                                                                          "history")},
                                                 "pots": [], "branches": set(), "example": r,
                                                 "pot_example": b.pots[i]})
                    rec["pots"].append(b.pots[i])
                    rec["branches"].add(bi)
    deck = sorted({inf.label.split(":")[1].split("|")[0] for inf in res.system.game.infosets},
                  key=RANKS.get)
    out = []
    for rec in found.values():
        eq = rec["example"]["equity"]
        rank = deck.index(rec["card"])
        out.append({"player": rec["player"], "card": rec["card"], "history": rec["history"],
                    "mid_range": 2 <= rank <= len(deck) - 3,
                    "pot_range": [min(rec["pots"]), max(rec["pots"])],
                    "branches": sorted(rec["branches"]),
                    "value_bet_against": max(eq, key=eq.get),
                    "bluff_against": min(eq, key=eq.get),
                    "example": {"pot": rec["pot_example"], "frequency":
                                rec["example"]["frequency"],
                                "equity": {str(k): v for k, v in eq.items()}}})
    return out


def plot_branches(ax, res: ContinuationResult, names: list[str] | None = None):
    """Frequencies of the mixed sets against P, one colour per frequency (dotted: held
    at its value, a family's free parameter or a set nobody reaches)."""
    all_names = res.names
    pick = names or all_names
    cmap = {n: f"C{i % 10}" for i, n in enumerate(pick)}
    shown: dict[str, bool] = {}  # name -> mixed somewhere (else only held)
    for b in res.branches:
        xs = np.array(b.xs)
        for n in pick:
            k = all_names.index(n)
            if b.codes[k] == MIXED:
                ax.plot(b.pots, xs[:, k], color=cmap[n], lw=1.4)
                shown[n] = True
            elif b.codes[k] == HELD:   # a family's free parameter (or an unreached set)
                ax.plot(b.pots, xs[:, k], color=cmap[n], lw=1.2, ls=(0, (2, 2)))
                shown.setdefault(n, False)
        if b.end is not None:
            ax.axvline(b.end.pot, color="0.6", lw=0.6, ls="--", zorder=0)
    ax.set_xlabel("pot P")
    ax.set_ylabel("frequency")
    ax.set_ylim(-0.03, 1.03)
    handles = [Line2D([], [], color=cmap[n], lw=1.4, label=n) for n in list(shown)[:12]]
    handles += [Line2D([], [], color="k", lw=1.4, label="mixed (moves with P)"),
                Line2D([], [], color="k", lw=1.2, ls=(0, (2, 2)),
                       label="held (a free parameter)"),
                Line2D([], [], color="0.6", lw=0.6, ls="--", label="support change")]
    ax.legend(handles=handles, fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5),
              frameon=False)
    return ax


def figure(seed: int = 0, quick: bool = False) -> Figure:
    """Frequencies against P, branch by branch, N = 4-7 (quick: N = 3)."""
    cards = (3,) if quick else (4, 5, 6, 7)
    pots, start = (2.0, 10.0), 5.3
    opts = Options(max_branches=1000)   # no budget stop: N = 7 needs 558
    fig, axes = new_figure(len(cards), 1, size=(9, 2.9 * len(cards)), squeeze=False)
    numbers: dict[str, Any] = {}
    for ax, n in zip(axes[:, 0], cards):
        res = continuation(get_game(f"kuhn3(cards={n})"), pots, start=start, opts=opts)
        plot_branches(ax, res)
        ax.set_title(f"N = {n}: {len(res.branches)} branches, max exact NashConv "
                     f"{res.max_certificate():.1e}", fontsize=9)
        numbers[f"N={n}"] = {"branches": len(res.branches),
                             "max_nash_conv": res.max_certificate(),
                             "split_bets": split_bets(res)}
    mids = {k: [f"P{b['player']} {b['card']} after '{b['history']}'"
                + (" (mid-range)" if b["mid_range"] else "") for b in v["split_bets"]]
            for k, v in numbers.items()}
    summary = ("Equilibrium frequencies of N-card 3-player Kuhn poker against the pot P, "
               "branch by branch (grey lines: support changes). Bets that are a value bet "
               f"against one opponent and a bluff against the other: {mids}")
    return described(fig, "n_card", summary, numbers, SOURCE)


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/n_card_branches.png``; its :class:`FigureResult`."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    return finish(figure(seed=seed, quick=quick), out_dir, filename="n_card_branches.png")
