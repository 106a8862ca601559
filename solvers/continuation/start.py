"""The first equilibrium of a continuation: iterated dominance (exact, over the whole pot
range, when the game is small enough), CFR+ at the starting pot on what is left, then the
average profile polished to a solution to rounding of the indifference equations: semismooth Newton on the natural residual of the
complementarity problem (Facchinei & Pang, *Finite-Dimensional Variational Inequalities*,
ch. 7-9), then the support read off and checked."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import sympy as sp
from numpy.typing import NDArray

from pokerdyn.games import GameError
from pokerdyn.games.compiled import compile_game

from pokerdyn.solvers.continuation.arclength import (HELD, MIXED, ONE, ZERO, EVENT_TOL, Support,
                                            event_values, newton, reduce_degenerate)
from pokerdyn.solvers.continuation.system import IndifferenceSystem
from pokerdyn.solvers.evaluation import nash_conv

DOMINANCE_MAX_NAMED = 16   # the exact dominance check is exponential in the parameters


@dataclass(frozen=True)
class Start:
    """A polished starting equilibrium and how it was found."""

    x: NDArray[np.float64]
    pot: float
    support: Support
    solver_nash_conv: float
    iterations: int
    dominance: str
    method: str


def dominance_locks(S: IndifferenceSystem, pots: tuple[float, float]
                    ) -> tuple[dict[int, int], str]:
    """Sets fixed by iterated weak dominance over the pot range (set -> frequency of its
    second action), and a one-line account; skipped for games with many parameters."""
    from pokerdyn.solvers.symbolic.model.dominance import iterated_dominance

    game = S.game
    if len(game.named) > DOMINANCE_MAX_NAMED:
        return {}, (f"skipped: {len(game.named)} parameters, more than "
                    f"{DOMINANCE_MAX_NAMED} for the exact check")
    try:
        from pokerdyn.games.exact_values import rational_of_float

        res = iterated_dominance(game, pot=sp.Interval(rational_of_float(pots[0]),
                                                       rational_of_float(pots[1])))
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


def natural_newton(S: IndifferenceSystem, x: NDArray, p: float, locked: dict[int, int],
                   c: float = 1.0, max_iter: int = 200) -> bool:
    """Semismooth Newton on the natural residual ``x - clip(x + c * gain(x), 0, 1)`` (zero
    exactly at an equilibrium of the box-constrained indifference problem), damped by a
    backtracking line search; changes ``x`` in place.  Returns whether it converged."""
    lock = np.zeros(S.n, dtype=bool)
    target = np.zeros(S.n)
    for k, v in locked.items():
        lock[k], target[k] = True, v

    def resid(x):
        z = np.clip(x + c * S.gains(x, p), 0.0, 1.0)
        return x - np.where(lock, target, z), z

    R, _ = resid(x)
    for _ in range(max_iter):
        nr = np.abs(R).max()
        if nr < 1e-13:
            return True
        z = x + c * S.gains(x, p)
        inner = (z > 0) & (z < 1) & ~lock
        J = np.eye(S.n)
        if inner.any():
            J[inner] = -c * S.jacobian(x, p)[inner, :-1]
        d = np.linalg.lstsq(J, R, rcond=None)[0]
        a = 1.0
        while a > 1e-6:
            xn = np.clip(x - a * d, 0.0, 1.0)
            Rn, _ = resid(xn)
            if np.abs(Rn).max() < (1 - 1e-4 * a) * nr:
                break
            a *= 0.5
        else:
            return False
        x[:], R = xn, Rn
    return bool(np.abs(R).max() < 1e-11)


def logit_path(S: IndifferenceSystem, p: float, locked: dict[int, int], eps_end: float = 1e-7
               ) -> NDArray | None:
    """Follow the logit-regularised equations ``x = 1 / (1 + exp(-gain(x) / eps))`` (a
    quantal-response path, McKelvey & Palfrey 1995) from ``eps = 1`` down to ``eps_end`` by
    Newton, shrinking the step in ``log eps`` where Newton fails; the limit is an
    equilibrium.  Returns ``x`` at ``eps_end``, or None if the path cannot be followed."""
    free = np.array([k not in locked for k in range(S.n)])
    x = np.full(S.n, 0.5)
    for k, v in locked.items():
        x[k] = v
    eps, factor = 1.0, 0.5

    def solve(x, eps):
        x = x.copy()
        for _ in range(40):
            u = np.clip(S.gains(x, p) / eps, -700, 700)
            sg = 1.0 / (1.0 + np.exp(-u))
            R = np.where(free, x - sg, 0.0)
            if np.abs(R).max() < 1e-12:
                return x
            J = np.eye(S.n)
            w = sg * (1 - sg) / eps
            J[free] -= w[free, None] * S.jacobian(x, p)[free, :-1]
            d = np.linalg.lstsq(J, R, rcond=None)[0]
            if np.abs(d).max() > 0.5:
                return None
            x = np.clip(x - d, 0.0, 1.0)
            if np.abs(d).max() < 1e-13:
                return x
        return None

    while eps > eps_end:
        nxt = max(eps * factor, eps_end)
        got = solve(x, nxt)
        if got is None:
            factor = factor ** 0.5
            if factor > 0.99:   # stiff near eps -> 0: polishing takes over from here
                return x if eps < 1e-3 else None
            continue
        x, eps, factor = got, nxt, max(0.2, factor ** 1.5)
    return x


def polish(S: IndifferenceSystem, x: NDArray, p: float, locked: dict[int, int],
           max_rounds: int = 40) -> Support | None:
    """A support on which ``x`` (changed in place) solves the equations at ``p`` with every
    inequality holding; None if none is found."""
    tol = 1e-12 if natural_newton(S, x, p, locked) else 1e-5
    codes = np.where(x < tol, ZERO, np.where(x > 1 - tol, ONE, MIXED))
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
    """An equilibrium at ``pot`` to start from, with the dominance locks applied: CFR+, else
    the logit path, else fictitious play from seeded random starts, each then polished."""
    from pokerdyn.solvers.learning.cfr_plus import cfr
    from pokerdyn.solvers.learning.fictitious_play import fictitious_play

    locked, dom = dominance_locks(S, pots)
    cg = compile_game(S.game, {**S.cg.values, S.param: pot})
    rng = np.random.default_rng(0)
    tries = [("cfr+", None), ("logit", None)] + [("fp", rng.random(S.n)) for _ in range(seeds)]
    for name, x0 in tries:
        if name == "logit":
            x = logit_path(S, pot, locked)
            if x is None:
                continue
            nc, its = float(nash_conv(cg, S.sigma(x), check=False)), 0
        else:
            if x0 is None:
                x0 = np.full(S.n, 0.5)
            for k, v in locked.items():
                x0[k] = v
            run = cfr if name == "cfr+" else fictitious_play
            res = run(cg, iterations=iterations, tol=1e-9, sigma0=S.sigma(x0))
            x = res.strategy[S.sets, 1].copy()
            nc, its = float(res.nash_conv), res.iterations
        sup = polish(S, x, pot, locked)
        if sup is not None and nash_conv(cg, S.sigma(x), check=False) < 1e-9:
            return Start(x, float(pot), sup, nc, its, dom, name)
    raise GameError(f"no equilibrium of {S.game.name!r} at {S.param}={pot} could be polished "
                    "from CFR+ or fictitious play; try another starting pot")


__all__ = ["Start", "dominance_locks", "find_start", "polish"]
