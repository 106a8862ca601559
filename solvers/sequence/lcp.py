"""Nash equilibria of a two-player game, zero-sum or general-sum, by the sequence-form linear
complementarity problem (Koller, Megiddo & von Stengel 1996, "Efficient computation of
equilibria for extensive two-person games", GEB 14, sec. 4) and Lemke's algorithm
(:mod:`solvers.sequence.lemke`).

With ``A``, ``B`` the sequence-form payoffs of players 1 and 2 (:mod:`solvers.sequence.form`)
shifted by ``c = max payoff + 1`` times the chance reach of each terminal pair (so every
entry that meets a terminal is negative, as Lemke's method needs; a constant added to a
player's payoffs changes no equilibrium), and ``E x = e``, ``F y = f`` the plan constraints,
the LCP in ``z = (x, y, u, v) >= 0`` is

    w_x = -A y - E^T u >= 0,    w_y = -B^T x - F^T v >= 0,
    w_u =  E x - e   >= 0,      w_v =  F y - f   >= 0,     w^T z = 0.

``-u``, ``-v`` are the duals of the players' best-response programs (their expected
payoffs at every information set); the inequalities ``E x >= e`` are tight at a solution
because more probability only costs a player with negative payoffs.  Every solution is a
Nash equilibrium (KMvS Theorem 4.1 with the relaxed constraints).

*Starts.*  Lemke's path depends on its covering vector ``d``: ``d = 1`` (start 0) is the
standard one and Gambit's; start ``k >= 1`` draws a pure behaviour profile from a seeded
generator and lowers ``d`` on the sequences it plays, so the path begins at that pure pair's
corner (the covering vector of van den Elzen & Talman's tracing procedure up to scaling).
Different starts may end at different equilibria; the distinct ones are returned.
:mod:`solvers.sequence.lcp_all` runs the systematic set instead: ones, then one start per
reduced pure plan of either player.

*Exact arithmetic.*  With ``exact=True`` the matrices are the game's exact sequence form
(:func:`~solvers.sequence.form.exact_sequence_form`: a .efg file's rationals and decimals as
stated, a builder's payoffs at the exact parameter values), the pivots are exact and
:func:`exact_nash_conv` certifies the solution with a NashConv that is exactly 0 on the same
exact payoffs, so the reported payoffs are the game's (-5 in Gambit's ``e18.efg``, not the
float product of a chance probability and a payoff).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any
from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

from pokerdyn.games import CompiledGame, GameError

from pokerdyn.solvers.evaluation import expected_payoffs, nash_conv
from pokerdyn.solvers.iterative import SolverResult
from pokerdyn.solvers.sequence.form import (SequenceForm, exact_chance_probs, exact_sequence_form,
                                   sequence_form)
from pokerdyn.solvers.sequence.lemke import lemke

MAX_EXACT_SIZE = 400       # LCP dimension above which exact pivoting is refused (too slow)


@dataclass(frozen=True)
class LCPEquilibrium:
    """One equilibrium: ``plans`` (realization plans, float), ``strategies`` (behaviour
    profile), ``payoffs`` (both players' expected payoffs), ``nash_conv`` (float, measured
    on the compiled game); with exact pivoting also ``exact_plans``, ``exact_payoffs`` and
    ``exact_nash_conv`` (Fractions; 0 certifies the equilibrium); ``start``: the first
    start that reached it; ``pivots``: Lemke pivots of that start."""

    plans: tuple[NDArray[np.float64], NDArray[np.float64]]
    strategies: NDArray[np.float64]
    payoffs: NDArray[np.float64]
    nash_conv: float
    start: int
    pivots: int
    exact_plans: tuple[tuple[Fraction, ...], tuple[Fraction, ...]] | None = None
    exact_payoffs: tuple[Fraction, Fraction] | None = None
    exact_nash_conv: Fraction | None = None


@dataclass(frozen=True)
class LCPResult:
    """Distinct equilibria in the order found, starts tried, and wall-clock seconds."""

    equilibria: tuple[LCPEquilibrium, ...]
    starts: int
    seconds: float
    exact: bool


def rational(x: float) -> Fraction:
    """``x`` as the rational of denominator <= 10^9 whose nearest float it is, else exactly."""
    f = Fraction(float(x)).limit_denominator(10**9)
    return f if float(f) == float(x) else Fraction(float(x))


def _shifted(sf: SequenceForm, cg: CompiledGame, exact: bool):
    """Both payoff matrices shifted by (max payoff + 1) x chance reach (dense; exact: the
    game's exact sequence form, :func:`~solvers.sequence.form.exact_sequence_form`)."""
    if not exact:
        shift = float(cg.payoffs.max(initial=0.0)) + 1.0
        reach = sf.reach.toarray()
        return [sf.A[p].toarray() - shift * reach for p in range(2)]
    ex = exact_sequence_form(cg)
    c = max((u for row in ex.payoffs for u in row), default=Fraction(0)) + 1
    reach = ex.dense("reach")
    return [ex.dense(p) - c * reach for p in range(2)]


def _rational_matrix(S) -> NDArray:
    """A sparse float matrix as a dense object array of :func:`rational` entries (the plan
    constraints, whose entries are 0 and +-1)."""
    S = S.tocoo()
    out = np.empty(S.shape, dtype=object)
    out[:, :] = Fraction(0)
    for i, j, v in zip(S.row, S.col, S.data):
        out[i, j] += rational(v)
    return out


def lcp_system(cg: CompiledGame, exact: bool = False):
    """``(M, q, sizes)`` of the LCP of the module docstring; ``sizes`` = (n1, n2, m1, m2)."""
    sf = sequence_form(cg)
    A, B = _shifted(sf, cg, exact)
    E, F = sf.E[0].toarray(), sf.E[1].toarray()
    n1, n2, m1, m2 = A.shape[0], A.shape[1], E.shape[0], F.shape[0]
    N = n1 + n2 + m1 + m2
    if exact:
        E, F = _rational_matrix(sf.E[0]), _rational_matrix(sf.E[1])
        M = np.empty((N, N), dtype=object)
        M[:, :] = Fraction(0)
    else:
        M = np.zeros((N, N))
    X, Y, U, V = (slice(0, n1), slice(n1, n1 + n2), slice(n1 + n2, n1 + n2 + m1),
                  slice(n1 + n2 + m1, N))
    M[X, Y] = -A
    M[X, U] = -E.T
    M[Y, X] = -B.T
    M[Y, V] = -F.T
    M[U, X] = E
    M[V, Y] = F
    q = [0] * (n1 + n2) + [-v for v in sf.e[0]] + [-v for v in sf.e[1]]
    q = [Fraction(int(v)) for v in q] if exact else np.asarray(q, dtype=np.float64)
    return M, q, (n1, n2, m1, m2)


def _covering(cg: CompiledGame, sf: SequenceForm, sizes, start: int, rng) -> list[Fraction]:
    """Covering vector of ``start`` (module docstring): 1 everywhere, 1/100 on the sequences of
    a random pure profile for ``start >= 1``."""
    n1, n2, m1, m2 = sizes
    d = [Fraction(1)] * (n1 + n2 + m1 + m2)
    if start == 0:
        return d
    for I in range(cg.n_infosets):
        p = int(cg.infoset_player[I])
        a = int(rng.integers(int(cg.n_actions[I])))
        d[int(sf.seq[I, a]) + (n1 if p == 1 else 0)] = Fraction(1, 100)
    return d


def best_response_value(sf: SequenceForm, cg: CompiledGame, player: int, c: list):
    """``max_x x^T c`` over ``player``'s realization plans (``c``: payoff per own sequence,
    floats or Fractions), by backward induction over the sequence tree."""
    kids: dict[int, list[int]] = {}
    for I in np.nonzero(cg.infoset_player == player)[0]:
        kids.setdefault(int(sf.parent_seq[I]), []).append(int(I))

    order, stack = [], [0]  # sequences, parents before children (no recursion: any depth)
    while stack:
        s = stack.pop()
        order.append(s)
        for I in kids.get(s, ()):
            stack.extend(int(sf.seq[I, a]) for a in range(int(cg.n_actions[I])))
    val: dict[int, Any] = {}
    for s in reversed(order):
        val[s] = c[s] + sum((max(val[int(sf.seq[I, a])] for a in range(int(cg.n_actions[I])))
                             for I in kids.get(s, ())), start=0 * c[s])
    return val[0]


def exact_nash_conv(cg: CompiledGame, x: list[Fraction], y: list[Fraction]
                    ) -> tuple[Fraction, tuple[Fraction, Fraction]]:
    """Exact NashConv of the realization plans ``(x, y)`` on the game's exact sequence form
    (:func:`~solvers.sequence.form.exact_sequence_form`) and both players' exact expected
    payoffs."""
    sf = sequence_form(cg)
    ex = exact_sequence_form(cg)
    x, y = [Fraction(v) for v in x], [Fraction(v) for v in y]
    Ay, Bx = ex.times(0, y), ex.times_left(1, x)
    pay = (sum((a * b for a, b in zip(x, Ay)), Fraction(0)),
           sum((a * b for a, b in zip(y, Bx)), Fraction(0)))
    br = (best_response_value(sf, cg, 0, Ay), best_response_value(sf, cg, 1, Bx))
    return Fraction(br[0] - pay[0] + br[1] - pay[1]), pay


def solve_lcp(cg: CompiledGame, exact: bool | None = None, starts: int = 1, seed: int = 0,
              max_pivots: int = 100_000) -> LCPResult:
    """Equilibria of a 2-player game (any payoffs) by the sequence-form LCP.

    Parameters
    ----------
    exact : pivot in rationals; None: exact when the LCP has at most MAX_EXACT_SIZE rows.
    starts : covering vectors tried (start 0: all ones; others from seeded pure profiles).
    seed : seed of the pure profiles of starts >= 1.
    """
    t0 = time.perf_counter()
    if cg.n_players != 2:
        raise GameError(f"the LCP solver needs a 2-player game; {cg.name!r} has "
                        f"{cg.n_players} players (use fp, hedge or cfr+)")
    if not isinstance(starts, (int, np.integer)) or starts < 1:
        raise GameError(f"starts={starts!r} is outside [1, inf)")
    sf = sequence_form(cg)
    M, q, sizes = lcp_system(cg, exact=bool(exact))
    N = sum(sizes)
    if exact is None and N <= MAX_EXACT_SIZE:
        exact = True
        M, q, sizes = lcp_system(cg, exact=True)
    n1, n2 = sizes[0], sizes[1]
    rng = np.random.default_rng(seed)
    found: list[LCPEquilibrium] = []
    for k in range(starts):
        d = _covering(cg, sf, sizes, k, rng)
        z, pivots = lemke(M, q, d if exact else [float(v) for v in d], exact=bool(exact),
                          max_pivots=max_pivots)
        x, y = list(z[:n1]), list(z[n1:n1 + n2])
        plans = (np.array(x, dtype=np.float64), np.array(y, dtype=np.float64))
        if any(np.allclose(plans[0], e.plans[0], atol=1e-9) and
               np.allclose(plans[1], e.plans[1], atol=1e-9) for e in found):
            continue
        sigma = sf.behaviour(cg, plans)
        ex = {}
        if exact:
            nc, pay = exact_nash_conv(cg, x, y)
            ex = dict(exact_plans=(tuple(x), tuple(y)), exact_payoffs=pay, exact_nash_conv=nc)
        found.append(LCPEquilibrium(plans=plans, strategies=sigma,
                                    payoffs=expected_payoffs(cg, sigma),
                                    nash_conv=nash_conv(cg, sigma), start=k, pivots=pivots, **ex))
    return LCPResult(tuple(found), starts, time.perf_counter() - t0, bool(exact))


def lcp_solver_result(cg: CompiledGame, res: LCPResult) -> SolverResult:
    """The first equilibrium in the iterative solvers' result type (for the CLI)."""
    eq = res.equilibria[0]
    opts = {"equilibria": len(res.equilibria), "starts": res.starts, "exact": res.exact,
            "pivots": eq.pivots}
    if eq.exact_nash_conv is not None:
        opts["exact_nash_conv"] = str(eq.exact_nash_conv)
        opts["exact_payoffs"] = [str(v) for v in eq.exact_payoffs]
    return SolverResult(method="lcp", strategy=eq.strategies, iterations=1, seconds=res.seconds,
                        nash_conv=eq.nash_conv, expected_payoffs=eq.payoffs,
                        history=np.array([[1.0, eq.nash_conv, res.seconds]]), converged=True,
                        options=opts)


__all__ = ["LCPEquilibrium", "LCPResult", "exact_chance_probs", "exact_nash_conv",
           "lcp_solver_result", "lcp_system", "rational", "solve_lcp"]
