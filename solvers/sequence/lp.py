"""Equilibrium of a two-player zero-sum game by the sequence-form linear program
(Koller, Megiddo & von Stengel 1996; see the LP survey, sec. on the sequence form), solved by
scipy's HiGHS.

Player 1's program: maximise ``e2^T q`` over plans ``x`` and free ``q`` subject to
``E1 x = e1``, ``x >= 0`` and ``F^T q <= A^T x`` (``A`` player 1's sequence-form payoff, ``F``
player 2's constraints): the dual of player 2's best response to ``x``, so the optimum is the
game value.  Player 2's program is the same with the roles swapped and payoff ``-A^T``.

*Constant-sum games* (payoffs summing to the same ``c`` at every terminal, as Gambit's LP
takes them): player 2's payoff is ``c`` minus player 1's, so the program above, which reads
only player 1's payoffs, finds the equilibria; the value is reported in player 1's own units
and player 2's payoff is ``c`` minus it.

*Exact certificate.*  HiGHS solves in floats (on payoffs scaled by a power of two when they
are very large or small).  For games of at most MAX_EXACT_NODES nodes (or ``exact=True``) the
answer is then certified in rationals on the game's exact payoffs
(:func:`~solvers.sequence.form.exact_sequence_form`): the float behaviour profile is rounded
to nearby rationals and kept when its exact NashConv is 0 (the exact value is then its
payoff); failing that, each player's float optimum is re-solved in rationals as the vertex it
is (the float support and the float-tight constraints, as equalities on the exact payoffs:
the basis of the float solve, made exact); failing that, the exact sequence-form LCP
(:mod:`solvers.sequence.lcp`, Lemke's method in rationals) is solved, whose every solution is
an equilibrium, so a pair of optimal strategies in a constant-sum game.  Only certified
values are reported as exact.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import scipy.sparse as sps
from numpy.typing import NDArray

from pokerdyn.games import CompiledGame, GameError

from pokerdyn.solvers.evaluation import expected_payoffs, nash_conv
from pokerdyn.solvers.iterative import SolverResult
from pokerdyn.solvers.sequence.form import SequenceForm, sequence_form

MAX_EXACT_NODES = 20_000  # games certified in rationals by default (exact=None)
MAX_VERTEX_UNKNOWNS = 1000  # by default, the exact re-solve of a vertex only up to this size


@dataclass(frozen=True)
class LPResult:
    """``value``: player 1's expected payoff at equilibrium; ``strategies``: the behaviour
    profile of both players' optimal plans; ``plans``: the realization plans; ``seconds``:
    wall-clock time of building and solving both programs (and of the certificate).

    When certified (module docstring): ``exact_value`` (player 1's, a Fraction),
    ``exact_payoffs`` (both players'), ``exact_plans`` (the realization plans in rationals,
    of which ``strategies`` and ``plans`` are then the floats) and ``certificate`` ("rounded":
    the LP's own answer rounded; "lcp": the exact LCP's); all None otherwise."""

    value: float
    strategies: NDArray[np.float64]
    plans: tuple[NDArray[np.float64], NDArray[np.float64]]
    seconds: float
    exact_value: Fraction | None = None
    exact_payoffs: tuple[Fraction, Fraction] | None = None
    exact_plans: tuple[tuple[Fraction, ...], tuple[Fraction, ...]] | None = None
    certificate: str | None = None


def check_two_player_constant_sum(cg: CompiledGame, atol: float = 1e-9) -> float:
    """The payoff sum ``c`` of a 2-player constant-sum game (0: zero-sum); GameError unless
    ``cg`` has 2 players and payoffs summing to the same ``c`` at every terminal (within
    ``atol`` times the payoff scale)."""
    if cg.n_players != 2:
        raise GameError(f"the LP solver needs a 2-player zero-sum game; {cg.name!r} has "
                        f"{cg.n_players} players (use fp, hedge or cfr+)")
    sums = cg.payoffs.sum(axis=1)
    if not sums.size:
        return 0.0
    scale = 1.0 + np.abs(cg.payoffs).max(initial=0.0)
    bad = np.nonzero(np.abs(sums - sums[0]) > atol * scale)[0]
    if bad.size:
        t = int(bad[0])

        def where(k: int) -> str:
            node = int(np.nonzero(cg.terminal_index == k)[0][0])
            return "/".join(cg.game.history(node)) or "the root"

        raise GameError(f"the LP solver needs a constant-sum or zero-sum game; payoffs at "
                        f"terminal {where(0)} sum to {sums[0]:g} but at {where(t)} to "
                        f"{sums[t]:g} (a general-sum 2-player game: use --method lcp)")
    return float(sums[0])


# the older name, kept for its callers: constant-sum games are accepted too
check_two_player_zero_sum = check_two_player_constant_sum


def _max_min(A: sps.csr_matrix, E, e, F, f
             ) -> tuple[float, NDArray[np.float64], NDArray[np.float64]]:
    """max over plans x (E x = e, x >= 0) of min over plans y (F y = f) of x^T A y: the value,
    the optimal plan ``x`` and the duals ``q`` of the opponent's plan constraints."""
    from scipy.optimize import linprog  # heavy import, only when an LP is solved
    nx, mq = A.shape[0], F.shape[0]
    c = np.concatenate([np.zeros(nx), -f])
    A_ub = sps.hstack([-A.T, F.T], format="csr")
    A_eq = sps.hstack([E, sps.csr_matrix((E.shape[0], mq))], format="csr")
    bounds = [(0, None)] * nx + [(None, None)] * mq
    res = linprog(c, A_ub=A_ub, b_ub=np.zeros(A.shape[1]), A_eq=A_eq, b_eq=e, bounds=bounds,
                  method="highs")
    if res.status != 0:
        raise GameError(f"the sequence-form LP failed: {res.message}")
    return -float(res.fun), np.asarray(res.x[:nx]), np.asarray(res.x[nx:])


def _power_of_two_scale(A: sps.csr_matrix, low: float = 2.0 ** -16,
                        high: float = 2.0 ** 16) -> float:
    """1, or the power of two bringing the largest ``|A|`` into [1/2, 1) when it lies outside
    [low, high]: HiGHS's tolerances are absolute (1e-7) and it refuses entries beyond 1e15
    as a model error, so payoffs of 1e100 or 1e-100 (games.compiled allows up to
    MAX_ABS_PAYOFF) are solved on the scaled matrix; a power of two scales exactly."""
    top = float(np.abs(A.data).max(initial=0.0))
    if top == 0.0 or low <= top <= high:
        return 1.0
    return float(2.0 ** (math.frexp(top)[1]))


def solve_lp(cg: CompiledGame, exact: bool | None = None) -> LPResult:
    """Game value and equilibrium behaviour strategies of a 2-player constant-sum game.

    Parameters
    ----------
    exact : try to certify the answer in rationals (module docstring) whatever the game's
        size; None: when the game has at most MAX_EXACT_NODES nodes; False: floats only.
        The exact LCP is tried only up to :data:`solvers.sequence.lcp.MAX_EXACT_SIZE` rows;
        an answer not certified has ``exact_value`` None.
    """
    start = time.perf_counter()
    check_two_player_constant_sum(cg)
    sf: SequenceForm = sequence_form(cg)
    A = sf.A[0]
    scale = _power_of_two_scale(A)
    if scale != 1.0:
        A = A * (1.0 / scale)
    v1, x, qx = _max_min(A, sf.E[0], sf.e[0], sf.E[1], sf.e[1])
    v1 *= scale
    _, y, qy = _max_min((-A.T).tocsr(), sf.E[1], sf.e[1], sf.E[0], sf.e[0])
    sigma = sf.behaviour(cg, (x, y))
    if exact is False or (exact is None and cg.n_nodes > MAX_EXACT_NODES):
        return LPResult(value=v1, strategies=sigma, plans=(x, y),
                        seconds=time.perf_counter() - start)
    cert = _certify(cg, sf, sigma, ((x, qx), (y, qy)), A,
                    None if exact else MAX_VERTEX_UNKNOWNS)
    if cert is None:
        return LPResult(value=v1, strategies=sigma, plans=(x, y),
                        seconds=time.perf_counter() - start)
    plans, pay, how = cert
    fplans = tuple(np.array(p, dtype=np.float64) for p in plans)
    return LPResult(value=float(pay[0]), strategies=sf.behaviour(cg, fplans), plans=fplans,
                    seconds=time.perf_counter() - start, exact_value=pay[0], exact_payoffs=pay,
                    exact_plans=plans, certificate=how)


ROUNDINGS = (None, 10**3, 10**6)  # denominators tried (None: the rational each float rounds)


def _certify(cg: CompiledGame, sf: SequenceForm, sigma: NDArray[np.float64], points,
             A: sps.csr_matrix, max_unknowns: int | None):
    """``(exact plans, exact payoffs, how)`` of an equilibrium certified by an exact NashConv
    of 0 (module docstring), or None when neither the LP's answer rounded nor its vertex
    re-solved in rationals is one and the exact LCP is too large.  ``points``: each player's
    float optimum ``(plan, duals)`` of the program on the (scaled) float payoffs ``A``;
    ``max_unknowns``: the largest vertex system re-solved
    (None: any)."""
    from pokerdyn.solvers.sequence.lcp import MAX_EXACT_SIZE, exact_nash_conv, rational, solve_lcp
    for limit in ROUNDINGS:
        plans = tuple(_rounded_plan(cg, sf, sigma, p, rational if limit is None else
                                    (lambda v, k=limit: Fraction(float(v)).limit_denominator(k)))
                      for p in range(2))
        if any(p is None for p in plans):
            continue
        nc, pay = exact_nash_conv(cg, *plans)
        if nc == 0:
            return plans, pay, "rounded"
    plans = tuple(_exact_vertex(cg, sf, A, p, *points[p], max_unknowns) for p in range(2))
    if all(p is not None for p in plans):
        nc, pay = exact_nash_conv(cg, *plans)
        if nc == 0:
            return plans, pay, "vertex"
    size = sum(sf.n_sequences) + cg.n_infosets + 2
    if size > MAX_EXACT_SIZE:
        return None
    eq = solve_lcp(cg, exact=True).equilibria[0]
    if eq.exact_nash_conv != 0:  # pragma: no cover - every LCP solution is an equilibrium
        raise AssertionError(f"the exact LCP of {cg.name!r} ended at NashConv "
                             f"{eq.exact_nash_conv}")
    return eq.exact_plans, eq.exact_payoffs, "lcp"


SUPPORT_TOL, TIGHT_TOL = 1e-9, 1e-7


def _exact_vertex(cg: CompiledGame, sf: SequenceForm, A: sps.csr_matrix, player: int,
                  x: NDArray[np.float64], q: NDArray[np.float64],
                  max_unknowns: int | None = None) -> tuple[Fraction, ...] | None:
    """``player``'s optimal plan re-solved in rationals from the float optimum ``(x, q)`` of
    its program (:func:`_max_min` on ``A`` for player 1, ``-A^T`` for player 2): the vertex
    where the plan is 0 off the float support, ``E x = e``, and the opponent's constraints
    that are tight in floats hold with equality, on the exact payoffs.  None when that
    system has no unique solution, the solution is not a plan (x >= 0), or the system has
    more than ``max_unknowns`` unknowns."""
    from sympy import QQ
    from sympy.polys.matrices import DomainMatrix

    from pokerdyn.solvers.sequence.form import exact_sequence_form
    E, F = sf.E[player], sf.E[1 - player]
    P = A if player == 0 else (-A.T).tocsr()
    slack = P.T @ x - F.T @ q
    support = np.nonzero(x > SUPPORT_TOL)[0]
    tight = np.nonzero(np.abs(slack) <= TIGHT_TOL * (1.0 + np.abs(P.data).max(initial=0)))[0]
    n_s, m = len(support), F.shape[0]
    if max_unknowns is not None and n_s + m > max_unknowns:
        return None
    col = {int(s): k for k, s in enumerate(support)}
    # exact payoff of (my sequence, opponent's sequence) pairs
    ex = exact_sequence_form(cg)
    Pe: dict[int, dict[int, Fraction]] = {}
    for (i, j), v in ex.A[0].items():
        mine, theirs = (i, j) if player == 0 else (j, i)
        if mine in col:
            Pe.setdefault(theirs, {})[col[mine]] = v if player == 0 else -v
    rows: dict[int, dict] = {}
    E, F = E.tocsr(), F.tocsc()
    for r in range(E.shape[0]):             # E x = e on the support
        lo, hi = E.indptr[r], E.indptr[r + 1]
        row = {col[int(c)]: QQ(int(v)) for c, v in zip(E.indices[lo:hi], E.data[lo:hi])
               if int(c) in col}
        row[n_s + m] = QQ(int(sf.e[player][r]))
        row = {k: v for k, v in row.items() if v}
        if row:
            rows[len(rows)] = row
    for j in tight:                         # (P^T x)_j - (F^T q)_j = 0
        row = {k: QQ(v.numerator, v.denominator) for k, v in Pe.get(int(j), {}).items()}
        lo, hi = F.indptr[j], F.indptr[j + 1]
        for k, v in zip(F.indices[lo:hi], F.data[lo:hi]):
            row[n_s + int(k)] = row.get(n_s + int(k), QQ(0)) - QQ(int(v))
        row = {k: v for k, v in row.items() if v}
        if row:
            rows[len(rows)] = row
    R, pivots = DomainMatrix(rows, (len(rows), n_s + m + 1), QQ).rref()
    if len(pivots) != n_s + m or (pivots and pivots[-1] == n_s + m):
        return None                         # not a unique solution, or inconsistent
    sol = R.to_sdm()
    out = [Fraction(0)] * sf.n_sequences[player]
    for r, c in enumerate(pivots[:n_s]):
        v = sol.get(r, {}).get(n_s + m, QQ(0))
        out[int(support[c])] = Fraction(int(v.numerator), int(v.denominator))
    return tuple(out) if min(out) >= 0 else None


def _rounded_plan(cg: CompiledGame, sf: SequenceForm, sigma: NDArray[np.float64], player: int,
                  rnd) -> tuple[Fraction, ...] | None:
    """``player``'s realization plan (Fractions) of the behaviour ``sigma`` with every
    probability but the last of each set rounded by ``rnd`` and the last the rest; None when
    the rest is negative."""
    x = [Fraction(0)] * sf.n_sequences[player]
    x[0] = Fraction(1)
    mine = np.nonzero(cg.infoset_player == player)[0]
    for I in mine[np.argsort(sf.parent_seq[mine], kind="stable")]:  # parents first
        n = int(cg.n_actions[I])
        row = [rnd(sigma[I, a]) for a in range(n - 1)]
        row.append(1 - sum(row, Fraction(0)))
        if min(row) < 0:
            return None
        for a in range(n):
            x[int(sf.seq[I, a])] = x[int(sf.parent_seq[I])] * row[a]
    return tuple(x)


def lp_solver_result(cg: CompiledGame, res: LPResult) -> SolverResult:
    """The LP solution in the iterative solvers' result type (one "iteration"; NashConv
    measured), so that the CLI and comparisons treat every method alike."""
    nc = nash_conv(cg, res.strategies)
    opts: dict = {"value": res.value}
    if res.exact_payoffs is not None:  # certified: NashConv exactly 0
        opts.update(exact_nash_conv="0", exact_payoffs=[str(v) for v in res.exact_payoffs],
                    certificate=res.certificate)
    return SolverResult(method="lp", strategy=res.strategies, iterations=1, seconds=res.seconds,
                        nash_conv=nc, expected_payoffs=expected_payoffs(cg, res.strategies),
                        history=np.array([[1.0, nc, res.seconds]]), converged=True,
                        options=opts)


__all__ = ["LPResult", "MAX_EXACT_NODES", "check_two_player_constant_sum",
           "check_two_player_zero_sum", "lp_solver_result", "solve_lp"]
