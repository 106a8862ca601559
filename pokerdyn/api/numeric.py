"""Numeric solving through the front door: ``pd.solve`` (one method, one game), ``pd.compare``
(several methods under one budget) and ``pd.collusion`` (the hold'em paper's collusion
payoffs).  The methods are the registry's (:mod:`pokerdyn.solvers.methods`), so ``"cfr"``
(vanilla CFR) and ``"cfr+"`` mean the same in every call and command.

Each function checks its input in the order the command does (one
:class:`~pokerdyn.games.GameError` line, the command line's), builds and compiles the game,
runs, and returns a frozen result whose ``to_dict()`` is the command's ``--json`` and whose
``to_text()`` is its text output.  Heavy modules load inside the functions."""
from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from pokerdyn.api.inputs import build_limits, game_and_values
from pokerdyn.api.result import Result, Stages
from pokerdyn.games.errors import GameError

if TYPE_CHECKING:  # pragma: no cover
    from pokerdyn.games.tree import Game

PRINT_LIMIT = 60  # strategy lines of solve's text output
ITER_MARKS = [10.0**k for k in range(0, 10)]       # compare's table rows: iterations
TIME_MARKS = [0.001, 0.01, 0.1, 1.0, 10.0, 100.0, 1000.0]  # ... and seconds
KINDS = ("strong", "weak", "pot")  # collusion kinds


# -- shared steps -----------------------------------------------------------------------------




def _tol(tol: Any) -> float | None:
    from pokerdyn.api.inputs import parse_float

    return None if tol is None else parse_float(tol, "tol", low=0, low_open=True)


def _iterations(iterations: Any, default: int) -> int:
    from pokerdyn.api.inputs import parse_int

    return default if iterations is None else parse_int(iterations, "iterations", low=1)


def _seed(seed: Any) -> int | None:
    from pokerdyn.api.inputs import SEED_MAX, parse_int

    return None if seed is None else parse_int(seed, "seed", low=0, high=SEED_MAX)


def _refuse_lp(spec: Any, needs: str | None = None) -> None:
    """The sequence-form solvers' player check from a spec string, before the build (a built
    game is checked by the solver itself)."""
    from pokerdyn.api.inputs import refuse_lp_beyond_two_players

    if isinstance(spec, str):
        if needs is None:
            refuse_lp_beyond_two_players(spec)
        else:
            refuse_lp_beyond_two_players(spec, needs)


def parse_init(text: "str | Mapping[str, Any] | None") -> dict[str, Any]:
    """``NAME=X,NAME=X`` (``--init``) or a mapping -> {name: value}; the values are checked by
    games.strategy.strategy_from_params."""
    if text is None:
        return {}
    if isinstance(text, Mapping):
        return dict(text)
    if not isinstance(text, str):
        raise GameError(f"init={text!r} is not NAME=VALUE,...; allowed: a string such as "
                        "'b_J=0.3,c_K=0.5' or a mapping of parameter names to probabilities")
    out: dict[str, Any] = {}
    for item in text.split(","):
        if not item.strip():
            continue
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            raise GameError(f"--init item {item.strip()!r} is not NAME=VALUE")
        out[name.strip()] = value.strip()
    return out


def _history_axes(ax, history, label: str | None = None):
    """NashConv against iterations (log-log) of one solver history on ``ax``."""
    import numpy as np

    h = np.asarray(history)
    ax.loglog(h[:, 0], np.maximum(h[:, 1], 1e-16), label=label)
    ax.set_xlabel("iteration")
    ax.set_ylabel("NashConv")
    return ax


def _new_axes(ax):
    if ax is not None:
        return ax
    from pokerdyn.figures.base import new_figure
    _, ax = new_figure()
    return ax


# -- solve ------------------------------------------------------------------------------------
def _variant_options(method: str, schedule: Any, alpha: Any, beta: Any, gamma: Any,
                     storage: Any) -> dict[str, Any] | None:
    """The CFR family's options checked (one GameError line each), None for other methods;
    GameError when a CFR option is given to another method."""
    from pokerdyn.api.inputs import parse_float
    from pokerdyn.solvers.methods import CFR_METHODS

    if schedule is not None and schedule not in ("simultaneous", "alternating"):
        raise GameError(f"schedule={schedule!r} is not one of: simultaneous, alternating")
    given = {k: v for k, v in (("alpha", alpha), ("beta", beta), ("gamma", gamma),
                               ("storage", storage)) if v is not None}
    if method not in CFR_METHODS:
        if given:
            raise GameError(f"--{next(iter(given))} applies to the CFR family "
                            f"({', '.join(CFR_METHODS)}), not to method {method!r}")
        return None
    from pokerdyn.solvers.learning.cfr_plus import check_variant

    out: dict[str, Any] = {}
    for name in ("alpha", "beta"):
        if name in given:
            out[name] = parse_float(given[name], name)
    if "gamma" in given:
        out["gamma"] = parse_float(given["gamma"], "gamma", low=0)
    if "storage" in given:
        check_variant(storage=given["storage"])   # the solver's own check of the storage
        out["storage"] = given["storage"]
    return out


