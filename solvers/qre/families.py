"""Matching a numeric profile with the enumerated equilibrium families (solvers.symbolic).

A family fixes each named parameter as an expression in its free parameters; the free
values that best fit the profile come from least squares (starting from the profile's own
values where a free parameter is a named one), then the family's constraints are checked at
them.  The match is the family within ``tol`` (max per named parameter) of the profile.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np
import sympy as sp
from numpy.typing import NDArray

from pokerdyn.games import CompiledGame
from pokerdyn.games.strategy import strategy_from_params


def _holds(rel: sp.Basic, at: Mapping[sp.Symbol, float], tol: float) -> bool:
    if rel in (sp.true, True):
        return True
    d = float((rel.lhs - rel.rhs).xreplace(at))
    if isinstance(rel, (sp.LessThan, sp.StrictLessThan)):
        return d <= tol
    if isinstance(rel, (sp.GreaterThan, sp.StrictGreaterThan)):
        return d >= -tol
    return abs(d) <= tol


def fit_family(sol: Any, observed: Mapping[str, float], tol: float = 1e-5
               ) -> tuple[dict[str, float], float] | None:
    """Free-parameter values of the display family ``sol`` (solvers.symbolic.axis.piecewise.
    Solution) closest to the named-parameter values ``observed``, and the max deviation;
    None where the best fit breaks the family's constraints by more than ``tol``."""
    names = [k for k, _ in sol.strategy]
    exprs = [sp.sympify(e) for _, e in sol.strategy]
    syms = {s.name: s for e in exprs for s in e.free_symbols}
    for c in sol.constraints:
        syms.update({s.name: s for s in getattr(c, "free_symbols", ())})
    free = [syms.get(n, sp.Symbol(n, real=True)) for n in sol.free]
    free += sorted((q for q in syms.values() if q not in free), key=str)
    obs = np.array([observed[n] for n in names])
    if free:
        # scipy.optimize loads here, only for a family with free parameters (its import
        # costs about as much as a small game's branch)
        from scipy.optimize import least_squares
        f = sp.lambdify(free, exprs, "numpy")
        x0 = np.array([observed.get(s.name, 0.5) for s in free])
        fit = least_squares(lambda z: np.asarray(f(*z), dtype=float) - obs, x0, xtol=1e-15,
                            ftol=1e-15, gtol=1e-15)
        z = fit.x
        vals = np.asarray(f(*z), dtype=float)
    else:
        z = np.zeros(0)
        vals = np.array([float(e) for e in exprs])
    dist = float(np.abs(vals - obs).max()) if obs.size else 0.0
    at = dict(zip(free, map(float, z)))
    if not all(_holds(c, at, tol) for c in sol.constraints):
        return None
    return {s.name: float(v) for s, v in zip(free, z)}, dist


def family_point(cg: CompiledGame, sol: Any, free: Mapping[str, float]) -> NDArray[np.float64]:
    """The profile of family ``sol`` at the free-parameter values ``free``."""
    vals = {}
    for k, e in sol.strategy:
        e = sp.sympify(e)
        vals[k] = float(e.xreplace({q: free[q.name] for q in e.free_symbols}))
    return strategy_from_params(cg, {k: min(1.0, max(0.0, v)) for k, v in vals.items()})


def match_family(cg: CompiledGame, observed: Mapping[str, float], families: Sequence[Any],
                 tol: float = 1e-5
                 ) -> tuple[int, dict[str, float], NDArray[np.float64], float] | None:
    """``(index, free values, family point, distance)`` of the family nearest to the
    named-parameter values ``observed`` within ``tol``, or None."""
    best = None
    for i, sol in enumerate(families):
        m = fit_family(sol, observed, tol)
        if m is not None and m[1] <= tol and (best is None or m[1] < best[3]):
            best = (i, m[0], family_point(cg, sol, m[0]), m[1])
    return best


def exact_point(sol: Any, free: Mapping[str, float]) -> dict[str, sp.Expr]:
    """The family's named parameters with each free parameter replaced by the nearest
    simple rational to its value (within 1e-9): an exact point of the family."""
    at = {k: sp.nsimplify(v, tolerance=1e-9, rational=True) for k, v in free.items()}
    out = {}
    for k, e in sol.strategy:
        e = sp.sympify(e)
        out[k] = sp.nsimplify(e.xreplace({q: at[q.name] for q in e.free_symbols
                                          if q.name in at}))
    return out


def enumerated_families(game: Any, values: Mapping[str, float]) -> list | None:
    """The display families (solvers.symbolic) a branch limit is matched against: those
    of the game's piece holding the pot ``values["P"]`` (its default without one) where the
    game has a pot, else those of its single piece; None where the game names no parameters
    or too many to enumerate (solvers.symbolic.model.conditions.MAX_PARAMETERS)."""
    from pokerdyn.solvers.symbolic.model.conditions import MAX_PARAMETERS
    if not game.named or len(game.named) > MAX_PARAMETERS:
        return None
    if "P" in game.param_names:
        from pokerdyn.solvers.symbolic.axis.piecewise import solutions_at
        return solutions_at(game, values.get("P", game.defaults.get("P")))
    from pokerdyn.solvers.symbolic.axis.piecewise import equilibrium_pieces
    return list(equilibrium_pieces(game)[0].solutions)


def certify_point(game: Any, pot: Any, point: Mapping[str, sp.Expr]) -> sp.Expr:
    """Exact NashConv (sympy; 0 certifies an equilibrium) of the exact named-parameter
    values ``point`` (:func:`exact_point`) at the exact pot."""
    from pokerdyn.solvers.symbolic.model.nash_conv import exact_nash_conv
    return exact_nash_conv(game, pot, point)


def certify(game: Any, pot: Any, sol: Any, free: Mapping[str, float]) -> sp.Expr:
    """Exact NashConv (sympy; 0 certifies an equilibrium) of the family point of ``sol``
    at the free values ``free`` (rationalised, :func:`exact_point`) and the exact pot."""
    return certify_point(game, pot, exact_point(sol, free))
