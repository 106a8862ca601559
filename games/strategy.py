"""Behaviour strategies: arrays ``(n_infosets, max_actions)`` and their named views.

A profile holds one probability vector per information set (zeros at illegal actions).
Named parameters (``b_J``, ``c_K`` ...) are a view onto it: parameter ``x`` at a
two-action information set gives ``x`` to its action and ``1 - x`` to the other.
"""
from __future__ import annotations

import math
from typing import Any, Mapping

import numpy as np
import sympy as sp
from numpy.typing import ArrayLike, NDArray

from pokerdyn.games.compiled import CompiledGame
from pokerdyn.games.tree import Game, GameError


def uniform_strategy(cg: CompiledGame) -> NDArray[np.float64]:
    """Every legal action with equal probability."""
    return cg.legal / cg.n_actions[:, None].astype(np.float64)


def _check_prob(name: str, x: Any) -> float:
    try:
        v = float(x)
    except (TypeError, ValueError):
        raise GameError(f"probability {name}={x!r} is not a number") from None
    if not (math.isfinite(v) and 0.0 <= v <= 1.0):
        raise GameError(f"probability {name}={x} is outside the allowed range [0, 1]")
    return v


def strategy_from_params(cg: CompiledGame, values: Mapping[str, Any],
                         base: NDArray[np.float64] | None = None) -> NDArray[np.float64]:
    """Profile with the named parameters set from ``values``; others from ``base``
    (default: uniform).  Unknown names and values outside [0, 1] raise GameError."""
    game = cg.game
    sigma = uniform_strategy(cg) if base is None else np.array(base, dtype=np.float64)
    known = {p.name: p for p in game.named}
    groups: dict[int, dict[int, float]] = {}
    for name, x in values.items():
        p = known.get(name)
        if p is None:
            raise GameError(f"unknown parameter {name!r} of game {game.name!r}; allowed: "
                            f"{', '.join(known)}")
        I = game.infoset_index(p.infoset)
        groups.setdefault(I, {})[game.infosets[I].actions.index(p.action)] = _check_prob(name, x)
    for I, acts in groups.items():
        n = int(cg.n_actions[I])
        total = sum(acts.values())
        if len(acts) == n - 1:
            if total > 1 + 1e-12:
                raise GameError(f"parameters at {game.infosets[I].label!r} sum to {total} > 1")
            row = np.zeros(cg.max_actions)
            for a, v in acts.items():
                row[a] = v
            rest = [a for a in range(n) if a not in acts][0]
            row[rest] = max(0.0, 1.0 - total)
            sigma[I] = row
        else:  # only some of the named actions of a many-action set: renormalise the rest
            row = sigma[I].copy()
            free = [a for a in range(n) if a not in acts]
            mass = row[free].sum()
            for a, v in acts.items():
                row[a] = v
            scale = (1.0 - total) / mass if mass > 0 else 0.0
            row[free] *= scale
            sigma[I] = row
    return sigma


def params_from_strategy(cg: CompiledGame, sigma: NDArray[np.float64]) -> dict[str, float]:
    """Named-parameter values of a profile."""
    game = cg.game
    out = {}
    for p in game.named:
        I = game.infoset_index(p.infoset)
        out[p.name] = float(sigma[I, game.infosets[I].actions.index(p.action)])
    return out


def strategy_to_dict(cg: CompiledGame, sigma: NDArray[np.float64]) -> dict[str, float]:
    """``{"<infoset label>:<action>": probability}`` for every legal action."""
    out = {}
    for i, I in enumerate(cg.game.infosets):
        for a, act in enumerate(I.actions):
            out[f"{I.label}:{act}"] = float(sigma[i, a])
    return out


def strategy_by_infoset(cg: CompiledGame,
                        sigma: NDArray[np.float64]) -> dict[str, dict[str, float]]:
    """``{"<infoset label>": {"<action>": probability}}`` for every information set."""
    return strategy_by_labels(cg.game.infosets, sigma)


def strategy_by_labels(infosets, sigma: NDArray[np.float64]) -> dict[str, dict[str, float]]:
    """:func:`strategy_by_infoset` from the information sets themselves (``label`` and
    ``actions`` of each, in the profile's row order): a public-tree form carries them
    without its history tree."""
    return {I.label: {act: float(sigma[i, a]) for a, act in enumerate(I.actions)}
            for i, I in enumerate(infosets)}


def has_declared_names(game) -> bool:
    """Whether some named parameter was named by the game's author (``b_J``), not made up
    from its information-set label (``x2_35_b_f``: builder, OpenSpiel and .efg games)."""
    from pokerdyn.games.tree import _auto_name

    return any(p.name != _auto_name(game.infosets[game.infoset_index(p.infoset)], p.action)
               for p in game.named)


SUM_TOL = 1e-6  # how far from 1 a row of a profile may sum (check_strategy)


def _valid_profile_py(arr, legal, atol, sum_tol):
    """Every entry >= -atol (NaN fails), at most atol on illegal actions, every row summing
    to 1 within sum_tol (an inf makes its row's sum fail)."""
    for i in range(arr.shape[0]):
        s = 0.0
        for a in range(arr.shape[1]):
            x = arr[i, a]
            if not x >= -atol or (not legal[i, a] and x > atol):
                return False
            s += x
        if not abs(s - 1.0) <= sum_tol:
            return False
    return True


