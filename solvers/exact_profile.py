"""Exact (``fractions.Fraction``) expected payoffs and best-response values of a behaviour
profile with rational probabilities, for small games: a profile whose best-response values
equal its payoffs exactly is an exact equilibrium, and its payoff is then the exact value.

Chance probabilities and payoffs of builder games are floats of exact rationals (card-removal
weights, chip counts); :func:`rational` recovers them and refuses a float that is not one.
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Mapping, Sequence

import numpy as np

from pokerdyn.games import Game, GameError
from pokerdyn.games.exact_values import exact_number
from pokerdyn.games.tree import CHANCE

from pokerdyn.solvers._kernels import infoset_tree


def rational(x: float, limit: int = 10**7) -> Fraction:
    """``x`` as a Fraction with denominator up to ``limit`` (the rational whose nearest float
    ``x`` is, games.exact_values.exact_number); GameError if there is none."""
    r = exact_number(float(x))
    if r.q > limit:
        raise GameError(f"{x!r} is not a rational with a denominator up to {limit}")
    return Fraction(int(r.p), int(r.q))


def exact_values(game: Game, sigma: dict[str, tuple], payoffs: Sequence[Sequence[Fraction]]
                 | None = None) -> tuple[list, list]:
    """Exact ``(payoffs, best_response_values)`` of every player under ``sigma`` (information
    set label -> action probabilities as Fractions, in the set's action order).
    ``payoffs``: exact terminal payoffs (rows in ``game.payoffs`` order), for games whose own
    are symbolic (a pot ``P``); default: the game's numeric payoffs as rationals.

    The probabilities and payoffs are brought to common denominators and the passes of
    :func:`integer_values` run on Python integers (no gcd per operation)."""
    probs = _exact_profile(game, sigma)
    if payoffs is not None:
        _check_payoff_rows(game, payoffs)
    if payoffs is None:
        memo: dict[float, Fraction] = {}
        payoffs = [[memo[u] if u in memo else memo.setdefault(u, rational(u))
                    for u in map(float, row)] for row in game.payoffs]
    sden = math.lcm(*(p.denominator for row in probs for p in row))
    pden = math.lcm(*(u.denominator for row in payoffs for u in row))
    snum = [tuple(p.numerator * (sden // p.denominator) for p in row) for row in probs]
    pnum = [[u.numerator * (pden // u.denominator) for u in row] for row in payoffs]
    return integer_values(game, snum, sden, pnum, pden)


def nash_conv(game: Game, sigma: Mapping[str, Sequence], payoffs: Sequence[Sequence[Fraction]]
              | None = None) -> Fraction:
    """Exact NashConv of ``sigma`` (the sum over players of the best-response gain; 0 exactly
    at an equilibrium): the exact counterpart of :func:`solvers.evaluation.nash_conv`, with
    ``sigma`` and ``payoffs`` as in :func:`exact_values`."""
    values, best = exact_values(game, sigma, payoffs)
    return sum((b - v for b, v in zip(best, values)), Fraction(0))


def named_profile(game: Game, point: Mapping[str, Any]) -> dict[str, tuple]:
    """The profile of ``point`` (every named parameter -> its exact rational value) as
    information set label -> action probabilities (Fractions; a set's unnamed action gets 1
    minus its named ones, a one-action set 1), the ``sigma`` of :func:`exact_values`.
    GameError when a parameter is missing, unknown or not a rational number."""
    names = {p.name for p in game.named}
    unknown = [k for k in point if k not in names]
    missing = [k for k in sorted(names) if k not in point]
    if unknown:
        raise GameError(f"point has the parameter {unknown[0]!r}, not a named parameter of "
                        f"{game.name!r} ({', '.join(sorted(names))})")
    if missing:
        raise GameError(f"point has no value of {missing[0]!r}; it needs one per named "
                        f"parameter of {game.name!r}")
    rows: dict[str, list] = {s.label: [None] * len(s.actions) for s in game.infosets}
    for prm in game.named:
        v = _exact_rational(point[prm.name])
        if v is None:
            raise GameError(f"point[{prm.name!r}] = {point[prm.name]!r} is not an exact "
                            "rational number (int, Fraction, sympy Rational or 'p/q')")
        s = game.infosets[game.infoset_index(prm.infoset)]
        rows[s.label][s.actions.index(prm.action)] = v
    for label, row in rows.items():
        rest = 1 - sum((v for v in row if v is not None), Fraction(0))
        rows[label] = [rest if v is None else v for v in row]
    return {label: tuple(row) for label, row in rows.items()}


def _exact_rational(v: Any) -> Fraction | None:
    """``v`` as a Fraction if it is an exact rational (not a float), else None."""
    if isinstance(v, (bool, float, np.floating)):
        return None
    if hasattr(v, "is_Rational"):  # a sympy number
        return Fraction(int(v.p), int(v.q)) if v.is_Rational else None
    try:
        return Fraction(v)
    except (TypeError, ValueError):
        return None


def _exact_profile(game: Game, sigma: Mapping[str, Sequence]) -> list[tuple[Fraction, ...]]:
    """The rows of the exact profile ``sigma`` in ``game.infosets`` order as Fractions;
    GameError unless every information set has one row of ``len(actions)`` rationals >= 0
    (longer rows are padded with zeros, as the rows of a profile array) summing to exactly 1 and no other label is given (the exact counterpart of
    games.strategy.check_strategy, which checks float arrays of a compiled game)."""
    if not isinstance(sigma, Mapping):
        raise GameError(f"sigma must be a dict {{information set label: probabilities}}, "
                        f"not {type(sigma).__name__}")
    labels = {s.label for s in game.infosets}
    extra = [k for k in sigma if k not in labels]
    if extra:
        raise GameError(f"sigma has information set {extra[0]!r}, not one of game "
                        f"{game.name!r}; allowed: its {len(labels)} information-set labels")
    rows = []
    for s in game.infosets:
        if s.label not in sigma:
            raise GameError(f"sigma needs the information set {s.label!r} (probabilities of "
                            f"{', '.join(s.actions)})")
        raw = sigma[s.label]
        try:
            row = tuple(Fraction(p) for p in raw)
        except (TypeError, ValueError, OverflowError):
            raise GameError(f"sigma[{s.label!r}] = {raw!r} must be a sequence of rational "
                            "numbers in [0, 1]") from None
        n = len(s.actions)
        if len(row) < n or any(row[n:]):  # entries past the actions: padding, must be 0
            raise GameError(f"sigma[{s.label!r}] has {len(row)} probabilities; it must have "
                            f"{n}, one per action ({', '.join(s.actions)}), and any entries "
                            "after them must be 0 (padding, as in a profile array)")
        row = row[:n]
        neg = [p for p in row if p < 0]
        if neg:
            raise GameError(f"sigma[{s.label!r}] has the probability {neg[0]}, outside the "
                            "allowed range [0, 1]")
        if sum(row) != 1:
            raise GameError(f"sigma[{s.label!r}] sums to {sum(row)}, not 1; an information "
                            "set's probabilities must sum to exactly 1")
        rows.append(row)
    return rows


def _check_payoff_rows(game: Game, payoffs: Sequence[Sequence]) -> None:
    """GameError unless ``payoffs`` has one row of ``n_players`` numbers per terminal."""
    n_t, n_p = len(game.payoffs), game.n_players
    if len(payoffs) != n_t or any(len(row) != n_p for row in payoffs):
        shape = (len(payoffs), sorted({len(row) for row in payoffs}))
        raise GameError(f"payoffs has {shape[0]} rows of lengths {shape[1]}; game "
                        f"{game.name!r} needs {n_t} rows (terminals) of {n_p} (players)")


_CHANCE: dict[int, tuple] = {}   # id(game) -> (game, numerators, denominator), a few games


def _chance(game: Game) -> tuple[dict[int, int], int]:
    """Chance edges' probabilities as numerators over one common denominator (cached per
    game: a certificate of a continuation calls this once per branch point)."""
    got = _CHANCE.get(id(game))
    if got is not None and got[0] is game:
        return got[1], got[2]
    kind, parent = game.kind.tolist(), game.parent.tolist()
    fr = {i: rational(game.edge_prob[i]) for i in range(1, game.n_nodes)
          if kind[parent[i]] == CHANCE}
    den = math.lcm(*(f.denominator for f in fr.values())) if fr else 1
    num = {i: f.numerator * (den // f.denominator) for i, f in fr.items()}
    if len(_CHANCE) >= 8:
        _CHANCE.clear()
    _CHANCE[id(game)] = (game, num, den)
    return num, den


def integer_values(game: Game, sig_num: Sequence[Sequence[int]], sig_den: int,
                   pay_num: Sequence[Sequence[int]], pay_den: int,
                   ratio=Fraction) -> tuple[list, list]:
    """:func:`exact_values` on integers: action ``a`` of set ``I`` has probability
    ``sig_num[I][a] / sig_den``, terminal ``t`` pays player ``p`` ``pay_num[t][p] / pay_den``.

    A node's reach is an integer numerator over ``sig_den**k * chance_den**c`` (``k``, ``c``:
    the probabilities multiplied in on its path); each terminal's is scaled to the largest
    ``k`` and ``c``, so sums and maxima are exact on integers.  Expected payoffs: one pass
    with everyone's probabilities.  Best-response values: per player one forward pass
    (chance and the others' reach per own sequence) and a backup of the maxima over her
    sets, children first (the sequence-form passes of :mod:`solvers._kernels`).  ``ratio(
    numerator, denominator)`` makes each result (:class:`Quadratic` numerators: their own
    division)."""
    kind, parent, edge, player, infoset = (a.tolist() for a in (
        game.kind, game.parent, game.edge, game.player, game.infoset))
    n, n_inf = game.n_nodes, len(game.infosets)
    n_actions = [len(s.actions) for s in game.infosets]
    amax = max(n_actions, default=1)
    term = [-1] * n
    for k, t in enumerate(np.asarray(game.terminal_node).tolist()):
        term[t] = k
    chance, cden = _chance(game)

    def forward(who: int) -> tuple[list, int]:
        """(seq, reach, scaled to the common denominator, terminal) per reached terminal,
        and that denominator; ``who = -1``: everyone's probabilities."""
        reach, ks, kc, seq = [0] * n, [0] * n, [0] * n, [-1] * n
        reach[0] = 1
        out = []
        for i in range(1, n):
            q = parent[i]
            if kind[q] == CHANCE:
                reach[i], ks[i], kc[i], seq[i] = reach[q] * chance[i], ks[q], kc[q] + 1, seq[q]
            elif player[q] == who:
                reach[i], ks[i], kc[i] = reach[q], ks[q], kc[q]
                seq[i] = infoset[q] * amax + edge[i]
            else:
                reach[i], ks[i], kc[i] = reach[q] * sig_num[infoset[q]][edge[i]], ks[q] + 1, kc[q]
                seq[i] = seq[q]
            if term[i] >= 0 and reach[i]:
                out.append(i)
        s_max = max((ks[i] for i in out), default=0)
        c_max = max((kc[i] for i in out), default=0)
        rows = [(seq[i], reach[i] * sig_den ** (s_max - ks[i]) * cden ** (c_max - kc[i]),
                 term[i]) for i in out]
        return rows, sig_den ** s_max * cden ** c_max * pay_den

    rows, den = forward(-1)
    values = [ratio(sum(r * pay_num[t][p] for _, r, t in rows), den)
              for p in range(game.n_players)]
    best = []
    for who in range(game.n_players):
        iparent, topo = infoset_tree(game.kind, game.player, game.parent, game.edge,
                                     game.infoset, n_inf, amax, who)
        rows, den = forward(who)
        direct: dict[int, int] = {}
        for s, r, t in rows:
            direct[s] = direct.get(s, 0) + r * pay_num[t][who]
        best.append(ratio(_best_up(topo.tolist(), iparent.tolist(), direct, n_actions,
                                      amax), den))
    return values, best


def _best_up(topo, iparent, direct, n_actions, amax) -> int:
    """The player's best-response value: own-sequence sums backed up her sets, children
    first, each set's value the largest of its actions' values."""
    cfv = {(I, a): direct.get(I * amax + a, 0) for I in topo for a in range(n_actions[I])}
    root = direct.get(-1, 0)
    for J in reversed(topo):
        val = max(cfv[J, a] for a in range(n_actions[J]))
        s = iparent[J]
        if s >= 0:
            cfv[s // amax, s % amax] += val
        else:
            root += val
    return root


class Quadratic:
    """An exact number ``a + b sqrt(d)`` of the field QQ(sqrt d) (``a``, ``b`` int or
    Fraction, ``d`` a positive square-free integer), with the operations and the exact order
    that :func:`integer_values` needs: the values and best responses of a profile whose
    probabilities lie in QQ(sqrt d) (an equilibrium on a curve whose values carry a square
    root of the curve's parameter) are exact."""

    __slots__ = ("a", "b", "d")

    def __init__(self, a, b, d: int):
        self.a, self.b, self.d = a, b, d

    def _lift(self, o) -> "Quadratic":
        if isinstance(o, Quadratic):
            if o.d != self.d:
                raise ValueError(f"sqrt({o.d}) and sqrt({self.d}) in one computation")
            return o
        return Quadratic(o, 0, self.d)

    def __add__(self, o):
        o = self._lift(o)
        return Quadratic(self.a + o.a, self.b + o.b, self.d)

    __radd__ = __add__

    def __neg__(self):
        return Quadratic(-self.a, -self.b, self.d)

    def __sub__(self, o):
        return self + (-self._lift(o))

    def __rsub__(self, o):
        return self._lift(o) - self

    def __mul__(self, o):
        o = self._lift(o)
        return Quadratic(self.a * o.a + self.b * o.b * self.d, self.a * o.b + self.b * o.a,
                         self.d)

    __rmul__ = __mul__

    def __truediv__(self, q):
        """Division by a rational (what :func:`integer_values` asks for)."""
        q = Fraction(q)
        return Quadratic(Fraction(self.a) / q, Fraction(self.b) / q, self.d)

    def sign(self) -> int:
        """The exact sign: ``a`` and ``b sqrt d`` compared by their squares."""
        sa, sb = (self.a > 0) - (self.a < 0), (self.b > 0) - (self.b < 0)
        if sa == sb or sb == 0:
            return sa
        if sa == 0:
            return sb
        big = self.a * self.a - self.b * self.b * self.d
        return sa if big > 0 else sb

    def __bool__(self):
        return self.a != 0 or self.b != 0

    def __eq__(self, o):
        return not (self - o)

    def __lt__(self, o):
        return (self - o).sign() < 0

    def __gt__(self, o):
        return (self - o).sign() > 0

    def __le__(self, o):
        return not self > o

    def __ge__(self, o):
        return not self < o

    __hash__ = None

    def __repr__(self):
        return f"({self.a} + {self.b}*sqrt({self.d}))"


def quadratic_values(game: Game, probs: Sequence[Sequence], payoffs: Sequence[Sequence[Fraction]],
                     d: int) -> tuple[list, list]:
    """:func:`exact_values` for probabilities in QQ(sqrt d) (``probs[I][a]``: a
    :class:`Quadratic` or a rational, per information set in ``game.infosets`` order): the
    payoffs and best-response values as :class:`Quadratic` numbers."""
    num = [tuple(p if isinstance(p, Quadratic) else Quadratic(Fraction(p), 0, d) for p in row)
           for row in probs]
    pden = math.lcm(*(Fraction(u).denominator for row in payoffs for u in row))
    pnum = [[int(Fraction(u) * pden) for u in row] for row in payoffs]
    return integer_values(game, num, 1, pnum, pden, ratio=lambda x, q: x / q)


__all__ = ["Quadratic", "exact_values", "integer_values", "named_profile", "nash_conv",
           "quadratic_values", "rational"]
