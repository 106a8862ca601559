"""The whole-axis path of :func:`solvers.symbolic.entry.solve_equilibria` (``pokerdyn equilibria GAME``
without --pot for games past the case search whose dominance-reduced frequencies fit it,
kuhn3-full-simplified: 36 named, 13 left): every equilibrium piecewise in P over a pot
range, from complete exact enumerations at rational pots (:mod:`solvers.symbolic.axis`), resumable
pot by pot, and with ``prove_complete`` proven complete with P symbolic.  Minutes: a
progress bar per pot when asked."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable

import sympy as sp

from pokerdyn.games import Game

ROUNDS = 3  # sweeps with prove_complete: each takes in what the proof before found
START = ("5/2", "7/2", "9/2", "11/2", "6", "7", "8", "9", "10", "12", "15", "20")


def axis_record(game: Game, low: sp.Expr, high: sp.Expr, saved: dict,
                save: Callable[[], None] | None = None, proof_state: Path | None = None,
                prove_complete: bool = False, workers: int | None = None,
                progress: bool = False) -> dict | None:
    """The record of the sweep of ``low <= P <= high`` (``axis.sweep.sweep_record``,
    with ``completeness`` when ``prove_complete``), or None when iterated dominance leaves
    more than the case search takes (the caller falls back to the support method).
    ``saved``: the resume state ``{"pots": ..., "undecided": ..., "extra": ...}``, updated
    in place; ``save()`` is called after each pot and each proof round."""
    from tqdm.auto import tqdm

    from pokerdyn.solvers.symbolic.model.dominance import reduce_game
    from pokerdyn.solvers.symbolic.model.conditions import MAX_PARAMETERS
    from pokerdyn.solvers.symbolic.axis.sweep import sweep, sweep_record

    fixed = reduce_game(game)
    if len(game.named) - len(fixed) > MAX_PARAMETERS:
        return None
    save = save or (lambda: None)
    done, undecided = saved["pots"], saved["undecided"]
    start = [s for s in START if low <= sp.Rational(s) <= high] or \
        [str(2 * low if high is sp.oo else (low + high) / 2)]
    # no tqdm monitor thread: a multi-threaded process may not fork the workers
    # (solvers.symbolic.axis.forked_map.can_fork) nor the pieces' pool
    tqdm.monitor_interval = 0
    extra = saved.setdefault("extra", [])  # supports of families the proof found
    rec: dict = {}
    for _ in range(ROUNDS):
        bar = tqdm(desc="pots enumerated", unit="pot", disable=not progress,
                   initial=len(done))

        def step(pot: str) -> None:
            save()
            bar.update(1)
            bar.set_postfix_str(f"P = {pot}")

        try:
            res = sweep(game, fixed, low, high, start=start, progress=step, done=done,
                        undecided=undecided, extra=extra,
                        workers=workers or os.cpu_count() or 1)
        finally:
            bar.close()
        rec = sweep_record(game, fixed, res, low, high)
        if not prove_complete:
            break
        rec["completeness"] = _prove(game, fixed, low, high, res, proof_state, progress,
                                     workers)
        more = sorted({n["support"] for n in rec["completeness"]["new"]} - set(extra))
        if not more:
            break
        # families between the enumerated pots that the sweep lacked: their supports go
        # into the sweep (kept in the state), and the proof is run again on its new pieces
        extra += more
        save()
    return rec


def _prove(game: Game, fixed: Any, low: Any, high: Any, res: Any, state: Path | None,
           progress: bool, workers: int | None) -> dict:
    """certify_complete with a progress bar; its leaves resume from ``state`` and are
    shared among ``workers`` processes (default 1)."""
    from tqdm.auto import tqdm

    from pokerdyn.solvers.symbolic.certificates.completeness import certify_complete

    bars: dict = {}

    def step(stage: str, done: int, total: int) -> None:
        if stage not in bars:
            bars[stage] = tqdm(desc=f"proof: {stage}", total=total, disable=not progress)
        bars[stage].n = done
        bars[stage].refresh()

    try:
        return certify_complete(game, fixed, low, high, res, progress=step, state=state,
                                workers=workers or 1)
    finally:
        for b in bars.values():
            b.close()


__all__ = ["ROUNDS", "START", "axis_record"]