ENGINES = ("tree", "public", "auto")
PUBLIC_BUILDERS = ("leduc", "mercer-smh", "mercer-mmh")  # games.public.holdem.public_game


def _base(game: Any) -> str | None:
    """The registry name of a spec string (None for a built game, a file or a bad spec)."""
    if not isinstance(game, str):
        return None
    from pokerdyn.games.catalog.spec import parse_spec
    try:
        return parse_spec(game)[0]
    except GameError:
        return None


def _engine(engine: Any, method: str, game: Any) -> str:
    """``tree`` or ``public`` for ``engine`` (``auto`` resolved: the public tree for the CFR
    family on the builder games), GameError for anything else or ``public`` with a method
    outside the CFR family."""
    from pokerdyn.solvers.methods import CFR_METHODS

    if engine not in ENGINES:
        raise GameError(f"engine={engine!r} is not one of: {', '.join(ENGINES)}")
    if engine == "auto":
        return "public" if method in CFR_METHODS and _base(game) in PUBLIC_BUILDERS \
            else "tree"
    if engine == "public" and method not in CFR_METHODS:
        raise GameError(f"engine 'public' runs the CFR family ({', '.join(CFR_METHODS)}); "
                        f"method {method!r} runs on the history tree (engine 'tree')")
    return engine


def public_form(game: Any, pot: Any = None, **options: Any):
    """``(public form, compiled history tree or None)`` of ``game`` (at ``pot`` for games
    with a pot P): built from the rules for the builder games (no history tree), else
    derived from the compiled game; GameError naming the game when its histories do not
    factor into public x private states."""
    from pokerdyn.games.public import public_from_compiled, public_game

    base = _base(game)
    if base in PUBLIC_BUILDERS:
        if pot is not None:
            raise GameError(f"game {base!r} has no pot parameter P, so --pot does not apply "
                            "(its game parameters: none)")
        from pokerdyn.games.catalog.spec import format_spec, parse_spec
        _, opts = parse_spec(game)
        for k, v in options.items():
            if k in opts and str(opts[k]) != str(v):
                raise GameError(f"option {k} is given twice with different values "
                                f"({opts[k]!r} in the spec, {v!r} as a keyword)")
        return public_game(format_spec(base, {**opts, **options})), None
    from pokerdyn.games import compile_game
    g, values = game_and_values(game, pot, **options)
    cg = compile_game(g, values)
    try:
        return public_from_compiled(cg), cg
    except GameError as exc:
        raise GameError(f"game {cg.name!r} has no public tree (engine 'public'): "
                        f"{exc}") from None


