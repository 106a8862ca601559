"""Cross-check against Gambit: run pygambit's sequence-form ``lcp_solve`` on the game's
exported ``.efg`` (:func:`games.io.efg` text; float
chance probabilities rationalised, the last outcome of each chance node taking the rest so
that they sum to exactly one as Gambit requires) and read its behaviour profile back into this
package's ``(n_infosets, max_actions)`` layout (information sets matched by the exported
per-player numbering, actions by position).  pygambit is optional (the test extra)."""
from __future__ import annotations

import time

import numpy as np
from numpy.typing import NDArray

from games import CompiledGame, GameError
from games.io.efg import _write
from solvers.sequence.lcp import rational


def gambit_lcp(cg: CompiledGame, rational: bool = False
               ) -> tuple[list[NDArray[np.float64]], float]:
    """pygambit's ``lcp_solve`` equilibria as behaviour profiles, and its seconds (the solve
    alone, the .efg read excluded)."""
    try:
        import pygambit as gbt
    except ImportError:  # pragma: no cover - optional dependency
        raise GameError("the Gambit cross-check needs pygambit (pip install pygambit)") from None
    g = gbt.read_efg(_as_file(efg_text(cg)))
    t0 = time.perf_counter()
    res = gbt.nash.lcp_solve(g, rational=rational, use_strategic=False)
    seconds = time.perf_counter() - t0
    mine = [np.nonzero(cg.infoset_player == p)[0] for p in range(2)]
    out = []
    for prof in res.equilibria:
        sigma = cg.legal / cg.n_actions[:, None].astype(np.float64)
        for p, player in enumerate(g.players):
            for k, info in enumerate(player.infosets):
                I = int(mine[p][k])
                for a, act in enumerate(info.actions):
                    sigma[I, a] = float(prof[act])
        out.append(sigma)
    return out, seconds


def efg_text(cg: CompiledGame) -> str:
    """EFG text of the compiled game whose chance probabilities sum to exactly one."""
    parent = np.asarray(cg.parent)
    probs = {}
    chance_nodes = np.nonzero(np.asarray(cg.kind) == 1)[0]
    kids_of = {int(c): [] for c in chance_nodes}
    for k in np.nonzero(np.isin(parent, chance_nodes))[0]:
        kids_of[int(parent[k])].append(int(k))
    for kids in kids_of.values():
        kids.sort(key=lambda k: int(cg.edge[k]))
        rest = 1
        for k in kids[:-1]:
            probs[k] = rational(cg.chance_prob[k])
            rest -= probs[k]
        probs[kids[-1]] = rest
    return _write(cg.game, lambda k: str(probs[k]),
                  lambda t: ", ".join(repr(float(x)) for x in cg.payoffs[t]))


def _as_file(text: str):
    import io
    return io.StringIO(text)


__all__ = ["gambit_lcp"]
