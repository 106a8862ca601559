"""Depth-first walk over the (a)/(b)/(c) cases of the enumerated parameters with early
pruning (Billingham, appendix A), on gains compiled by :mod:`.compiled_gains`.

Each case is checked against the values of ``g_j`` at the vertices of the box of its open
parameters (``g_j`` is multilinear, so its range over the box runs from its least to its
greatest vertex value): case (a) needs a vertex value ``> 0``, (b) one ``< 0``, (c) one
``>= 0`` and one ``<= 0``.  Every vertex value is a polynomial in ``P`` whose signs are
constant on the cells of :class:`.cells.Cells`, so a partial case carries the set of cells
where all its checks hold at once, and dies when that set is empty.  A check depends only on
the values fixed among ``g_j``'s own parameters and is memoised on them.

Leaves possible on an open interval of ``P`` are returned for the generic (symbolic ``P``)
solver; a leaf possible only at isolated pots (an equality in ``P`` alone, say) is recorded
as a task at each of them, where it is solved with ``P`` exact.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator, Sequence

import sympy as sp

from pokerdyn.solvers.symbolic.feasibility import pot_split
from pokerdyn.solvers.symbolic.casesearch.boxes import Boxes
from pokerdyn.solvers.symbolic.casesearch.cells import Cells
from pokerdyn.solvers.symbolic.casesearch.compiled_gains import compile_gain, vertex_values


def add_task(critical: dict, expr: sp.Expr, p: sp.Symbol, task: tuple) -> None:
    """Record ``task`` at every positive root of ``expr`` (a critical value of ``P``)."""
    for r in pot_split.positive_roots(expr, p):
        add_task_at(critical, r, task)


def add_task_at(critical: dict, r: sp.Expr, task: tuple) -> None:
    critical.setdefault(sp.srepr(r), (r, []))[1].append(task)


MAX_CASE_LEAVES = 300
"""Case combinations (walk leaves, each an exact system to solve) that
:func:`solvers.symbolic.entry.case_search` allows unless forced.  Measured on Gambit's
collection (issue 34): files of up to 215 leaves finish (holdout7.efg, 215: about 70 s on a
loaded machine; caro2.efg 141, 2smp.efg 171, el_farol_bar.efg 141; kuhn has 39, kuhn3-third
74, skp 4); tim.efg (327), work3.efg (346), w_ex2.efg (846), centcs10.efg (958) and
4cards.efg (1,776) ran past 90 s in the conformance run, and e16.efg and palf3.efg did not
finish the walk itself."""
_LIMIT: list = []  # [(limit, game name)] while a size-checked enumeration runs


@contextmanager
def leaf_limit(limit: int | None, name: str) -> Iterator[None]:
    """Within the block a walk that reaches more than ``limit`` leaves stops with a
    GameError naming the size and the limit (None: no limit, ``force``)."""
    _LIMIT.append((limit, name))
    try:
        yield
    finally:
        _LIMIT.pop()


def _too_many(n: int) -> None:
    from pokerdyn.games import GameError

    limit, name = _LIMIT[-1]
    raise GameError(f"game {name!r} is too large for the exact case search: more than "
                    f"{limit:,} case combinations (exact systems to solve; found {n:,} "
                    f"before stopping); allowed: at most {limit:,} (force=True, --force, "
                    "runs it anyway: minutes to hours)")


SPLITS = 6  # bisections of a P cell in the propagation test


class _Search:
    def __init__(self, conds: Sequence[Any], p: sp.Symbol | None, critical: dict):
        self.syms = [c.symbol for c in conds]
        compiled = [compile_gain(c.gradient, self.syms, p) for c in conds]
        self.deps = [d for _, d in compiled]
        self.pos = [[b for b in range(d.bit_length()) if d >> b & 1] for d in self.deps]
        values = [vertex_values(t, d) for t, d in compiled]
        self.cells = Cells([v for vs in values for v in vs], p)
        self.masks = [[self.cells.sign_masks(v) for v in vs] for vs in values]
        self.boxes = Boxes([t for t, _ in compiled], self.deps)
        self.bounds = [(float(sp.N(pc.low, 20)), float("inf") if pc.high is sp.oo else
                        float(sp.N(pc.high, 20))) for pc in self.cells.pieces]
        self.n, self.p, self.critical = len(conds), p, critical
        self.memo: dict = {}
        self.leaves: list[tuple[dict, str]] = []

    def check(self, j: int, one: int, zero: int, case: str) -> int:
        """Cells where case ``case`` of parameter ``j`` is possible given the fixed values."""
        d = self.deps[j]
        key = (j, one & d, zero & d, case)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        fo = sum(1 << k for k, b in enumerate(self.pos[j]) if one >> b & 1)
        fz = sum(1 << k for k, b in enumerate(self.pos[j]) if zero >> b & 1)
        pos = neg = nonneg = nonpos = 0
        for a, (gp, gn, gz) in enumerate(self.masks[j]):
            if a & fo == fo and not a & fz:
                pos |= gp
                neg |= gn
                nonneg |= gp | gz
                nonpos |= gn | gz
        out = pos if case == "a" else neg if case == "b" else nonneg & nonpos
        self.memo[key] = out
        return out

    def fixed(self, one: int, zero: int) -> dict:
        return {s: sp.Integer(1 if one >> i & 1 else 0) for i, s in enumerate(self.syms)
                if (one | zero) >> i & 1}

    def leaf(self, one: int, zero: int, case: str, cells: int) -> None:
        if _LIMIT and _LIMIT[-1][0] is not None and len(self.leaves) >= _LIMIT[-1][0]:
            # one more leaf than allowed is about to be added: stop before the rest
            if self.p is None and not self.boxes.feasible(one, zero, case, 0.0, 0.0):
                return
            _too_many(len(self.leaves) + 1)
        if self.p is None:  # the pot is substituted: P is a dummy at 0
            if self.boxes.feasible(one, zero, case, 0.0, 0.0):
                self.leaves.append((self.fixed(one, zero), case))
            return
        live = [k for k in range(self.cells.n) if cells >> k & 1 and
                self._possible(one, zero, case, *self._bounds(k), SPLITS)]
        if not live:
            return
        fixed = self.fixed(one, zero)
        if any(not self.cells.pieces[k].is_point for k in live):
            self.leaves.append((fixed, case))
            return
        for k in live:  # possible at isolated pots only: solved there
            add_task_at(self.critical, self.cells.point_value(k), ("leaf", fixed, case))

    def _possible(self, one: int, zero: int, case: str, lo: float, hi: float, depth: int) -> bool:
        """Propagation on ``[lo, hi]`` and, where it cannot rule the leaf out, on halves of
        it (of ``1/P`` on the unbounded cell) down to ``depth`` bisections."""
        if not self.boxes.feasible(one, zero, case, lo, hi):
            return False
        if depth == 0 or lo == hi or lo > hi * (1 - 1e-9):
            return True
        mid = 2 * lo + 1 if hi == float("inf") else (lo + hi) / 2
        return (self._possible(one, zero, case, lo, mid, depth - 1)
                or self._possible(one, zero, case, mid, hi, depth - 1))

    def _bounds(self, k: int) -> tuple[float, float]:
        lo, hi = self.bounds[k]
        if lo == hi:  # a point: its float with a margin
            return lo * (1 - 1e-12), hi * (1 + 1e-12)
        return lo, hi

    def rec(self, i: int, one: int, zero: int, case: str, cells: int) -> None:
        if i == self.n:
            self.leaf(one, zero, case, cells)
            return
        bit = 1 << i
        for c, val in (("a", 1), ("b", 0), ("c", None)):
            no = one | bit if val == 1 else one
            nz = zero | bit if val == 0 else zero
            nc = case + c
            m = cells & self.check(i, no, nz, c)
            if val is not None:
                for j in range(i):
                    if not m:
                        break
                    if self.deps[j] & bit:
                        m &= self.check(j, no, nz, nc[j])
            if m:
                self.rec(i + 1, no, nz, nc, m)


def case_leaves(conds: Sequence[Any], p: sp.Symbol | None, critical: dict | None = None,
                start: tuple | None = None) -> list[tuple[dict, str]]:
    """Depth-first walk over the (a)/(b)/(c) cases with early pruning: the leaves possible
    on an open P interval (or at the substituted pot) as ``(fixed values {symbol: 0 or 1},
    case string)``; leaves possible only at isolated pots go to ``critical`` (root ->
    tasks).  ``start=(i, fixed, case)`` resumes the walk below parameter ``i``."""
    s = _Search(conds, p, {} if critical is None else critical)
    if start is None:
        s.rec(0, 0, 0, "", s.cells.all)
        return s.leaves
    i, fixed, case = start
    one = zero = 0
    for k, sym in enumerate(s.syms):
        if sym in fixed:
            if fixed[sym] == 1:
                one |= 1 << k
            else:
                zero |= 1 << k
    m = s.cells.all
    for j in range(i + 1):
        m &= s.check(j, one, zero, case[j])
    if m:
        s.rec(i + 1, one, zero, case, m)
    return s.leaves