def _solve_public(game, method, pot, tol, iterations, init, strategy_out, progress, force,
                  max_memory, variant, out_file, stages, options) -> "SolveResult":
    """:func:`solve` on the public tree (``engine="public"``): the same result, its
    strategies by the history tree's information-set labels."""
    from pokerdyn.api.inputs import check_solver_work
    from pokerdyn.games.public import to_history
    from pokerdyn.games.strategy import strategy_by_labels
    from pokerdyn.solvers.learning.cfr_plus import variant as make_variant
    from pokerdyn.solvers.public import cfr as public_cfr

    with build_limits(max_memory, force):
        with stages("build"):
            pg, cg = public_form(game, pot, **options)
    named = parse_init(init)
    sigma0 = None
    if named:
        if cg is None:
            raise GameError(f"--init names parameters, and {pg.name!r} built from the rules "
                            "has none (its strategy is by information set); use engine 'tree'")
        from pokerdyn.games.public import from_history
        from pokerdyn.games.strategy import strategy_from_params
        sigma0 = from_history(pg, strategy_from_params(cg, named))
    # the work estimate: the public form's arrays are read once per player and iteration
    check_solver_work(force, [method], iterations, pg.nbytes() // 8)
    m = make_variant(method, **variant)
    with stages("solve"):
        res = public_cfr(pg, iterations, tol, sigma0=sigma0, progress=progress, method=m)
    profile = to_history(pg, res.strategy)
    by_infoset = strategy_by_labels(pg.infosets, profile)
    strategy = by_infoset
    if cg is not None:
        from pokerdyn.games.strategy import has_declared_names, params_from_strategy
        if has_declared_names(cg.game):
            strategy = params_from_strategy(cg, profile)
    name = pg.name if cg is None else cg.game.name
    _write_strategy(out_file, stages, name, method, strategy, by_infoset)
    return SolveResult(
        game=name,
        pot=None if cg is None else ({} if pot is None else cg.values).get("P"),
        method=method, iterations=res.iterations,
        seconds=res.seconds, nash_conv=res.nash_conv, tol=tol,
        converged=None if tol is None else bool(res.nash_conv <= tol),
        expected_payoffs=tuple(float(x) for x in res.expected_payoffs), strategy=strategy,
        strategy_by_infoset=by_infoset,
        strategy_file=None if out_file is None else str(out_file), profile=profile,
        history=res.history, variant={**_variant_ran(res.options), "engine": "public",
                                      "public_size": pg.size()},
        timings=stages.seconds)


def _write_strategy(out_file, stages, game: str, method: str, strategy, by_infoset) -> None:
    """``--strategy-out``: the full strategy as JSON, written atomically (nothing without a
    file)."""
    if out_file is None:
        return
    from pokerdyn.api.inputs import atomic_write_text
    with stages("write"):
        atomic_write_text(out_file, json.dumps(
            {"game": game, "method": method, "strategy": strategy,
             "strategy_by_infoset": by_infoset}, indent=1) + "\n", "strategy-out")


def _variant_ran(options: Mapping[str, Any]) -> dict[str, Any]:
    """The CFR variant's parameters as they ran (the solve's ``variant`` key)."""
    return {"alpha": options["alpha"], "beta": options["beta"], "gamma": options["gamma"],
            "predictive": options["predictive"], "plus": options["regret_matching_plus"],
            "schedule": "alternating" if options["alternating"] else "simultaneous",
            "storage": options["storage"]}


@dataclass(frozen=True, repr=False)
class SolveResult(Result):
    """One numeric solve (``pokerdyn solve``).

    ``strategy``: by parameter name where the game's author named them (``b_J``), else by
    information-set label and action; ``strategy_by_infoset``: always by label and action
    (``{"P1:J|": {"k": .., "b": ..}}``); ``profile``: the behaviour profile as an array
    ``(n_infosets, n_actions)``; ``history``: rows (iteration, NashConv, seconds) at the
    solver's checkpoints; ``exact``: the exact NashConv and payoffs of a certified lp/lcp
    solution; ``starts``/``equilibria``: lcp with ``all_equilibria``."""

    game: str
    pot: float | None
    method: str
    iterations: int
    seconds: float
    nash_conv: float
    tol: float | None
    converged: bool | None
    expected_payoffs: tuple[float, ...]
    strategy: dict[str, Any] = field(repr=False)
    strategy_by_infoset: dict[str, dict[str, float]] = field(repr=False)
    strategy_file: str | None = None
    exact: dict[str, Any] | None = None
    starts: int | None = None
    equilibria: list[dict[str, Any]] | None = field(default=None, repr=False)
    profile: Any = field(default=None, repr=False)
    history: Any = field(default=None, repr=False)
    variant: dict[str, Any] | None = None
    timings: dict[str, float] = field(default_factory=dict, repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        written = self.strategy_file is not None
        out = {"game": self.game, "pot": self.pot, "method": self.method,
               "iterations": self.iterations, "seconds": self.seconds,
               "nash_conv": self.nash_conv, "tol": self.tol, "converged": self.converged,
               "expected_payoffs": list(self.expected_payoffs),
               "strategy": None if written else self.strategy,
               "strategy_by_infoset": None if written else self.strategy_by_infoset,
               "strategy_file": self.strategy_file}
        if self.exact is not None:
            out["exact"] = self.exact
        if self.equilibria is not None:
            out["starts"] = self.starts
            out["equilibria"] = self.equilibria
        if self.variant is not None:
            out["variant"] = self.variant
        return out

    def to_text(self) -> str:
        lines = [f"{self.game}  method={self.method}  iterations={self.iterations}  "
                 f"time={self.seconds:.3f}s  NashConv={self.nash_conv:.3e}"
                 + ("" if self.tol is None else
                    f"  ({'reached' if self.converged else 'did not reach'} tol={self.tol:g})"),
                 "expected payoffs: " + "  ".join(f"E{i + 1}={x:+.6f}"
                                                  for i, x in enumerate(self.expected_payoffs))]
        if self.exact is not None:
            lines.append(f"exact: NashConv={self.exact['nash_conv']}  payoffs="
                         + ", ".join(self.exact["expected_payoffs"]))
        for k, e in enumerate(self.equilibria or []):
            lines.append(f"equilibrium {k + 1} (start {e['start']}): exact NashConv="
                         f"{e['exact']['nash_conv']}  payoffs="
                         + ", ".join(e["exact"]["expected_payoffs"]))
        if self.strategy_file is not None:
            lines.append(f"strategy ({len(self.strategy):,} entries) written to "
                         f"{self.strategy_file}")
            return "\n".join(lines)
        for k, v in list(self.strategy.items())[:PRINT_LIMIT]:
            lines.append(f"  {k:<16} {v:.6f}" if not isinstance(v, dict) else
                         f"  {k:<24} " + "  ".join(f"{a}={x:.6f}" for a, x in v.items()))
        if len(self.strategy) > PRINT_LIMIT:
            lines.append(f"  ... {len(self.strategy) - PRINT_LIMIT:,} more entries (--json or "
                         "--strategy-out FILE for all)")
        return "\n".join(lines)

    def to_frame(self):
        """One row per information set and action: ``player``, ``infoset``, ``action``,
        ``probability``."""
        import pandas as pd

        rows = [(label.partition(":")[0], label, a, p)
                for label, acts in self.strategy_by_infoset.items() for a, p in acts.items()]
        return pd.DataFrame(rows, columns=["player", "infoset", "action", "probability"])

    def plot(self, ax=None):
        """NashConv against iterations (log-log) at the solver's checkpoints; TypeError for
        a method without a convergence trace (lp, lcp)."""
        if self.history is None or len(self.history) < 2:
            raise TypeError(f"method {self.method!r} has no convergence trace (one solve, no "
                            "iterations); use to_dict()")
        ax = _history_axes(_new_axes(ax), self.history, self.method)
        ax.set_title(f"{self.game}: {self.method}", fontsize=9)
        return ax


def solve(game: "str | Game", method: str = "fp", *, pot: Any = None, tol: Any = None,
          iterations: Any = None, seed: Any = None, schedule: str | None = None,
          averaging: str = "reach", init: "str | Mapping[str, Any] | None" = None,
          all_equilibria: bool = False, strategy_out: Any = None, progress: bool = False,
          force: bool = False, max_memory: Any = None, alpha: Any = None, beta: Any = None,
          gamma: Any = None, storage: str | None = None, engine: str = "tree",
          **options: Any) -> SolveResult:
    """Solve a game numerically, as ``pokerdyn solve`` does.

    Parameters
    ----------
    game : str or Game
        A spec (``"skp"``, ``"river(street=half)"``, a ``.efg`` path) or a built game.
    method : str
        One of ``fp``, ``hedge``, the CFR family ``cfr+``, ``cfr`` (vanilla), ``lcfr``,
        ``dcfr``, ``pcfr+``, ``pdcfr+``, and ``lp``, ``lcp`` (:mod:`pokerdyn.solvers.methods`).
    pot : str, number or None
        The pot ``P`` (exact: ``"19/2"``, ``9``, a Fraction), for games that have one.
    tol : float or None
        Stop when NashConv <= tol (iterative methods).
    iterations : int or None
        Iteration cap (default 10,000).
    seed : int or None
        No method of ``solve`` draws random numbers (each is deterministic); checked as a
        seed in [0, 2**32 - 1] and otherwise unused.
    schedule : str or None
        ``simultaneous`` or ``alternating`` updates (fp and the CFR family; None: the
        method's own, simultaneous for fp and cfr, alternating for the other CFR methods).
    averaging : str
        Fictitious play's averaging (``reach``/``infoset``).
    init : str or mapping or None
        Starting strategy by named parameter (``"b_J=0.3,c_K=0.5"``; others uniform).
    all_equilibria : bool
        lcp: every equilibrium reached from the standard starts (``--all``).
    strategy_out : path or None
        Write the full strategy as JSON there (atomically) instead of into ``to_dict()``.
    progress : bool
        Show a progress bar (the command does unless ``--json``).
    force, max_memory
        Lift the size guards; the memory limit of the game build.
    alpha, beta, gamma : float or None
        The CFR family's exponents (None: the variant's own): positive and negative
        accumulated regrets discounted by ``t^alpha/(t^alpha+1)`` and ``t^beta/(t^beta+1)``
        (Brown & Sandholm 2019), the average weighted by ``t^gamma`` (gamma >= 0).
    storage : str or None
        The CFR family's regret storage: ``float64`` (default), ``float32`` or ``int16``
        (16-bit regrets with one float scale per information set).
    engine : str
        Where the CFR family runs: ``tree`` (the history tree, default), ``public`` (the
        public tree with range vectors, ``pokerdyn.games.public``: built from the rules
        for ``leduc``, ``mercer-smh`` and ``mercer-mmh``, whose 4 and 5 players only it
        builds, else derived from the compiled game; GameError for a game whose histories
        do not factor) or ``auto`` (the public tree for the builder games, whose public form
        is the smaller, else the history tree).  Other methods run on the history tree.
    **options
        Game options (``street="half"``, ``max_bets=2``), as :func:`pokerdyn.game`.

    Returns
    -------
    SolveResult
        ``to_dict()`` is ``pokerdyn solve --json``; strategies by parameter name and by
        information set; ``variant`` (CFR family): the parameters that ran.

    Examples
    --------
    >>> import pokerdyn as pd
    >>> r = pd.solve("kuhn", method="lp")
    >>> round(r.expected_payoffs[0], 6), r.exact["expected_payoffs"][0]
    (-0.055556, '-1/18')
    >>> r = pd.solve("skp", "cfr+", pot=9, iterations=2000)
    >>> sorted(r.strategy), sorted(r.strategy_by_infoset["P3:J|"])
    (['b_J', 'c_K', 'd_Q'], ['b', 'k'])
    >>> r = pd.solve("leduc", "dcfr", iterations=300)
    >>> r.variant["alpha"], r.variant["gamma"], r.nash_conv < 0.01
    (1.5, 2.0, True)
    >>> r = pd.solve("mercer-mmh(players=2)", "cfr+", engine="public", iterations=100)
    >>> r.variant["engine"], r.nash_conv < 0.05
    ('public', True)
    """
    from pokerdyn.api.inputs import check_output_file, check_solver_work
    from pokerdyn.solvers.methods import SOLVE_METHODS, MethodOptions, check_method

    stages = Stages()
    check_method(method, SOLVE_METHODS)
    tol = _tol(tol)
    iterations = _iterations(iterations, 10_000)
    _seed(seed)
    variant = _variant_options(method, schedule, alpha, beta, gamma, storage)
    engine = _engine(engine, method, game)
    if method == "lp":
        _refuse_lp(game)
    if method == "lcp":
        _refuse_lp(game, "the LCP solver needs a 2-player game")
    elif all_equilibria:
        raise GameError("--all lists the equilibria of the LCP solver; use it with --method lcp")
    out_file = None if strategy_out is None else \
        check_output_file(str(strategy_out), "strategy-out")
    if engine == "public":
        return _solve_public(game, method, pot, tol, iterations, init, strategy_out, progress,
                             force, max_memory, variant, out_file, stages, options)
    with build_limits(max_memory, force):
        with stages("build"):
            g, values = game_and_values(game, pot, **options)
        with stages("compile"):
            from pokerdyn.games import compile_game
            cg = compile_game(g, values)
    from pokerdyn.games.strategy import (has_declared_names, params_from_strategy,
                                         strategy_by_infoset, strategy_from_params)
    from pokerdyn.solvers.methods import METHODS

    named = parse_init(init)
    sigma0 = strategy_from_params(cg, named) if named else None
    check_solver_work(force, [method], iterations, cg.n_nodes)  # lp, lcp: 0
    with stages("solve"):
        res = METHODS[method](cg, MethodOptions(
            iterations=iterations, tol=tol, sigma0=sigma0, schedule=schedule,
            averaging=averaging, all=bool(all_equilibria), progress=progress,
            **(variant or {})))
    declared = has_declared_names(g)
    by_infoset = strategy_by_infoset(cg, res.strategy)
    strategy = params_from_strategy(cg, res.strategy) if declared else by_infoset
    exact = None
    if "exact_nash_conv" in res.options:
        exact = {"nash_conv": res.options["exact_nash_conv"],
                 "expected_payoffs": res.options["exact_payoffs"]}
    starts = equilibria = None
    if all_equilibria:
        view = params_from_strategy if declared else strategy_by_infoset
        starts = res.options["starts"]
        equilibria = [{**e, "strategy": view(cg, e["strategy"]),
                       "strategy_by_infoset": strategy_by_infoset(cg, e["strategy"])}
                      for e in res.options["all"]]
    _write_strategy(out_file, stages, g.name, method, strategy, by_infoset)
    return SolveResult(
        game=g.name, pot=values.get("P"), method=method, iterations=res.iterations,
        seconds=res.seconds, nash_conv=res.nash_conv, tol=tol,
        converged=None if tol is None else bool(res.nash_conv <= tol),
        expected_payoffs=tuple(float(x) for x in res.expected_payoffs), strategy=strategy,
        strategy_by_infoset=by_infoset,
        strategy_file=None if out_file is None else str(out_file), exact=exact,
        starts=starts, equilibria=equilibria, profile=res.strategy, history=res.history,
        variant=None if variant is None else {**_variant_ran(res.options), "engine": "tree"},
        timings=stages.seconds)


# -- compare ----------------------------------------------------------------------------------
def _fmt(x: float) -> str:
    return "-" if math.isnan(x) else f"{x:.2e}"


@dataclass(frozen=True, repr=False)
class CompareResult(Result):
    """Several methods on one game under one budget (``pokerdyn compare``): ``runs`` maps
    each method to its :class:`~pokerdyn.solvers.iterative.SolverResult` (``history``: rows
    of iteration, NashConv, seconds)."""

    game: str
    description: str
    pot: float | None
    seconds: float
    runs: dict[str, Any] = field(repr=False)
    plot_file: str | None = None
    timings: dict[str, float] = field(default_factory=dict, repr=False, compare=False)

    def _summary(self) -> dict[str, Any]:
        return {"game": self.game, "pot": self.pot, "seconds": self.seconds,
                "nash_conv": {m: r.nash_conv for m, r in self.runs.items()},
                "plot_file": self.plot_file}

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "description": self.description, "pot": self.pot,
                "seconds": self.seconds, "methods": {m: {
                    "iterations": r.iterations, "seconds": r.seconds,
                    "nash_conv": r.nash_conv,
                    "iterations_per_second": r.iterations / r.seconds if r.seconds else None,
                    "expected_payoffs": [float(x) for x in r.expected_payoffs],
                    "history": [[int(h[0]), float(h[1]), float(h[2])] for h in r.history]}
                    for m, r in self.runs.items()}, "plot": self.plot_file}

    def to_text(self) -> str:
        from pokerdyn.solvers.methods.compare import value_at

        runs = self.runs
        lines = [f"{self.description}",
                 f"{'method':<8}{'iterations':>12}{'seconds':>10}{'it/s':>12}{'NashConv':>11}"]
        for m, r in runs.items():
            lines.append(f"{m:<8}{r.iterations:>12}{r.seconds:>10.3f}"
                         f"{r.iterations / r.seconds:>12.0f}{r.nash_conv:>11.2e}")
        top = max(r.iterations for r in runs.values())
        marks = [x for x in ITER_MARKS if x <= top]
        lines += ["", "NashConv against iterations",
                  f"{'iteration':>10}" + "".join(f"{m:>11}" for m in runs)]
        cols = {m: value_at(r.history, 0, marks) for m, r in runs.items()}
        for i, x in enumerate(marks):
            lines.append(f"{x:>10.0f}" + "".join(f"{_fmt(cols[m][i]):>11}" for m in runs))
        tmarks = [x for x in TIME_MARKS if x <= max(r.seconds for r in runs.values())]
        lines += ["", "NashConv against time",
                  f"{'seconds':>10}" + "".join(f"{m:>11}" for m in runs)]
        cols = {m: value_at(r.history, 2, tmarks) for m, r in runs.items()}
        for i, x in enumerate(tmarks):
            lines.append(f"{x:>10g}" + "".join(f"{_fmt(cols[m][i]):>11}" for m in runs))
        if self.plot_file:
            lines += ["", f"wrote {self.plot_file}"]
        return "\n".join(lines)

    def to_frame(self):
        """One row per method: ``iterations``, ``seconds``, ``iterations_per_second``,
        ``nash_conv``."""
        import pandas as pd

        d = self.to_dict()["methods"]
        return pd.DataFrame([{"method": m, "iterations": r["iterations"],
                              "seconds": r["seconds"],
                              "iterations_per_second": r["iterations_per_second"],
                              "nash_conv": r["nash_conv"]} for m, r in d.items()]
                            ).set_index("method")

    def plot(self, ax=None):
        """NashConv against iterations of every method (log-log; lp: its one point)."""
        ax = _new_axes(ax)
        for m, r in self.runs.items():
            _history_axes(ax, r.history, m)
        ax.set_title(self.description[:70], fontsize=9)
        ax.legend(fontsize=8)
        return ax

    def figure(self):
        """The command's ``--plot`` figure: NashConv against iterations and against time."""
        from pokerdyn.figures.base import new_figure
        from pokerdyn.figures.convergence.convergence_compare import plot_convergence

        fig, (a, b) = new_figure(1, 2, size=(10, 4))
        plot_convergence(a, b, self.runs, title=self.description[:70])
        return fig


def compare(game: "str | Game", methods: "str | Sequence[str]" = ("fp", "hedge", "cfr+"), *,
            pot: Any = None, seconds: Any = 30, iterations: Any = None, tol: Any = None,
            plot: Any = None, progress: bool = False, force: bool = False,
            max_memory: Any = None, **options: Any) -> CompareResult:
    """Run several methods on one game, each for the same time budget, as
    ``pokerdyn compare`` does.

    Parameters
    ----------
    game : str or Game
        A spec or a built game.
    methods : str or sequence of str
        Among ``fp``, ``hedge``, the CFR family (``cfr+``, ``cfr``, ``lcfr``, ``dcfr``,
        ``pcfr+``, ``pdcfr+``) and ``lp`` (``"fp,cfr+"`` or a list).
    pot : str, number or None
        The pot ``P``, for games that have one.
    seconds : float
        Time budget per method (default 30).
    iterations : int or None
        Iteration cap per method (default 10**9).
    tol : float or None
        Stop a method when NashConv <= tol.
    plot : path or None
        Write the figure (NashConv against iterations and time) there.
    progress, force, max_memory, **options
        As :func:`solve`.

    Returns
    -------
    CompareResult
        ``to_dict()`` is ``pokerdyn compare --json``; ``runs`` the solver results.

    Examples
    --------
    >>> import pokerdyn as pd
    >>> r = pd.compare("kuhn", "cfr+,lp", seconds=0.05)
    >>> sorted(r.to_dict()["methods"]), r.runs["lp"].nash_conv == 0
    (['cfr+', 'lp'], True)
    """
    from pokerdyn.api.inputs import check_plot_file, check_solver_work, parse_float
    from pokerdyn.solvers.methods import COMPARE_METHODS

    stages = Stages()
    names = [m.strip() for m in methods.split(",") if m.strip()] if isinstance(methods, str) \
        else [str(m).strip() for m in methods if str(m).strip()]
    if not names:
        raise GameError(f"methods={methods!r} names no method; allowed: "
                        f"{', '.join(COMPARE_METHODS)}")
    for m in names:
        if m not in COMPARE_METHODS:
            raise GameError(f"unknown method {m!r}; allowed: {', '.join(COMPARE_METHODS)}")
    plot_path = None if plot is None or plot == "" else os.fspath(plot)
    if plot_path:
        check_plot_file(plot_path)
    seconds = parse_float(seconds, "seconds", low=0, low_open=True)
    tol = _tol(tol)
    iterations = _iterations(iterations, 10**9)
    if "lp" in names:
        _refuse_lp(game)
    with build_limits(max_memory, force):
        with stages("build"):
            g, values = game_and_values(game, pot, **options)
        with stages("compile"):
            from pokerdyn.games import compile_game
            cg = compile_game(g, values)
    check_solver_work(force, names, iterations, cg.n_nodes, seconds=seconds)
    from pokerdyn.solvers.methods import compare as comparing  # looked up at call time

    with stages("solve"):
        runs = comparing.compare(cg, names, seconds=seconds, iterations=iterations, tol=tol,
                                 progress=progress)
    result = CompareResult(game=g.name, description=g.description, pot=values.get("P"),
                           seconds=seconds, runs=runs,
                           plot_file=None if plot is None else os.fspath(plot),
                           timings=stages.seconds)
    if plot_path:
        from pathlib import Path

        from pokerdyn.figures.base import save

        with stages("plot"):
            out = Path(plot_path)
            save(result.figure(), out.parent if str(out.parent) else Path("."), out.name)
    return result


# -- collusion --------------------------------------------------------------------------------
def collusion_game_maker(spec: Any):
    """``make(collusion, colluders)`` for :func:`pokerdyn.solvers.methods.collusion.collusion_payoffs`
    from a spec whose game takes the collusion options; GameError (one line) for a game
    without them."""
    from pokerdyn.games import GAMES
    from pokerdyn.games.catalog.registry import GAME_OPTIONS, make_game
    from pokerdyn.games.catalog.spec import parse_spec

    if not isinstance(spec, str):
        raise GameError(f"game={spec!r} is not a spec string; collusion builds the game with "
                        "its collusion options, e.g. 'mercer-smh(players=3)'")
    base, opts = parse_spec(spec)
    if base not in GAMES:
        make_game(spec)  # the unknown-game (or OpenSpiel) error
    need = ("collusion", "colluders")
    if not all(k in GAME_OPTIONS.get(base, ()) for k in need):
        have = [g for g, o in GAME_OPTIONS.items() if all(k in o for k in need)]
        raise GameError(f"game {base!r} has no collusion and colluders options; games with "
                        f"them: {', '.join(have) or 'none'}")
    if any(k in opts for k in need):
        raise GameError(f"{spec!r}: leave collusion and colluders out of the spec; --kind "
                        "sets the collusion and the command seats the colluders in turn")

    def make(collusion, colluders):
        if collusion is None:
            return make_game(spec)
        return make_game(spec, collusion=collusion, colluders=tuple(colluders))
    return make


@dataclass(frozen=True, repr=False)
class CollusionResult(Result):
    """Payoffs per hand under collusion (``pokerdyn collusion``), the dealer rotating, each
    case ordered (C, A, B): ``payoffs`` is the
    :class:`~pokerdyn.solvers.methods.collusion.CollusionPayoffs` (per-seating detail)."""

    game: str
    kind: str
    method: str
    tol: float | None
    epsilon: float | None
    public: tuple[float, ...]
    private: tuple[float, ...]
    suspicious: tuple[float, ...]
    payoffs: Any = field(repr=False)
    timings: dict[str, float] = field(default_factory=dict, repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        from pokerdyn.solvers.methods.collusion import record

        return record(self.payoffs, self.game, self.method, self.tol, self.epsilon)

    def to_text(self) -> str:
        out, res = self.to_dict(), self.payoffs
        paper = self.method == "paper-fp"
        stop = f"epsilon={self.epsilon:g}" if paper else f"tol={self.tol:g}"
        lines = [f"{out['game']}  collusion={self.kind}  method={self.method}  {stop}  "
                 f"time={res.seconds:.2f}s  (payoff per hand, dealer rotating)",
                 f"{'':<12}{'C (victim)':>12}{'A':>12}{'B':>12}"]
        for case in ("public", "private", "suspicious"):
            lines.append(f"{case:<12}" + "".join(f"{x:>+12.5f}" for x in out[case]))
        lines.append("NashConv: " + "  ".join(
            f"{'no collusion' if k == 'none' else 'colluders ' + k}={v:.2e}"
            for k, v in res.nash_conv.items()))
        if paper:
            lines.append("iterations: " + "  ".join(f"{k}={v}" for k, v in res.iterations.items())
                         + ("" if out["converged"] else
                            "  (not all below epsilon: raise --iterations)"))
        return "\n".join(lines)

    def to_frame(self):
        """One row per case (public, private, suspicious), one column per role (C, A, B)."""
        import pandas as pd

        from pokerdyn.solvers.methods.collusion import ORDER

        return pd.DataFrame([self.public, self.private, self.suspicious],
                            index=["public", "private", "suspicious"], columns=list(ORDER))

    def plot(self, ax=None):
        """The payoff per hand of C, A and B in each case, as grouped bars."""
        import numpy as np

        from pokerdyn.solvers.methods.collusion import ORDER

        ax = _new_axes(ax)
        cases = ("public", "private", "suspicious")
        x = np.arange(len(cases))
        for k, role in enumerate(ORDER):
            ax.bar(x + (k - 1) * 0.27, [getattr(self, c)[k] for c in cases], 0.27,
                   label=role + (" (victim)" if role == "C" else ""))
        ax.set_xticks(x, cases)
        ax.axhline(0, color="k", lw=0.5)
        ax.set_ylabel("payoff per hand")
        ax.set_title(f"{self.game}: {self.kind} collusion ({self.method})", fontsize=9)
        ax.legend(fontsize=8)
        return ax


def collusion(game: str, kind: str, *, method: str = "cfr+", tol: Any = None,
              epsilon: Any = None, iterations: Any = None, progress: bool = False,
              force: bool = False, max_memory: Any = None) -> CollusionResult:
    """Payoffs under collusion (Mercer, hold'em paper sec. 5, Table 7), as
    ``pokerdyn collusion`` computes them: A and B collude against C in the public, private
    and suspicious cases, the dealer rotating every hand.

    Parameters
    ----------
    game : str
        Spec of a 3-player game whose factory takes ``collusion`` and ``colluders``
        (``"mercer-smh(players=3)"``), without those options.
    kind : str
        ``strong`` (colluders see each other's cards), ``weak`` (win sharing) or ``pot``.
    method : str
        ``cfr+`` (default), ``fp`` (each to NashConv ``tol``) or ``paper-fp`` (the paper's
        fictitious play, stopped when the largest regret is below ``epsilon``).
    tol : float or None
        cfr+ and fp: NashConv target of each solve (default 0.01).
    epsilon : float or None
        paper-fp: regret bound, in (0, the game's payoff range) (default 0.01).
    iterations : int or None
        Iteration cap of each solve (default 10,000).
    progress, force, max_memory
        As :func:`solve`.

    Returns
    -------
    CollusionResult
        ``to_dict()`` is ``pokerdyn collusion --json``; ``to_frame()`` the table.

    Examples
    --------
    >>> import pokerdyn as pd
    >>> r = pd.collusion("mercer-smh(players=3)", "weak", iterations=200)
    >>> r.to_dict()["players"], len(r.to_dict()["hands"])
    (['C', 'A', 'B'], 3)
    """
    from pokerdyn.api.inputs import check_solver_work, parse_float
    from pokerdyn.games.errors import shown
    from pokerdyn.solvers.methods.collusion import (ROTATION, check_epsilon, collusion_payoffs,
                                            iterative_solver)
    from pokerdyn.solvers.methods import COLLUSION_METHODS, check_method

    stages = Stages()
    if kind not in KINDS:
        raise GameError(f"unknown kind {kind!r}; allowed: {', '.join(KINDS)}")
    check_method(method, COLLUSION_METHODS)
    paper = method == "paper-fp"
    if paper and tol is not None:
        raise GameError(f"--tol={shown(tol)} is not allowed with --method paper-fp (it stops "
                        "at --epsilon); allowed with cfr+ and fp")
    if not paper and epsilon is not None:
        raise GameError(f"--epsilon={shown(epsilon)} is allowed with --method paper-fp only; "
                        f"{method} stops at --tol")
    iterations = _iterations(iterations, 10_000)
    eps = None
    if paper:
        eps = parse_float("0.01" if epsilon is None else epsilon, "epsilon", low=0,
                          low_open=True)
    else:
        tol = parse_float("0.01" if tol is None else tol, "tol", low=0, low_open=True)
    with build_limits(max_memory, force):
        with stages("build"):
            make_any = collusion_game_maker(game)
            base = make_any(None, None)
        if paper:  # the upper end needs the game: a regret is below its payoff range
            eps = check_epsilon(eps, base)
        # every solve (the game without collusion and one per seating), before any runs; the
        # paper's fictitious play costs what fictitious play does per iteration
        check_solver_work(force, ["fp" if paper else method], iterations, base.n_nodes,
                          runs=1 + len(ROTATION))

        def make(collusion, colluders):  # the game without collusion built once
            return base if collusion is None else make_any(collusion, colluders)

        solve_one = iterative_solver(method, tol, iterations, progress=progress, epsilon=eps)
        with stages("solve"):
            res = collusion_payoffs(make, kind, solve_one, progress=progress)
    return CollusionResult(game=base.name, kind=kind, method=method, tol=tol, epsilon=eps,
                           public=tuple(float(x) for x in res.public),
                           private=tuple(float(x) for x in res.private),
                           suspicious=tuple(float(x) for x in res.suspicious),
                           payoffs=res, timings=stages.seconds)


__all__ = ["CollusionResult", "CompareResult", "SolveResult", "collusion",
           "collusion_game_maker", "compare", "parse_init", "solve"]
