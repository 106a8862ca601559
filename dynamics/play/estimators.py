"""Estimators of the opponents' frequencies from the last L observations (Billingham App. D).

Two families, both functions of the counts of a player's observation classes over the
window (:mod:`dynamics.play.observation`):

* **Ratio estimators** ``x = (sum_i w_i N_i) / (sum_i v_i N_i)`` over counts ``N_ij`` of
  (betting sequence i, deal j) cells, as printed in Billingham (44)-(47).  Each is checked
  symbolically against the observation model (:func:`bias`): it is unbiased in the paper's
  sense (L -> infinity, ratio of expectations) iff ``E[num] - x E[den]`` vanishes
  identically.  Findings (``tests/test_estimators.py``):

  - (44), (45), (47) pass; **(46) fails**: its expected ratio is ``4c(1+b)/(4+2b+bc)``
    (Player 2 cannot tell D7 from D8 under bfc and that class needs weight 2, like
    ``N22 + N24``; :func:`corrected` derives this minimal fix from Table 2).
  - The factors 5/6 in (44), 3/2 in (47) and the mixed weights 2 and 1 of (45) make the
    estimators biased at finite L (measurably at L = 96: (44) by about -1e-3, corrected (46)
    by +5e-3).  A ratio ``a N_s / (N_s + N_f)`` whose denominator cells all have weight 1
    and whose numerator is a subset of them *is* unbiased for every L: given the count n of
    the denominator cells in the window, ``N_s ~ Binomial(n, x / a)`` (hands are i.i.d.).

  ``estimator="unbiased"`` (default) therefore uses binomial forms derived from Table 2
  (:func:`is_binomial` checks the structure, :func:`bias` the expectation): (44) without the
  D9 checks and the 5/6 factor, (45) and (47) from the hands where Player 3 holds A, and
  ``2(N34 + N57) / (N34 + N57 + N22 + N24 + N47 + N48)`` for Player 2's c_K.
  ``estimator="paper"`` keeps the printed formulas; ``estimator="corrected"`` keeps the
  printed (44), (45), (47) (unbiased as L grows) and replaces only the denominator of (46)
  by the minimal unbiased one (:func:`corrected`: weight 2 on N47 + N48).

* **Maximum likelihood** (``"ml"``), generic for any deal-first game: the window's
  log-likelihood ``sum_c n_c log q_c(theta)`` of the opponents' parameters, where ``q_c`` is
  the probability of class c with the player's own action factors dropped (they do not
  depend on theta).  For multilinear ``q_c`` it is concave in each coordinate; the kernel
  maximises it by warm-started coordinate Newton steps every round.

Both are compiled to per-terminal integer weights (ratio) or per-class monomial coefficient
tables (ML) for the numba kernel; zero-information windows keep the previous estimate.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import lcm
from typing import Mapping

import numpy as np
import sympy as sp
from numpy.typing import NDArray

from pokerdyn.games import Game, GameError, param_symbols

from pokerdyn.dynamics.play.observation import ObservationModel, observation_model

ESTIMATORS = ("unbiased", "paper", "corrected", "ml")
RATIO_KINDS = ESTIMATORS[:3]  # the ratio-estimator families (all but maximum likelihood)

Cells = Mapping[tuple[str, str], sp.Rational]  # (actions, deal in player order) -> weight


@dataclass(frozen=True)
class RatioEstimator:
    """``target`` estimated by player ``observer`` (0-based) as num/den over cell counts."""

    name: str
    observer: int
    target: str
    num: tuple[tuple[tuple[str, str], sp.Rational], ...]
    den: tuple[tuple[tuple[str, str], sp.Rational], ...]
    source: str = ""


# -- Billingham Appendix D --------------------------------------------------------------
_SEQ = {1: "k", 2: "bff", 3: "bcf", 4: "bfc", 5: "bcc"}  # eq. (43)
_DEAL = {1: "AJQ", 2: "AQJ", 3: "AKQ", 4: "AKJ", 5: "JAK", 6: "JAQ", 7: "JKA", 8: "JQA",
         9: "JKQ", 10: "JQK"}  # eq. (42): Player 3's card first, then Players 1 and 2


def _cells(spec: Mapping[tuple[int, int], object]) -> tuple:
    """{(i, j): weight} in Billingham's N_ij indices -> ((actions, deal), weight) pairs."""
    out = []
    for (i, j), w in spec.items():
        paper = _DEAL[j]
        out.append(((_SEQ[i], paper[1] + paper[2] + paper[0]), sp.Rational(w)))
    return tuple(out)


