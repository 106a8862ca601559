"""Iterated elimination of dominated actions, computed from the tree's symbolic payoffs.

At a two-action information set whose named parameter ``x`` (the probability of one action)
belongs to player ``p``, ``g_x = dE_p/dx`` is the gain of that action over the other, summed
over the set's nodes with their reach probabilities.  Payoffs are multilinear in the behaviour
parameters (perfect recall: each information set at most once on a path), so ``g_x`` is
multilinear in the remaining parameters and its extremes over the box ``[0, 1]^k`` are taken at
the box's vertices; the pot ``P`` enters the coefficients polynomially.

Definitions (``x = 1`` means "play the action of x"; ``x = 0`` the other action):

* ``x = 1`` is **weakly dominated** when ``g_x <= 0`` at every vertex for every pot in the
  range, and ``g_x`` is not identically zero (some profile makes it strictly worse).  At an
  isolated pot where ``g_x`` vanishes on the whole box both actions are payoff-equivalent, so
  fixing ``x`` there changes nobody's payoff.
* ``x = 1`` is **strictly dominated (whenever reached)** when in addition ``g_x < 0`` at every
  vertex where the information set is reached with positive probability.  Since ``g_x`` and the
  reach are multilinear and the reach is non-negative, this extends from the vertices to the
  whole box (multilinear interpolation).
* An information set reached with probability 0 on the whole box has ``g_x = 0`` identically;
  its parameter is never fixed and is listed in ``unreached``.

``x = 0`` is dominated in the same senses with the signs reversed.  Each round fixes every
parameter dominated in the current reduced game (simultaneously), substitutes, and repeats until
nothing changes.  Billingham sec. 2 removes the same actions by argument (points 1-4); here
they come out of the tree (tests/test_dominance.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm
from typing import Any

import numpy as np
import sympy as sp
from sympy.polys.domains import QQ
from sympy.polys.rings import PolyElement, PolyRing

from pokerdyn.games import Game, GameError
from pokerdyn.games.exact_values import domain_interval, exact_number
from pokerdyn.games.strategy import param_symbols, symbolic_strategy
from pokerdyn.games.tree import DECISION

from pokerdyn.solvers.symbolic.model.payoffs import symbolic_payoffs

MAX_VERTEX_PARAMS = 22  # 2**22 vertices x monomials is the memory ceiling of the check


@dataclass(frozen=True)
class Elimination:
    """One fixed parameter: ``name`` set to ``value`` (1 = its action, 0 = the other) in
    round ``round`` (1-based), because the other choice is dominated (``reason``)."""
    name: str
    value: int
    round: int
    reason: str


@dataclass(frozen=True)
class DominanceResult:
    """Outcome of :func:`iterated_dominance`: the eliminations in order, the parameters left
    free, those at never-reached information sets, the pot range decided on and the mode."""
    eliminations: tuple[Elimination, ...]
    free: tuple[str, ...]
    unreached: tuple[str, ...]
    pot: Any
    mode: str
    fixed: dict[str, int] = field(default_factory=dict)

    def summary(self) -> str:
        rows = [f"round {e.round}: {e.name} = {e.value}  ({e.reason})" for e in self.eliminations]
        return "\n".join(rows + [f"free: {', '.join(self.free)}"])


def _pot_range(game: Game, pot: Any) -> tuple[dict, sp.Set | None]:
    """(exact substitution for P, the interval of P decided on or None when P is fixed)."""
    psym = next((s for s in game.params if s.name == "P"), None)
    if psym is None:
        if pot is not None and not isinstance(pot, sp.Set):
            raise GameError(f"game {game.name!r} has no pot parameter P; got pot={pot!r}")
        return {}, None
    full = domain_interval(game, "P")
    if pot is None:
        return {}, full
    if isinstance(pot, sp.Set):
        sub = full.intersect(pot)
        if sub.is_empty or not isinstance(sub, sp.Interval):
            raise GameError(f"pot range {pot} is not an interval inside the domain {full}")
        return {}, sub
    from pokerdyn.solvers.symbolic.model.pot_values import exact_pot

    value = exact_pot(pot)  # the one pot reader: "(5+sqrt(73))/2" as --pot takes it
    if not full.contains(value):
        raise GameError(f"pot={pot} is outside the allowed range {full}")
    if not value.is_Rational:  # the ring is over QQ: P stays a generator, its signs exact
        return {}, sp.FiniteSet(value)  # at this one algebraic value (_signs)
    return {"P": value}, None


def _table(poly: PolyElement, used: list[int], pi: int | None,
           deg: int) -> tuple[np.ndarray, np.ndarray]:
    """(exponents of the ``used`` generators per monomial, integer coefficient rows in P,
    highest degree first, up to a positive factor) of a ring element."""
    rows: dict[tuple[int, ...], list] = {}
    for mono, c in poly.terms():
        row = rows.setdefault(tuple(mono[i] for i in used), [0] * deg)
        row[deg - 1 - (mono[pi] if pi is not None else 0)] = Fraction(int(c.numerator),
                                                                      int(c.denominator))
    den = lcm(*[f.denominator for row in rows.values() for f in row if f])
    ints = [[int(f * den) for f in row] for row in rows.values()]
    big = sum(abs(a) for row in ints for a in row) >= 2**62  # exact Python ints then
    C = np.array(ints, dtype=object if big else np.int64).reshape(-1, deg)
    return np.array(list(rows), dtype=np.int64).reshape(len(rows), len(used)), C


def _vertex_values(polys: list[PolyElement], free: list[int],
                   pi: int | None) -> list[np.ndarray]:
    """Per ring element, the polynomial in P (integer coefficients, highest degree first, up
    to a common positive factor) it takes at each vertex of the box of the generators
    ``free`` (indices; ``pi``: the index of P or None); only distinct vertex tuples are kept,
    in the same order for every element."""
    used = [i for i in free if any(q.degree(i) > 0 for q in polys)]
    if len(used) > MAX_VERTEX_PARAMS:
        raise GameError(f"{len(used)} parameters in one gain: more than {MAX_VERTEX_PARAMS}, "
                        "too many vertices for the dominance check")
    deg = 1 + max((max(q.degree(pi), 0) if pi is not None else 0) for q in polys)
    bits = (np.arange(2 ** len(used))[:, None] >> np.arange(len(used))[None, :]) & 1
    vals = []
    for q in polys:
        mono, C = _table(q, used, pi, deg)
        hit = (bits @ mono.T) == mono.sum(axis=1)[None, :]
        vals.append(hit.astype(np.int64) @ C)
    both = np.unique(np.hstack(vals), axis=0)
    return [both[:, i * deg:(i + 1) * deg] for i in range(len(polys))]


def _signs(rows: np.ndarray, pot_range: sp.Set | None, psym: sp.Symbol | None) -> set[int]:
    """Signs (-1, 0, 1) the polynomials ``rows`` take for P in ``pot_range`` (every P)."""
    out: set[int] = set()
    for row in rows:
        if pot_range is None or not row[:-1].any():
            out.add(int(np.sign(row[-1])))
            continue
        poly = sp.Poly([int(a) for a in row], psym)
        if isinstance(pot_range, sp.FiniteSet):  # one algebraic pot: the exact sign there
            from pokerdyn.solvers.symbolic.feasibility import algebraic
            out.update(algebraic.sign(poly.as_expr().xreplace({psym: v})) for v in pot_range)
            continue
        roots = sorted(set(sp.real_roots(poly)), key=lambda r: float(r.evalf(30)))
        inside = [r for r in roots if pot_range.contains(r) == sp.true]
        if inside:
            out.add(0)
        pts = [r.evalf(40) for r in roots]
        lo, hi = pot_range.inf, pot_range.sup
        cuts = [lo] + [p for p in pts if lo < p < hi] + [hi]
        for a, b in zip(cuts, cuts[1:]):
            if a == b:
                continue
            s = (a + b) / 2 if a.is_finite and b.is_finite else \
                (b - 1 if not a.is_finite and b.is_finite else a + 1 if a.is_finite else 0)
            out.add(int(sp.sign(poly.eval(sp.nsimplify(s, rational=True)))))
        for end, is_open in ((lo, pot_range.left_open), (hi, pot_range.right_open)):
            if end.is_finite and not is_open:
                out.add(int(sp.sign(poly.eval(end))))
    return out


def _reach(game: Game, R: PolyRing | None = None) -> dict[int, Any]:
    """Reach probability of each decision information set (chance and every action to it),
    in the ring ``R`` of the parameters (None: as expanded sympy expressions)."""
    if R is None:
        ring = PolyRing(list(param_symbols(game).values()), QQ)
        return {I: r.as_expr() for I, r in _reach(game, ring).items()}
    probs = [[R.from_expr(e) for e in row] for row in symbolic_strategy(game)]
    reach: list[Any] = [R.one] * game.n_nodes
    out: dict[int, PolyElement] = {}
    for n in range(game.n_nodes):
        p = int(game.parent[n])
        if p >= 0:
            w = game.edge_prob[n]
            step = probs[int(game.infoset[p])][int(game.edge[n])] if game.kind[p] == DECISION \
                else R.from_expr(exact_number(w) if isinstance(w, (float, np.floating))
                                 else sp.sympify(w))
            reach[n] = reach[p] * step
        if game.kind[n] == DECISION:
            I = int(game.infoset[n])
            out[I] = out.get(I, R.zero) + reach[n]
    return out


def _dominated(g_rows: np.ndarray, r_rows: np.ndarray, strict_mode: bool,
               pot_range: sp.Set | None, psym: sp.Symbol | None) -> tuple[int | None, str]:
    """(value to fix x at or None, the dominance kind) from the vertex polynomials of g_x and
    of the information set's reach."""
    gs = _signs(g_rows, pot_range, psym)
    if gs <= {0}:
        return None, ""
    for value, worse in ((0, 1), (1, -1)):  # x = 0 when g <= 0; x = 1 when g >= 0
        if worse in gs:
            continue
        reached = [i for i in range(len(g_rows)) if r_rows[i].any()]
        strict = 0 not in _signs(g_rows[reached], pot_range, psym)
        if strict_mode and not strict:
            return None, ""
        return value, "strictly dominated whenever reached" if strict else "weakly dominated"
    return None, ""


