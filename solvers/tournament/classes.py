"""3-seat jam/fold equilibria over the 169 classes (:mod:`games.tournament.ranged`), with the
3-way Monte Carlo refined until no push/call threshold can move by ``max_displacement`` big
blinds.

Loop (:func:`class_jamfold_equilibrium`):

1. CFR+ over ranges (:func:`solvers.ranges.range_cfr`) on the game whose 3-way showdowns use
   the Monte Carlo outcomes of the triples computed so far (a bounded stand-in elsewhere).
2. Ordered class triples that carry weight at the all-in node (deal probability times the
   two others' reach, times the player's payoff spread) get ``samples`` Monte Carlo deals
   (lazily: only these are sampled); per (player, class) only the lightest triples whose
   total weight moves no threshold by more than ``budget * max_displacement`` keep the
   stand-in (:func:`_needed`).
3. Certification, per (seat, decision, class): the gain ``g`` of push/call over fold
   (counterfactual, exact given the tables), its standard deviation ``sd`` from the 3-way
   Monte Carlo (per sorted triple the multinomial variance of the outcome frequencies,
   propagated linearly through all seat orders of the triple that the gain uses), the bound
   ``b`` of the stand-in on triples without Monte Carlo, and the stack derivative
   ``d = (g(s + h) - g(s)) / h`` with every stack raised by ``h`` (same strategies, same
   equities: the payoffs are piecewise linear in the stacks).  Threshold displacement
   ``(2 sd + b) / |d|``: how far the stack at which ``g`` changes sign can move.
4. Triples that dominate a failing displacement get more samples (variance falls as 1/n);
   CFR+ continues from its state on the re-built game; repeat until every displacement is
   below ``max_displacement`` in two rounds in a row (the second after a re-solve on the
   final tables), or ``max_rounds``.
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray
from tqdm.auto import tqdm

from pokerdyn.games.errors import GameError
from pokerdyn.games.preflop.classes import GRID
from pokerdyn.games.preflop.multiway import ThreeWayTable
from pokerdyn.games.tournament.ranged import ClassJamfold, class_jamfold, ordered_outcomes, uncovered
from pokerdyn.solvers.ranges import action_values, range_cfr, reaches


@dataclass(frozen=True)
class Certificate:
    """Per decision node of the game (keys), arrays (K,) over the actor's classes: ``gain``
    of push/call over fold, its Monte Carlo ``sd``, the stand-in bound ``bound``, the stack
    derivative ``slope`` and ``displacement = (2 sd + bound) / |slope|`` (big blinds; 0 where
    the node's gain is identically 0: never reached by the others)."""
    gain: dict
    sd: dict
    bound: dict
    slope: dict
    displacement: dict

    @property
    def max_displacement(self) -> float:
        return float(max(d.max() for d in self.displacement.values()))


def _weights(cj: ClassJamfold, reach3: NDArray[np.float64], p: int) -> NDArray[np.float64]:
    """Deal probability times the two other players' reach of the all-in node (K, K, K)."""
    w = cj.game.deal.copy()
    for q in range(3):
        if q != p:
            w *= reach3[q].reshape([-1 if a == q else 1 for a in range(3)])
    return w


def gain_sd(cj: ClassJamfold, tw: ThreeWayTable, reach3: NDArray[np.float64], p: int,
            oo=None, parts: bool = False):
    """Monte Carlo standard deviation (K,) of player ``p``'s counterfactual value at the
    all-in node per own class: per sorted triple, the multinomial variance of its outcome
    frequencies through the coefficients of all its seat orders with p's class fixed."""
    K = cj.game.n_classes
    oo = ordered_outcomes(tw) if oo is None else oo
    if oo.x.size == 0:
        return (np.zeros(K), (np.zeros(0, int), np.zeros(0, int), np.zeros(0))) if parts \
            else np.zeros(K)
    w = _weights(cj, reach3, p)[oo.x[:, 0], oo.x[:, 1], oo.x[:, 2]]
    a = w[:, None] * cj.outcome_values[oo.perm, p]              # (X, 13)
    group = oo.row * K + oo.x[:, p]
    ug, inv = np.unique(group, return_inverse=True)
    A = np.zeros((ug.size, a.shape[1]))
    np.add.at(A, inv.ravel(), a)
    rows = ug // K
    pr = tw.probabilities(rows)
    var = np.maximum(((pr * A * A).sum(axis=1) - (pr * A).sum(axis=1) ** 2)
                     / tw.samples[rows], 0.0)
    sd = np.sqrt(np.bincount(ug % K, var, minlength=K))
    return (sd, (rows, ug % K, var)) if parts else sd


def payoff_sd(eq: "ClassEquilibrium") -> NDArray[np.float64]:
    """Monte Carlo standard deviation (3,) of the equilibrium's expected payoffs (all three
    reaches in the weights; per sorted triple the multinomial variance)."""
    cj, tw = eq.game, eq.table
    oo = ordered_outcomes(tw)
    if oo.x.size == 0:
        return np.zeros(3)
    reach3 = reaches(cj.game, eq.strategy)[cj.showdown3]
    own = reach3[0][oo.x[:, 0]] * reach3[1][oo.x[:, 1]] * reach3[2][oo.x[:, 2]]
    w = cj.game.deal[oo.x[:, 0], oo.x[:, 1], oo.x[:, 2]] * own
    pr = tw.probabilities(np.arange(tw.keys.size))
    out = np.zeros(3)
    for p in range(3):
        A = np.zeros((tw.keys.size, pr.shape[1]))
        np.add.at(A, oo.row, w[:, None] * cj.outcome_values[oo.perm, p])
        var = ((pr * A * A).sum(axis=1) - (pr * A).sum(axis=1) ** 2) / tw.samples
        out[p] = np.sqrt(np.maximum(var, 0).sum())
    return out


def certify(cj: ClassJamfold, cj_h: ClassJamfold, h: float, tw: ThreeWayTable,
            sigma: dict) -> Certificate:
    """The certificate of the module docstring for ``sigma`` (decision node -> (K, 2))."""
    g = cj.game
    reach = reaches(g, sigma)
    reach3 = reach[cj.showdown3]
    oo = ordered_outcomes(tw)
    # the decision of each player above the all-in node (each seat acts once on a path)
    above = {}
    v = cj.showdown3
    while v > 0:
        par = int(g.parent[v])
        above[int(g.actor[par])] = par
        v = par
    out = {k: {} for k in ("gain", "sd", "bound", "slope", "displacement")}
    for p in range(3):
        q0, _ = action_values(g, sigma, p, reach=reach)
        q1, _ = action_values(cj_h.game, sigma, p, reach=reach)
        sd = gain_sd(cj, tw, reach3, p, oo)
        bound = uncovered(cj, reach3, p)
        for v, q in q0.items():
            gain = q[:, 1] - q[:, 0]
            slope = ((q1[v][:, 1] - q1[v][:, 0]) - gain) / h
            s = sd if above.get(p) == v else np.zeros_like(sd)
            b = bound if above.get(p) == v else np.zeros_like(bound)
            err = 2 * s + b
            disp = np.where(err > 0, err / np.maximum(np.abs(slope), 1e-300), 0.0)
            for k, val in (("gain", gain), ("sd", s), ("bound", b), ("slope", slope),
                           ("displacement", disp)):
                out[k][v] = val
    return Certificate(**out)


def _needed(cj: ClassJamfold, reach3: NDArray[np.float64], cert: Certificate,
            budget: float) -> NDArray[np.int64]:
    """Ordered triples (n, 3) to sample: for every player ``p`` and own class ``c``, all but
    the lightest uncovered triples (weight times p's payoff spread) whose total stays within
    ``budget * |slope|`` of p's decision above the all-in node (so the stand-in's bound
    moves no threshold by more than ``budget`` big blinds)."""
    g = cj.game
    K = g.n_classes
    need = np.zeros(g.deal.shape, dtype=bool)
    v = cj.showdown3
    above = {}
    while v > 0:
        v = int(g.parent[v])
        above[int(g.actor[v])] = v
    for p in range(3):
        w = _weights(cj, reach3, p) * float(np.ptp(cj.outcome_values[:, p])) * ~cj.computed
        w = np.moveaxis(w, p, 0).reshape(K, -1)
        order = np.argsort(w, axis=1, kind="stable")
        cum = np.cumsum(np.take_along_axis(w, order, axis=1), axis=1)
        allow = budget * np.abs(cert.slope[above[p]])
        keep = np.zeros_like(w, dtype=bool)
        np.put_along_axis(keep, order, cum > allow[:, None], axis=1)
        need |= np.moveaxis(keep.reshape(K, K, K), 0, p)
    return np.argwhere(need & ~cj.computed)


@dataclass(frozen=True)
class ClassEquilibrium:
    """Result of :func:`class_jamfold_equilibrium`: the average CFR+ strategy (decision node
    -> (K, 2)), ``ranges`` (``"P<seat> push|call [<history>]"`` -> 13x13 grid), exact NashConv
    of the class-level game (payoff units), expected payoffs, the final certificate, its
    largest threshold displacement (big blinds), the Monte Carlo deals drawn and triples
    sampled, the largest standard error of a 3-way outcome probability, rounds, seconds."""
    strategy: dict
    ranges: dict
    nash_conv: float
    expected_payoffs: NDArray[np.float64]
    certificate: Certificate
    max_displacement: float
    samples: int
    triples: int
    equity_se: float
    rounds: int
    iterations: int
    seconds: float
    history: NDArray[np.float64]
    table: ThreeWayTable
    game: ClassJamfold


def class_ranges(cj: ClassJamfold, sigma: dict) -> dict:
    """``"P<seat> push|call [<history>]"`` -> 13x13 grid of push/call probabilities."""
    g = cj.game
    out = {}
    for v in g.decisions:
        act = "call" if "c" in g.actions[v] else "push"
        out[f"P{g.actor[v] + 1} {act} [{g.labels[v]}]"] = \
            np.round(sigma[int(v)][GRID, 1], 6).tolist()
    return out


def class_jamfold_equilibrium(stacks: ArrayLike, blinds: Sequence[float] = (0.5, 1.0),
                              ante: float = 0.0, payouts: ArrayLike | None = None,
                              button: int = 0, seed: int = 0, samples: int = 2000,
                              max_displacement: float = 0.1, iterations: int = 300,
                              refine_iterations: int = 100, max_rounds: int = 8,
                              budget: float = 0.25, max_factor: int = 16,
                              progress: bool = False) -> ClassEquilibrium:
    """The loop of the module docstring (3 seats).  ``samples``: first Monte Carlo deals per
    needed triple (rounded up to batches of 1,000); ``budget``: the share of
    ``max_displacement`` left to the stand-in on unsampled triples (its bound is part of
    every displacement)."""
    for what, x in (("samples", samples), ("iterations", iterations),
                    ("max_rounds", max_rounds)):
        if not isinstance(x, (int, np.integer)) or x < 1:
            raise GameError(f"{what}={x!r} is outside the allowed range [1, inf)")
    if not max_displacement > 0:
        raise GameError(f"max_displacement={max_displacement!r} must be > 0")
    t0 = time.perf_counter()
    tw = ThreeWayTable(seed=seed, batch=min(1000, int(samples)))
    h = 0.1 * float(blinds[1])
    st = np.asarray(stacks, dtype=np.float64)

    def build():
        return (class_jamfold(st, blinds, ante, button, payouts, tw),
                class_jamfold(st + h, blinds, ante, button, payouts, tw))

    cj, cj_h = build()
    res = range_cfr(cj.game, iterations=iterations, progress=progress)
    rounds, passed = 0, False
    bar = tqdm(total=max_rounds, desc="3-way refinement", disable=not progress, leave=False)
    for rounds in range(1, max_rounds + 1):
        reach3 = reaches(cj.game, res.strategy)[cj.showdown3]
        new = _needed(cj, reach3, certify(cj, cj_h, h, tw, res.strategy),
                      budget * max_displacement)
        if new.size and tw.ensure(new, samples, progress=progress):
            cj, cj_h = build()
        cert = certify(cj, cj_h, h, tw, res.strategy)
        bar.update(1)
        bar.set_postfix(displacement=f"{cert.max_displacement:.3g}", triples=tw.keys.size)
        if passed and cert.max_displacement < max_displacement:
            break                     # certified twice in a row, the last after a re-solve
        passed = cert.max_displacement < max_displacement
        if not passed:
            _refine(cj, tw, res.strategy, cert, max_displacement, max_factor, progress)
            cj, cj_h = build()
        res = range_cfr(cj.game, iterations=refine_iterations, state=res.state,
                        progress=progress)
    bar.close()
    cert = certify(cj, cj_h, h, tw, res.strategy)
    se = tw.standard_errors(np.arange(tw.keys.size))
    return ClassEquilibrium(strategy=res.strategy, ranges=class_ranges(cj, res.strategy),
                            nash_conv=res.nash_conv, expected_payoffs=res.expected_payoffs,
                            certificate=cert, max_displacement=cert.max_displacement,
                            samples=int(tw.samples.sum()), triples=int(tw.keys.size),
                            equity_se=float(se.max()) if se.size else 0.0, rounds=rounds,
                            iterations=res.iterations, seconds=time.perf_counter() - t0,
                            history=res.history, table=tw, game=cj)


def _refine(cj, tw, sigma, cert, target, max_factor, progress) -> None:
    """More samples where a (player, class) fails: the sorted triples holding 95% of its
    Monte Carlo variance get their deals multiplied by the factor that brings ``2 sd`` under
    ``target * |slope| - bound`` (variance falls as 1/n), at most ``max_factor``."""
    g = cj.game
    reach3 = reaches(g, sigma)[cj.showdown3]
    oo = ordered_outcomes(tw)
    want = tw.samples.astype(np.float64).copy()
    for v, disp in cert.displacement.items():
        bad = np.flatnonzero((disp > target) & (cert.sd[v] > 0))
        if bad.size == 0:
            continue
        _, (rows, cls, var) = gain_sd(cj, tw, reach3, int(g.actor[v]), oo, parts=True)
        for c in bad:
            r, vr = rows[cls == c], var[cls == c]
            order = np.argsort(-vr)
            top = order[:np.searchsorted(np.cumsum(vr[order]), 0.95 * vr.sum()) + 1]
            room = (target * abs(cert.slope[v][c]) - cert.bound[v][c]) / 2
            rest = vr.sum() - vr[top].sum()
            f = vr[top].sum() / (room ** 2 - rest) if room > 0 and room ** 2 > rest else max_factor
            f = float(np.clip(np.ceil(1.2 * f), 2, max_factor))
            np.maximum.at(want, r[top], tw.samples[r[top]] * f)
    rows = np.flatnonzero(want > tw.samples)
    for n in np.unique(want[rows]):
        pick = rows[want[rows] == n]
        tw.ensure(tw.sorted_triples()[pick], int(n), progress=progress)


__all__ = ["Certificate", "ClassEquilibrium", "certify", "class_jamfold_equilibrium",
           "class_ranges", "gain_sd", "payoff_sd"]
