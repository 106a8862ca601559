"""The one registry of numeric solving methods: name -> ``run(compiled_game, options)`` ->
:class:`~pokerdyn.solvers.iterative.SolverResult`.

Every command and front-door call that solves numerically (``pokerdyn solve``, ``compare``,
``collusion``; ``pd.solve``, ``pd.compare``, ``pd.collusion``) looks its methods up here, so
a name means the same everywhere:

=========  ==================================================================================
fp         fictitious play (schedule and averaging from the options)
hedge      per-information-set multiplicative weights
cfr+       CFR+: regret matching+, alternating updates, linear averaging (Tammelin 2014)
cfr        vanilla CFR: regret matching, simultaneous updates, uniform averaging
           (Zinkevich et al. 2007)
lcfr       linear CFR: regrets and average weighted by the iteration (Brown & Sandholm 2019)
dcfr       discounted CFR, alpha 1.5, beta 0, gamma 2 (Brown & Sandholm 2019)
pcfr+      predictive CFR+, quadratic averaging (Farina, Kroer & Sandholm 2021)
pdcfr+     predictive discounted CFR+, alpha 2.3, gamma 5 (Xu et al. 2024)
lp         sequence-form linear program (2-player zero-sum games), certified when small
lcp        sequence-form LCP by Lemke's method (2-player games); ``all``: every equilibrium
           reached from the covering vectors of ones and of each pure plan
paper-fp   the hold'em paper's fictitious play (Mercer's ``Strategies.nes``), stopped once
           the largest single-player regret is below ``epsilon``
=========  ==================================================================================

A method is a plain function ``run(cg, options)``; its one-line description is the first
line of its docstring (:func:`describe`).  Each command offers a subset
(``SOLVE_METHODS``, ``COMPARE_METHODS``, ``COLLUSION_METHODS``).  The solvers'
own functions (``pokerdyn.solvers.learning.fictitious_play.fictitious_play``,
``pokerdyn.solvers.learning.cfr_plus.cfr``, ...) are unchanged: this module only names
them.  Heavy modules (numba kernels, scipy) load when a method runs.

The analyses that run the methods by name live beside the registry: ``compare``
(several methods under one budget), ``crosscheck`` (fictitious play against the exact
families) and ``collusion`` (Mercer's public/private/suspicious collusion payoffs).  They
sit in this folder, not in ``solvers/``, so that ``solvers/``'s own modules (evaluation, the
iterative loop, the exact profile) import none of the method folders that import them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:  # pragma: no cover
    from pokerdyn.games import CompiledGame
    from pokerdyn.solvers.iterative import SolverResult


@dataclass(frozen=True)
class MethodOptions:
    """What a method may read (each reads only its own): ``iterations`` (cap), ``tol``
    (stop at NashConv <= tol), ``seconds`` (wall-clock budget), ``sigma0`` (starting profile,
    shape ``(n_infosets, n_actions)``; None = uniform), ``schedule`` (``simultaneous`` or
    ``alternating`` updates: fp and the CFR family; None = the method's own: simultaneous for
    fp and cfr, alternating for the other CFR methods), ``averaging`` (fp), ``all`` (lcp:
    every equilibrium from the standard starts), ``epsilon`` (paper-fp's regret bound),
    ``alpha``, ``beta``, ``gamma`` and ``storage`` (the CFR family's discount and averaging
    exponents and its regret storage; None = the variant's own,
    ``pokerdyn.solvers.learning.cfr_plus.VARIANTS``), ``progress`` (a tqdm bar)."""

    iterations: int = 10_000
    tol: float | None = None
    seconds: float | None = None
    sigma0: Any = None
    schedule: str | None = None
    averaging: str = "reach"
    all: bool = False
    epsilon: float | None = None
    progress: bool = False
    alpha: float | None = None
    beta: float | None = None
    gamma: float | None = None
    storage: str = "float64"


Method = Callable[["CompiledGame", MethodOptions], "SolverResult"]


def _fp(cg: CompiledGame, o: MethodOptions) -> SolverResult:
    """Fictitious play: each player best-responds to the average profile (--schedule,
    --averaging)."""
    from pokerdyn.solvers.learning.fictitious_play import fictitious_play
    return fictitious_play(cg, iterations=o.iterations, tol=o.tol,
                           schedule=o.schedule or "simultaneous",
                           averaging=o.averaging, sigma0=o.sigma0, seconds=o.seconds,
                           progress=o.progress)


def _hedge(cg: CompiledGame, o: MethodOptions) -> SolverResult:
    """Hedge: multiplicative weights on counterfactual values at every information set."""
    from pokerdyn.solvers.learning.hedge import hedge
    return hedge(cg, iterations=o.iterations, tol=o.tol, sigma0=o.sigma0, seconds=o.seconds,
                 progress=o.progress)


def _cfr_family(name: str, cg: CompiledGame, o: MethodOptions) -> SolverResult:
    """The CFR-family method ``name`` with the options' overrides of its parameters."""
    from pokerdyn.solvers.learning.cfr_plus import cfr, variant
    alternating = None if o.schedule is None else o.schedule == "alternating"
    method = variant(name, alpha=o.alpha, beta=o.beta, gamma=o.gamma, alternating=alternating,
                     storage=o.storage)
    return cfr(cg, iterations=o.iterations, tol=o.tol, sigma0=o.sigma0, seconds=o.seconds,
               progress=o.progress, method=method)


def _cfr_plus(cg: CompiledGame, o: MethodOptions) -> SolverResult:
    """CFR+: regret matching+, alternating updates, linear averaging (Tammelin 2014)."""
    return _cfr_family("cfr+", cg, o)


def _cfr(cg: CompiledGame, o: MethodOptions) -> SolverResult:
    """Vanilla CFR: regret matching, simultaneous updates, uniform averaging (Zinkevich et
    al. 2007)."""
    return _cfr_family("cfr", cg, o)


def _lcfr(cg: CompiledGame, o: MethodOptions) -> SolverResult:
    """Linear CFR: regrets and the average weighted by the iteration (DCFR with alpha = beta
    = gamma = 1; Brown & Sandholm 2019)."""
    return _cfr_family("lcfr", cg, o)


def _dcfr(cg: CompiledGame, o: MethodOptions) -> SolverResult:
    """Discounted CFR: positive regrets discounted by t^1.5/(t^1.5+1), negative by 1/2, the
    average weighted by t^2 (alpha 1.5, beta 0, gamma 2; Brown & Sandholm 2019)."""
    return _cfr_family("dcfr", cg, o)


def _pcfr_plus(cg: CompiledGame, o: MethodOptions) -> SolverResult:
    """Predictive CFR+: regret matching+ on the regrets plus the last regrets as prediction,
    quadratic averaging (Farina, Kroer & Sandholm 2021)."""
    return _cfr_family("pcfr+", cg, o)


def _pdcfr_plus(cg: CompiledGame, o: MethodOptions) -> SolverResult:
    """Predictive discounted CFR+: PCFR+ with DCFR's discount of the regrets (alpha 2.3,
    gamma 5; Xu et al. 2024)."""
    return _cfr_family("pdcfr+", cg, o)


def _lp(cg: CompiledGame, o: MethodOptions) -> SolverResult:
    """Sequence-form linear program (2-player zero-sum games; certified exactly when small)."""
    from pokerdyn.solvers.sequence.lp import lp_solver_result, solve_lp
    return lp_solver_result(cg, solve_lp(cg))


def _lcp(cg: CompiledGame, o: MethodOptions) -> SolverResult:
    """Sequence-form LCP by Lemke's method (2-player games); all=True: every equilibrium
    reached from the standard starts.

    With ``all``, the result's ``options["all"]`` lists each equilibrium found as a dict
    (``start`` label, ``pivots``, ``expected_payoffs``, ``nash_conv``, ``exact`` and the
    behaviour ``strategy`` array), the first one being the result's own."""
    from pokerdyn.solvers.sequence.lcp import lcp_solver_result, solve_lcp
    if not o.all:
        return lcp_solver_result(cg, solve_lcp(cg))
    from pokerdyn.solvers.sequence.lcp_all import solve_lcp_all, start_labels
    res = solve_lcp_all(cg)
    labels = start_labels(cg)
    found = [{"start": labels[e.start], "pivots": e.pivots,
              "expected_payoffs": [float(x) for x in e.payoffs],
              "nash_conv": e.nash_conv,
              "exact": {"nash_conv": str(e.exact_nash_conv),
                        "expected_payoffs": [str(v) for v in e.exact_payoffs]},
              "strategy": e.strategies} for e in res.equilibria]
    out = lcp_solver_result(cg, res)
    return type(out)(**{**out.__dict__, "options": {**out.options, "all": found}})


# paper-fp measures its regret every PAPER_FP_CHECK iterations and replays the last window
# one check per iteration (paper_fictitious_play's check_every): the Java's stopping
# iteration, at about 3/4 of the time of a check every iteration
PAPER_FP_CHECK = 25
PAPER_FP_EPSILON = 0.01  # the paper's "0.01-equilibrium"


def _paper_fp(cg: CompiledGame, o: MethodOptions) -> SolverResult:
    """The hold'em paper's fictitious play (Mercer's Strategies.nes), stopped once the largest
    single-player regret is below epsilon.

    ``converged``: the stop was met before ``iterations``; ``options`` holds ``epsilon``,
    ``max_regret`` (of the profile the stop was decided on) and ``regrets`` (per player, of
    the returned profile).  ``tol``, ``sigma0`` and ``seconds`` do not apply."""
    import numpy as np

    from pokerdyn.solvers.evaluation import expected_payoffs
    from pokerdyn.solvers.iterative import SolverResult
    from pokerdyn.solvers.learning.paper_fp import paper_fictitious_play

    eps = PAPER_FP_EPSILON if o.epsilon is None else o.epsilon
    res = paper_fictitious_play(cg, eps, max_iterations=o.iterations,
                                check_every=PAPER_FP_CHECK)
    return SolverResult(method="paper-fp", strategy=res.strategy, iterations=int(res.iterations),
                        seconds=res.seconds, nash_conv=float(res.nash_conv),
                        expected_payoffs=expected_payoffs(cg, res.strategy, check=False),
                        history=np.array([[res.iterations, res.nash_conv, res.seconds]],
                                         dtype=np.float64),
                        converged=bool(res.max_regret < eps),
                        options={"epsilon": eps, "max_regret": float(res.max_regret),
                                 "regrets": res.regrets})


# The registry: name -> method.  One line per method; the order is the order of the help.
METHODS: dict[str, Method] = {
    "fp": _fp,
    "hedge": _hedge,
    "cfr+": _cfr_plus,
    "cfr": _cfr,
    "lcfr": _lcfr,
    "dcfr": _dcfr,
    "pcfr+": _pcfr_plus,
    "pdcfr+": _pdcfr_plus,
    "lp": _lp,
    "lcp": _lcp,
    "paper-fp": _paper_fp,
}

CFR_METHODS = ("cfr+", "cfr", "lcfr", "dcfr", "pcfr+", "pdcfr+")  # the CFR family's variants
# run by the shared loop (iterations, tol)
ITERATIVE_METHODS = ("fp", "hedge", *CFR_METHODS)
TWO_PLAYER_METHODS = ("lp", "lcp")                   # sequence-form: 2-player games only
# what each command offers (a subset of METHODS, in the order of its help)
SOLVE_METHODS = ("fp", "hedge", *CFR_METHODS, "lp", "lcp")
COMPARE_METHODS = ("fp", "hedge", *CFR_METHODS, "lp")
COLLUSION_METHODS = ("cfr+", "fp", "paper-fp")


def describe(name: str) -> str:
    """The one-line description of method ``name`` (its function's docstring, first
    sentence up to the first blank line, joined on one line)."""
    doc = (METHODS[name].__doc__ or "").strip().split("\n\n")[0]
    return " ".join(doc.split())


def check_method(name: Any, allowed: tuple[str, ...] = SOLVE_METHODS) -> str:
    """``name`` if it is one of ``allowed``, else GameError ``unknown method 'x'; allowed:
    ...`` (the commands' line)."""
    if not isinstance(name, str) or name not in allowed:
        from pokerdyn.games import GameError
        raise GameError(f"unknown method {name!r}; allowed: {', '.join(allowed)}")
    return name


def run_method(name: str, cg: CompiledGame, options: MethodOptions | None = None,
               **kw: Any) -> SolverResult:
    """Run method ``name`` (a key of :data:`METHODS`) on the compiled game ``cg`` with
    ``options`` (or the keywords of :class:`MethodOptions`)."""
    check_method(name, tuple(METHODS))
    if options is None:
        options = MethodOptions(**kw)
    elif kw:
        from dataclasses import replace
        options = replace(options, **kw)
    return METHODS[name](cg, options)


__all__ = ["CFR_METHODS", "COLLUSION_METHODS", "COMPARE_METHODS", "ITERATIVE_METHODS", "METHODS",
           "MethodOptions", "PAPER_FP_CHECK", "PAPER_FP_EPSILON", "SOLVE_METHODS",
           "TWO_PLAYER_METHODS", "check_method", "describe", "run_method"]
