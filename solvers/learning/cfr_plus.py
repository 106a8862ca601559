"""The CFR family of counterfactual regret minimisation for N-player games, as options of one
solver (as OpenSpiel keeps CFR, CFR+ and linear averaging as flags of one ``CFRSolver``):

* CFR (Zinkevich, Johanson, Bowling & Piccione 2007): regret matching, simultaneous updates,
  uniform averaging;
* CFR+ (Tammelin 2014; Tammelin, Burch, Johanson & Bowling 2015): regret matching+ (regrets
  clipped at 0), alternating updates, linear averaging;
* linear and discounted CFR (Brown & Sandholm 2019, "Solving imperfect-information games via
  discounted regret minimization", Sec. 3): on iteration ``t`` the accumulated positive regrets
  are multiplied by ``(t-1)^alpha / ((t-1)^alpha + 1)``, the negative ones by
  ``(t-1)^beta / ((t-1)^beta + 1)``, before the new regrets are added, and iteration ``t``'s
  strategy enters the average with weight ``t^gamma``; LCFR is ``alpha = beta = gamma = 1``,
  DCFR the paper's recommended ``alpha = 1.5, beta = 0, gamma = 2``;
* predictive CFR+ (Farina, Kroer & Sandholm 2021, "Faster game solving via predictive
  Blackwell approachability", Alg. 2): regret matching+ on the accumulated regrets plus a
  prediction of the next instantaneous regrets (the last ones): ``sigma_{t+1} ~ [R_t +
  r_t]^+``, quadratic averaging (``gamma = 2``);
* PDCFR+ (Xu, Li, Fu, Fu, Xing & Cheng 2024, "Minimizing weighted counterfactual regret with
  optimistic online mirror descent", IJCAI, Alg. 1): predictive CFR+ with DCFR's discount of
  the accumulated regrets, ``R_t = [R_{t-1} d(t-1) + r_t]^+``, ``sigma_{t+1} ~ [R_t d(t) +
  r_t]^+``, ``d(t) = t^alpha / (t^alpha + 1)``; the paper's ``alpha = 2.3, gamma = 5``.

Each iteration ``t`` and each player ``p`` (in turn with ``alternating=True``, else all
against the same profile): counterfactual action values ``v(I, a)`` under the current
profile; the average strategy accumulates ``t^gamma * pi_p(I) * sigma(I, a)``; the
instantaneous regret ``r(I, a) = v(I, a) - sum_b sigma(I, b) v(I, b)`` updates the
accumulated regret as above; the new strategy is regret matching on it.

Storage: the accumulated regrets and average in ``float64`` (default) or ``float32``, or the
regrets as 16-bit integers with one float scale per information set (``int16``: the row's
largest magnitude maps to 32767), as the public-tree solvers of the field store them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import njit
from numpy.typing import NDArray

from pokerdyn.games import CompiledGame, GameError

from pokerdyn.solvers.learning._regret_kernels import (RegretState, cfv_into, normalise_average,
                                                        regret_matching)
from pokerdyn.solvers._kernels import infoset_trees
from pokerdyn.solvers.iterative import SolverResult, run_iterative

STORAGE = ("float64", "float32", "int16")
Q16 = 32767.0  # the largest 16-bit magnitude a row's largest regret maps to

# The variants' defaults (the papers' recommended parameters): plus = regret matching+,
# alternating updates, the discount exponents alpha and beta (None: no discount), the
# averaging exponent gamma, predictive regret matching.
VARIANTS: dict[str, dict[str, Any]] = {
    "cfr": dict(plus=False, alternating=False, alpha=None, beta=None, gamma=0.0,
                predictive=False),
    "cfr+": dict(plus=True, alternating=True, alpha=None, beta=None, gamma=1.0,
                 predictive=False),
    "lcfr": dict(plus=False, alternating=True, alpha=1.0, beta=1.0, gamma=1.0,
                 predictive=False),
    "dcfr": dict(plus=False, alternating=True, alpha=1.5, beta=0.0, gamma=2.0,
                 predictive=False),
    "pcfr+": dict(plus=True, alternating=True, alpha=None, beta=None, gamma=2.0,
                  predictive=True),
    "pdcfr+": dict(plus=True, alternating=True, alpha=2.3, beta=None, gamma=5.0,
                   predictive=True),
}


@njit(cache=True)
def discount_factor(t, e):
    """``t^e / (t^e + 1)`` (Brown & Sandholm's discount after ``t`` iterations)."""
    if t <= 0:
        return 0.0
    if e == np.inf:  # an exponent of +inf: no discount
        return 1.0
    x = float(t) ** e
    return x / (x + 1.0)


@njit(cache=True)
def _load(regret, q, scale, quant, I, row):
    for a in range(row.shape[0]):
        row[a] = q[I, a] * scale[I] if quant else regret[I, a]


@njit(cache=True)
def _store(regret, q, scale, quant, I, row):
    if not quant:
        for a in range(row.shape[0]):
            regret[I, a] = row[a]
        return
    top = 0.0
    for a in range(row.shape[0]):
        top = max(top, abs(row[a]))
    s = top / Q16
    scale[I] = s
    for a in range(row.shape[0]):
        q[I, a] = 0 if s == 0.0 else int(np.rint(row[a] / s))


@njit(cache=True)
def update_regrets(cfv, own, sigma, regret, q, scale, last, avg, legal, infoset_player, who,
                   t, plus, discount, alpha, beta, gamma, predictive, quant):
    """The CFR family's update of ``who``'s rows at iteration ``t`` (module docstring), the one
    both engines run (history-tree information sets here, public-tree rows in
    :mod:`pokerdyn.solvers.public`): from the counterfactual action values ``cfv`` and own
    reach ``own``, accumulate the average and update the regrets (float ``regret``, or
    16-bit ``q`` with per-row ``scale`` when ``quant``; ``last``: the instantaneous regrets
    kept for the predictive variants)."""
    amax = legal.shape[1]
    row = np.zeros(amax)
    weight = 1.0 if gamma == 0.0 else float(t) if gamma == 1.0 else float(t) ** gamma
    dpos = discount_factor(t - 1, alpha) if discount else 1.0
    dneg = discount_factor(t - 1, beta) if discount else 1.0
    for I in range(legal.shape[0]):
        if infoset_player[I] != who:
            continue
        value = 0.0
        for a in range(amax):
            if legal[I, a]:
                value += sigma[I, a] * cfv[I, a]
                avg[I, a] += weight * own[I] * sigma[I, a]
        _load(regret, q, scale, quant, I, row)
        for a in range(amax):
            if legal[I, a]:
                r = cfv[I, a] - value
                R = row[a]
                if discount:
                    R *= dpos if R > 0.0 else dneg
                R += r
                if plus and R < 0.0:
                    R = 0.0
                row[a] = R
                if predictive:
                    last[I, a] = r
        _store(regret, q, scale, quant, I, row)


@njit(cache=True)
def match_regrets(sigma, regret, q, scale, last, legal, infoset_player, who, dnext,
                  predictive, quant):
    """``who``'s next strategy: regret matching on the regrets, or (predictive variants) on
    the regrets times ``dnext`` plus the last instantaneous regrets."""
    row = np.zeros(legal.shape[1])
    for I in range(legal.shape[0]):
        if infoset_player[I] == who:
            _load(regret, q, scale, quant, I, row)
            if predictive:
                for a in range(row.shape[0]):
                    row[a] = row[a] * dnext + last[I, a]
            regret_matching(row, legal[I], sigma[I])


@njit(cache=True)
def _cfr_iterations(kind, player, parent, edge, infoset, chance_prob, terminal_index, payoffs,
                    legal, infoset_player, iparents, topos, ms, sigma, regret, q, scale, last,
                    avg, t0, n_iter, n_players, alternating, plus, discount, alpha, beta, gamma,
                    predictive, quant):
    n_inf, amax = legal.shape
    # work buffers, allocated once: 16 bytes per node, the rest per information set
    reach = np.empty(kind.shape[0])
    v = np.empty(kind.shape[0])
    cfv = np.zeros((n_inf, amax))
    cf_reach = np.zeros(n_inf)
    own = np.zeros(n_inf)
    for t in range(t0 + 1, t0 + n_iter + 1):
        dnext = discount_factor(t, alpha) if discount else 1.0
        for p in range(n_players):
            cfv_into(kind, player, parent, edge, infoset, chance_prob, terminal_index, payoffs,
                     sigma, p, cfv, cf_reach, own, reach, v, iparents[p], topos[p], ms[p])
            update_regrets(cfv, own, sigma, regret, q, scale, last, avg, legal,
                           infoset_player, p, t, plus, discount, alpha, beta, gamma,
                           predictive, quant)
            if alternating:
                match_regrets(sigma, regret, q, scale, last, legal, infoset_player, p, dnext,
                              predictive, quant)
        if not alternating:
            for p in range(n_players):
                match_regrets(sigma, regret, q, scale, last, legal, infoset_player, p, dnext,
                              predictive, quant)


@dataclass
class CFRState(RegretState):
    """A :class:`RegretState` (``table``: the accumulated regrets, in the storage's dtype)
    with the 16-bit storage's per-set ``scale`` and the predictive variants' ``last``
    instantaneous regrets (empty when unused)."""

    scale: NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    last: NDArray[np.float64] = field(default_factory=lambda: np.zeros((0, 0)))


def check_variant(alpha: Any = None, beta: Any = None, gamma: Any = None,
                  storage: Any = "float64") -> None:
    """GameError naming the bad value and its range: ``alpha`` and ``beta`` finite reals (or
    None: no discount), ``gamma`` a finite real >= 0, ``storage`` one of :data:`STORAGE`."""
    import math

    for name, x, low in (("alpha", alpha, None), ("beta", beta, None), ("gamma", gamma, 0.0)):
        if x is None:
            continue
        ok = isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool) \
            and math.isfinite(float(x)) and (low is None or float(x) >= low)
        if not ok:
            rng = "[0, inf)" if low is not None else "(-inf, inf)"
            raise GameError(f"{name}={x!r} is outside the allowed range {rng} (a finite "
                            "real number)")
    if storage not in STORAGE:
        raise GameError(f"storage={storage!r} is not one of: {', '.join(STORAGE)}")


