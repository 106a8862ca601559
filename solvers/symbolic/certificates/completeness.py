"""A proof that a whole-axis sweep (:mod:`solvers.symbolic.axis.sweep`) missed no equilibrium on ``[low, high]``.

The sweep enumerates completely at rational pots only; this walks once with ``P`` symbolic
(:func:`solvers.symbolic.casesearch.walk.case_leaves`), which is exhaustive for every
``P > 0`` at once: every equilibrium at every pot lies in a leaf possible on an open P
interval or in a leaf recorded at an isolated critical pot.

0. A leaf shown to hold no equilibrium for any ``P`` of the range (exact interval
   arithmetic on its equations and sign conditions with ``P`` one more unknown:
   :func:`.leaf_boxes.empty_between`) is done.
1. Every other leaf is solved with ``P`` symbolic (:func:`solvers.symbolic.axis.sweep.generic_family`).  By
   Kalkbrener's specialization theorem (:mod:`solvers.symbolic.algebra.exceptional_pots`) its solutions at ``P = v``
   are its generic families at ``v`` (or values of irrational branches: "algebraic",
   listed and checked separately) for every ``v`` but the exceptional pots of its blocks
   (roots of the leading coefficients in ``P`` of their lex bases) and the poles of its
   families.  The theorem ties the solutions at ``v`` to the generic families for
   zero-dimensional blocks and linear bases; for a non-linear positive-dimensional block
   :func:`solvers.symbolic.algebra.exceptional_pots.covered_by` proves it instead (products of the families'
   defining polynomials in the block's ideal over QQ(P)), and a block with an element in
   ``P`` alone has solutions only at its roots.
2. A leaf whose support the sweep found has the very families the sweep placed on its
   pieces (the same generic solve).  For any other leaf each family's feasible set in
   ``[low, high]`` is decided exactly (:func:`solvers.symbolic.algebra.exceptional_pots.feasible_parts`): an open part
   is an equilibrium family the sweep lacks (``new``); an isolated feasible pot is solved
   there as in 3.
3. At every exceptional pot of a leaf, pole, isolated pot and critical pot of the walk in
   ``[low, high]`` the leaf is solved exactly (``P = v`` substituted; Groebner bases at
   rational pots, the triangular solver over QQ(v) at algebraic ones, each within a time
   budget, unless the box proof shows the leaf empty on a rational interval of width
   2e-12 around an algebraic ``v``: :func:`.leaf_boxes.empty_near`; a rational piece end, which
   the sweep enumerated completely, is covered by that enumeration) and every family found must be
   contained (exactly,
   :func:`solvers.symbolic.families.reduction.family_contains`) in a family the sweep gives at ``v``.

With no new family, no family missing at a pot, nothing left open (a budget exceeded),
no undecided constraint and no leaf with a non-linear positive-dimensional block that
its families are not shown to cover (listed), the sweep's pieces hold every equilibrium
on ``[low, high]`` apart from the listed algebraic learned.  Minutes for
kuhn3-full-simplified: the leaves and pots are resumable from a state file (``state``).
"""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import sympy as sp

from pokerdyn.games import Game

from pokerdyn.solvers.symbolic.feasibility import pot_split
from pokerdyn.solvers.symbolic.casesearch import walk
from pokerdyn.solvers.symbolic.model.conditions import Condition, Family, conditions, pot_symbol
from pokerdyn.solvers.symbolic.algebra import exceptional_pots as ex
from pokerdyn.solvers.symbolic.algebra import groebner
from pokerdyn.solvers.symbolic.feasibility import radical
from pokerdyn.solvers.symbolic.certificates.leaf_boxes import above, below, empty_between, empty_in_parts, empty_near, leaf_blocks
from pokerdyn.solvers.symbolic.axis.forked_map import forked_map
from pokerdyn.solvers.symbolic.axis.at_pot import at_pot
from pokerdyn.solvers.symbolic.axis.sweep import Sweep, generic_family
from pokerdyn.solvers.symbolic.families.reduction import family_contains, reduce_families
from pokerdyn.solvers.symbolic.algebra.support_solve import SupportTimeout, deadline, solve_support

SAVE_EVERY = 25  # leaves between writes of the state file


