"""The optimal face of a two-player zero-sum game: how far one behaviour probability can move
while a player's strategy stays optimal (maxmin).

A player's optimal realization plans form a polytope: the plans ``x`` that reach the game
value against every opponent plan.  Whether an equilibrium frequency is unique is the
question whether the behaviour probability ``x[s] / x[parent(s)]`` of its sequence ``s`` is
constant on that polytope.  The ratio is linear-fractional, so its range comes from two
linear programs after the Charnes-Cooper substitution ``z = t x``, ``w = t q`` with
``z[parent(s)] = 1``:

    max / min  z[s]   s.t.  E z = e t,  z >= 0,  F^T w <= A^T z,  f^T w >= (v - tol) t,  t >= 0

(``F``, ``f``: the opponent's plan constraints; ``q``, ``w`` free: the dual of the opponent's
best response, as in :mod:`solvers.sequence.lp`).  Player 2's face is the same with the
payoff ``-A^T``.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import scipy.sparse as sps

from pokerdyn.games import CompiledGame, GameError

from pokerdyn.solvers.sequence.form import sequence_form
from pokerdyn.solvers.sequence.lp import check_two_player_zero_sum, solve_lp


@dataclass(frozen=True)
class FaceRange:
    """Range ``[low, high]`` of the probability of ``action`` at information set ``infoset``
    over the owner's optimal strategies (``value``: player 1's game value used)."""

    infoset: int
    action: int
    low: float
    high: float
    value: float

    @property
    def unique(self) -> bool:
        return self.high - self.low <= 1e-6


def _new_highs(highspy):
    """A silent ``highspy.Highs``.  The first one in a process prints HiGHS's banner from C
    to file descriptor 1, past Python's ``sys.stdout``, which would corrupt a command's JSON
    output; so file descriptor 1 points to the null device while it is made."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
            h = highspy.Highs()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
    h.setOptionValue("output_flag", False)
    return h


class _FaceLP:
    """The homogenised optimal face of ``player`` as one HiGHS model (module docstring), with
    an empty normalisation row.  :meth:`extreme` sets that row to ``z[parent(s)] = 1`` and
    the objective to ``sign * z[s]``, and re-solves from the previous basis: consecutive
    programs differ in one row and two costs, so a warm start takes a fraction of a solve
    from scratch (scipy's ``linprog`` always starts afresh).  HiGHS's own Python interface,
    ``highspy``, is the one that keeps a model between solves."""

    def __init__(self, cg: CompiledGame, player: int, value: float, tol: float):
        import highspy

        sf = sequence_form(cg)
        A = sf.A[0] if player == 0 else (-sf.A[0].T).tocsr()
        v = value if player == 0 else -value
        E, e = sf.E[player], sf.e[player]
        F, f = sf.E[1 - player], sf.e[1 - player]
        nx, mq = A.shape[0], F.shape[0]
        # variables: z (nx, >= 0), w (mq, free), t (>= 0); rows: F^T w - A^T z <= 0,
        # (v - tol) t - f^T w <= 0, E z - e t = 0, the normalisation row
        M = sps.vstack([
            sps.hstack([-A.T, F.T, sps.csr_matrix((A.shape[1], 1))]),
            sps.hstack([sps.csr_matrix((1, nx)), -sps.csr_matrix(f),
                        sps.csr_matrix([[v - tol]])]),
            sps.hstack([E, sps.csr_matrix((E.shape[0], mq)), -sps.csr_matrix(e).T]),
            sps.csr_matrix((1, nx + mq + 1)),
        ], format="csc")
        inf = highspy.kHighsInf
        n_ub, n_eq = A.shape[1] + 1, E.shape[0]
        lp = highspy.HighsLp()
        lp.num_col_, lp.num_row_ = M.shape[1], M.shape[0]
        lp.col_cost_ = np.zeros(M.shape[1])
        lp.col_lower_ = np.concatenate([np.zeros(nx), np.full(mq, -inf), [0.0]])
        lp.col_upper_ = np.full(M.shape[1], inf)
        lp.row_lower_ = np.concatenate([np.full(n_ub, -inf), np.zeros(n_eq), [1.0]])
        lp.row_upper_ = np.concatenate([np.zeros(n_ub + n_eq), [1.0]])
        lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
        lp.a_matrix_.start_ = M.indptr
        lp.a_matrix_.index_ = M.indices
        lp.a_matrix_.value_ = M.data
        h = _new_highs(highspy)
        h.passModel(lp)
        self.sf, self.nx, self.h, self._hs = sf, nx, h, highspy
        self._row, self._parent, self._cost = M.shape[0] - 1, -1, -1

    def extreme(self, infoset: int, action: int, sign: float) -> np.ndarray | None:
        """The optimum (z..., w..., t) of ``sign * z[s]`` with ``z[parent(s)] = 1``, or None
        when no optimal plan reaches the parent sequence."""
        h, hs = self.h, self._hs
        parent, s = int(self.sf.parent_seq[infoset]), int(self.sf.seq[infoset, action])
        if parent != self._parent:
            if self._parent >= 0:
                h.changeCoeff(self._row, self._parent, 0.0)
            h.changeCoeff(self._row, parent, 1.0)
            self._parent = parent
        if self._cost >= 0:
            h.changeColCost(self._cost, 0.0)
        h.changeColCost(s, sign)
        self._cost = s
        h.run()
        status = h.getModelStatus()
        if status in (hs.HighsModelStatus.kInfeasible,
                      hs.HighsModelStatus.kUnboundedOrInfeasible):  # not unbounded:
            return None  # |z[s]| <= z[parent(s)] = 1
        if status != hs.HighsModelStatus.kOptimal:
            raise GameError(f"the optimal-face LP failed: {h.modelStatusToString(status)}")
        return np.asarray(h.getSolution().col_value)