@dataclass
class CFR:
    """The CFR family as an :class:`~pokerdyn.solvers.iterative.IterativeMethod` (see the
    module docstring).  The first three flags are OpenSpiel's (CFR+ = ``regret_matching_plus``,
    ``alternating``, ``linear_averaging``); ``gamma`` (when given) replaces
    ``linear_averaging`` (``t^gamma``: 1 linear, 0 uniform); ``alpha``/``beta`` switch on
    DCFR's discount of the positive/negative accumulated regrets (:meth:`discounts`);
    ``predictive`` makes regret matching use the last regrets as the prediction; ``storage``
    is one of :data:`STORAGE`.  :func:`variant` makes the named variants."""

    regret_matching_plus: bool = True
    alternating: bool = True
    linear_averaging: bool = True
    name: str = "cfr+"
    alpha: float | None = None
    beta: float | None = None
    gamma: float | None = None
    predictive: bool = False
    storage: str = "float64"

    def averaging_exponent(self) -> float:
        if self.gamma is not None:
            return float(self.gamma)
        return 1.0 if self.linear_averaging else 0.0

    def discounts(self) -> tuple[bool, float, float]:
        """(discount on?, alpha, beta): on when ``alpha`` or ``beta`` is given; a missing
        exponent leaves that sign's regrets undiscounted (an exponent of +inf)."""
        if self.alpha is None and self.beta is None:
            return False, 0.0, 0.0
        inf = float("inf")
        return (True, inf if self.alpha is None else float(self.alpha),
                inf if self.beta is None else float(self.beta))

    def init(self, cg: CompiledGame, sigma0: NDArray[np.float64]) -> CFRState:
        check_variant(self.alpha, self.beta, self.gamma, self.storage)
        sigma = np.ascontiguousarray(sigma0, dtype=np.float64).copy()
        n_inf, amax = sigma.shape
        fdt = np.float64 if self.storage == "float64" else np.float32
        table = np.zeros((n_inf, amax), dtype=np.int16 if self.storage == "int16" else fdt)
        return CFRState(sigma, table, np.zeros((n_inf, amax), dtype=fdt),
                        scale=np.zeros(n_inf if self.storage == "int16" else 0),
                        last=np.zeros((n_inf, amax) if self.predictive else (0, 0)))

    def kernel_state(self, state: RegretState) -> tuple:
        """What the kernels take of ``state`` (either engine's): ``(regret, q, scale, last,
        quant)``, float regrets or 16-bit ``q`` with its per-row ``scale`` (the other an
        empty array), the predictive variants' ``last`` regrets (made here for a state
        without them: a warm start)."""
        quant = state.table.dtype == np.int16
        last = getattr(state, "last", np.zeros((0, 0)))
        if self.predictive and last.shape != state.sigma.shape:
            last = state.last = np.zeros_like(state.sigma)
        empty_f = np.zeros((0, 0), dtype=state.avg.dtype)
        empty_q = np.zeros((0, 0), dtype=np.int16)
        return (empty_f if quant else state.table, state.table if quant else empty_q,
                getattr(state, "scale", np.zeros(0)), last, quant)

    def options(self) -> tuple:
        """The kernels' variant arguments: ``(alternating, plus, discount, alpha, beta,
        gamma, predictive)``."""
        discount, alpha, beta = self.discounts()
        return (self.alternating, self.regret_matching_plus, discount, alpha, beta,
                self.averaging_exponent(), self.predictive)

    def advance(self, cg: CompiledGame, state: RegretState, t0: int, n: int) -> None:
        regret, q, scale, last, quant = self.kernel_state(state)
        _cfr_iterations(cg.kind, cg.player, cg.parent, cg.edge, cg.infoset, cg.chance_prob,
                        cg.terminal_index, cg.payoffs, cg.legal, cg.infoset_player,
                        *infoset_trees(cg), state.sigma, regret, q, scale, last, state.avg,
                        t0, n, cg.n_players, *self.options(), quant)

    @classmethod
    def from_flags(cls, regret_matching_plus: bool = True, alternating: bool = True,
                   linear_averaging: bool = True, alpha: float | None = None,
                   beta: float | None = None, gamma: float | None = None,
                   predictive: bool = False, storage: str = "float64") -> "CFR":
        """The method of OpenSpiel's flags and the exponents, named ``cfr+`` (all three
        flags), ``cfr`` (none) or ``cfr-variant``."""
        plain_default = alpha is None and beta is None and gamma is None and not predictive
        plus = regret_matching_plus and alternating and linear_averaging
        plain = not (regret_matching_plus or alternating or linear_averaging)
        name = ("cfr+" if plus else "cfr" if plain else "cfr-variant") if plain_default \
            else "cfr-variant"
        return cls(regret_matching_plus, alternating, linear_averaging, name, alpha, beta,
                   gamma, predictive, storage)

    def average(self, cg: CompiledGame, state: RegretState) -> NDArray[np.float64]:
        return normalise_average(state.avg.astype(np.float64, copy=False), cg.legal)


