"""Every equilibrium Lemke's method reaches on the sequence-form LCP from a systematic set of
starts (:mod:`solvers.sequence.lcp`), each certified by an exact NashConv of 0.

Starts (the sequence-form analogue of Lemke-Howson's missing labels, one per pure strategy
of either player; Shapley 1974, von Stengel 2002 *Handbook of Game Theory* vol. 3, sec. 3.3):

- ``ones``: the covering vector of ones (Gambit's start; :func:`solve_lcp`'s start 0);
- ``P<p> <plan>``: for each reduced pure plan of player ``p`` (:mod:`games.normal_form`),
  the covering vector lowered to 1/100 on the sequences that plan plays, so that Lemke's
  path leaves from that plan's corner (van den Elzen & Talman's covering vector of a pure
  prior, up to scaling).

The paths are followed in floats (fast); each distinct end point is made exact by reading
its realization plans as the rationals they round (denominator <= 10^9) and certified by
:func:`~solvers.sequence.lcp.exact_nash_conv`; a point whose certificate is not 0 is
re-solved in exact arithmetic from the same start.  Equilibria are deduplicated on their
realization plans.
"""
from __future__ import annotations

import time
from fractions import Fraction

import numpy as np

from pokerdyn.games import CompiledGame, GameError
from pokerdyn.games.normal_form.plans import incidence, plan_count, reduced_plans, sequences

from pokerdyn.solvers.evaluation import expected_payoffs, nash_conv
from pokerdyn.solvers.sequence.form import sequence_form
from pokerdyn.solvers.sequence.lcp import (LCPEquilibrium, LCPResult, exact_nash_conv, lcp_system,
                                  rational)
from pokerdyn.solvers.sequence.lemke import lemke

MAX_STARTS = 5000          # pure plans of both players beyond which --all is refused
LOW = Fraction(1, 100)


def plan_starts(cg: CompiledGame) -> list[tuple[str, int, np.ndarray]]:
    """``(label, player, sequences)`` of every reduced pure plan of both players (GameError
    beyond MAX_STARTS plans)."""
    sq = sequences(cg.game)
    n_act = cg.n_actions.astype(np.int64)
    counts = [plan_count(sq, p, n_act) for p in range(2)]
    if sum(counts) > MAX_STARTS:
        raise GameError(f"{cg.name!r} has {counts[0]:,} + {counts[1]:,} reduced pure plans, "
                        f"more than the {MAX_STARTS:,} starts --all allows")
    out = []
    for p in range(2):
        P = reduced_plans(sq, p, n_act)
        inc = incidence(sq, p, P)
        for k in range(P.shape[0]):
            out.append((f"P{p + 1} plan {k}", p, np.flatnonzero(inc[k])))
    return out


def covering(sizes, player: int | None = None, seqs=()) -> list[Fraction]:
    """Ones, lowered to 1/100 on ``player``'s sequences ``seqs`` (LCP row order x, y, u, v)."""
    d = [Fraction(1)] * sum(sizes)
    off = 0 if player == 0 else sizes[0]
    for s in seqs:
        d[off + int(s)] = LOW
    return d


def _exact_point(cg, x, y):
    """Plans read as rationals, with their exact NashConv and payoffs."""
    xe, ye = [rational(v) for v in x], [rational(v) for v in y]
    nc, pay = exact_nash_conv(cg, xe, ye)
    return xe, ye, nc, pay


def solve_lcp_all(cg: CompiledGame, max_pivots: int = 100_000) -> LCPResult:
    """The distinct equilibria reached from every start of the module docstring, in the
    order found (``start`` of each: the index into ``["ones"] + plan_starts(cg)``)."""
    t0 = time.perf_counter()
    if cg.n_players != 2:
        raise GameError(f"the LCP solver needs a 2-player game; {cg.name!r} has "
                        f"{cg.n_players} players (use fp, hedge or cfr+)")
    sf = sequence_form(cg)
    starts = [("ones", None, ())] + plan_starts(cg)
    M, q, sizes = lcp_system(cg, exact=False)
    exact_system: list = []
    n1, n2 = sizes[0], sizes[1]

    def exact_path(k: int) -> tuple[list, int]:
        """Start ``k``'s Lemke path in rationals (the exact LCP built once, when first needed)."""
        if not exact_system:
            exact_system.extend(lcp_system(cg, exact=True)[:2])
        d = covering(sizes, starts[k][1], starts[k][2])
        z, pivots = lemke(*exact_system, d, exact=True, max_pivots=max_pivots)
        return list(z), pivots

    # (start, float z, pivots, exact z or None), distinct in floats
    ends: list[tuple[int, np.ndarray, int, list | None]] = []
    for k, (_, player, seqs) in enumerate(starts):
        exact = None
        try:
            z, pivots = lemke(M, q, [float(v) for v in covering(sizes, player, seqs)],
                              max_pivots=max_pivots)
        except GameError:                # a float tie read as a ray: follow the exact path
            exact, pivots = exact_path(k)
            z = np.array([float(v) for v in exact])
        if not any(np.allclose(z[:n1 + n2], e[1][:n1 + n2], atol=1e-9) for e in ends):
            ends.append((k, z, pivots, exact))
    found: list[LCPEquilibrium] = []
    for k, z, pivots, exact in ends:
        if exact is None:
            xe, ye, nc, pay = _exact_point(cg, z[:n1], z[n1:n1 + n2])
        if exact is None and nc != 0:    # rounding or a float tie: follow the exact path
            exact, pivots = exact_path(k)
        if exact is not None:
            xe, ye = exact[:n1], exact[n1:n1 + n2]
            nc, pay = exact_nash_conv(cg, xe, ye)
        if any(e.exact_plans == (tuple(xe), tuple(ye)) for e in found):
            continue
        plans = (np.array(xe, dtype=np.float64), np.array(ye, dtype=np.float64))
        sigma = sf.behaviour(cg, plans)
        found.append(LCPEquilibrium(plans=plans, strategies=sigma,
                                    payoffs=expected_payoffs(cg, sigma),
                                    nash_conv=nash_conv(cg, sigma), start=k, pivots=pivots,
                                    exact_plans=(tuple(xe), tuple(ye)), exact_payoffs=pay,
                                    exact_nash_conv=nc))
    return LCPResult(tuple(found), len(starts), time.perf_counter() - t0, True)


def start_labels(cg: CompiledGame) -> list[str]:
    """Labels of the starts of :func:`solve_lcp_all`, in order."""
    return ["ones"] + [s[0] for s in plan_starts(cg)]


__all__ = ["covering", "plan_starts", "solve_lcp_all", "start_labels"]
