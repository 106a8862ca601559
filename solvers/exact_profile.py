"""Exact (``fractions.Fraction``) expected payoffs and best-response values of a behaviour
profile with rational probabilities, for small games: a profile whose best-response values
equal its payoffs exactly is an exact equilibrium, and its payoff is then the exact value.

Chance probabilities and payoffs of builder games are floats of exact rationals (card-removal
weights, chip counts); :func:`rational` recovers them and refuses a float that is not one.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Sequence

import numpy as np

from games import Game, GameError
from games.exact_values import exact_number
from games.tree import CHANCE

from solvers._kernels import infoset_tree


def rational(x: float, limit: int = 10**7) -> Fraction:
    """``x`` as a Fraction with denominator up to ``limit`` (the rational whose nearest float
    ``x`` is, games.exact_values.exact_number); GameError if there is none."""
    r = exact_number(float(x))
    if r.q > limit:
        raise GameError(f"{x!r} is not a rational with a denominator up to {limit}")
    return Fraction(int(r.p), int(r.q))


def exact_values(game: Game, sigma: dict[str, tuple], payoffs: Sequence[Sequence[Fraction]]
                 | None = None) -> tuple[list, list]:
    """Exact ``(payoffs, best_response_values)`` of every player under ``sigma`` (information
    set label -> action probabilities as Fractions, in the set's action order).
    ``payoffs``: exact terminal payoffs (rows in ``game.payoffs`` order), for games whose own
    are symbolic (a pot ``P``); default: the game's numeric payoffs as rationals.

    One forward pass per player over the nodes (parents first) sums chance-and-others reach
    times payoff per own sequence; backing those sums up the player's information sets gives
    the expected value (weighting by ``sigma``) and the best-response value (maximising):
    the sequence-form passes of :mod:`solvers._kernels`, in Fractions."""
    kind, parent, edge, player, infoset = (a.tolist() for a in (
        game.kind, game.parent, game.edge, game.player, game.infoset))
    n, n_inf = game.n_nodes, len(game.infosets)
    n_actions = [len(s.actions) for s in game.infosets]
    amax = max(n_actions, default=1)
    probs = [tuple(Fraction(p) for p in sigma[s.label]) for s in game.infosets]
    term = [-1] * n
    for k, t in enumerate(np.asarray(game.terminal_node).tolist()):
        term[t] = k
    chance = {i: rational(game.edge_prob[i]) for i in range(1, n) if kind[parent[i]] == CHANCE}
    pays: dict[tuple[int, int], Fraction] = {}

    def payoff(t: int, p: int) -> Fraction:
        if payoffs is not None:
            return payoffs[t][p]
        if (t, p) not in pays:
            pays[t, p] = rational(game.payoffs[t][p])
        return pays[t, p]

    values, best = [], []
    for who in range(game.n_players):
        iparent, topo = infoset_tree(game.kind, game.player, game.parent, game.edge,
                                     game.infoset, n_inf, amax, who)
        reach = [Fraction(0)] * n
        seq = [-1] * n
        reach[0] = Fraction(1)
        direct: dict[int, Fraction] = {}
        for i in range(n):
            if i > 0:
                q = parent[i]
                if kind[q] == CHANCE:
                    reach[i], seq[i] = reach[q] * chance[i], seq[q]
                elif player[q] == who:
                    reach[i], seq[i] = reach[q], infoset[q] * amax + edge[i]
                else:
                    reach[i], seq[i] = reach[q] * probs[infoset[q]][edge[i]], seq[q]
            if term[i] >= 0 and reach[i]:
                direct[seq[i]] = direct.get(seq[i], Fraction(0)) + reach[i] * payoff(term[i],
                                                                                     who)
        topo, ip = topo.tolist(), iparent.tolist()
        values.append(_back_up(topo, ip, direct, probs, n_actions, amax, best=False))
        best.append(_back_up(topo, ip, direct, probs, n_actions, amax, best=True))
    return values, best


def _back_up(topo, iparent, direct, sig, n_actions, amax, best) -> Fraction:
    """The player's value: own-sequence sums backed up her sets, children first, each set's
    value the ``sig``-weighted (``best``: the largest) of its actions' values."""
    cfv = {(I, a): direct.get(I * amax + a, Fraction(0)) for I in topo
           for a in range(n_actions[I])}
    root = direct.get(-1, Fraction(0))
    for J in reversed(topo):
        vals = [cfv[J, a] for a in range(n_actions[J])]
        val = max(vals) if best else sum((s * v for s, v in zip(sig[J], vals)), Fraction(0))
        s = iparent[J]
        if s >= 0:
            cfv[s // amax, s % amax] += val
        else:
            root += val
    return root


__all__ = ["exact_values", "rational"]
