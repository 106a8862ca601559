"""The Independent Chip Model (ICM): tournament equity of a stack vector.

Malmuth-Harville model (Ganzfried & Sandholm, "Computing an approximate jam/fold equilibrium
for 3-player no-limit Texas hold'em tournaments", sec. 3; the survey's worked example): the
probability that player ``i`` finishes first is its share of the chips, ``s_i / S``; given the
players already placed, the next place goes to each remaining player with probability
proportional to its stack among the remaining chips.  A player's equity is
``sum_k payouts[k] * P(i finishes k-th)``.

The computation is exact dynamic programming over the *set* of players already placed
(a bitmask): ``f[mask]`` is the probability that exactly the players of ``mask`` took the top
``|mask|`` places.  Only masks with fewer players than there are payouts are visited, so the
cost is ``O(N * sum_{k < P} C(N, k))`` per stack vector (``O(N 2^N)`` when every place pays);
vectorised over masks of one size and over a batch of stack vectors.  The limit is
``MAX_PLAYERS = 20`` players (2^20 masks).

*Chip EV* is the degenerate case ``payouts = (1,)`` (winner takes all): equity is then
proportional to chips, ``s_i / S``.

Players with a zero stack (busted in a hand, :func:`icm_batch` only) take the places below
every player with chips; players busted together split those places evenly (each gets the
mean of the payouts of the places they share), a convention: tournaments rank simultaneous
busts by starting stack, which a stack vector does not record.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from pokerdyn.games.errors import GameError

MAX_PLAYERS = 20
_TOL = 1e-12


def check_payouts(payouts: ArrayLike, n_players: int) -> NDArray[np.float64]:
    """Payouts as a float array: non-negative, non-increasing, summing to at most 1, at most
    one per player; GameError naming the bad value otherwise."""
    p = np.atleast_1d(np.asarray(payouts, dtype=np.float64))
    if p.ndim != 1 or p.size == 0:
        raise GameError(f"payouts={p.tolist()} must be a non-empty list of numbers")
    if not np.isfinite(p).all() or (p < 0).any():
        raise GameError(f"payouts={p.tolist()} must be finite and >= 0")
    if p.size > n_players:
        raise GameError(f"payouts={p.tolist()} has {p.size} places, more than the {n_players} "
                        "players; allowed: at most one paid place a player")
    if (np.diff(p) > _TOL).any():
        raise GameError(f"payouts={p.tolist()} are not non-increasing (a place pays more than "
                        "the place above it); allowed: each place paying at most the one above")
    if p.sum() > 1 + 1e-9:
        raise GameError(f"payouts={p.tolist()} sum to {p.sum():g}; allowed: at most 1 "
                        "(fractions of the prize pool)")
    return p


def _check_stacks(stacks: NDArray[np.float64], allow_zero: bool) -> None:
    n = stacks.shape[-1]
    if n < 1 or n > MAX_PLAYERS:
        raise GameError(f"{n} players is outside [1, {MAX_PLAYERS}] (ICM is exact over subsets "
                        "of players)")
    if not np.isfinite(stacks).all():
        raise GameError(f"stacks={stacks.tolist()} must be finite")
    bad = stacks < 0 if allow_zero else stacks <= 0
    if bad.any():
        s = float(stacks[bad][0])
        raise GameError(f"stack {s:g} is outside the allowed range "
                        f"{'[0' if allow_zero else '(0'}, inf)")
    if allow_zero and (stacks.sum(axis=-1) <= 0).any():
        raise GameError("a stack vector has no chips at all")


def icm_batch(stacks: ArrayLike, payouts: ArrayLike) -> NDArray[np.float64]:
    """ICM equities of a batch of stack vectors ``(B, N)`` (zero stacks allowed: busted
    players, see the module docstring) -> ``(B, N)``; payouts as :func:`icm`."""
    s = np.asarray(stacks, dtype=np.float64)
    if s.ndim != 2:
        raise GameError(f"stacks have shape {s.shape}, expected (batch, players)")
    _check_stacks(s, allow_zero=True)
    pay = check_payouts(payouts, s.shape[1])
    return _icm(s, pay)


def _icm(s: NDArray[np.float64], pay: NDArray[np.float64]) -> NDArray[np.float64]:
    # ICM is scale invariant: stacks as fractions of each row's largest, so that sums of
    # stacks near the float maximum (1e308) do not overflow to inf and make NaN equities
    s = s / s.max(axis=1, keepdims=True)
    B, n = s.shape
    n_masks = 1 << n
    masks = np.arange(n_masks, dtype=np.int64)
    bits = (masks[:, None] >> np.arange(n)) & 1                       # (M, n)
    size = bits.sum(axis=1)
    f = np.zeros((B, n_masks))
    f[:, 0] = 1.0
    eq = np.zeros((B, n))
    total = s.sum(axis=1, keepdims=True)
    for k in range(pay.size):
        M = np.flatnonzero(size == k)
        fm = f[:, M]                                                   # (B, m)
        out = 1 - bits[M]                                              # remaining players
        rem_chips = total - s @ bits[M].T                              # (B, m)
        n_rem = out.sum(axis=1)                                        # (m,)
        # next place: proportional to the stack among the remaining chips; all remaining
        # stacks zero -> uniform among the remaining players (busted together)
        zero = rem_chips <= _TOL * total
        safe = np.where(zero, 1.0, rem_chips)
        for i in range(n):
            w = np.where(zero, 1.0 / n_rem, s[:, i:i + 1] / safe) * out[:, i]
            p = fm * w                                                 # (B, m)
            eq[:, i] += pay[k] * p.sum(axis=1)
            if k + 1 < pay.size:
                np.add.at(f, (slice(None), M | (1 << i)), p * out[:, i])
    return eq


def icm(stacks: Sequence[float] | ArrayLike, payouts: Sequence[float] | ArrayLike
        ) -> NDArray[np.float64]:
    """ICM equity of each player, in the units of ``payouts`` (fractions of the prize pool).

    Parameters
    ----------
    stacks : array_like, shape (N,) or (B, N)
        Chips of each player (> 0); a 2-D array is a batch of stack vectors.
    payouts : array_like, shape (P,)
        Prize of 1st, 2nd, ... place: non-increasing, >= 0, summing to at most 1, P <= N.
        ``(1,)`` is chip EV (equity proportional to chips).

    Returns
    -------
    ndarray, the shape of ``stacks``
        Equities; each row sums to ``sum(payouts)``.
    """
    s = np.asarray(stacks, dtype=np.float64)
    if s.ndim not in (1, 2):
        raise GameError(f"stacks have shape {s.shape}, expected (players,) or (batch, players)")
    s2 = np.atleast_2d(s)
    _check_stacks(s2, allow_zero=False)
    pay = check_payouts(payouts, s2.shape[1])
    out = _icm(s2, pay)
    return out[0] if s.ndim == 1 else out


__all__ = ["MAX_PLAYERS", "check_payouts", "icm", "icm_batch"]
