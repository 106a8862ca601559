"""Kuhn's theorem both ways (Kuhn 1953; von Stengel 1996, sec. 3): under perfect recall a
mixed strategy over reduced plans and a behaviour strategy are *realization equivalent* when
they give every own sequence the same probability, so that every terminal is reached with
the same probability whatever the others do.

- :func:`behaviour_from_mixed`: the realization plan ``x = R^T mu`` (``R`` the plan-sequence
  incidence), then ``sigma(I, a) = x(I, a) / x(parent(I))``; uniform where ``x(parent)=0``.
- :func:`mixed_from_behaviour`: ``support="product"`` gives each plan the product of its
  actions' probabilities (support: every plan of positive probability); ``"small"``
  peels pure plans off the realization plan (take a plan inside the support, weight the
  smallest remaining realization probability of its sequences, subtract, repeat), at most
  one plan per sequence.

Float arrays give float results; object arrays of Fractions (or sympy numbers) give exact ones.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from pokerdyn.games.normal_form.tensor import NormalForm
from pokerdyn.games.tree import GameError

SUPPORTS = ("product", "small")


def _is_exact(a: NDArray) -> bool:
    return a.dtype == object


def realization_plan(nf: NormalForm, player: int, mixed: ArrayLike) -> NDArray:
    """Probability of each of ``player``'s sequences under the mixed strategy ``mixed``."""
    mu = np.asarray(mixed)
    if mu.shape != (nf.shape[player],):
        raise GameError(f"mixed strategy of player {player + 1} has shape {mu.shape}; it "
                        f"needs ({nf.shape[player]},), one probability per plan")
    R = nf.incidence[player]
    return R.T.astype(object) @ mu if _is_exact(mu) else R.T.astype(np.float64) @ mu


def behaviour_from_mixed(nf: NormalForm, mixed: Sequence[ArrayLike]) -> NDArray:
    """The behaviour profile ``(n_infosets, max_actions)`` realization-equivalent to the
    mixed strategies ``mixed[p]`` (uniform at sets a player's own plans never reach)."""
    if len(mixed) != nf.n_players:
        raise GameError(f"{len(mixed)} mixed strategies given; the game has {nf.n_players} "
                        "players")
    xs = [realization_plan(nf, p, m) for p, m in enumerate(mixed)]
    exact = any(_is_exact(x) for x in xs)
    sq = nf.sequences
    n_inf, amax = sq.seq.shape
    sigma = np.full((n_inf, amax), Fraction(0)) if exact else np.zeros((n_inf, amax))
    for I, info in enumerate(nf.game.infosets):
        x = xs[info.player]
        k = len(info.actions)
        mass = x[sq.parent_seq[I]]
        if mass > 0:
            sigma[I, :k] = [x[s] / mass for s in sq.seq[I, :k]]
        else:
            sigma[I, :k] = Fraction(1, k) if exact else 1.0 / k
    return sigma


def mixed_from_behaviour(nf: NormalForm, sigma: ArrayLike, player: int,
                         support: str = "product", atol: float = 1e-12) -> NDArray:
    """A mixed strategy of ``player`` over the reduced plans, realization-equivalent to the
    behaviour profile ``sigma`` (see the module docstring for ``support``)."""
    if support not in SUPPORTS:
        raise GameError(f"support={support!r} is not one of {', '.join(SUPPORTS)}")
    sig = np.asarray(sigma)
    if sig.shape != nf.sequences.seq.shape:
        raise GameError(f"behaviour profile has shape {sig.shape}; the game needs "
                        f"{nf.sequences.seq.shape}")
    plans = nf.plans[player]
    if support == "product":
        rows, sets = np.nonzero(plans >= 0)
        factor = np.ones(plans.shape, dtype=sig.dtype)
        if _is_exact(sig):
            factor[:] = Fraction(1)
        factor[rows, sets] = sig[sets, plans[rows, sets]]
        return np.prod(factor, axis=1)
    return _peel(nf, sig, player, atol)


def _sequence_probs(nf: NormalForm, sig: NDArray, player: int) -> NDArray:
    """``player``'s realization plan of the behaviour profile (parents before children)."""
    sq = nf.sequences
    x = np.zeros(sq.n_sequences[player], dtype=sig.dtype)
    x[0] = Fraction(1) if _is_exact(sig) else 1.0
    kids = sq.children(player)
    stack = [0]
    while stack:
        s = stack.pop()
        for J in kids[s]:
            for a in range(len(nf.game.infosets[J].actions)):
                t = int(sq.seq[J, a])
                x[t] = x[s] * sig[J, a]
                stack.append(t)
    return x


def _peel(nf: NormalForm, sig: NDArray, player: int, atol: float) -> NDArray:
    sq = nf.sequences
    exact = _is_exact(sig)
    tol = 0 if exact else atol
    x = _sequence_probs(nf, sig, player)
    index = {tuple(row): k for k, row in enumerate(nf.plans[player].tolist())}
    kids = sq.children(player)
    mu = np.zeros(nf.shape[player], dtype=sig.dtype)
    if exact:
        mu[:] = Fraction(0)
    n_inf = sq.seq.shape[0]
    while x[0] > tol:
        plan, used, stack = [-1] * n_inf, [0], [0]
        while stack:   # the plan of largest remaining probability at every reached set
            s = stack.pop()
            for J in kids[s]:
                k = len(nf.game.infosets[J].actions)
                a = max(range(k), key=lambda b: x[sq.seq[J, b]])
                plan[J] = a
                used.append(int(sq.seq[J, a]))
                stack.append(int(sq.seq[J, a]))
        w = min(x[s] for s in used)
        if w <= tol:   # rounding left a sliver: give it to this plan
            w = x[0]
        mu[index[tuple(plan)]] += w
        for s in used:
            x[s] -= w
    return mu


__all__ = ["SUPPORTS", "behaviour_from_mixed", "mixed_from_behaviour", "realization_plan"]
