"""Weak collusion (win sharing) for any game: the colluding seats split their total net
payoff evenly at every terminal (Mercer, hold'em paper sec. 5: "colluding players split the
pot evenly after reclaiming their contribution"; the Java ``CollusionEvaluator`` with
``zeroSum``), so the game stays zero-sum and each colluder's incentive is the team's."""
from __future__ import annotations

import dataclasses
from typing import Sequence

import numpy as np
import sympy as sp

from pokerdyn.games.tree import Game, GameError


def check_seats(seats: Sequence[int], n_players: int, what: str = "colluders",
                base: int = 1) -> tuple[int, ...]:
    """Distinct seats numbered from ``base`` (1 in games and the CLI, 0 in the builder's
    array API), at least two and fewer than all players, sorted; GameError else.  The one
    validator of colluder seats."""
    kind = f"{base}-based integers"
    try:
        out = tuple(int(s) for s in seats)
    except (TypeError, ValueError):
        raise GameError(f"{what}={seats!r} is not a list of seats ({kind})") from None
    if any(isinstance(s, bool) or int(s) != s for s in seats):
        raise GameError(f"{what}={seats!r} is not a list of seats ({kind})")
    for s in out:
        if not base <= s < n_players + base:
            raise GameError(f"colluder seat {s} is outside [{base}, {n_players - 1 + base}]")
    if len(set(out)) != len(out) or not 2 <= len(out) < n_players:
        raise GameError(f"{what}={out} must be 2 to {n_players - 1} distinct seats of the "
                        f"{n_players} players")
    return tuple(sorted(out))


def share_winnings(game: Game, seats: Sequence[int]) -> Game:
    """``game`` with the terminal payoff of each seat in ``seats`` (1-based) replaced by the
    colluders' average net payoff; the tree, information sets and chance are shared.

    Exact payoffs stay exact (sympy), float-array games stay float arrays.
    """
    idx = [s - 1 for s in check_seats(seats, game.n_players)]
    if isinstance(game.payoffs, np.ndarray):
        pay = np.array(game.payoffs, dtype=np.float64)
        pay[:, idx] = pay[:, idx].mean(axis=1, keepdims=True)
        pay.setflags(write=False)
    else:
        k = sp.Integer(len(idx))
        rows = []
        for row in game.payoffs:
            share = sp.Add(*(sp.sympify(row[i]) for i in idx)) / k
            rows.append(tuple(share if i in idx else u for i, u in enumerate(row)))
        pay = tuple(rows)
    tag = ",".join(str(s + 1) for s in idx)
    return dataclasses.replace(
        game, payoffs=pay, name=f"{game.name}[share:{tag}]",
        description=f"{game.description} (seats {tag} share their winnings)".strip())
