"""One support solved exactly: the indifference equations of its case (c) parameters, split
into independent blocks, each block solved by :func:`solvers.symbolic.casesearch.case_enumeration.
solve_triangular`, and the family's constraints stated exactly.

Decomposition by information-set dependencies: an equation ``g_x = 0`` ties the parameters
its gain contains; the connected components of that graph are solved apart and their
solution branches combined, so a support of 27 parameters is a handful of small systems
(3-player Kuhn poker at P = 3: blocks of at most a few unknowns) instead of one.

A family is closed: the cases (a) and (b) are kept as ``g_x >= 0`` and ``-g_x >= 0`` (a
parameter at a bound whose gain vanishes is an equilibrium too), case (c) as ``0 <= x <= 1``
with any equation the solver did not use (``g = 0`` as two inequalities).
"""
from __future__ import annotations

import contextlib
import itertools
import signal
import threading
from typing import Any, Iterator, Mapping, Sequence

import sympy as sp

from pokerdyn.games import GameError

from pokerdyn.solvers.symbolic.feasibility import algebraic
from pokerdyn.solvers.symbolic.model.conditions import Condition, Family
from pokerdyn.solvers.symbolic.algebra.triangular import solve_triangular

MAX_COMBINATIONS = 64
SECONDS = 30.0  # per support: a limit far from converged can propose a support whose
# coupled block swells (non-constant pivots); it is skipped and reported, not waited for


class SupportTimeout(Exception):
    """A support whose exact solution took longer than its budget."""


@contextlib.contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Raise :class:`SupportTimeout` after ``seconds`` of CPU time of this process (main
    thread on POSIX; elsewhere no limit).

    Every budget of the exact wing counts CPU seconds of this process (here the profiling
    timer, elsewhere ``time.process_time()``), never wall time: a budget then cuts off the
    same work on a quiet machine and on one whose cores other jobs share, so results do not
    depend on the load (issue 33)."""
    usable = seconds and hasattr(signal, "setitimer") and \
        threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def fire(signum, frame):
        raise SupportTimeout(f"support not solved in {seconds} s")

    old = signal.signal(signal.SIGPROF, fire)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


def blocks(eqs: Sequence[sp.Expr], unknowns: Sequence[sp.Symbol]) -> list[tuple[list, list]]:
    """Connected components of the equations and the unknowns they contain."""
    parent = {x: x for x in unknowns}

    def root(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    uset = set(unknowns)
    for e in eqs:
        xs = sorted(e.free_symbols & uset, key=lambda s: s.name)
        for a, b in zip(xs, xs[1:]):
            parent[root(a)] = root(b)
    comps: dict[Any, tuple[list, list]] = {}
    for e in eqs:
        xs = e.free_symbols & uset
        if not xs:
            comps.setdefault(None, ([], []))[0].append(e)
            continue
        comps.setdefault(root(next(iter(xs))), ([], []))[0].append(e)
    for x in unknowns:
        if root(x) in comps:
            comps[root(x)][1].append(x)
    return list(comps.values())


CLEAR = 1e-2


def _clear(e: sp.Expr, point: Mapping) -> bool:
    try:
        return abs(float(e.xreplace(point))) > CLEAR
    except (TypeError, ValueError, ZeroDivisionError):
        return False


def _distance(sol: Mapping, near: Mapping[sp.Symbol, float]) -> float:
    out = 0.0
    for x, v in sol.items():
        try:
            out = max(out, abs(float(v.xreplace(near)) - near[x]))
        except (TypeError, ZeroDivisionError, KeyError):
            return float("inf")
    return out


def pure_values(conds: Sequence[Condition], case: str) -> dict:
    """The values of a case's pure frequencies: 1 where its letter is ``a``, 0 at ``b``."""
    return {c.symbol: sp.Integer(1 if k == "a" else 0) for c, k in zip(conds, case) if k in "ab"}


def case_equations(conds: Sequence[Condition], case: str) -> tuple[dict, list, list]:
    """A case's pure values (:func:`pure_values`), its mixed unknowns (letter ``c``) and
    their indifference equations with the pure values put in (those that do not vanish)."""
    ab = pure_values(conds, case)
    unknowns = [c.symbol for c, k in zip(conds, case) if k == "c"]
    eqs = [e for c, k in zip(conds, case) if k == "c"
           if (e := sp.expand(c.gradient.xreplace(ab))) != 0]
    return ab, unknowns, eqs


