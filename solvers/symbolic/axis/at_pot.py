"""Every equilibrium at one exact pot ``P = v``: the compiled case walk
(:mod:`solvers.symbolic.casesearch.walk`) with ``P = v`` substituted leaves a few hundred
supports (leaves), each solved exactly block by block (lex Groebner bases over QQ,
:mod:`solvers.symbolic.algebra.groebner`, each distinct block once per pot: :func:`block_once`) and its families'
feasibility decided exactly (:func:`feasible_family`).

A round of a whole-axis sweep (:mod:`.sweep`) enumerates several pots; with several workers
:func:`enumerate_pots` first walks the pots in forked processes and then shares their leaves
among the workers in chunks, so one expensive pot (kuhn3-full-simplified at P = 5: 1,036
leaves, two minutes) no longer holds a round up on one core.  The families come back in
the order of the leaves, and each is the same wherever it is computed: the result does not
depend on the number of workers.
"""
from __future__ import annotations

import itertools
import pickle
from typing import Any, Iterator, Mapping, Sequence

import sympy as sp

from pokerdyn.games import Game

from pokerdyn.solvers.symbolic.feasibility import pot_split
from pokerdyn.solvers.symbolic.casesearch import walk
from pokerdyn.solvers.symbolic.model.conditions import Condition, Family, pot_symbol
from pokerdyn.solvers.symbolic.feasibility import box_proofs
from pokerdyn.solvers.symbolic.algebra import positive_dimensional
from pokerdyn.solvers.symbolic.axis.forked_map import forked_map
from pokerdyn.solvers.symbolic.algebra.groebner import solve_block
from pokerdyn.solvers.symbolic.algebra.support_solve import solve_support

CHUNK = 32  # leaves per job of enumerate_pots (about: leaves of one mixed pattern stay together)


def at_pot(conds: Sequence[Condition], p: sp.Symbol, v: sp.Expr) -> tuple[Condition, ...]:
    """The conditions with ``P = v`` substituted."""
    return tuple(Condition(c.name, c.player, c.symbol, sp.expand(c.gradient.xreplace({p: v})))
                 for c in conds)


def pot_families(game: Game, conds: Sequence[Condition], v: sp.Expr,
                 fixed: Mapping[str, Any], unhandled: list | None = None,
                 undecided: list | None = None) -> list[Family]:
    """Every equilibrium family at the exact pot ``v`` (complete: every leaf of the case
    walk solved exactly), each with its case string (the support).  Components of
    positive-dimensional blocks that :mod:`solvers.symbolic.algebra.positive_dimensional` could not solve, and families whose
    feasibility is undecided, are appended to ``unhandled`` as ``(case, reason)`` (complete
    when it stays empty); the undecided families are returned too (their supports are
    candidates) and also appended to ``undecided``."""
    cv = at_pot(conds, pot_symbol(game), v)
    unhandled = [] if unhandled is None else unhandled
    cases = [case for _, case in walk.case_leaves(cv, None, {})]
    out, odd = solve_leaves(game, cv, cases, fixed, {}, unhandled)
    if undecided is not None:
        undecided += [out[i] for i in odd]
    return out


def solve_leaves(game: Game, cv: Sequence[Condition], cases: Sequence[str],
                 fixed: Mapping[str, Any], memo: dict, unhandled: list
                 ) -> tuple[list[Family], list[int]]:
    """The feasible (or undecided) families of the leaves ``cases`` at the pot of ``cv``,
    in order, and the indices of the undecided ones among them; what stays undecided is
    appended to ``unhandled`` as ``(case, reason)``; ``memo``: :func:`block_once`'s."""
    names = [n.name for n in game.named]
    out: list = []
    odd: list = []
    for case in cases:
        n0 = len(positive_dimensional.UNHANDLED)
        for fam in solve_support(cv, case, fixed, names,
                                 solver=lambda e, x: block_once(memo, e, x)):
            ok = feasible_family(fam)
            if ok is None:
                unhandled.append((case, "feasibility of a family not affine in "
                                  f"{len(fam.free)} free parameters undecided"))
                odd.append(len(out))
            if ok or ok is None:
                out.append(fam)
        unhandled += [(case, why) for _, why in positive_dimensional.UNHANDLED[n0:]]
    return out, odd


def summary(fams: Sequence[Family], odd: Sequence[int], unhandled: Sequence) -> tuple:
    """One pot of a sweep: the families found there (those of undecided feasibility left
    out: candidates, not equilibria), every support (those included) and what stayed
    undecided."""
    skip = set(odd)
    return ([f for i, f in enumerate(fams) if i not in skip], sorted({f.cases for f in fams}),
            sorted({(c, why) for c, why in unhandled}))


