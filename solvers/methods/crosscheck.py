"""Cross-check of the exact equilibrium enumeration against fictitious play.

For each pot: fictitious play from random starts, and for each run the max-norm distance
over the named parameters from its average strategy to the nearest enumerated family (the
distance to the SET: free parameters optimised under the family's constraints, SLSQP on the
epigraph form ``min t s.t. |x_k(y) - fp_k| <= t``); and each family's sample point checked
with an exact NashConv.

The exact NashConv is :func:`solvers.symbolic.model.nash_conv.exact_nash_conv` (vertex best
replies in exact arithmetic; sympy zero certifies an equilibrium).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
import sympy as sp
from numpy.typing import NDArray

from pokerdyn.games import Game
from pokerdyn.games.compiled import CompiledGame, compile_game
from pokerdyn.games.strategy import params_from_strategy

from pokerdyn.solvers.symbolic.model.pot_values import exact_pot
from pokerdyn.solvers.learning.fictitious_play import fictitious_play
from pokerdyn.solvers.symbolic.axis.piecewise import Solution, solutions_at
from pokerdyn.solvers.symbolic.model.nash_conv import exact_nash_conv


def random_profile(cg: CompiledGame, rng: np.random.Generator) -> NDArray[np.float64]:
    """A behaviour profile drawn uniformly from each information set's simplex."""
    sigma = np.zeros(cg.legal.shape)
    for i in range(sigma.shape[0]):
        legal = np.flatnonzero(cg.legal[i])
        sigma[i, legal] = rng.dirichlet(np.ones(len(legal)))
    return sigma


def distance_to_family(sol: Solution, x: dict[str, float]) -> float:
    """Max-norm distance over the named parameters from ``x`` to the family's closure."""
    from scipy.optimize import minimize  # scipy.optimize loads only here (0.5-1 s)
    names = [k for k, _ in sol.strategy]
    fp = np.array([x[k] for k in names])
    if not sol.free:
        return float(np.max(np.abs(np.array([float(v) for _, v in sol.strategy]) - fp)))
    ys = [sp.Symbol(n, real=True) for n in sol.free]
    f = sp.lambdify([ys], [v for _, v in sol.strategy], "numpy")
    cons = [sp.lambdify([ys], e, "numpy") for e, _ in sol.raw]  # e >= 0 (closure)
    k = len(ys)

    def gap(z):
        return np.asarray(f(z[:k]), dtype=float) - fp

    constraints = [{"type": "ineq", "fun": lambda z: z[k] - gap(z)},
                   {"type": "ineq", "fun": lambda z: z[k] + gap(z)}]
    constraints += [{"type": "ineq", "fun": (lambda z, c=c: float(c(z[:k])))} for c in cons]
    bounds = [(0.0, 1.0)] * k + [(0.0, None)]
    best = np.inf
    sample = sol.sample()
    starts = [np.array([float(sample[n]) for n in sol.free]),
              np.array([x.get(n, 0.5) for n in sol.free])]
    for y0 in starts:
        z0 = np.append(y0, np.max(np.abs(gap(np.append(y0, 0)))))
        res = minimize(lambda z: z[k], z0, method="SLSQP", bounds=bounds,
                       constraints=constraints, options={"ftol": 1e-12, "maxiter": 200})
        z = res.x
        feasible = all(float(c(z[:k])) >= -1e-9 for c in cons)
        if feasible:
            best = min(best, float(np.max(np.abs(gap(z)))))
    return best


@dataclass(frozen=True)
class Run:
    start: int
    distance: float
    nash_conv: float
    nearest_family: int


@dataclass(frozen=True)
class PotCheck:
    pot: float
    runs: tuple[Run, ...]
    families: tuple[dict[str, Any], ...]  # index, sample (name -> Expr), nash_conv_exact


def crosscheck(game: Game, pots: Sequence[float], starts: int = 10, iterations: int = 20_000,
               seed: int = 0, schedule: str = "alternating") -> list[PotCheck]:
    """Fictitious play from ``starts`` random profiles per pot against the exact families.

    Run ``j`` at pot ``i`` draws its start from ``SeedSequence(seed).spawn(...)[i * starts
    + j]``, so results replay exactly."""
    seqs = np.random.SeedSequence(seed).spawn(len(pots) * starts)
    out = []
    for i, pot in enumerate(pots):
        exact = exact_pot(pot)  # exact: a float 2.5 is 5/2, an algebraic pot stays one
        sols = solutions_at(game, exact)
        fams = []
        for j, s in enumerate(sols):
            sample = s.sample()
            fams.append({"index": j, "sample": sample,
                         "nash_conv_exact": exact_nash_conv(game, exact, sample)})
        cg = compile_game(game, P=float(pot)) if any(p.name == "P" for p in game.params) \
            else compile_game(game)
        runs = []
        for j in range(starts):
            rng = np.random.default_rng(seqs[i * starts + j])
            res = fictitious_play(cg, iterations=iterations, schedule=schedule,
                                  sigma0=random_profile(cg, rng))
            x = params_from_strategy(cg, res.strategy)
            d = [distance_to_family(s, x) for s in sols]
            near = int(np.argmin(d)) if d else -1
            runs.append(Run(j, float(d[near]) if d else float("inf"), float(res.nash_conv), near))
        out.append(PotCheck(float(pot), tuple(runs), tuple(fams)))
    return out
