"""The two-player river game of Papadopoulos ("Fictitious play applied on a simplified poker
game", sec. 2 and 4).

Pot 1, to which each player has contributed 0.5.  Chance draws each player's hand type in
{A, B, C, D} (A strongest) independently from that player's own distribution (one chance
node with 16 outcomes labelled ``"AB"`` = player 1 holds A, player 2 holds B); equal types
split the pot.  Player 1 acts first: check or bet.  A bet is answered by fold, call or (while
fewer than ``max_bets`` bets have been made) raise.  In the full street player 2 may bet after
a check; in the half street ("half bet game", sec. 4.1) only player 1 ever bets, so player 2
calls or folds and a check ends the hand (``max_bets`` then has no effect).  Every bet and
raise is ``bet_size`` chips (limit betting).

Payoffs are net chips, counting the player's share of the pot as the paper does (sec. 2.1:
pot 10, bet 10, call, the caller wins: -15 / +15): a fold with no bet in costs 0.5, and the
game value (player 1's expected payoff) lies in [-0.5, 0.5] when players may always fold.

Actions: ``k`` check, ``b`` bet, ``f`` fold, ``c`` call, ``r`` raise.  Information sets are
labelled ``P1:A|``, ``P2:C|k``, ``P1:D|kb`` (player, own hand type, public history).
"""
from __future__ import annotations

import math
from typing import Sequence

import sympy as sp

from pokerdyn.games.tree import Game, GameBuilder, GameError, infoset_label

TYPES = "ABCD"
STREETS = ("full", "half")
R1 = (0.1, 0.2, 0.3, 0.4)
R2 = (0.25, 0.25, 0.25, 0.25)
R3 = (0.5, 0.0, 0.0, 0.5)
R4 = (0.05, 0.3, 0.45, 0.2)
DISTRIBUTIONS = {"R1": R1, "R2": R2, "R3": R3, "R4": R4}  # Papadopoulos sec. 4.2


def _exact(x: float) -> sp.Rational:
    """The decimal written for ``x`` as an exact rational (0.1 -> 1/10)."""
    return sp.Rational(repr(float(x)))


def check_distribution(dist: Sequence[float], what: str) -> tuple[sp.Rational, ...]:
    """Four non-negative probabilities summing to 1 within 1e-9, as exact rationals
    renormalised to sum exactly to 1; GameError naming the bad value otherwise."""
    try:
        vals = [float(x) for x in dist]
    except (TypeError, ValueError):
        raise GameError(f"{what}={dist!r} is not a list of 4 numbers") from None
    if len(vals) != len(TYPES):
        raise GameError(f"{what} has {len(vals)} probabilities; it needs 4 (types A, B, C, D)")
    for t, x in zip(TYPES, vals):
        if not math.isfinite(x) or not 0.0 <= x <= 1.0:
            raise GameError(f"{what}[{t}]={x} is outside the allowed range [0, 1]")
    total = math.fsum(vals)
    if abs(total - 1.0) > 1e-9:
        raise GameError(f"{what}={','.join(f'{x:g}' for x in vals)} sums to {total:.12g}; "
                        f"the allowed range of the sum is [1 - 1e-9, 1 + 1e-9]")
    exact = [_exact(x) for x in vals]
    s = sp.Add(*exact)
    return tuple(x / s for x in exact)


def river(dist1: Sequence[float] = R1, dist2: Sequence[float] = R1, street: str = "full",
          max_bets: int = 1, bet_size: float = 0.5) -> Game:
    """The river game with the given hand-type distributions, street, bet cap and bet size.

    Raises GameError for distributions that are negative or do not sum to 1 (within 1e-9),
    an unknown street, ``max_bets < 1`` or a bet size that is not a positive finite number.
    """
    p1 = check_distribution(dist1, "dist1")
    p2 = check_distribution(dist2, "dist2")
    if street not in STREETS:
        raise GameError(f"street={street!r} is not one of {', '.join(STREETS)}")
    if isinstance(max_bets, bool) or int(max_bets) != max_bets or max_bets < 1:
        raise GameError(f"max_bets={max_bets} is outside the allowed range [1, inf) (integers)")
    try:
        bet_f = float(bet_size)
    except (TypeError, ValueError):
        raise GameError(f"bet_size={bet_size!r} is not a number") from None
    if not (math.isfinite(bet_f) and bet_f > 0):
        raise GameError(f"bet_size={bet_size} is outside the allowed range (0, inf)")
    bet = _exact(bet_f)
    b = GameBuilder("river", 2)
    root = b.chance()
    for i, t1 in enumerate(TYPES):
        for j, t2 in enumerate(TYPES):
            _betting(b, root, t1 + t2, p1[i] * p2[j], bet, int(max_bets), street == "full")
    desc = (f"2-player river game (Papadopoulos): pot 1, {street} street, at most {max_bets} "
            f"bet(s) of {bet_f:g}; hand types A>B>C>D, P1 ~ {_fmt(p1)}, P2 ~ {_fmt(p2)}")
    return b.build(description=desc)


def _fmt(p) -> str:
    return "(" + ", ".join(f"{float(x):g}" for x in p) + ")"


def _showdown(types: str, c) -> tuple:
    """Net payoffs at a showdown with equal contributions ``c`` (equal types split)."""
    r1, r2 = TYPES.index(types[0]), TYPES.index(types[1])
    if r1 == r2:
        return (sp.Integer(0), sp.Integer(0))
    return (c, -c) if r1 < r2 else (-c, c)


def _betting(b: GameBuilder, root: int, deal: str, prob, bet, max_bets: int,
             full: bool) -> None:
    half = sp.Rational(1, 2)

    def rec(par, via, p_edge, public: str, to_act: int, bets: int, contrib: tuple):
        p = to_act
        facing = contrib[1 - p] > contrib[p]
        if facing:
            can_raise = bets < max_bets and (full or p == 0)
            acts = ("f", "c", "r") if can_raise else ("f", "c")
        else:
            acts = ("k", "b") if (full or p == 0) else ("k",)
        node = b.decision(p, infoset_label(p, deal[p], public), acts, parent=par, via=via,
                          prob=p_edge)
        for a in acts:
            hist = public + a
            if a == "f":
                pay = [contrib[p], contrib[p]]  # the other player wins the folder's chips
                pay[p] = -contrib[p]
                b.terminal(tuple(pay), parent=node, via=a)
            elif a == "c":
                b.terminal(_showdown(deal, contrib[1 - p]), parent=node, via=a)
            elif a == "k" and (p == 1 or not full):
                b.terminal(_showdown(deal, contrib[p]), parent=node, via=a)
            elif a == "k":
                rec(node, a, None, hist, 1, bets, contrib)
            else:  # bet or raise: match the opponent, then add one bet
                new = list(contrib)
                new[p] = contrib[1 - p] + bet
                rec(node, a, None, hist, 1 - p, bets + 1, tuple(new))

    rec(root, deal, prob, "", 0, 0, (half, half))


__all__ = ["DISTRIBUTIONS", "R1", "R2", "R3", "R4", "STREETS", "TYPES", "check_distribution",
           "river"]
