"""The first equilibrium of a continuation: iterated dominance (exact, over the whole pot
range, when the game is small enough), CFR+ at the starting pot on what is left, then the
support read off the average profile and polished by Newton to an exact-looking solution
of the indifference equations (support adjusted until every inequality holds)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import sympy as sp
from numpy.typing import NDArray

from games import GameError
from games.compiled import compile_game

from solvers.continuation.arclength import (HELD, MIXED, ONE, ZERO, EVENT_TOL, Support,
                                            event_values, newton, reduce_degenerate)
from solvers.continuation.system import IndifferenceSystem
from solvers.evaluation import nash_conv

DOMINANCE_MAX_NAMED = 16   # the exact dominance check is exponential in the parameters
SUPPORT_TOL = 2e-3         # a CFR+ frequency this close to a bound is read as the bound


@dataclass(frozen=True)
class Start:
    """A polished starting equilibrium and how it was found."""

    x: NDArray[np.float64]
    pot: float
    support: Support
    solver_nash_conv: float
    iterations: int
    dominance: str


def dominance_locks(S: IndifferenceSystem, pots: tuple[float, float]
                    ) -> tuple[dict[int, int], str]:
    """Sets fixed by iterated weak dominance over the pot range (set -> frequency of its
    second action), and a one-line account; skipped for games with many parameters."""
    from solvers.symbolic.dominance import iterated_dominance

    game = S.game
    if len(game.named) > DOMINANCE_MAX_NAMED:
        return {}, (f"skipped: {len(game.named)} parameters, more than "
                    f"{DOMINANCE_MAX_NAMED} for the exact check")
    try:
        res = iterated_dominance(game, pot=sp.Interval(sp.nsimplify(pots[0]),
                                                       sp.nsimplify(pots[1])))
    except GameError as e:
        return {}, f"skipped: {e}"
    where = {int(I): i for i, I in enumerate(S.sets)}
    out = {}
    for name, v in res.fixed.items():
        par = next(p for p in game.named if p.name == name)
        I = game.infoset_index(par.infoset)
        if I in where:
            second = game.infosets[I].actions[1] == par.action
            out[where[I]] = int(v) if second else 1 - int(v)
    return out, f"{len(out)} of {S.n} frequencies fixed by iterated weak dominance"


def polish(S: IndifferenceSystem, x: NDArray, p: float, locked: dict[int, int],
           max_rounds: int = 40) -> Support | None:
    """A support on which ``x`` (changed in place) solves the equations at ``p`` with every
    inequality holding; None if the rounds run out."""
    codes = np.where(x < SUPPORT_TOL, ZERO, np.where(x > 1 - SUPPORT_TOL, ONE, MIXED))
    lock = np.zeros(S.n, dtype=bool)
    for k, v in locked.items():
        codes[k], lock[k] = v, True
    codes = codes.astype(np.int8)
    for _ in range(max_rounds):
        x[codes == ZERO] = 0.0
        x[codes == ONE] = 1.0
        sup = reduce_degenerate(S, Support(codes.copy(), lock, np.zeros(0, np.int64)), x, p)
        x1, _, ok, _ = newton(S, sup, x, p, max_iter=30)
        if not ok:
            return None
        x[:] = x1
        vals, what = event_values(S, sup, x, p, (p - 1.0, p + 1.0))
        bad = np.nonzero(vals < -EVENT_TOL)[0]
        if not bad.size:
            return sup
        kind, k = what[int(bad[np.argmin(vals[bad])])]
        if kind == "reaches 0":
            codes[k] = ZERO
        elif kind == "reaches 1":
            codes[k] = ONE
        elif kind == "enters":
            codes[k] = MIXED
        else:
            codes[codes == HELD] = MIXED
    return None


def find_start(S: IndifferenceSystem, pot: float, pots: tuple[float, float],
               iterations: int = 20_000, seeds: int = 4) -> Start:
    """An equilibrium at ``pot`` to start from: CFR+ (then fictitious play from seeded random
    starts if polishing fails) with the dominance locks applied."""
    from solvers.learning.cfr_plus import cfr
    from solvers.learning.fictitious_play import fictitious_play

    locked, dom = dominance_locks(S, pots)
    cg = compile_game(S.game, {**S.cg.values, S.param: pot})
    rng = np.random.default_rng(0)
    tries = [("cfr+", None)] + [("fp", rng.random(S.n)) for _ in range(seeds)]
    for name, x0 in tries:
        sigma0 = None
        if x0 is not None:
            x0 = x0.copy()
            for k, v in locked.items():
                x0[k] = v
            sigma0 = S.sigma(x0)
        elif locked:
            xl = np.full(S.n, 0.5)
            for k, v in locked.items():
                xl[k] = v
            sigma0 = S.sigma(xl)
        run = cfr if name == "cfr+" else fictitious_play
        res = run(cg, iterations=iterations, tol=1e-9, sigma0=sigma0)
        x = res.strategy[S.sets, 1].copy()
        sup = polish(S, x, pot, locked)
        if sup is not None and nash_conv(cg, S.sigma(x)) < 1e-9:
            return Start(x, float(pot), sup, float(res.nash_conv), res.iterations, dom)
    raise GameError(f"no equilibrium of {S.game.name!r} at {S.param}={pot} could be polished "
                    "from CFR+ or fictitious play; try another starting pot")


__all__ = ["Start", "dominance_locks", "find_start", "polish"]
