"""Cross-check against Gambit: run pygambit's sequence-form ``lcp_solve`` on the game's
exported ``.efg`` (:func:`games.io.efg` text with the game's exact payoffs and chance
probabilities, the last outcome of each chance node taking the rest so that they sum to
exactly one as Gambit requires) and read its behaviour profile back into this
package's ``(n_infosets, max_actions)`` layout (information sets matched by the exported
per-player numbering, actions by position).  pygambit is optional (the test extra)."""
from __future__ import annotations

import time

import numpy as np
from numpy.typing import NDArray

from pokerdyn.games import CompiledGame, GameError
from pokerdyn.games.io.efg import _write
from pokerdyn.solvers.sequence.form import exact_chance_probs, exact_terminal_payoffs


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


def gambit_enummixed(cg: CompiledGame, max_profiles: int = 20_000
                     ) -> tuple[list[tuple[NDArray, NDArray]], float]:
    """Every extreme equilibrium of the reduced normal form (pygambit's ``enummixed_solve``
    on the float .nfg of :func:`games.io.nfg.to_nfg`) as realization plans, distinct
    ones only, and the solve's seconds.  Small games only (``max_profiles`` plan pairs)."""
    try:
        import pygambit as gbt
    except ImportError:  # pragma: no cover - optional dependency
        raise GameError("the Gambit cross-check needs pygambit (pip install pygambit)") from None
    from pokerdyn.games.io.nfg import to_nfg
    from pokerdyn.games.normal_form import normal_form
    from pokerdyn.games.normal_form.realization import realization_plan
    nf = normal_form(cg, max_profiles=max_profiles)
    g = gbt.read_nfg(_as_file(to_nfg(nf)))
    t0 = time.perf_counter()
    res = gbt.nash.enummixed_solve(g, rational=False)
    seconds = time.perf_counter() - t0
    out: list[tuple[NDArray, NDArray]] = []
    for prof in res.equilibria:
        mixed = [np.array([float(prof[s]) for s in pl.strategies]) for pl in g.players]
        plans = tuple(realization_plan(nf, p, mixed[p]) for p in range(2))
        if not any(np.allclose(plans[0], a, atol=1e-9) and np.allclose(plans[1], b, atol=1e-9)
                   for a, b in out):
            out.append(plans)
    return out, seconds


def efg_text(cg: CompiledGame) -> str:
    """EFG text of the compiled game with its exact payoffs and chance probabilities (these
    summing to exactly one)."""
    probs = exact_chance_probs(cg)
    pays = exact_terminal_payoffs(cg)
    return _write(cg.game, lambda k: str(probs[k]), lambda t: ", ".join(map(str, pays[t])))


def _as_file(text: str):
    import io
    return io.StringIO(text)


__all__ = ["gambit_enummixed", "gambit_lcp"]