_VALID = []  # the compiled _valid_profile_py, made on first use (numba is imported then)


def _valid_profile(arr, legal, atol: float) -> bool:
    """check_strategy's common case in one compiled pass (a numpy version takes several
    passes of a few microseconds each, as long as NashConv of a small game); the numpy
    passes of check_strategy then only name the fault."""
    if not _VALID:
        from numba import njit
        _VALID.append(njit(cache=True)(_valid_profile_py))
    return bool(_VALID[0](arr, legal, float(atol), SUM_TOL))


def check_strategy(cg: CompiledGame, sigma: ArrayLike, what: str = "strategy",
                   atol: float = 1e-9, full: bool = True) -> NDArray[np.float64]:
    """``sigma`` as a C-contiguous float64 array if it is a behaviour profile of ``cg``,
    else GameError naming ``what`` (the caller's argument), the bad shape, entry or
    information set, and what is allowed.

    The one check of profiles given to the public API (solvers.evaluation, the iterative
    solvers' ``sigma0`` ...): shape exactly ``(n_infosets, max_actions)``, every entry a
    finite number >= 0, 0 at illegal actions (the padding of sets with fewer actions) and
    every row summing to 1 within ``SUM_TOL`` (1e-6, as before issue 33: profiles
    printed to six places, read back, stay valid); entries within ``atol``.  Vectorised, O(size); callers run it once
    at their entry, never inside an iteration.  ``full=False`` checks the shape only (O(1)
    beyond the conversion): the guard that keeps the numba kernels inside their arrays
    where the profile is the caller's own (an ODE state, an iterate).
    """
    try:
        arr = np.asarray(sigma, dtype=np.float64)
    except (TypeError, ValueError):
        raise GameError(f"{what} is not an array of numbers; it must be an array of shape "
                        f"(n_infosets, max_actions) = {cg.legal.shape}") from None
    if arr.shape != cg.legal.shape:
        raise GameError(f"{what} shape {arr.shape} is not allowed: game {cg.name!r} needs "
                        f"(n_infosets, max_actions) = {cg.legal.shape}")
    arr = np.ascontiguousarray(arr)
    if not full or arr.size == 0:
        return arr
    if _valid_profile(arr, cg.legal, atol):  # the common case, one compiled pass
        return arr
    infosets = cg.game.infosets

    def where(I: int, a: int) -> str:
        acts = infosets[I].actions
        act = f", action {acts[a]!r}" if a < len(acts) else ""
        return f"{what}[{I}, {a}] (information set {infosets[I].label!r}{act})"

    bad = ~np.isfinite(arr)
    if bad.any():
        I, a = (int(i) for i in np.argwhere(bad)[0])
        raise GameError(f"{where(I, a)} = {float(arr[I, a])} is not a number in the allowed "
                        "range [0, 1]")
    bad = arr < -atol
    if bad.any():
        I, a = (int(i) for i in np.argwhere(bad)[0])
        raise GameError(f"{where(I, a)} = {float(arr[I, a])!r} is negative; probabilities "
                        "must lie in [0, 1]")
    bad = ~cg.legal & (np.abs(arr) > atol)
    if bad.any():
        I, a = (int(i) for i in np.argwhere(bad)[0])
        raise GameError(f"{where(I, a)} = {float(arr[I, a])!r} puts probability on an "
                        f"illegal action: information set {infosets[I].label!r} has "
                        f"{len(infosets[I].actions)} actions and the entries after them "
                        "must be 0")
    sums = arr.sum(axis=1)
    bad = np.nonzero(~(np.abs(sums - 1.0) <= SUM_TOL))[0]
    if bad.size:
        I = int(bad[0])
        raise GameError(f"{what} at {infosets[I].label!r} sums to {float(sums[I])!r}, not 1 "
                        f"(information set {I}, row {arr[I].tolist()}); each information "
                        f"set's probabilities must sum to 1 within {SUM_TOL:g}")
    return arr


def param_symbols(game: Game) -> dict[str, sp.Symbol]:
    """Sympy symbols of the named parameters (real, in [0, 1])."""
    return {p.name: sp.Symbol(p.name, real=True) for p in game.named}


def symbolic_strategy(game: Game) -> list[list[sp.Expr]]:
    """Per information set, each action's probability as a sympy expression in the named
    parameters (fixed single actions are 1)."""
    syms = param_symbols(game)
    by_set: dict[int, dict[int, sp.Expr]] = {}
    for p in game.named:
        I = game.infoset_index(p.infoset)
        by_set.setdefault(I, {})[game.infosets[I].actions.index(p.action)] = syms[p.name]
    out = []
    for i, I in enumerate(game.infosets):
        named = by_set.get(i, {})
        row = []
        rest = sp.Integer(1) - sp.Add(*named.values())
        for a in range(len(I.actions)):
            row.append(named.get(a, rest if len(I.actions) > 1 else sp.Integer(1)))
        out.append(row)
    return out
