"""Maxmin choice among a finite list of candidate profiles (Billingham sec. 3).

Each player ``p`` chooses which candidate's values of *p's own* parameters to play; the
others choose likewise, independently.  Candidates with equal values of p's parameters are
one option for p (in SKP player 3's ``b_J = 2/P`` is shared by Solutions 2 and 3, so player 3
has two options).  p's worst case for an option is the minimum of E_p over all the other
players' option combinations; p's maxmin options are those with the largest worst case.
Ties are common (a player indifferent at the others' equilibrium values has the same worst
case for every option), so the result also gives the **leximin** refinement: among the tied
options, compare the sorted vectors of p's payoffs over the others' choices lexicographically
(worst first, then the second worst, ...).

With a symbolic pot the choice is piecewise in P: every expected payoff is a rational
function of P, so the choice can only change where two of them cross (real roots of the
numerators of their differences) or where a candidate leaves [0, 1]; between consecutive
critical values one rational sample decides, and each critical value is decided exactly on
its own.  Adjacent pieces with the same choice and value are merged.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Any, Mapping, Sequence

import sympy as sp
from functools import cmp_to_key, lru_cache

from pokerdyn.games import Game, GameError
from pokerdyn.games.exact_values import domain_interval, exact_number
from pokerdyn.games.strategy import param_symbols

from pokerdyn.solvers.symbolic.model.payoffs import symbolic_payoffs


@dataclass(frozen=True)
class MaxminPiece:
    """On ``interval`` (a sympy Interval, or a FiniteSet for one pot) the player's maxmin
    options are ``picks`` (each a tuple of the candidate indices sharing those own values;
    several options can tie), guaranteeing ``value`` (an expression in P); ``leximin`` are
    the picks that the leximin refinement keeps."""
    interval: sp.Set
    picks: tuple[tuple[int, ...], ...]
    value: sp.Expr
    leximin: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class MaxminResult:
    """Per player (0-based) the options (tuples of candidate indices with equal own values)
    and the pieces of the P axis with the player's maxmin choice."""
    options: tuple[tuple[tuple[int, ...], ...], ...]
    pieces: tuple[tuple[MaxminPiece, ...], ...]

    def at(self, player: int, pot: Any) -> MaxminPiece:
        """The piece of ``player`` that contains ``pot``."""
        from pokerdyn.solvers.symbolic.model.pot_values import exact_pot

        x = pot if isinstance(pot, sp.Basic) else exact_pot(pot)  # the one pot reader
        for piece in self.pieces[player]:
            if piece.interval.contains(x) == sp.true:
                return piece
        raise GameError(f"pot={pot} is outside the range the maxmin was computed on")


class _RF:
    """A rational function of P as two polynomials; exact sign at rational or algebraic P."""

    def __init__(self, expr: sp.Expr, psym: sp.Symbol):
        num, den = sp.fraction(sp.cancel(sp.together(expr)))
        self.num, self.den = sp.Poly(num, psym, domain="QQ"), sp.Poly(den, psym, domain="QQ")
        self.psym = psym

    def expr(self) -> sp.Expr:
        return sp.factor(self.num.as_expr() / self.den.as_expr())

    def minus(self, other: "_RF") -> "_RF":
        out = object.__new__(_RF)
        out.num = self.num * other.den - other.num * self.den
        out.den, out.psym = self.den * other.den, self.psym
        return out

    def key(self) -> tuple:
        return (tuple(self.num.monic().all_coeffs()) if not self.num.is_zero else (),
                tuple(self.den.monic().all_coeffs()), self.num.LC() / self.den.LC()
                if not self.num.is_zero else 0)

    def sign(self, x: sp.Expr) -> int | None:
        """Sign at P = x; None at a pole."""
        s = [_poly_sign(q, x) for q in (self.num, self.den)]
        return None if s[1] == 0 else s[0] * s[1]


@lru_cache(maxsize=None)
def _algebraic(x: sp.Expr, var: sp.Symbol) -> tuple[sp.Poly, sp.Float]:
    """(minimal polynomial over Q, 80-digit value) of an algebraic critical value."""
    return sp.Poly(sp.minimal_polynomial(x, var), var, domain="QQ"), x.evalf(80)