def _billingham() -> tuple[RatioEstimator, ...]:
    r = sp.Rational
    one = dict.fromkeys
    num44 = one([(3, 5), (3, 6), (4, 7), (5, 7), (4, 8), (4, 10)], 1)
    den44 = {**num44, **one([(1, j) for j in range(5, 11)], r(5, 6))}
    num45 = {(4, 1): 2, (4, 3): 2, (4, 9): 1}
    den45 = one([(4, 1), (4, 3), (2, 1), (2, 2), (2, 3), (2, 4), (2, 9), (4, 9)], 1)
    num46 = one([(3, 3), (3, 4), (3, 9), (5, 7)], 2)
    den46 = {**one([(3, 3), (3, 4), (3, 9), (5, 7), (4, 7), (4, 8)], 1), (2, 2): 2, (2, 4): 2}
    num47 = {(3, 3): 2, (3, 4): 2, (3, 9): r(3, 2), (5, 7): r(3, 2)}
    den47 = one([(3, 3), (3, 4), (3, 9), (5, 7), (2, 1), (2, 2), (2, 3), (2, 4), (4, 1), (4, 3),
                 (2, 9), (4, 7), (4, 8), (4, 9)], 1)
    return (
        RatioEstimator("b_J@P1", 0, "b_J", _cells(num44), _cells(den44), "Billingham (44)"),
        RatioEstimator("b_J@P2", 1, "b_J", _cells(num44), _cells(den44), "Billingham (44)"),
        RatioEstimator("c_K@P2", 1, "c_K", _cells(num46), _cells(den46), "Billingham (46)"),
        RatioEstimator("c_K@P3", 2, "c_K", _cells(num47), _cells(den47), "Billingham (47)"),
        RatioEstimator("d_Q@P3", 2, "d_Q", _cells(num45), _cells(den45), "Billingham (45)"),
    )


def _billingham_unbiased() -> tuple[RatioEstimator, ...]:
    """Binomial (every-L unbiased) forms of (44)-(47), from Table 2."""
    one = dict.fromkeys
    bs = [(3, 5), (3, 6), (4, 7), (5, 7), (4, 8), (4, 10)]
    b_den = {**one(bs, 1), **one([(1, j) for j in (5, 6, 7, 8, 10)], 1)}
    d_den = one([(4, 1), (4, 3), (2, 1), (2, 2), (2, 3), (2, 4)], 1)
    c2_den = one([(3, 4), (5, 7), (2, 2), (2, 4), (4, 7), (4, 8)], 1)
    c3_den = one([(3, 3), (3, 4), (2, 1), (2, 2), (2, 3), (2, 4), (4, 1), (4, 3)], 1)
    src = "Billingham Table 2, binomial form of "
    return (
        RatioEstimator("b_J@P1", 0, "b_J", _cells(one(bs, 1)), _cells(b_den), src + "(44)"),
        RatioEstimator("b_J@P2", 1, "b_J", _cells(one(bs, 1)), _cells(b_den), src + "(44)"),
        RatioEstimator("c_K@P2", 1, "c_K", _cells(one([(3, 4), (5, 7)], 2)), _cells(c2_den),
                       src + "(46)"),
        RatioEstimator("c_K@P3", 2, "c_K", _cells(one([(3, 3), (3, 4)], 2)), _cells(c3_den),
                       src + "(47)"),
        RatioEstimator("d_Q@P3", 2, "d_Q", _cells(one([(4, 1), (4, 3)], 2)), _cells(d_den),
                       src + "(45)"),
    )