def analyse_leaf(game: Game, conds: Sequence[Condition], case: str, fixed: Mapping[str, Any],
                 low: sp.Expr, high: sp.Expr, known: set) -> dict:
    """One leaf: its generic families, the pots in ``[low, high]`` where it must be solved
    exactly (exceptional pots of its blocks, poles of its families, isolated feasible
    pots), and, for a support the sweep lacks, the open P parts where a family is
    feasible.  JSON-ready (exact values as strings).  First the box proof over the whole
    range (:func:`.leaf_boxes.empty_between`): a leaf shown to hold no equilibrium for any ``P`` in
    ``[low, high]`` needs nothing else (``empty``)."""
    p = pot_symbol(game)
    if empty_between(conds, case, p, below(low), above(high)):
        return _no_families(empty=True)
    pots: list = []
    curved, empty = [], False  # non-linear positive-dimensional blocks
    for beqs, bxs in leaf_blocks(conds, case):
        b = ex.block_analysis(beqs, bxs, p, low, high)
        pots += b["pots"]
        if not (b["zero_dimensional"] or b["linear"]):
            curved.append((b["basis"], bxs))
        empty = empty or not bxs or b["empty"]  # an element in P alone: solutions at its
        # roots only (among the pots)
    n0 = len(groebner.SKIPPED)
    fams = [] if empty else generic_family(game, conds, case, fixed)
    # such a block is covered where its generic families provably hold all its solutions
    nonlinear = not empty and not all(
        ex.covered_by(G, bxs, p, [{x: f.as_dict().get(x.name, x) for x in bxs} for f in fams])
        for G, bxs in curved)
    out: dict = {"families": len(fams), "algebraic": len(groebner.SKIPPED) > n0,
                 "nonlinear": nonlinear, "new": [], "undecided": []}
    for fam in fams:
        exprs = [v for _, v in fam.strategy] + [e for e, _ in fam.constraints]
        pots += ex.denominator_pots(exprs, p, low, high)
        if case in known:
            continue
        try:
            parts, isolated = _feasible_parts(fam, p, low, high)
        except ValueError as exc:  # constraints not affine in the free parameters
            out["undecided"].append({"support": case, "reason": str(exc)})
            continue
        pots += isolated
        if parts:
            out["new"].append({"support": case, "parts": [[str(a), str(b)] for a, b in parts],
                               "strategy": {k: str(v) for k, v in fam.strategy},
                               "free": list(fam.free)})
    out["pots"] = [str(v) for v in pot_split.merge_points(pots)]
    return out


def _feasible_parts(fam: Family, p: sp.Symbol, low: sp.Expr, high: sp.Expr) -> tuple:
    """:func:`solvers.symbolic.algebra.exceptional_pots.feasible_parts` of a family; with constraints that are not
    affine in its free parameters, those of its affine constraints when they hold on no
    open part (a superset of the family's feasible pots, each checked as a pot), else
    ValueError."""
    xs = fam.free_symbols()
    try:
        return ex.feasible_parts(fam.constraints, xs, p, low, high)
    except ValueError:
        affine = [c for c in fam.constraints if pot_split.is_affine([c], xs)]
        parts, isolated = ex.feasible_parts(affine, xs, p, low, high)
        if parts:
            raise
        return parts, isolated


def families_at(game: Game, conds: Sequence[Condition], case: str, v: sp.Expr,
                fixed: Mapping[str, Any], seconds: float | None) -> list[Family]:
    """The feasible families of one leaf at the exact pot ``v`` (Groebner bases at a
    rational pot, the triangular solver over the number field at an algebraic one);
    :class:`SupportTimeout` after ``seconds``."""
    cv = _conds_at(conds, pot_symbol(game), v)
    names = [n.name for n in game.named]
    solver = (lambda e, x: groebner.solve_block(e, x, None)) if v.is_Rational else None
    with deadline(seconds):
        fams = solve_support(cv, case, fixed, names, solver=solver)
        return [f for f in fams
                if not f.free or pot_split.feasible(f.constraints, f.free_symbols())]


_AT: dict = {}


def _conds_at(conds, p, v):
    key = (id(conds), sp.srepr(v))
    if key not in _AT:
        _AT[key] = at_pot(conds, p, v)
    return _AT[key]


def sweep_families_at(sw: Sweep, v: sp.Expr) -> list[Family]:
    """The families the sweep gives at the pot ``v`` (its piece's, ``P`` still symbolic)."""
    for pc in sw.pieces:
        if pc.p_set.contains(v) is sp.true:
            return [Family(s.strategy, s.free, s.raw, "") for s in pc.solutions]
    return []


