"""Export a compiled game to Gambit's extensive-form text format (.efg), which Gambit and
OpenSpiel (``pyspiel.load_efg_game``) read: lets other solvers cross-check ours on the
same tree (benchmarks/bench_cfr.py runs OpenSpiel's CFR+ on the river game this way)."""
from __future__ import annotations

import numpy as np

from .compiled import CompiledGame
from .tree import CHANCE, DECISION


def _q(text: str) -> str:
    return '"' + text.replace('"', "'") + '"'


def to_efg(cg: CompiledGame) -> str:
    """The game as EFG text: nodes in depth-first preorder, information sets numbered
    per player from 1, one outcome per terminal, chance probabilities as decimals."""
    game = cg.game
    order = np.argsort(cg.parent, kind="stable")
    starts = np.searchsorted(cg.parent[order], np.arange(cg.n_nodes))
    ends = np.searchsorted(cg.parent[order], np.arange(cg.n_nodes), side="right")
    local = np.zeros(cg.n_infosets, dtype=np.int64)
    counts = [0] * cg.n_players
    for I in range(cg.n_infosets):
        p = int(cg.infoset_player[I])
        counts[p] += 1
        local[I] = counts[p]
    players = " ".join(_q(f"Player {p + 1}") for p in range(cg.n_players))
    lines = [f"EFG 2 R {_q(game.name)} {{ {players} }}", _q(game.description)]
    stack, chance_no = [0], 0
    while stack:
        i = stack.pop()
        kids = order[starts[i]:ends[i]]
        kids = kids[np.argsort(cg.edge[kids], kind="stable")]
        if cg.kind[i] == CHANCE:
            chance_no += 1
            outs = " ".join(f"{_q(game.edge_label[k])} {float(cg.chance_prob[k])!r}" for k in kids)
            lines.append(f'c "" {chance_no} "" {{ {outs} }} 0')
        elif cg.kind[i] == DECISION:
            I = int(cg.infoset[i])
            info = game.infosets[I]
            acts = " ".join(_q(a) for a in info.actions)
            lines.append(f'p "" {int(cg.player[i]) + 1} {local[I]} {_q(info.label)} '
                         f'{{ {acts} }} 0')
        else:
            t = int(cg.terminal_index[i])
            pay = ", ".join(repr(float(x)) for x in cg.payoffs[t])
            lines.append(f't "" {t + 1} "" {{ {pay} }}')
        stack.extend(int(k) for k in kids[::-1])
    return "\n".join(lines) + "\n"


__all__ = ["to_efg"]