def _poly_sign(q: sp.Poly, x: sp.Expr) -> int:
    if x.is_Rational:
        return int(sp.sign(q.eval(x)))
    m, xf = _algebraic(x, q.gens[0])
    if q.rem(m).is_zero:  # x is a root of q exactly when its minimal polynomial divides q
        return 0
    return 1 if q.eval(xf) > 0 else -1  # nonzero, and far above 80-digit rounding here


def _options(game: Game, cands: list[dict[str, _RF]]) -> list[list[tuple[int, ...]]]:
    out = []
    for p in range(game.n_players):
        own = [n for n in game.named_names if game.owner(n) == p]
        groups: dict[tuple, list[int]] = {}
        for i, c in enumerate(cands):
            groups.setdefault(tuple(c[n].key() for n in own), []).append(i)
        out.append([tuple(g) for g in groups.values()])
    return out


def _critical(fns: Sequence[_RF], rng: sp.Interval) -> list[sp.Expr]:
    """Real roots inside ``rng`` of the numerators and denominators of ``fns``, sorted."""
    pts: dict[str, sp.Expr] = {}
    polys = {q.monic().all_coeffs().__repr__(): q for f in fns for q in (f.num, f.den)
             if q.degree() > 0}
    for q in polys.values():
        for r in sp.real_roots(q):
            if rng.contains(r) == sp.true:
                pts.setdefault(str(r.evalf(50)), r)
    return sorted(pts.values(), key=lambda r: float(r.evalf(30)))


def _samples(rng: sp.Interval, cuts: list[sp.Expr]) -> list[tuple[sp.Set, sp.Expr]]:
    """(piece, exact sample point) for the open pieces between ``cuts`` and the cuts, in
    order (closed finite ends of ``rng`` are pieces of their own)."""
    cuts = [c for c in cuts if rng.inf < c < rng.sup]
    ends = [rng.inf] + cuts + [rng.sup]
    out = []
    if rng.inf.is_finite and not rng.left_open:
        out.append((sp.FiniteSet(rng.inf), rng.inf))
    for k, (a, b) in enumerate(zip(ends, ends[1:])):
        if a.is_finite and b.is_finite:
            s = sp.nsimplify(((a + b) / 2).evalf(40), rational=True)
        else:
            s = sp.floor(b) - 1 if b.is_finite else (sp.ceiling(a) + 1 if a.is_finite else 0)
        out.append((sp.Interval.open(a, b), sp.Rational(s)))
        if k < len(cuts):
            out.append((sp.FiniteSet(b), b))
    if rng.sup.is_finite and not rng.right_open:
        out.append((sp.FiniteSet(rng.sup), rng.sup))
    return out


def _pot_range(game: Game, pot: Any, psym: sp.Symbol | None) -> sp.Set:
    if psym is None or (pot is not None and not isinstance(pot, sp.Set)):
        return sp.FiniteSet(exact_number(pot, "pot") if pot is not None else sp.Integer(0))
    rng = domain_interval(game, "P")
    rng = rng.intersect(pot) if pot is not None else rng
    if not isinstance(rng, sp.Interval):
        raise GameError(f"pot range {pot} is not an interval inside the game's domain")
    return rng