def solve_support(conds: Sequence[Condition], case: str, fixed: Mapping[str, Any],
                  names: Sequence[str], near: Mapping[str, float] | None = None,
                  keep: float = 0.05, p: sp.Symbol | None = None,
                  guided: bool = False, solver=None) -> list[Family]:
    """The families of one support at a numeric pot (``P`` already substituted), or with
    the pot symbol ``p`` left symbolic (equations over QQ(P); families that exist only at
    isolated roots of a polynomial in ``P`` are left out).

    ``conds`` are the counterfactual gains of the parameters left free by ``fixed``
    (:func:`solvers.symbolic.model.sparse_gains.counterfactual_gains`), ``case`` their (a)/(b)/(c) letters, ``names`` all
    named parameters of the game (the strategy lists them all: ``fixed`` values, solved
    expressions, free symbols).  With ``near`` (a learned limit) only solution branches
    within ``keep`` of it, or the nearest one, are combined; ``guided``: a pivot clearly
    nonzero at ``near`` (more than ``CLEAR``) is divided by without the branch where it
    vanishes (coupled blocks of 13 unknowns otherwise branch 2^k times: kuhn3 at P = 4).
    With ``p``, ``near`` must hold the pot under the name ``P``.  ``solver(eqs, unknowns)``
    returns a block's branches at a numeric pot (default: the triangular solver)."""
    if len(case) != len(conds):
        raise GameError(f"case {case!r} has {len(case)} letters for {len(conds)} parameters")
    ab, unknowns, eqs = case_equations(conds, case)
    point = {sp.Symbol(k, real=True): float(v) for k, v in (near or {}).items()}
    if p is not None and point:
        point[p] = float(near[p.name])
    nonzero = (lambda e: _clear(e, point)) if point and guided else None
    per_block = []
    for beqs, bxs in blocks(eqs, unknowns):
        if solver is not None and p is None:
            branches = [(s, ()) for s in solver(beqs, bxs)]
        else:
            branches = [(s, only) for s, only, _ in
                        solve_triangular(beqs, bxs, p, None, nonzero) if p is not None or not only]
        if not branches:
            return []
        if point and len(branches) > 1:
            d = [_distance(s, point) for s, _ in branches]
            close = [b for b, di in zip(branches, d) if di <= keep]
            branches = close or [branches[min(range(len(d)), key=d.__getitem__)]]
        per_block.append(branches)
    out = []
    for combo in itertools.islice(itertools.product(*per_block), MAX_COMBINATIONS):
        sol: dict = {}
        only: list = []
        for s, o in combo:
            sol.update(s)
            only += [e for e in o if e not in only]
        if only and sp.Poly(sp.gcd_list([sp.numer(sp.together(e)) for e in only]),
                            p).degree() < 1:
            continue  # pure-P equations without a common root
        fam = _family(conds, case, ab, sol, fixed, names, tuple(only))
        if fam is not None:
            out.append(fam)
    return out


def _family(conds, case, ab, sol, fixed, names, only=()) -> Family | None:
    full = {**ab, **sol}
    free = [c.symbol for c, k in zip(conds, case) if k == "c" and c.symbol not in sol]
    cons: list[tuple[sp.Expr, bool]] = []
    for c, k in zip(conds, case):
        g = c.gradient.xreplace(full)
        if g.free_symbols:
            try:
                g = sp.Integer(0) if algebraic.vanishes(g) else sp.cancel(g)
            except ZeroDivisionError:  # a 'coefficient != 0' branch whose coefficient vanished
                return None
        if k == "a":
            cons.append((g, False))
        elif k == "b":
            cons.append((-g, False))
        else:
            v = full.get(c.symbol, c.symbol)
            cons += [(v, False), (1 - v, False)]
            if g != 0:
                cons += [(g, False), (-g, False)]
    cons = [(sp.together(e), s) for e, s in cons]
    if any(e.has(sp.zoo, sp.nan, sp.oo, sp.I) for e, _ in cons):
        return None
    kept = []
    for e, s in cons:
        if e.free_symbols:
            kept.append((e, s))
        elif e < 0:
            return None  # a numeric constraint fails
    strat = []
    for n in names:
        x = sp.Symbol(n, real=True)
        strat.append((n, sp.sympify(fixed[n]) if n in fixed else full.get(x, x)))
    return Family(tuple(strat), tuple(x.name for x in free), tuple(kept), case, only)
