"""The equilibrium strategy tree of the river game with both players holding R1, one bet of
0.5 (Papadopoulos Fig. 2): the public betting tree, and at every decision the acting player's
action probabilities for each hand type, with the probability of reaching the node with that
hand (LP solution)."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from pokerdyn.games import CompiledGame, compile_game
from pokerdyn.games.catalog.registry import make_game
from pokerdyn.games.catalog.river import R1, TYPES
from pokerdyn.solvers import solve_lp
from pokerdyn.solvers._kernels import own_reach

from pokerdyn.figures.base import Figure, FigureResult, described, finish, new_figure

ACTION_NAMES = {"k": "check", "b": "bet", "f": "fold", "c": "call", "r": "raise"}


def public_tree(cg: CompiledGame) -> dict[str, tuple[int, tuple[str, ...]]]:
    """Public history -> (acting player, actions), read from the information-set labels."""
    out: dict[str, tuple[int, tuple[str, ...]]] = {}
    for I in cg.game.infosets:
        out[I.label.split("|", 1)[1]] = (I.player, I.actions)
    return out


def hand_table(cg: CompiledGame, sigma: np.ndarray, history: str, who: int) -> list[str]:
    """Per hand type of ``who`` at ``history``: reach probability given the hand, and the
    action probabilities."""
    mine = own_reach(cg.kind, cg.player, cg.parent, cg.edge, cg.infoset, sigma, who)
    rows = []
    for t in TYPES:
        I = cg.game.infoset_index(f"P{who + 1}:{t}|{history}")
        node = int(np.nonzero(cg.infoset == I)[0][0])
        x = mine[node]
        acts = " ".join(f"{a} {sigma[I, k]:.2f}"
                        for k, a in enumerate(cg.game.infosets[I].actions))
        rows.append(f"{t} {x:.2f}: {acts}")
    return rows


def _layout(tree, history="", depth=0, pos=None, leaf=None):
    """x by in-order leaf count, y by depth."""
    pos = {} if pos is None else pos
    leaf = [0] if leaf is None else leaf
    if history not in tree:
        pos[history] = (leaf[0], -depth)
        leaf[0] += 1
        return pos
    kids = [history + a for a in tree[history][1]]
    for k in kids:
        _layout(tree, k, depth + 1, pos, leaf)
    pos[history] = (np.mean([pos[k][0] for k in kids]), -depth)
    return pos


def draw_tree(ax, cg: CompiledGame, sigma: np.ndarray, title: str = ""):
    """Draw the public tree with per-hand strategies in the decision boxes; returns ``ax``."""
    tree = public_tree(cg)
    pos = _layout(tree)
    for h, (x, y) in pos.items():
        if h:
            px, py = pos[h[:-1]]
            ax.plot([px, x], [py, y], color="grey", lw=1, zorder=0)
            ax.text((px + x) / 2, (py + y) / 2, ACTION_NAMES.get(h[-1], h[-1]), fontsize=7,
                    ha="center", color="dimgrey", backgroundcolor="white")
        if h in tree:
            who = tree[h][0]
            text = f"P{who + 1} after '{h or '-'}'\n" + "\n".join(hand_table(cg, sigma, h, who))
            ax.text(x, y, text, fontsize=6.5, family="monospace", ha="center", va="center",
                    bbox=dict(boxstyle="round", fc="lightyellow" if who == 0 else "lightcyan"))
        else:
            ax.text(x, y, "fold" if h.endswith("f") else "showdown", fontsize=7, ha="center",
                    va="center", bbox=dict(boxstyle="round", fc="white", ec="grey"))
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    ax.set_xlim(min(xs) - 0.8, max(xs) + 0.8)
    ax.set_ylim(min(ys) - 0.6, 0.6)
    ax.axis("off")
    ax.set_title(title, fontsize=9)
    return ax


def figure(seed: int = 0, quick: bool = False) -> Figure:
    cg = compile_game(make_game("river", dist1=R1, dist2=R1, max_bets=1, bet_size=0.5))
    res = solve_lp(cg)
    fig, ax = new_figure(size=(11, 6.5))
    draw_tree(ax, cg, res.strategies, f"River game, R1 vs R1, one bet of 0.5, pot 1: game "
                                      f"value {res.value:+.4f} (LP). Per hand: reach "
                                      f"probability given the hand, action probabilities")
    g = cg.game
    s = res.strategies
    numbers = {"game value": f"{res.value:+.4f}"}
    for t in TYPES:
        numbers[f"P1 bets with {t}"] = f"{s[g.infoset_index(f'P1:{t}|'), 1]:.3f}"
    return described(
        fig, "river_strategy_tree",
        "Equilibrium of the one-bet river game with both players holding R1 and a bet of 0.5 "
        "(LP). Player 1 bets A and B always and bluffs D with probability 1/4, exactly as in "
        "the half-street game (Papadopoulos sec. 4.2: 'Player 1's betting strategy is the "
        "same as the half street game'); the game value is -0.010 (paper: -0.01). Where a "
        "hand never reaches a node its row is the LP's arbitrary (uniform) choice.",
        numbers, "Papadopoulos, Fig. 2 (sec. 4.2)")


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/<name>.png``; its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick), out_dir)