def maxmin(game: Game, candidates: Sequence[Mapping[str, Any]], pot: Any = None,
           require_valid: bool = True) -> MaxminResult:
    """Maxmin choice of every player among ``candidates`` (each a complete profile: named
    parameter -> number or sympy expression in P; a symbol named ``P`` is the game's pot).

    ``pot``: a number or string (``"15/2"``) fixes P; ``None`` or a sympy Interval computes
    the choice piecewise over P (the game's domain, intersected with the interval), with
    exact breakpoints.  With ``require_valid`` a candidate is offered only where all its
    values lie in [0, 1] (e.g. Billingham's Solution 3 only for P >= P*).
    """
    if not candidates:
        raise GameError("maxmin needs at least one candidate profile")
    syms = param_symbols(game)
    psym = next((s for s in game.params if s.name == "P"), None)
    var = psym if psym is not None else sp.Dummy("P")
    raw = []
    for i, c in enumerate(candidates):
        missing = [n for n in game.named_names if n not in c]
        if missing:
            raise GameError(f"candidate {i} gives no value for {', '.join(missing)}")
        raw.append({n: sp.sympify(c[n]).subs(sp.Symbol("P"), var).subs(
            sp.Symbol("P", positive=True), var) for n in game.named_names})
    cands = [{n: _RF(v, var) for n, v in c.items()} for c in raw]
    rng = _pot_range(game, pot, psym)
    options = _options(game, cands)
    E = symbolic_payoffs(game)
    n = game.n_players
    joint = {}
    for ch in product(*[range(len(o)) for o in options]):
        at = {syms[k]: raw[options[game.owner(k)][ch[game.owner(k)]][0]][k]
              for k in game.named_names}
        joint[ch] = [_RF(E[p].subs(at), var) for p in range(n)]
    one = _RF(sp.Integer(1), var)
    bounds = [f for c in cands for v in c.values() for f in (v, v.minus(one))]
    pieces = []
    for p in range(n):
        if isinstance(rng, sp.FiniteSet):
            samples = [(rng, next(iter(rng)))]
        else:
            distinct = list({f[p].key(): f[p] for f in joint.values()}.values())
            diffs = [a.minus(b) for i, a in enumerate(distinct) for b in distinct[i + 1:]]
            samples = _samples(rng, _critical(bounds + diffs, rng))
        found = [_decide(p, joint, cands, options, piece, x, require_valid)
                 for piece, x in samples]
        if isinstance(rng, sp.FiniteSet):  # one pot: the guaranteed value as a number
            found = [MaxminPiece(f.interval, f.picks, f.value.subs(var, samples[0][1]),
                                 f.leximin) for f in found]
        pieces.append(_merge(found) if len(found) > 1 else tuple(found))
    return MaxminResult(tuple(tuple(o) for o in options), tuple(pieces))


def _decide(p, joint, cands, options, piece, x, require_valid) -> MaxminPiece:
    ok = [not require_valid or all(f.sign(x) is not None and f.sign(x) >= 0 and
                                   (f.minus(_RF(sp.Integer(1), f.psym)).sign(x) or 0) <= 0
                                   for f in c.values()) for c in cands]
    avail = [[j for j, g in enumerate(o) if any(ok[i] for i in g)] for o in options]
    if not all(avail):
        return MaxminPiece(piece, (), sp.nan, ())

    def cmp(a: _RF, b: _RF) -> int:
        return a.minus(b).sign(x)

    ranked = {i: sorted((joint[ch][p] for ch in product(*avail) if ch[p] == i),
                        key=cmp_to_key(cmp)) for i in avail[p]}
    best = max(avail[p], key=cmp_to_key(lambda i, j: cmp(ranked[i][0], ranked[j][0])))
    picks = [i for i in avail[p] if cmp(ranked[i][0], ranked[best][0]) == 0]

    def lex(i: int, j: int) -> int:
        return next((s for s in (cmp(a, b) for a, b in zip(ranked[i], ranked[j])) if s), 0)

    top = max(picks, key=cmp_to_key(lex))
    leximin = [i for i in picks if lex(i, top) == 0]
    value = ranked[best][0].expr()
    return MaxminPiece(piece, tuple(options[p][i] for i in picks), value,
                       tuple(options[p][i] for i in leximin))


def _merge(pieces: list[MaxminPiece]) -> tuple[MaxminPiece, ...]:
    out: list[MaxminPiece] = []
    for pc in pieces:
        last = out[-1] if out else None
        if last is not None and (last.picks, last.leximin) == (pc.picks, pc.leximin) and (
                not pc.picks or sp.simplify(last.value - pc.value) == 0):
            out[-1] = MaxminPiece(last.interval.union(pc.interval), pc.picks, last.value,
                                  pc.leximin)
        else:
            out.append(pc)
    return tuple(out)


__all__ = ["MaxminPiece", "MaxminResult", "maxmin"]


def maxmin_of_equilibria(game: Game, pot: Any) -> tuple[list[dict[str, sp.Expr]], MaxminResult]:
    """Maxmin choice among the game's own enumerated equilibria at ``pot`` (families without
    free parameters, from :func:`solvers.symbolic.axis.piecewise.solutions_at`), in enumeration order.

    Returns the candidate profiles (closed forms in P) and the :class:`MaxminResult` at that
    pot.  Billingham sec. 3 applies this to SKP's three solutions for P > P*.
    """
    from pokerdyn.solvers.symbolic.axis.piecewise import solutions_at

    candidates = [s.as_dict() for s in solutions_at(game, pot) if not s.free]
    if not candidates:
        raise GameError(f"game {game.name!r} has no isolated equilibrium at pot={pot}")
    return candidates, maxmin(game, candidates, pot)
