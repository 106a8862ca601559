"""Counterfactual gains at a fixed pot in a sparse polynomial ring, their sign over a box of
parameters by branch and bound, and iterated dominance that scales past the vertex table.

:func:`solvers.symbolic.model.dominance.iterated_dominance` tabulates every vertex of the box of the
parameters a gain contains (2^22 at most); the gains of 3-player Kuhn poker (4 cards) contain
24.  A gain is multilinear (perfect recall: each information set at most once on a path), so
its extremes over the box ``[0, 1]^k`` are taken at vertices, and whether some vertex gives it
a sign is decided exactly by branch and bound: a sub-box is dropped once the bound
``constant + sum of the positive (negative) coefficients`` excludes the sign, else one
parameter is set to 1 and to 0.  Exact rationals throughout (the pot is a number here).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np
import sympy as sp
from sympy.polys.polyerrors import GeneratorsError
from sympy.polys.rings import PolyRing

from pokerdyn.games import Game, GameError
from pokerdyn.games.strategy import param_symbols

from pokerdyn.solvers.symbolic.model.dominance import DominanceResult, Elimination, _reach
from pokerdyn.solvers.symbolic.model.conditions import Condition, own_reach
from pokerdyn.solvers.symbolic.model.nash_conv import payoffs_at
from pokerdyn.solvers.symbolic.model.payoffs import payoff_elements

Terms = dict  # frozenset of parameter indices -> exact coefficient


@dataclass(frozen=True)
class GainSystem:
    """Payoff polynomials of a game at one exact pot in the ring over QQ whose generators are
    the named parameters (in ``game.named`` order)."""

    game: Game
    pot: Any
    ring: PolyRing
    payoffs: tuple

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.game.named)

    def element(self, expr: sp.Expr):
        """A sympy polynomial in the parameters as a ring element."""
        gens = self.ring.symbols
        return self.ring.from_dict(sp.Poly(sp.expand(expr), *gens, domain="QQ").as_dict())

    def fix(self, f, fixed: Mapping[str, Any]):
        """``f`` with the ``fixed`` parameters substituted (still in the ring)."""
        if not fixed:
            return f
        idx = {n: i for i, n in enumerate(self.names)}
        dom = self.ring.domain
        return f.subs([(self.ring.gens[idx[k]], dom.convert(sp.Rational(v))) for k, v in fixed.items()])


def gain_system(game: Game, pot: Any) -> GainSystem:
    """The payoffs of ``game`` at the exact pot ``pot`` (None: a game without a pot)."""
    ring = PolyRing(list(param_symbols(game).values()), sp.QQ)
    return GainSystem(game, pot, ring, ring_payoffs(game, pot, ring))


def ring_payoffs(game: Game, pot: Any, ring: PolyRing) -> tuple:
    """The payoffs of :func:`payoffs_at` (``pot`` None: ``P`` left symbolic, as a generator
    of ``ring``) as elements of ``ring``: straight from the ring they were derived in where
    that works (:func:`solvers.symbolic.model.payoffs.payoff_elements`), else converted from the
    expressions (:meth:`GainSystem.element`)."""
    has_pot = pot is not None and any(s.name == "P" for s in game.params)
    try:
        pays = payoff_elements(game, {"P": sp.sympify(pot)} if has_pot else None, ring)
    except GeneratorsError:  # a game parameter left symbolic: not a polynomial of the ring
        pays = None
    if pays is None:
        sys0 = GainSystem(game, pot, ring, ())
        pays = tuple(sys0.element(e) for e in payoffs_at(game, pot))
    return pays


def terms_of(f, names: tuple[str, ...]) -> Terms:
    """Ring element -> {frozenset of generator indices: coefficient} (multilinear)."""
    out: Terms = {}
    for mono, c in f.terms():
        if any(e > 1 for e in mono):
            raise GameError("a gain of degree > 1 in one parameter: the game lacks perfect "
                            "recall (box extremes are no longer at vertices)")
        out[frozenset(i for i, e in enumerate(mono) if e)] = c
    return out


def _bounds(t: Terms) -> tuple[Any, Any]:
    c0 = t.get(frozenset(), 0)
    lo = c0 + sum(min(c, 0) for m, c in t.items() if m)
    hi = c0 + sum(max(c, 0) for m, c in t.items() if m)
    return lo, hi


def _set(t: Terms, i: int, v: int) -> Terms:
    out: Terms = {}
    for m, c in t.items():
        if i in m:
            if v == 0:
                continue
            m = m - {i}
        out[m] = out.get(m, 0) + c
    return {m: c for m, c in out.items() if c != 0}


def _pick(*ts: Terms) -> int | None:
    count: dict[int, int] = {}
    for t in ts:
        for m in t:
            for i in m:
                count[i] = count.get(i, 0) + 1
    return max(count, key=count.__getitem__) if count else None


def attains(t: Terms, sign: int, strict: bool = True) -> bool:
    """Whether some vertex of the box gives ``sign * f > 0`` (``>= 0`` when not strict)."""
    lo, hi = _bounds(t)
    if sign < 0:
        lo, hi = -hi, -lo
    if (hi <= 0) if strict else (hi < 0):
        return False
    if (lo > 0) if strict else (lo >= 0):
        return True
    i = _pick(t)
    return any(attains(_set(t, i, v), sign, strict) for v in (1, 0))


def _weak_spot(g: Terms, r: Terms) -> bool:
    """Whether some vertex has ``g >= 0`` while the reach ``r`` is positive."""
    if _bounds(g)[1] < 0 or _bounds(r)[1] <= 0:
        return False
    i = _pick(g, r)
    if i is None:
        return g.get(frozenset(), 0) >= 0 and r.get(frozenset(), 0) > 0
    return any(_weak_spot(_set(g, i, v), _set(r, i, v)) for v in (1, 0))


def iterated_dominance_at(game: Game, pot: Any, mode: str = "strict", max_rounds: int = 100,
                          system: GainSystem | None = None) -> DominanceResult:
    """Iterated elimination of dominated actions at the exact pot ``pot``, with the same
    definitions and result as :func:`solvers.symbolic.model.dominance.iterated_dominance` (weak:
    never better and sometimes worse; strict: worse wherever reached) but decided by branch
    and bound instead of a vertex table, so gains of any number of parameters are handled."""
    if mode not in ("weak", "strict"):
        raise GameError(f"mode={mode!r} is not one of weak, strict")
    sysm = system or gain_system(game, pot)
    names = sysm.names
    idx = {n: i for i, n in enumerate(names)}
    reach = {I: sysm.element(r) for I, r in _reach(game).items()}
    fixed: dict[str, int] = {}
    elims: list[Elimination] = []
    unreached: list[str] = []
    for rnd in range(1, max_rounds + 1):
        new = []
        for prm in game.named:
            if prm.name in fixed or prm.name in unreached:
                continue
            I = game.infoset_index(prm.infoset)
            r = sysm.fix(reach[I], fixed)
            if not r:
                unreached.append(prm.name)
                continue
            E = sysm.fix(sysm.payoffs[game.owner(prm.name)], fixed)
            g = terms_of(E.diff(sysm.ring.gens[idx[prm.name]]), names)
            if not g:
                continue
            rt = terms_of(r, names)
            for value, sign in ((0, 1), (1, -1)):  # x = 0 when g is never > 0, 1 when never < 0
                if attains(g, sign):
                    continue
                # strict: the dominated side sign * g stays < 0 wherever the set is reached
                strict = not _weak_spot({m: sign * c for m, c in g.items()}, rt)
                if mode == "strict" and not strict:
                    break
                acts = game.infosets[I].actions
                other = next(a for a in acts if a != prm.action)
                bad = other if value == 1 else prm.action
                kind = "strictly dominated whenever reached" if strict else "weakly dominated"
                new.append(Elimination(prm.name, value, rnd, f"{prm.infoset} {bad!r} {kind}"))
                break
        if not new:
            break
        elims += new
        fixed.update({e.name: e.value for e in new})
    free = tuple(p.name for p in game.named if p.name not in fixed)
    return DominanceResult(tuple(elims), free, tuple(unreached), pot, mode, dict(fixed))


@dataclass(frozen=True)
class Gains:
    """Counterfactual gains of the parameters left free by ``fixed``: sympy conditions (as
    :func:`solvers.symbolic.model.conditions.conditions`) and their ring elements; ``idle``: the
    parameters whose information sets their owner's own fixed choices never reach (any value
    is realization-equivalent)."""

    conditions: tuple[Condition, ...]
    elements: tuple
    idle: tuple[str, ...]


def counterfactual_gains(sysm: GainSystem, fixed: Mapping[str, Any]) -> Gains:
    """``g_x = (dE_p/dx) / (p's own reach of x's information set)`` for every named
    parameter not in ``fixed``, with ``fixed`` substituted."""
    game = sysm.game
    syms = param_symbols(game)
    idx = {n: i for i, n in enumerate(sysm.names)}
    conds, elems, idle = [], [], []
    for prm in game.named:
        if prm.name in fixed:
            continue
        owner = game.owner(prm.name)
        own = sysm.fix(sysm.element(own_reach(game, game.infoset_index(prm.infoset))), fixed)
        if not own:
            idle.append(prm.name)
            continue
        E = sysm.fix(sysm.payoffs[owner], fixed)
        g = E.diff(sysm.ring.gens[idx[prm.name]])
        if g:  # an identically zero gain (the owner indifferent everywhere) stays zero:
            # sympy's division leaves no quotient for it (montyhal.efg, nim7.efg)
            q, rem = g.div([own])
            if rem:
                raise GameError(f"gain of {prm.name!r} is not a multiple of its own reach")
            g = q[0]
        elems.append(g)
        conds.append(Condition(prm.name, owner, syms[prm.name], g.as_expr()))
    return Gains(tuple(conds), tuple(elems), tuple(idle))


def undominated(game: Game, pot: Any, mode: str = "strict", system: GainSystem | None = None
                ) -> tuple[DominanceResult, Gains, dict[str, int]]:
    """Iterated dominance at ``pot`` (:func:`iterated_dominance_at`), the gains of the
    parameters it leaves, and every parameter it fixes: the dominated ones and the idle
    ones (sets their owner's fixed choices never reach) at 0."""
    sysm = system or gain_system(game, pot)
    dom = iterated_dominance_at(game, pot, mode, system=sysm)
    gains = counterfactual_gains(sysm, dom.fixed)
    return dom, gains, {**dom.fixed, **{n: 0 for n in gains.idle}}


def float_evaluator(elements, names: tuple[str, ...]):
    """``x (len(names),) -> values of every element`` in float arithmetic (for the case
    classification of learned profiles)."""
    mats = []
    for f in elements:
        terms = list(f.terms())
        mono = np.array([m for m, _ in terms], dtype=bool).reshape(len(terms), len(names))
        coef = np.array([float(c) for _, c in terms])
        mats.append((mono, coef))

    def evaluate(x: np.ndarray) -> np.ndarray:
        out = np.empty(len(mats))
        for k, (mono, coef) in enumerate(mats):
            out[k] = coef @ np.where(mono, x[None, :], 1.0).prod(axis=1) if len(coef) else 0.0
        return out

    return evaluate


def box_max(t: Terms, best: Any = None) -> Any:
    """Exact maximum over the vertices of the box (= over the box: ``t`` is multilinear)."""
    lo, hi = _bounds(t)
    if best is not None and hi <= best:
        return best
    best = lo if best is None or lo > best else best
    i = _pick(t)
    if i is None:
        return max(best, t.get(frozenset(), 0))
    for v in (1, 0):
        best = box_max(_set(t, i, v), best)
    return best


def exact_nash_conv_at(sysm: GainSystem, point: Mapping[str, Any]) -> sp.Rational:
    """Exact NashConv of the full game at ``point`` (every named parameter -> exact value):
    each player's best response is the maximum of their payoff over the box of their own
    parameters, found exactly by branch and bound."""
    game, dom = sysm.game, sysm.ring.domain
    names = sysm.names
    missing = [n for n in names if n not in point]
    if missing:
        raise GameError(f"point lacks values of {', '.join(missing)}")
    total = sp.Integer(0)
    for pl, E in enumerate(sysm.payoffs):
        others = [(sysm.ring.gens[i], dom.convert(sp.Rational(point[n])))
                  for i, n in enumerate(names) if game.owner(n) != pl]
        own = E.subs(others) if others else E
        t = terms_of(own, names)
        value = own.subs([(sysm.ring.gens[i], dom.convert(sp.Rational(point[n])))
                          for i, n in enumerate(names) if game.owner(n) == pl])
        total += sp.Rational(str(box_max(t))) - sp.Rational(str(_ground(value)))
    return total


def _ground(f) -> Any:
    return f.coeff(1) if f else 0