def check_pot(game: Game, conds, v: sp.Expr, cases: Sequence[str], fixed, sw: Sweep,
              seconds: float | None, budget: float | None = None) -> dict:
    """Every family of the leaves ``cases`` at ``v`` contained in one of the sweep's there:
    ``{"pot", "float", "leaves", "families", "status", "missing", "open"}``; ``seconds``
    per leaf, ``budget`` for the pot (leaves past it are left open)."""
    if _enumerated(sw, v):  # the sweep's own complete enumeration there: nothing to add
        return {"pot": str(v), "float": float(sp.N(v, 17)), "leaves": len(cases),
                "families": 0, "status": "covered", "missing": [], "open": [],
                "by": "enumerated by the sweep"}
    theirs = sweep_families_at(sw, v)
    missing, open_, found, empty = [], [], 0, 0
    t0 = time.process_time()
    for case in cases:
        if budget is not None and time.process_time() - t0 > budget:
            open_.append({"support": case, "reason": f"pot budget of {budget} s spent"})
            continue
        if not v.is_Rational and empty_near(conds, case, v, pot_symbol(game)):
            empty += 1  # proved: no equilibrium of this leaf at any P near v
            continue
        try:
            fams = families_at(game, conds, case, v, fixed, seconds)
        except (SupportTimeout, NotImplementedError, ValueError, ArithmeticError,
                sp.polys.polyerrors.BasePolynomialError) as exc:  # e.g. NotInvertible in
            # a number field at an algebraic pot: that leaf is left open there
            open_.append({"support": case, "reason": str(exc) or type(exc).__name__})
            continue
        for fam in fams:
            found += 1
            parts = reduce_families(game, [fam], at=v)  # pinned parameters substituted
            if not all(any(family_contains(game, big, f, at=v) for big in theirs)
                       for f in parts):
                missing.append({"support": case, "free": list(fam.free),
                                "strategy": {k: str(e) for k, e in fam.strategy}})
    status = "missing" if missing else "open" if open_ else "covered"
    return {"pot": str(v), "float": float(sp.N(v, 17)), "leaves": len(cases), "families": found,
            "status": status, "missing": missing, "open": open_, "empty_near": empty}


def _enumerated(sw: Sweep, v: sp.Expr) -> bool:
    """Whether ``v`` is a rational piece end that the sweep enumerated completely (nothing
    undecided there): its point piece holds the families found there as they are, so
    every equilibrium at ``v``.  (Inside an open piece the piece's families are the
    generic ones, which an exceptional pot may not show: those pots are checked.)"""
    return (v.is_Rational and str(v) in sw.pots and not sw.undecided.get(str(v))
            and any(pc.p_set == sp.FiniteSet(v) for pc in sw.pieces))