def variant(name: str, **overrides: Any) -> CFR:
    """The CFR-family method ``name`` (a key of :data:`VARIANTS`) with ``overrides`` of its
    parameters (``alpha``, ``beta``, ``gamma``, ``alternating``, ``storage``; None keeps the
    variant's own)."""
    if name not in VARIANTS:
        raise GameError(f"unknown CFR variant {name!r}; allowed: {', '.join(VARIANTS)}")
    p = {**VARIANTS[name], **{k: v for k, v in overrides.items() if v is not None}}
    unknown = set(p) - set(VARIANTS[name]) - {"storage"}
    if unknown:
        raise GameError(f"unknown CFR option(s) {sorted(unknown)}; allowed: alpha, beta, "
                        "gamma, alternating, storage")
    check_variant(p["alpha"], p["beta"], p["gamma"], p.get("storage", "float64"))
    return CFR(regret_matching_plus=p["plus"], alternating=bool(p["alternating"]),
               linear_averaging=p["gamma"] == 1.0, name=name, alpha=p["alpha"],
               beta=p["beta"], gamma=float(p["gamma"]), predictive=p["predictive"],
               storage=p.get("storage", "float64"))


def cfr(cg: CompiledGame, iterations: int = 10_000, tol: float | None = None,
        regret_matching_plus: bool = True, alternating: bool = True,
        linear_averaging: bool = True, sigma0: NDArray[np.float64] | None = None,
        seconds: float | None = None, progress: bool = False, *,
        alpha: float | None = None, beta: float | None = None, gamma: float | None = None,
        predictive: bool = False, storage: str = "float64",
        method: CFR | None = None) -> SolverResult:
    """Run CFR+ (default flags), a CFR variant given by its flags and exponents, or the
    configured ``method`` (:func:`variant`); see the module docstring.

    Returns a :class:`~pokerdyn.solvers.iterative.SolverResult` whose ``strategy`` is the average
    profile and whose ``history`` rows are (iteration, NashConv, seconds); ``options`` records
    the variant's parameters.

    Examples
    --------
    >>> from pokerdyn.games import compile_game, get_game
    >>> cg = compile_game(get_game("kuhn"))
    >>> r = cfr(cg, iterations=2000, method=variant("dcfr"))
    >>> r.method, round(float(r.expected_payoffs[0]), 3)
    ('dcfr', -0.056)
    """
    if method is None:
        method = CFR.from_flags(regret_matching_plus, alternating, linear_averaging, alpha,
                                beta, gamma, predictive, storage)
    check_variant(method.alpha, method.beta, method.gamma, method.storage)
    res = run_iterative(cg, method, iterations=iterations, tol=tol, sigma0=sigma0,
                        seconds=seconds, progress=progress)
    return SolverResult(**{**res.__dict__, "options": variant_options(method)})


def variant_options(method: CFR) -> dict[str, Any]:
    """The options a CFR-family run records (a solver result's ``options``)."""
    return {"regret_matching_plus": method.regret_matching_plus,
            "alternating": method.alternating,
            "linear_averaging": method.averaging_exponent() == 1.0,
            "gamma": method.averaging_exponent(), "predictive": method.predictive,
            "alpha": method.alpha, "beta": method.beta, "storage": method.storage}


__all__ = ["CFR", "CFRState", "STORAGE", "VARIANTS", "cfr", "check_variant", "discount_factor",
           "match_regrets", "update_regrets", "variant", "variant_options"]
