"""Exact NashConv of a continuation point: the frequencies and the pot rounded to rationals,
then every player's expected payoff and best-response value in ``fractions.Fraction``
arithmetic over the compiled tree (the sequence-form passes of :mod:`solvers._kernels`,
redone exactly).  The result is the exact NashConv *of the rounded point*: a bound on how
far that exact profile is from equilibrium, not a float estimate of it."""
from __future__ import annotations

from fractions import Fraction
from typing import Sequence

import sympy as sp

from games import GameError

from solvers._kernels import infoset_trees
from solvers.exact_profile import rational

from solvers.continuation.system import IndifferenceSystem

DENOMINATOR = 10**12  # rounding of the frequencies and the pot


def _exact(e, sub: dict) -> Fraction:
    if isinstance(e, sp.Basic):
        r = e.xreplace(sub)
        if not r.is_Rational:
            raise GameError(f"payoff {e} is not rational at {sub}")
        return Fraction(int(r.p), int(r.q))
    return rational(e)


def _exact_tables(system: IndifferenceSystem):
    """Exact chance probabilities and the payoffs at parameter 0 and their slope, from the
    game's own (sympy) payoffs: the compiled floats are not exact enough to recover them."""
    got = system.cg.cache.get("continuation_exact")
    if got is None:
        game, cg = system.game, system.cg
        chance = [rational(c) for c in cg.chance_prob]
        base = {s: sp.Rational(str(rational(cg.values[s.name]))) for s in game.params}
        psym = next(s for s in game.params if s.name == system.param)
        rows = []
        for at in (0, 1):
            sub = {**base, psym: sp.Integer(at)}
            rows.append([[_exact(u, sub) for u in row] for row in game.payoffs])
        pay0 = rows[0]
        dpay = [[b - a for a, b in zip(r0, r1)] for r0, r1 in zip(*rows)]
        got = (chance, pay0, dpay)
        cg.cache["continuation_exact"] = got
    return got


def round_point(x: Sequence[float], p: float, den: int = DENOMINATOR
                ) -> tuple[list[Fraction], Fraction]:
    """Frequencies clipped to [0, 1] and the pot, as Fractions of denominator ``den``."""
    fx = [Fraction(round(min(1.0, max(0.0, float(v))) * den), den) for v in x]
    return fx, Fraction(round(float(p) * den), den)


def exact_regrets(system: IndifferenceSystem, x: Sequence[Fraction], p: Fraction
                  ) -> list[Fraction]:
    """Each player's exact best-response gain at frequencies ``x`` and pot ``p``."""
    cg = system.cg
    chance, pay0, dpay = _exact_tables(system)
    n_inf, amax = cg.legal.shape
    sig = [[Fraction(1), Fraction(0)] if amax > 1 else [Fraction(1)] for _ in range(n_inf)]
    for I, v in zip(system.sets, x):
        sig[int(I)] = [1 - v, v]
    iparents, topos, ms = infoset_trees(cg)
    kind, player, parent, edge, infoset = (a.tolist() for a in
                                           (cg.kind, cg.player, cg.parent, cg.edge, cg.infoset))
    term = cg.terminal_index.tolist()
    out = []
    for who in range(cg.n_players):
        reach = [Fraction(0)] * cg.n_nodes
        seq = [-1] * cg.n_nodes
        reach[0] = Fraction(1)
        direct: dict[int, Fraction] = {}
        for i in range(cg.n_nodes):
            if i > 0:
                q = parent[i]
                if kind[q] == 1:  # chance
                    reach[i], seq[i] = reach[q] * chance[i], seq[q]
                elif player[q] == who:
                    reach[i], seq[i] = reach[q], infoset[q] * amax + edge[i]
                else:
                    reach[i], seq[i] = reach[q] * sig[infoset[q]][edge[i]], seq[q]
            t = term[i]
            if t >= 0 and reach[i]:
                u = pay0[t][who] + p * dpay[t][who]
                direct[seq[i]] = direct.get(seq[i], Fraction(0)) + reach[i] * u
        topo = topos[who, :ms[who]].tolist()
        ip = iparents[who].tolist()
        ev = _back_up(topo, ip, direct, sig, cg.n_actions.tolist(), amax, best=False)
        br = _back_up(topo, ip, direct, sig, cg.n_actions.tolist(), amax, best=True)
        out.append(br - ev)
    return out


def _back_up(topo, iparent, direct, sig, n_actions, amax, best):
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


def certify(system: IndifferenceSystem, x: Sequence[float], p: float,
            den: int = DENOMINATOR) -> dict:
    """Exact NashConv of the point rounded to denominator ``den``: ``{"pot", "nash_conv"
    (a float of the exact value), "nash_conv_exact" (its fraction as a string)}``."""
    fx, fp = round_point(x, p, den)
    nc = sum(exact_regrets(system, fx, fp), Fraction(0))
    return {"pot": float(fp), "nash_conv": float(nc), "nash_conv_exact": str(nc)}


__all__ = ["certify", "exact_regrets", "round_point"]
