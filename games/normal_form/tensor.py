"""The reduced normal form of a compiled game: every player's reduced plans and the payoff
tensor over plan profiles (float; also exact, as sympy Rationals, on request).

The tensor is the sequence-form payoff tensor contracted with each player's plan-sequence
incidence: a terminal counts for a plan profile when every player's plan plays that player's
actions on its path, so ``U[pi] = sum_z chance(z) u(z) prod_p [pi_p plays seq_p(z)]``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping, Sequence

import numpy as np
import sympy as sp
from numpy.typing import ArrayLike, NDArray

from pokerdyn.games.compiled import CompiledGame
from pokerdyn.games.exact_values import exact_value, exact_values
from pokerdyn.games.normal_form.plans import (Sequences, incidence, plan_count, reduced_plans,
                                     sequences)
from pokerdyn.games.tree import CHANCE, Game, GameError

# Plan profiles (cells of the tensor, each holding one payoff per player): 2 * 10^6 float
# cells are 16 MB per player; exact cells hold a sympy Rational each (about 100 bytes and
# 10 us to make), so they stop earlier.
MAX_PROFILES = 2_000_000
MAX_EXACT_PROFILES = 200_000
# Games larger than this are refused before the (Python) pass over the nodes: their plans
# number far beyond the limits above anyway.
MAX_NODES = 1_000_000


@dataclass(frozen=True, eq=False)
class NormalForm:
    """Reduced normal form of ``game``.

    ``plans[p]``: ``(n_plans_p, n_infosets)`` action index per information set (-1 where
    the set is another player's or unreachable under the plan); ``payoffs``: float64
    ``(n_plans_0, ..., n_plans_{n-1}, n_players)``; ``exact_payoffs``: the same as sympy
    Rationals (object array) or None; ``incidence[p]``: ``(n_plans_p, n_sequences_p)`` 0/1.
    """

    game: Game
    sequences: Sequences
    plans: tuple[NDArray[np.int16], ...]
    incidence: tuple[NDArray[np.int8], ...]
    payoffs: NDArray[np.float64]
    exact_payoffs: NDArray[np.object_] | None

    @property
    def n_players(self) -> int:
        return self.game.n_players

    @property
    def shape(self) -> tuple[int, ...]:
        """Number of reduced plans of each player."""
        return tuple(int(P.shape[0]) for P in self.plans)

    def plan_label(self, player: int, k: int) -> str:
        """``"J|:b Q|:k Q|kb:c ..."``: each reached set (label without the player prefix)
        and the plan's action there, in information-set order."""
        row = self.plans[player][k]
        sets = self.game.infosets
        parts = []
        for I in np.nonzero(row >= 0)[0]:
            lab = sets[I].label
            head = f"P{player + 1}:"
            parts.append(f"{lab[len(head):] if lab.startswith(head) else lab}:"
                         f"{sets[I].actions[row[I]]}")
        return " ".join(parts) or "-"

    def plan_labels(self, player: int) -> list[str]:
        return [self.plan_label(player, k) for k in range(self.shape[player])]

    def expected_payoffs(self, mixed: Sequence[ArrayLike], exact: bool = False) -> NDArray:
        """Each player's expected payoff when player ``p`` draws a plan from ``mixed[p]``
        (exact, from ``exact_payoffs``, when ``exact``: give Fractions or sympy numbers)."""
        if len(mixed) != self.n_players:
            raise GameError(f"{len(mixed)} mixed strategies given; the game has "
                            f"{self.n_players} players")
        if exact and self.exact_payoffs is None:
            raise GameError("this normal form holds no exact payoffs (normal_form(..., "
                            "exact=True))")
        T = self.exact_payoffs if exact else self.payoffs
        for p, m in enumerate(mixed):
            m = np.asarray(m, dtype=object if exact else np.float64)
            if m.shape != (self.shape[p],):
                raise GameError(f"mixed strategy of player {p + 1} has shape {m.shape}; it "
                                f"needs ({self.shape[p]},), one probability per plan")
            T = np.tensordot(m, T, axes=([0], [0]))
        return T


def normal_form(cg: CompiledGame, exact: bool = False, max_profiles: int | None = None,
                exact_params: Mapping[str, Any] | None = None) -> NormalForm:
    """The reduced normal form of ``cg`` (payoffs at its parameter values).

    ``exact``: also the exact tensor, from the game's exact chance probabilities and payoffs
    at the exact parameter values ``exact_params`` (default: the float values of ``cg`` read
    back as the rationals they round, games.exact_values).  GameError when the game has more plan profiles than
    ``max_profiles`` (default MAX_PROFILES, or MAX_EXACT_PROFILES when ``exact``).
    """
    game = cg.game
    limit = max_profiles or (MAX_EXACT_PROFILES if exact else MAX_PROFILES)
    if game.n_nodes > MAX_NODES:
        raise GameError(f"game {game.name!r} has {game.n_nodes:,} nodes, more than the "
                        f"{MAX_NODES:,} of a normal form")
    sq = sequences(game)
    n_act = cg.n_actions.astype(np.int64)
    counts = [plan_count(sq, p, n_act) for p in range(game.n_players)]
    total = math.prod(counts)
    if total > limit:
        from pokerdyn.games.size import format_count  # counts past the float range too (2^1100)

        shown = " x ".join(format_count(c) for c in counts)
        raise GameError(f"game {game.name!r} has {shown} = {format_count(total)} reduced plan "
                        f"profiles, more than the {limit:,} allowed for its "
                        f"{'exact ' if exact else ''}normal form")
    plans = tuple(reduced_plans(sq, p, n_act) for p in range(game.n_players))
    inc = tuple(incidence(sq, p, P) for p, P in enumerate(plans))
    term = np.asarray(game.terminal_node)
    seqs = sq.node_seq[term]
    chance = _chance_reach(game, cg.chance_prob)[term]
    W = np.zeros(sq.n_sequences + (game.n_players,))
    np.add.at(W, tuple(seqs.T), chance[:, None] * cg.payoffs)
    payoffs = _contract(W, inc, np.float64)
    exact_t = None
    if exact:
        subs = exact_values(game, {**cg.values, **(exact_params or {})})
        reach = _exact_chance_reach(game, subs)
        We = np.full(W.shape, Fraction(0), dtype=object)
        for t, node in enumerate(term):
            key = tuple(int(s) for s in seqs[t])
            u = [Fraction(str(exact_value(game, x, subs))) for x in game.payoffs[t]]
            for p in range(game.n_players):
                We[key + (p,)] += reach[int(node)] * u[p]
        exact_t = _exact_contract(We, inc)
    return NormalForm(game, sq, plans, inc, payoffs, exact_t)


def _contract(W: NDArray, inc: tuple[NDArray[np.int8], ...], dtype) -> NDArray:
    T = W
    for p, R in enumerate(inc):
        T = np.moveaxis(np.tensordot(R.astype(dtype), T, axes=([1], [p])), 0, p)
    return T


def _exact_contract(We: NDArray, inc: tuple[NDArray[np.int8], ...]) -> NDArray:
    """The contraction in integers over the common denominator (int64 when no sum can
    overflow, else Python ints), then sympy Rationals."""
    D = math.lcm(*(f.denominator for f in We.flat))
    ints = np.array([f.numerator * (D // f.denominator) for f in We.flat],
                    dtype=object).reshape(We.shape)
    small = sum(abs(v) for v in ints.flat) < 2**62
    T = _contract(ints.astype(np.int64) if small else ints, inc, np.int64 if small else object)
    out = np.empty(T.shape, dtype=object)
    out.flat = [sp.Rational(int(v), D) for v in T.flat]
    return out.reshape(T.shape)


def _chance_reach(game: Game, prob: NDArray[np.float64]) -> NDArray[np.float64]:
    reach = np.ones(game.n_nodes)
    kind, parent = game.kind, game.parent
    for i in range(1, game.n_nodes):
        j = int(parent[i])
        reach[i] = reach[j] * (prob[i] if kind[j] == CHANCE else 1.0)
    return reach


def _exact_chance_reach(game: Game, subs) -> list[Fraction]:
    reach = [Fraction(1)] * game.n_nodes
    kind, parent = game.kind, game.parent
    for i in range(1, game.n_nodes):
        j = int(parent[i])
        if kind[j] == CHANCE:
            reach[i] = reach[j] * Fraction(str(exact_value(game, game.edge_prob[i], subs)))
        else:
            reach[i] = reach[j]
    return reach


__all__ = ["MAX_EXACT_PROFILES", "MAX_PROFILES", "NormalForm", "normal_form"]