# game name -> (printed ratio estimators, every-L unbiased ratio estimators)
PAPER_ESTIMATORS = {"skp": (_billingham, _billingham_unbiased)}


# -- symbolic checks ----------------------------------------------------------------------
def expectation(model: ObservationModel, cells) -> sp.Expr:
    """Expected value of ``sum w N_cell`` per round (up to the window length)."""
    total = sp.Integer(0)
    for (actions, deal), w in cells:
        o = model.outcome(deal, actions)
        if o is not None:
            total += w * model.deal_prob[o.deal_index] * o.prob
    return sp.expand(total)


def bias(est: RatioEstimator, game: Game) -> sp.Expr:
    """``E[num]/E[den] - target``, simplified (0 iff unbiased as L -> infinity)."""
    model = observation_model(game)
    x = param_symbols(game)[est.target]
    return sp.factor(sp.cancel(expectation(model, est.num) / expectation(model, est.den) - x))


def is_binomial(est: RatioEstimator) -> bool:
    """Denominator weights all equal and numerator = a constant times a subset of the
    denominator cells: with :func:`bias` == 0 the estimator is unbiased for every L."""
    den = dict(est.den)
    num = dict(est.num)
    return (len(set(den.values())) == 1 and len(set(num.values())) == 1
            and set(num) <= set(den))


def corrected(est: RatioEstimator, game: Game) -> RatioEstimator:
    """``est`` itself if unbiased, else the same numerator with the denominator weights
    changed minimally (least squares, exact) so that ``E[num] == target * E[den]``.

    Denominator cells in one observation class of the observer share a weight (a player can
    only count the class).  GameError if no such weights exist.
    """
    if bias(est, game) == 0:
        return est
    model = observation_model(game)
    syms = param_symbols(game)
    x = syms[est.target]
    groups: dict[int, list] = {}
    for cell, w in est.den:
        o = model.outcome(cell[1], cell[0])
        cls = -1 - len(groups) if o is None else int(model.class_of[est.observer, o.terminal])
        groups.setdefault(cls, []).append((cell, w))
    keys = list(groups)
    w0 = sp.Matrix([groups[k][0][1] for k in keys])
    gens = list(syms.values())
    target = sp.Poly(expectation(model, est.num), *gens)
    cols = [sp.Poly(sp.expand(x * expectation(model, tuple((c, 1) for c, _ in groups[k]))), *gens)
            for k in keys]
    monos = sorted({m for p in [target, *cols] for m in p.monoms()})
    A = sp.Matrix([[p.coeff_monomial(m) for p in cols] for m in monos])
    r = sp.Matrix([target.coeff_monomial(m) for m in monos])
    w = w0 + A.pinv() * (r - A * w0)
    if A * w != r:
        raise GameError(f"estimator {est.name}: no denominator weights make it unbiased")
    den = tuple((cell, sp.nsimplify(w[i])) for i, k in enumerate(keys) for cell, _ in groups[k])
    fixed = RatioEstimator(est.name, est.observer, est.target, est.num, den,
                           est.source + " (denominator corrected to be unbiased)")
    assert bias(fixed, game) == 0
    return fixed


def check_estimator(name: object) -> str:
    """``name`` if it is one of :data:`ESTIMATORS`, else GameError naming it and the
    allowed names."""
    if not isinstance(name, str) or name not in ESTIMATORS:
        raise GameError(f"unknown estimator {name!r}; allowed: {', '.join(ESTIMATORS)}")
    return name