def certify_complete(game: Game, fixed: Mapping[str, Any], low: sp.Expr, high: sp.Expr,
                     sweep_result: Sweep, progress: Callable[[str, int, int], None] | None = None,
                     state: Path | str | None = None, seconds: float | None = 20.0,
                     leaf_seconds: float | None = 60.0, pot_seconds: float | None = 600.0,
                     workers: int = 1) -> dict:
    """The completeness proof of ``sweep_result`` on ``[low, high]`` (module docstring) as
    JSON-ready data: ``complete`` (proven: no new family, none missing, nothing open,
    undecided or nonlinear), ``nothing_missed`` (no new family and none missing: what was
    checked found no gap), ``leaves``, ``critical_tasks``, ``families``, ``empty_leaves``
    (leaves the box proof showed empty on the whole range), ``new``,
    ``missing``, ``open_pots``, ``algebraic`` (supports with an irrational branch in
    ``P``, checked separately: whether the sweep found them), ``nonlinear`` (leaves with a
    positive-dimensional block whose basis is not linear and whose families are not
    shown to hold all its solutions, :func:`solvers.symbolic.algebra.exceptional_pots.covered_by`), ``undecided``,
    ``exceptional_pots`` (each with its status) and
    ``seconds``.  ``progress(stage, done, total)``; ``state``: a JSON file
    that an interrupted run resumes from; ``seconds``: the budget of one leaf at one pot,
    ``pot_seconds`` of one pot (past them: ``open``), ``leaf_seconds`` of one leaf with
    ``P`` symbolic (past it: ``undecided``); ``workers``: forked processes for the leaves."""
    t0 = time.perf_counter()
    low, high = sp.sympify(low), sp.sympify(high)
    p = pot_symbol(game)
    conds = conditions(game, None, fixed)
    path = Path(state) if state else None
    st = json.loads(path.read_text()) if path and path.exists() else {}
    if st.get("range") != [str(low), str(high)]:
        st = {"range": [str(low), str(high)]}
    if "leaves" not in st:
        crit: dict = {}
        st["leaves"] = [case for _, case in walk.case_leaves(conds, p, crit)]
        st["critical"] = [[str(v), sorted({t[2] for t in ts})] for v, ts in crit.values()]
        st.update(next=0, families=0, new=[], algebraic=[], nonlinear=[], undecided=[],
                  tasks={}, walk_seconds=round(time.perf_counter() - t0, 1))
        _save(path, st)
    known = set(sweep_result.supports)
    leaves = st["leaves"]
    global _JOB
    _JOB = (game, conds, fixed, low, high, known, leaf_seconds)
    try:
        first = st["next"]
        for i, r in enumerate(forked_map(_leaf, leaves[first:], workers, 4), first):
            _add_leaf(st, leaves[i], r)  # the iterator runs out: its pool is closed
            st["next"] = i + 1
            if progress:
                progress("leaves", i + 1, len(leaves))
            if (i + 1) % SAVE_EVERY == 0:
                _save(path, st)
        if not st.get("retried_split"):  # leaves over budget: once more, with the box
            # proof at RETRY_BOXES on the range and its halves first, four times the budget
            again = [u["support"] for u in st["undecided"] if u["reason"].startswith("not")]
            st["undecided"] = [u for u in st["undecided"] if u["support"] not in again]
            for k, r in enumerate(forked_map(_retry, again, workers)):
                _add_leaf(st, again[k], r)
            st["retried_split"] = True
    finally:
        _JOB = None
    _save(path, st)
    tasks = {k: list(v) for k, v in st["tasks"].items()}
    for v, cases in st["critical"]:
        if ex.inside(sp.sympify(v), low, high):
            tasks.setdefault(v, []).extend(cases)
    pots = []
    keys = sorted(tasks, key=lambda k: float(sp.N(sp.sympify(k), 30)))
    mark = _fingerprint(sweep_result)
    if st.get("checked", {}).get("sweep") != mark:
        st["checked"] = {"sweep": mark}
    todo = [k for k in keys if k not in st["checked"]]
    _JOB = (game, conds, fixed, sweep_result, seconds, pot_seconds)
    try:
        for j, res in enumerate(forked_map(_pot, [(k, sorted(set(tasks[k]))) for k in todo],
                                           workers)):
            st["checked"][todo[j]] = res
            _save(path, st)
            if progress:
                progress("pots", j + 1, len(todo))
    finally:
        _JOB = None
    pots = [st["checked"][k] for k in keys]
    unresolved = set(sweep_result.unresolved)
    algebraic = [{"support": c, "found_by_sweep": c in known or c in unresolved}
                 for c in sorted(set(st["algebraic"]))]
    st["new"] = [n for n in st["new"] if n["support"] not in known]  # a resumed state:
    # the sweep may have found more supports since (their families are in its pieces)
    inside = {c for c in {n["support"] for n in st["new"]}
              if all(inside_sweep(sweep_result, fam, p, low, high)
                     for fam in generic_family(game, conds, c, fixed))}
    faces = [n for n in st["new"] if n["support"] in inside]
    st["new"] = [n for n in st["new"] if n["support"] not in inside]
    missing = [m for q in pots for m in q["missing"]]
    open_ = [q["pot"] for q in pots if q["open"]]
    nonlinear = sorted(set(st["nonlinear"]))
    return {"complete": not (st["new"] or missing or open_ or st["undecided"] or nonlinear),
            "nothing_missed": not (st["new"] or missing),
            "p_min": str(low), "p_max": str(high), "leaves": len(leaves),
            "critical_tasks": sum(len(c) for _, c in st["critical"]),
            "families": st["families"], "empty_leaves": st.get("empty", 0),
            "new": st["new"], "inside_sweep": faces, "missing": missing,
            "open_pots": open_, "algebraic": algebraic,
            "nonlinear": nonlinear, "undecided": st["undecided"],
            "exceptional_pots": pots, "walk_seconds": st["walk_seconds"],
            "seconds": round(time.perf_counter() - t0, 1)}


def inside_sweep(sw: Sweep, fam: Family, p: sp.Symbol, low: sp.Expr, high: sp.Expr) -> bool:
    """Whether on every open part of ``[low, high]`` where ``fam`` (of a support the sweep
    lacks: a face of one of its families, say) is feasible, each of its points lies in a
    family of the sweep's piece there (:func:`contained_on`; the pieces' ends are pots,
    checked as such)."""
    parts, _ = ex.feasible_parts(fam.constraints, fam.free_symbols(), p, low, high)
    for a, b in parts:
        for pc in sw.pieces:
            if not isinstance(pc.p_set, sp.Interval):
                continue
            lo = sp.Max(a, pc.p_set.start)
            hi = pc.p_set.end if b is sp.oo else sp.Min(b, pc.p_set.end)
            if pot_split.sign(hi - lo) <= 0:
                continue
            if not any(contained_on(Family(s.strategy, s.free, s.raw, ""), fam, p, lo, hi)
                       for s in pc.solutions):
                return False
    return True