def optimal_face_range(cg: CompiledGame, infoset: int, action: int, value: float | None = None,
                       tol: float = 1e-9) -> FaceRange:
    """Smallest and largest probability of ``action`` at ``infoset`` (owner's strategy) over
    all optimal strategies of the owner, i.e. those securing the game value up to ``tol``.

    Where the set's parent sequence has probability 0 on the whole face the behaviour there
    is unconstrained and the range is ``[0, 1]``.
    """
    return optimal_face_ranges(cg, [(infoset, action)], value, tol)[0]


# a behaviour probability seen within SEEN of 0 or 1 at a point of the face settles that end
SEEN = 1e-9
# a point of the face shows the behaviour at a set only where the set's parent sequence has
# at least this probability there
SEEN_REACH = 1e-6


def optimal_face_ranges(cg: CompiledGame, cells: Sequence[tuple[int, int]],
                        value: float | None = None, tol: float = 1e-9) -> list[FaceRange]:
    """:func:`optimal_face_range` of every ``(infoset, action)`` in ``cells``, sharing the
    work: every LP's optimum is a point of the owner's optimal face, so the behaviour it
    shows at the other cells (where their parent sequence is reached) lies in their ranges;
    an LP whose end of a range a point has already shown (0 for a minimum, 1 for a maximum,
    within ``SEEN``) is skipped.  Pure cells need one LP instead of two."""
    check_two_player_zero_sum(cg)
    for infoset, action in cells:
        if not 0 <= infoset < cg.n_infosets:
            raise GameError(f"infoset {infoset} is outside [0, {cg.n_infosets - 1}]")
        if not 0 <= action < int(cg.n_actions[infoset]):
            raise GameError(f"action {action} is outside [0, {int(cg.n_actions[infoset]) - 1}] "
                            f"at information set {cg.infoset_labels[infoset]!r}")
    if value is None:
        value = solve_lp(cg, exact=False).value  # the faces are float LPs (tol)
    programs: dict[int, _FaceLP] = {}
    seen_lo, seen_hi = [np.inf] * len(cells), [-np.inf] * len(cells)
    out = []
    for k, (infoset, action) in enumerate(cells):
        player = int(cg.infoset_player[infoset])
        if player not in programs:
            programs[player] = _FaceLP(cg, player, value, tol)
        lp = programs[player]
        sf = lp.sf
        ends, free = [], False
        for sign in (1.0, -1.0):
            if seen_lo[k] <= SEEN if sign > 0 else seen_hi[k] >= 1.0 - SEEN:
                ends.append(0.0 if sign > 0 else 1.0)  # a point of the face shows that end
                continue
            z = lp.extreme(infoset, action, sign)
            if z is None:  # the parent sequence is never reached by an optimal plan
                free = True
                break
            ends.append(float(z[int(sf.seq[infoset, action])]))
            _record(cg, cells, sf, z[:lp.nx] / z[-1], player, seen_lo, seen_hi)
        low, high = (0.0, 1.0) if free else ends
        out.append(FaceRange(infoset, action, max(0.0, low), min(1.0, high), float(value)))
    return out


def _record(cg, cells, sf, x: np.ndarray, player: int, seen_lo: list, seen_hi: list) -> None:
    """Widen the seen ranges of ``player``'s cells by the behaviour of the plan ``x``."""
    for k, (infoset, action) in enumerate(cells):
        if int(cg.infoset_player[infoset]) != player:
            continue
        reach = x[int(sf.parent_seq[infoset])]
        if reach >= SEEN_REACH:
            b = x[int(sf.seq[infoset, action])] / reach
            seen_lo[k], seen_hi[k] = min(seen_lo[k], b), max(seen_hi[k], b)


__all__ = ["FaceRange", "optimal_face_range", "optimal_face_ranges"]