def iterated_dominance(game: Game, pot: Any = None, mode: str = "weak",
                       max_rounds: int = 100) -> DominanceResult:
    """Iterated elimination of dominated actions at two-action information sets.

    Parameters
    ----------
    game : a game with named parameters.
    pot : ``None`` decides every elimination for all P in the game's domain (exactly, by the
        real roots of the gains' coefficient polynomials); a sympy ``Interval`` restricts that
        range; a number or a string such as ``"15/2"`` fixes P exactly.
    mode : ``"weak"`` (never better, sometimes worse) or ``"strict"`` (worse whenever reached).
    """
    if mode not in ("weak", "strict"):
        raise GameError(f"mode={mode!r} is not one of weak, strict")
    if not game.named:
        raise GameError(f"game {game.name!r} has no named parameters")
    subs, pot_range = _pot_range(game, pot)
    psym = next((s for s in game.params if s.name == "P"), None) if pot_range is not None else None
    syms = param_symbols(game)
    two = [p for p in game.named if len(game.infosets[game.infoset_index(p.infoset)].actions) == 2]
    # sparse polynomials over QQ: derivatives and substitutions many times faster than on
    # sympy expressions (P the last generator when it is kept symbolic)
    R = PolyRing([syms[p.name] for p in game.named] + ([psym] if psym is not None else []), QQ)
    idx = {p.name: i for i, p in enumerate(game.named)}
    pi = len(game.named) if psym is not None else None
    E = [R.from_expr(e) for e in symbolic_payoffs(game, subs)]
    reach = _reach(game, R)
    fixed: dict[str, int] = {}
    elims: list[Elimination] = []
    unreached: list[str] = []
    for rnd in range(1, max_rounds + 1):
        at = [(idx[k], v) for k, v in fixed.items()]
        free = [idx[p.name] for p in game.named if p.name not in fixed]
        new: list[Elimination] = []
        for p in two:
            if p.name in fixed or p.name in unreached:
                continue
            g = E[game.owner(p.name)].diff(R.gens[idx[p.name]])
            r = reach[game.infoset_index(p.infoset)]
            if at:
                g, r = g.subs(at), r.subs(at)
            if not r:
                unreached.append(p.name)
                continue
            g_rows, r_rows = _vertex_values([g, r], free, pi)
            value, reason = _dominated(g_rows, r_rows, mode == "strict", pot_range, psym)
            if value is not None:
                acts = game.infosets[game.infoset_index(p.infoset)].actions
                other = next(a for a in acts if a != p.action)
                bad = other if value == 1 else p.action
                new.append(Elimination(p.name, value, rnd, f"{p.infoset} {bad!r} {reason}"))
        if not new:
            break
        elims += new
        fixed.update({e.name: e.value for e in new})
    free = tuple(p.name for p in game.named if p.name not in fixed)
    return DominanceResult(tuple(elims), free, tuple(unreached), pot if pot is not None else
                           pot_range, mode, dict(fixed))


def reduce_game(game: Game, pot: Any = None, mode: str = "weak") -> dict[str, int]:
    """The restricted game as the parameters that iterated dominance fixes (name -> 0 or 1);
    substitute them into :func:`symbolic_payoffs` to enumerate over the free ones only."""
    return iterated_dominance(game, pot, mode).fixed


__all__ = ["DominanceResult", "Elimination", "iterated_dominance", "reduce_game"]