def contained_on(big: Family, small: Family, p: sp.Symbol, lo: sp.Expr, hi: sp.Expr) -> bool:
    """Exactly: every point of ``small`` at every ``P`` in ``(lo, hi)`` is a point of ``big``.
    ``big``'s free parameters take ``small``'s values, its other values must then equal
    ``small``'s identically in ``P`` (square roots in normal form), and no constraint of
    ``big`` may fail on an open part of ``(lo, hi)`` where ``small``'s hold
    (:func:`solvers.symbolic.algebra.exceptional_pots.feasible_parts` of ``small``'s constraints and the negated one)."""
    sa, sb = small.as_dict(), big.as_dict()
    if not set(big.free) <= set(sa):
        return False
    sub = {u: sa[u.name] for u in big.free_symbols()}
    if any(not radical.is_zero(v.xreplace(sub) - sa[k], p)
           for k, v in sb.items() if k not in big.free):
        return False
    t = small.free_symbols()
    for e, strict in big.constraints:
        g = sp.together(sp.sympify(e).xreplace(sub))
        try:
            parts, _ = ex.feasible_parts([*small.constraints, (-g, not strict)], t, p, lo, hi)
        except ValueError:  # not affine in small's free parameters: not shown
            return False
        if parts:
            return False
    return True


_JOB = None  # the arguments common to the leaves / pots (set around forked_map)


def _no_families(empty: bool = False, undecided: Sequence[dict] = ()) -> dict:
    """The result of a leaf without families: shown empty, or undecided."""
    out = {"families": 0, "algebraic": False, "nonlinear": False, "new": [],
           "undecided": list(undecided), "pots": []}
    return {**out, "empty": True} if empty else out


def _within(case: str, seconds: float | None) -> dict:
    """:func:`analyse_leaf` of ``case`` within ``seconds`` (past it: undecided)."""
    game, conds, fixed, low, high, known, _ = _JOB
    try:
        with deadline(seconds):
            return analyse_leaf(game, conds, case, fixed, low, high, known)
    except SupportTimeout:
        return _no_families(undecided=[{"support": case,
                                        "reason": f"not solved in {seconds} s"}])


def _leaf(case: str) -> dict:
    """:func:`analyse_leaf` within the leaf budget (past it: undecided)."""
    return _within(case, _JOB[-1])


RETRY_FACTOR = 4  # the budget of a leaf retried, in leaf budgets


def _retry(case: str) -> dict:
    """A leaf over its budget: the box proof with :data:`.leaf_boxes.RETRY_BOXES` on the
    range, else on its halves, quarters and eighths (:func:`.leaf_boxes.empty_in_parts`),
    else :func:`analyse_leaf` within :data:`RETRY_FACTOR` times the leaf budget."""
    game, conds, _, low, high, _, seconds = _JOB
    if empty_in_parts(conds, case, pot_symbol(game), below(low), above(high)):
        return _no_families(empty=True)
    return _within(case, None if seconds is None else RETRY_FACTOR * seconds)


def _pot(task: tuple) -> dict:
    """:func:`check_pot` of ``(pot, leaves)``."""
    game, conds, fixed, sw, seconds, budget = _JOB
    return check_pot(game, conds, sp.sympify(task[0]), task[1], fixed, sw, seconds, budget)


def _add_leaf(st: dict, case: str, r: dict) -> None:
    st["families"] += r["families"]
    st["empty"] = st.get("empty", 0) + bool(r.get("empty"))
    st["new"] += r["new"]
    st["undecided"] += r["undecided"]
    if r["algebraic"]:
        st["algebraic"].append(case)
    if r["nonlinear"]:
        st["nonlinear"].append(case)
    for v in r["pots"]:
        st["tasks"].setdefault(v, []).append(case)


def _fingerprint(sw: Sweep) -> str:
    """The sweep's pieces and supports as one string: pot checks done against another
    sweep are not reused."""
    return repr((sorted(sw.supports), [(str(pc.p_set), len(pc.solutions)) for pc in sw.pieces]))


def _save(path: Path | None, st: dict) -> None:
    if path is not None:  # atomically: an interrupted write leaves the state before it
        from pokerdyn.games.io.files import write_atomically

        text = json.dumps(st)
        write_atomically(path, lambda tmp: tmp.write_text(text))