def enumerate_pots(game: Game, conds: Sequence[Condition], fixed: Mapping[str, Any],
                   vs: Sequence[sp.Expr], workers: int) -> Iterator[tuple]:
    """:func:`summary` of every pot of ``vs``, in order, the pots walked in ``workers``
    forked processes and then their leaves solved there in chunks (:func:`chunks`; each
    worker keeps one block memo per pot across its chunks)."""
    global _JOB
    p = pot_symbol(game)
    _JOB = (game, conds, fixed, p, vs, None)
    _MEMOS.clear()
    try:
        leaves = list(forked_map(_walk, range(len(vs)), workers))
        _JOB = (game, conds, fixed, p, vs, leaves)
        items = [(i, ch) for i, cs in enumerate(leaves) for ch in chunks(cs)]
        parts: dict[int, dict] = {i: {} for i in range(len(vs))}
        left = {i: sum(1 for j, _ in items if j == i) for i in range(len(vs))}
        nxt = 0

        def finished() -> Iterator[tuple]:
            """The summaries of the next pots whose jobs are all back (leaves in walk
            order; a pot without leaves as soon as the pots before it are done)."""
            nonlocal nxt
            while nxt < len(vs) and left[nxt] == 0:
                done = parts.pop(nxt)
                nxt += 1
                yield _joined([done[k] for k in sorted(done)])

        yield from finished()
        for (i, ch), blob in zip(items, forked_map(_chunk, items, workers)):
            with sp.evaluate(False):  # the forms computed there, not re-canonicalised
                parts[i].update(zip(ch, pickle.loads(blob)))
            left[i] -= 1
            yield from finished()
    finally:
        _JOB = None
        _MEMOS.clear()


def chunks(cases: Sequence[str], size: int = CHUNK) -> list[tuple[int, ...]]:
    """The leaves (indices into ``cases``) in jobs of about ``size``, those with the same
    mixed pattern (which frequencies are strictly between 0 and 1: case code ``c``) in
    the same job.  Such leaves differ only in pure actions and share most of their blocks
    (kuhn3-full-simplified at P = 5: pairs of leaves 33 apart in walk order share blocks of
    up to 13 s, which jobs of consecutive leaves solved on both workers at once)."""
    def mixed(k: int) -> str:
        return "".join("c" if x == "c" else "." for x in cases[k])

    out: list[tuple[int, ...]] = []
    cur: list[int] = []
    for _, group in itertools.groupby(sorted(range(len(cases)), key=lambda k: (mixed(k), k)),
                                      key=mixed):
        group = list(group)
        if cur and len(cur) + len(group) > size:
            out.append(tuple(cur))
            cur = []
        cur += group
    return out + [tuple(cur)] if cur else out


_JOB = None  # (game, conds, fixed, p, pots, their leaves) of enumerate_pots, for its forks
_MEMOS: dict = {}  # pot index -> (its conditions, block memo): in each worker, across chunks


def _walk(i: int) -> list[str]:
    game, conds, _, p, vs, _ = _JOB
    return [case for _, case in walk.case_leaves(at_pot(conds, p, vs[i]), None, {})]


def _chunk(item: tuple) -> bytes:
    """Per leaf of the job, (its families, the undecided among them, what stayed
    unhandled)."""
    game, conds, fixed, p, vs, leaves = _JOB
    i, ch = item
    if i not in _MEMOS:
        _MEMOS[i] = (at_pot(conds, p, vs[i]), {})
    cv, memo = _MEMOS[i]
    out = []
    for k in ch:
        un: list = []
        fams, odd = solve_leaves(game, cv, [leaves[i][k]], fixed, memo, un)
        out.append((fams, odd, un))
    return pickle.dumps(out)


def _joined(parts: Sequence[tuple]) -> tuple:
    fams: list = []
    odd: list = []
    un: list = []
    for f, o, u in parts:
        odd += [len(fams) + k for k in o]
        fams += f
        un += u
    return summary(fams, odd, un)


def block_once(memo: dict, eqs: Sequence[sp.Expr], xs: Sequence[sp.Symbol]) -> list[dict]:
    """:func:`solvers.symbolic.algebra.groebner.solve_block` at a numeric pot, each distinct block solved once per
    ``memo`` (the leaves of one pot share most of their blocks: kuhn3-full-simplified at
    P = 5 has 1,308 block solves in 1,036 leaves); what a solve leaves in
    ``positive_dimensional.UNHANDLED`` is repeated on every later use, so each leaf still reports it."""
    key = (tuple(sorted(str(e) for e in eqs)), tuple(x.name for x in xs))
    if key not in memo:
        n0 = len(positive_dimensional.UNHANDLED)
        sols = solve_block(eqs, xs, None)
        memo[key] = (sols, list(positive_dimensional.UNHANDLED[n0:]))
    else:
        positive_dimensional.UNHANDLED.extend(memo[key][1])
    return [dict(s) for s in memo[key][0]]


def feasible_family(fam: Family) -> bool | None:
    """Exact feasibility of a family's constraints at a numeric pot: Fourier-Motzkin when
    they are affine in the free parameters, exact univariate root isolation for one free
    parameter, an exact grid witness otherwise, else an exact interval proof that the
    constraints miss the box (:mod:`solvers.symbolic.feasibility.box_proofs`; None: neither, undecided).  First, for
    each free parameter, the constraints in it alone (exact, univariate): if they exclude
    every value the family is empty (kuhn3-third at P = 5: o_K = (5 b_J - 2)/(7 b_J) >= 0
    with b_J <= 1/3)."""
    xs = fam.free_symbols()
    if not xs:
        return True
    for x in xs:
        own = [(e, st) for e, st in fam.constraints if sp.sympify(e).free_symbols == {x}]
        if own and not pot_split.feasible(own, [x]):
            return False
    if len(xs) > 1:
        try:
            pot_split.eliminate(fam.constraints, xs)
        except ValueError:
            if pot_split.witness(fam.constraints, xs) is not None:
                return True
            return False if box_proofs.infeasible(fam.constraints, xs) else None
    return pot_split.feasible(fam.constraints, xs)