@lru_cache(maxsize=None)
def ratio_estimators(game: Game, kind: str = "unbiased") -> tuple[RatioEstimator, ...]:
    """The printed (``"paper"``), every-L unbiased (``"unbiased"``) or printed-with-(46)-
    corrected (``"corrected"``: :func:`corrected` applied to each printed estimator, which
    leaves the unbiased ones unchanged) ratio estimators."""
    factories = PAPER_ESTIMATORS.get(game.name)
    if factories is None:
        raise GameError(f"no ratio estimators are known for game {game.name!r} (available "
                        f"for: {', '.join(PAPER_ESTIMATORS)}); use estimator='ml'")
    if kind == "paper":
        return factories[0]()
    if kind == "corrected":
        return tuple(corrected(e, game) for e in factories[0]())
    if kind == "unbiased":
        out = factories[1]()
        for e in out:
            if bias(e, game) != 0 or not is_binomial(e):
                raise GameError(f"estimator {e.name} ({e.source}) is not unbiased")
        return out
    raise GameError(f"unknown ratio estimator kind {kind!r}; allowed: "
                    f"{', '.join(RATIO_KINDS)}")


# -- compilation for the kernel -----------------------------------------------------------
@lru_cache(maxsize=None)
def ratio_weights(est: RatioEstimator, game: Game) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Per-terminal integer weights (num, den) of ``est``, scaled by a common denominator
    (the ratio is unchanged; running sums stay exact).  GameError if the weights are not
    constant on the observer's observation classes (the player could not count them).
    Cached (read-only arrays)."""
    model = observation_model(game)
    nt = len(model.outcomes)
    out = []
    for cells in (est.num, est.den):
        w = [sp.Integer(0)] * nt
        for (actions, deal), v in cells:
            o = model.outcome(deal, actions)
            if o is not None:
                w[o.terminal] += v
        out.append(w)
    scale = lcm(*[int(sp.fraction(v)[1]) for w in out for v in w])
    arrs = []
    for w in out:
        a = np.array([int(v * scale) for v in w], dtype=np.int64)
        cls = model.class_of[est.observer]
        for c in np.unique(cls):
            members = [t for t in np.nonzero(cls == c)[0] if model.outcomes[t].prob != 0]
            if len({int(a[t]) for t in members}) > 1:
                raise GameError(f"estimator {est.name}: player {est.observer + 1} cannot tell "
                                f"apart the cells of class {model.class_labels[est.observer][c]!r}"
                                f" but they have different weights")
        a.setflags(write=False)
        arrs.append(a)
    return arrs[0], arrs[1]


@dataclass(frozen=True, eq=False)
class LikelihoodTable:
    """Class probabilities of one observer as multilinear polynomials in the opponents'
    parameters: ``coef[c, mask]`` multiplies ``prod_{i in mask} theta[params[i]]``."""

    observer: int
    params: tuple[int, ...]  # indices (into game.named) of the opponents' parameters
    coef: NDArray[np.float64]  # (n_classes, 2 ** len(params))


def likelihood_table(game: Game, observer: int, values: Mapping[str, float]) -> LikelihoodTable:
    """Per-class likelihood polynomials of ``observer`` with game parameters (P) substituted."""
    model = observation_model(game)
    syms = param_symbols(game)
    names = [p.name for p in game.named]
    opp = tuple(i for i, n in enumerate(names) if game.owner(n) != observer)
    gens = [syms[names[i]] for i in opp]
    subs = {s: values[s.name] for s in game.params if s.name in values}
    ncls = len(model.class_labels[observer])
    coef = np.zeros((ncls, 2 ** len(opp)))
    for o in model.outcomes:
        q = sp.Poly(sp.expand((model.deal_prob[o.deal_index] * o.opp_prob[observer]).subs(subs)),
                    *gens)
        for mono, cf in q.terms():
            if max(mono, default=0) > 1:
                raise GameError(f"game {game.name!r}: class probability {q.as_expr()} is not "
                                f"multilinear in the opponents' parameters")
            mask = sum(1 << i for i, e in enumerate(mono) if e)
            coef[model.class_of[observer, o.terminal], mask] += float(cf)
    return LikelihoodTable(observer, opp, coef)


__all__ = ["ESTIMATORS", "LikelihoodTable", "PAPER_ESTIMATORS", "RATIO_KINDS", "RatioEstimator",
           "bias", "check_estimator", "corrected", "expectation", "is_binomial", "likelihood_table", "ratio_estimators",
           "ratio_weights"]
