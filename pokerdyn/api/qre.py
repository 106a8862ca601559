"""Quantal response through the front door: ``pd.qre`` (the agent logit QRE of McKelvey and
Palfrey 1998: the principal branch and its limit, the QRE at given precisions, or the
equilibrium the branch selects along the pot axis) and ``pd.qre_fit`` (the precision that
best explains observed play, with its profile-likelihood interval).

Each function checks its input in the order the command does (one
:class:`~pokerdyn.games.GameError` line, the command line's), and returns a frozen result
whose ``to_dict()`` is the command's ``--json`` and ``to_text()`` its text output; its
``timings`` say how long each stage took.  Strategies are given by information-set label and
action (``{"P3:J|": {"k": 0.78, "b": 0.22}}``) and, under ``by_parameter``, by the game's
parameter names (``{"b_J": 0.22}``).  Heavy modules load inside the functions."""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping

from pokerdyn.api.exact_text import strategy_text
from pokerdyn.api.inputs import build_limits
from pokerdyn.api.result import Result, Stages
from pokerdyn.games.errors import GameError

if TYPE_CHECKING:  # pragma: no cover
    from pokerdyn.games import Game

TOL = 1e-6          # the branch stops at this NashConv (--tol)
TOP_LAMBDA = 1e7    # ... or at this precision
GRID = 48           # pots of the selection map's grid (--grid)
MODES = ("branch", "profiles", "selection")


# -- input ------------------------------------------------------------------------------------


def _game_and_values(spec: "str | Game", pot: Any, options: Mapping[str, Any]
                     ) -> tuple[Game, dict[str, float], Any]:
    """The game (pokerdyn.api.inputs.game), its parameter values (``pot`` sets ``P``,
    checked as ``--pot``) and the exact pot (None without one)."""
    from pokerdyn.api.inputs import game, pot_value

    g = game(spec, **options)
    values: dict[str, float] = {}
    exact = None
    if pot is not None:
        exact = pot_value(g, pot)
        values["P"] = float(exact)
    return g, values, exact


def parse_lambdas(value: Any) -> list[float]:
    """The precisions of ``--lambda`` (text "1,10,100", a number or a sequence); GameError
    unless each is a number in (0, 1e7]."""
    from pokerdyn.solvers.qre import check_lambda
    if not isinstance(value, str):
        try:
            items = list(value)
        except TypeError:
            items = [value]
        if not items:
            raise GameError(f"--lambda={value!r} is not a comma-separated list of numbers > 0;"
                            " allowed: precisions in (0, 1e7], e.g. 0.5,2,10")
        return [check_lambda(t) for t in items]
    parts = [t.strip() for t in value.split(",")]
    if not parts or any(not t for t in parts):
        raise GameError(f"--lambda={value!r} is not a comma-separated list of numbers > 0; "
                        "allowed: precisions in (0, 1e7], e.g. 0.5,2,10")
    return [check_lambda(t) for t in parts]


def parse_pots(value: Any) -> tuple[float, float]:
    """``A:B`` (or a pair ``(A, B)``) with 0 <= A < B <= the largest pot
    (solvers.symbolic.model.pot_values); GameError otherwise."""
    from pokerdyn.api.inputs import parse_float
    from pokerdyn.solvers.symbolic.model.pot_values import POT_MAX_EXP

    if isinstance(value, str):
        text = value
        a, sep, b = value.partition(":")
        if not sep:
            raise GameError(f"--pots={value!r} is not of the form A:B")
    else:
        try:
            a, b = value
        except (TypeError, ValueError):
            raise GameError(f"pots={value!r} is not a pair (low, high) or 'A:B'") from None
        text = f"{a}:{b}"
    top = 10.0 ** POT_MAX_EXP
    lo = parse_float(a, "pot range start", low=0.0, high=top)
    hi = parse_float(b, "pot range end", low=0.0, low_open=True, high=top)
    if not lo < hi:
        raise GameError(f"pot range {text} is empty or reversed; allowed: A:B with 0 <= A < B")
    return lo, hi


# -- records ----------------------------------------------------------------------------------
def _strategy(cg, sigma) -> tuple[dict, dict]:
    """A profile by information-set label and action, and by parameter name."""
    from pokerdyn.games.strategy import params_from_strategy, strategy_by_infoset
    return strategy_by_infoset(cg, sigma), params_from_strategy(cg, sigma)


def _point(cg, lam: float, sigma, payoffs, nc: float) -> dict:
    by_label, by_name = _strategy(cg, sigma)
    return {"lambda": float(lam), "strategy": by_label, "by_parameter": by_name,
            "expected_payoffs": payoffs.tolist(), "nash_conv": float(nc)}


# -- result -----------------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class QreResult(Result):
    """What ``pd.qre`` found; ``mode`` says which part is filled:

    * ``"branch"``: ``branch`` (the principal branch's points: ``lambda``, ``strategy``,
      ``by_parameter``, ``expected_payoffs``, ``nash_conv``, and with ``stability`` the
      logit dynamics' leading eigenvalue) and ``limit`` (its limit as lambda -> oo:
      ``strategy``, ``by_parameter``, ``nash_conv``, ``expected_payoffs``, ``certified``,
      ``stalled_at`` and, where the game is enumerable, ``family``: the equilibrium family it
      is matched with, its free values, an exact point and that point's exact NashConv);
      ``stability`` the summary (crossings, unstable lambda ranges) when asked;
    * ``"profiles"``: ``profiles``, the QRE at each asked precision;
    * ``"selection"``: ``selection``, the pot intervals and the family the branch's limit
      selects on each (exact expressions in P).

    ``seconds`` is the work's time as the command reports it; ``timings`` the seconds of
    each stage (branch mode: ``compile``, ``branch``, ``limit`` (extrapolation and
    polishing), ``identification`` (the families and the match), ``certification`` (the
    exact point and its exact NashConv), ``stability``)."""

    game: str
    mode: str
    values: dict[str, float] = field(default_factory=dict)
    branch: list[dict] | None = None
    limit: dict | None = None
    stability: dict | None = None
    profiles: list[dict] | None = None
    selection: list[dict] | None = None
    seconds: float = 0.0
    timings: dict[str, float] = field(default_factory=dict, compare=False)

    def _summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game, "mode": self.mode, "values": self.values}
        if self.mode == "branch":
            out["branch"] = f"<{len(self.branch)} points>"
            out["limit"] = self.limit.get("by_parameter") or \
                f"<{len(self.limit['strategy'])} information sets>"
            out["nash_conv"] = self.limit["nash_conv"]
            out["certified"] = self.limit["certified"]
        elif self.mode == "profiles":
            out["lambdas"] = [p["lambda"] for p in self.profiles]
        else:
            out["selection"] = f"<{len(self.selection)} segments>"
        return out

    def to_dict(self) -> dict[str, Any]:
        if self.mode == "selection":
            return {"game": self.game, "selection": self.selection, "seconds": self.seconds}
        if self.mode == "profiles":
            return {"game": self.game, "values": dict(self.values), "profiles": self.profiles,
                    "seconds": self.seconds}
        out = {"game": self.game, "values": dict(self.values), "branch": self.branch,
               "limit": self.limit}
        if self.stability is not None:
            out["stability"] = self.stability
        out["seconds"] = self.seconds
        return out

    def to_text(self) -> str:
        return _text(self.to_dict())

    def to_frame(self):
        """Branch mode: one row per branch point (``lambda``, ``nash_conv``, then each named
        parameter, or each ``label:action`` where the game names none); profiles mode: one
        row per precision; selection mode: one row per pot interval (``low``, ``high``,
        each parameter's expression)."""
        import pandas as pd
        if self.mode == "selection":
            return pd.DataFrame([{"low": s["pots"][0], "high": s["pots"][1], **s["strategy"]}
                                 for s in self.selection])
        rows = []
        for p in self.branch if self.mode == "branch" else self.profiles:
            cols = p["by_parameter"] or {f"{I}:{a}": x for I, acts in p["strategy"].items()
                                         for a, x in acts.items()}
            rows.append({"lambda": p["lambda"], "nash_conv": p["nash_conv"], **cols})
        return pd.DataFrame(rows)

    def plot(self, ax=None):
        """Branch (profiles) mode: each named parameter (each action probability where the
        game names none) against lambda, log scale, on ``ax`` (a new figure when None);
        returns the Axes."""
        if self.mode == "selection":
            raise TypeError("a selection map has no plot here; use to_frame() or to_dict()")
        frame = self.to_frame()
        if ax is None:
            import matplotlib.pyplot as plt
            _, ax = plt.subplots(figsize=(6, 4))
        lam = frame["lambda"].to_numpy()
        keep = lam > 0
        for col in frame.columns[2:]:
            ax.plot(lam[keep], frame[col].to_numpy()[keep], label=col, lw=1.2)
        ax.set_xscale("log")
        ax.set_xlabel("lambda (logit precision)")
        ax.set_ylabel("probability")
        ax.set_title(f"logit QRE {'branch' if self.mode == 'branch' else 'profiles'}, "
                     f"{self.game}", fontsize=9)
        if len(frame.columns) - 2 <= 16:
            ax.legend(fontsize=7)
        return ax


def _fmt(strategy: dict) -> str:
    return "; ".join(f"{I}: " + " ".join(f"{a}={p:.6g}" for a, p in acts.items())
                     for I, acts in strategy.items())


def _text(res: dict) -> str:
    """The command's text output of a QRE record (its --json)."""
    out = []
    if "selection" in res:
        for s in res["selection"]:
            lo, hi = s["pots"]
            strat = ", ".join(f"{k} = {v}" for k, v in s["strategy"].items())
            out.append(f"P in [{lo}, {hi}]: {strat}")
            for pt in s.get("selected", [])[:3]:
                out.append(f"    at P = {pt['pot']:.4g}: {pt['free']}")
    elif "profiles" in res:
        for p in res["profiles"]:
            out.append(f"lambda = {p['lambda']:g}: NashConv {p['nash_conv']:.3e}, payoffs "
                       f"{[round(x, 6) for x in p['expected_payoffs']]}")
            out.append(f"  {_fmt(p['strategy'])}")
    else:
        br, lim = res["branch"], res["limit"]
        out.append(f"branch: {len(br)} points, lambda up to {br[-1]['lambda']:.4g}, NashConv "
                   f"{br[-1]['nash_conv']:.3e}")
        out.append(f"limit: NashConv {lim['nash_conv']:.3e} (certified: {lim['certified']})")
        out.append(f"  {_fmt(lim['strategy'])}")
        fam = lim.get("family", "n/a")
        if isinstance(fam, dict):
            at = ", ".join(f"{k} = {v:.6g}" for k, v in (fam["free"] or {}).items())
            out.append(f"  family {fam['index']}: {strategy_text(fam['strategy'])}"
                       + (f"; the limit at {at}" if at else ""))
            out.append(f"  exact NashConv of the family point: {fam['exact_nash_conv']}")
        elif fam is None:
            out.append("  matched no enumerated family")
        if "stability" in res:
            st = res["stability"]
            out.append(f"stability: largest real part along the branch "
                       f"{st['max_real_eigenvalue']:.4g}")
            for c in st["crossings"]:
                out.append(f"  lambda = {c['lambda']:.10g}: {c['kind']}, {c['direction']}"
                           f" (imaginary part {c['imag']:.4g})")
            for lo, hi in st["unstable_lambda_ranges"]:
                out.append(f"  unstable for lambda in [{lo:.10g}, {hi:.10g}]")
    out.append(f"seconds: {res['seconds']:.3f}")
    return "\n".join(out)


# -- qre --------------------------------------------------------------------------------------
def qre(game: "str | Game", pot: Any = None, *, lambdas: Any = None, pots: Any = None,
        tol: Any = TOL, grid: Any = GRID, max_lambda: Any = None, stability: bool = False,
        progress: bool = False, max_memory: Any = None, force: bool = False,
        **options: Any) -> QreResult:
    """The agent logit quantal response equilibrium (McKelvey and Palfrey 1998).

    Without ``lambdas`` or ``pots``: the principal branch from uniform play (lambda = 0)
    until the profile's NashConv is below ``tol`` (or to ``max_lambda``), and its limit,
    matched with an enumerated equilibrium family where the game is enumerable (the family
    point's exact NashConv certifies it).  With ``lambdas``: the QRE at those precisions.
    With ``pots=(A, B)``: the equilibrium the branch selects at every pot in (A, B].

    Parameters
    ----------
    game : str or Game
        The game (a spec such as ``"skp"``, a .efg path, or a Game).
    pot : str or number, optional
        The pot P (exact: ``"19/2"``, ``"(5+sqrt(73))/2"``).
    lambdas : str or sequence of float, optional
        Precisions in (0, 1e7]: the QRE at each.
    pots : str or pair of float, optional
        ``"A:B"`` or ``(A, B)``: the selection map over pots in (A, B].
    tol : float
        Stop the branch at this NashConv (default 1e-6).
    grid : int
        Pots of the selection map's grid (default 48).
    max_lambda : float, optional
        Trace the branch to this precision instead of stopping at ``tol``.
    stability : bool
        With the branch: the logit dynamics' leading eigenvalue at every branch point and
        the lambda ranges where the QRE is unstable.
    progress : bool
        Show a progress bar.
    max_memory, force
        The game-size guard (as ``--max-memory``, ``--force``).
    **options
        Game options (as in :func:`pokerdyn.game`).

    Returns
    -------
    QreResult
        ``mode`` ``"branch"``, ``"profiles"`` or ``"selection"``; ``to_dict()`` is ``pokerdyn
        qre --json``; ``timings`` the seconds of each stage; ``to_frame()`` and ``plot()``
        the branch against lambda.

    Raises
    ------
    GameError
        An unknown game, a bad pot, precision, tolerance or pot range, or options that do
        not go together.

    Examples
    --------
    >>> import pokerdyn as pd
    >>> r = pd.qre("skp", pot=9)
    >>> r.limit["by_parameter"]                      # doctest: +ELLIPSIS
    {'b_J': 0.22222222..., 'c_K': 0.4..., 'd_Q': 0.0}
    >>> r.limit["family"]["point"], r.limit["certified"]
    ({'b_J': '2/9', 'c_K': '2/5', 'd_Q': '0'}, True)
    >>> list(r.timings)
    ['compile', 'branch', 'limit', 'identification', 'certification']
    """
    with build_limits(max_memory, force):
        g, values, exact = _game_and_values(game, pot, options)
        if pots is not None:
            if lambdas is not None or pot is not None or stability:
                raise GameError("--pots draws its own pots: give none of --pot, --lambda, "
                                "--stability with it")
            return _selection(g, pots, grid, progress)
        if lambdas is not None:
            if stability or max_lambda is not None:
                raise GameError("--stability and --max-lambda go with the branch: give no "
                                "--lambda with them")
            return _profiles(g, values, lambdas, progress)
        return _branch(g, values, exact, tol, max_lambda, stability, progress)


def _branch(game: Game, values: dict, pot: Any, tol: Any, max_lambda: Any, stability: bool,
            progress: bool) -> QreResult:
    from pokerdyn.api.inputs import parse_float
    from pokerdyn.games import compile_game
    from pokerdyn.solvers.evaluation import expected_payoffs
    from pokerdyn.solvers.qre import check_lambda, trace_branch
    from pokerdyn.solvers.qre.limit import identify_limit, numeric_limit

    tol = parse_float(tol, "--tol", low=0.0, low_open=True)
    top = TOP_LAMBDA
    if max_lambda is not None:
        tol, top = 0.0, check_lambda(max_lambda, "max-lambda")
    stages = Stages()
    with stages("compile"):
        cg = compile_game(game, values)
    t0 = time.perf_counter()
    with stages("branch"):
        br = trace_branch(cg, tol=tol, max_lambda=top, progress=progress)[0]
    with stages("limit"):
        est, nc = numeric_limit(cg, br)
    with stages("identification"):
        from pokerdyn.solvers.qre.families import enumerated_families
        fams = enumerated_families(game, values)
        lim = identify_limit(cg, est, nc, fams)
    by_label, by_name = _strategy(cg, lim.strategy)
    limit = {"strategy": by_label, "by_parameter": by_name, "nash_conv": lim.nash_conv,
             "expected_payoffs": expected_payoffs(cg, lim.strategy).tolist(),
             "certified": bool(lim.certified),
             # the walk's end game: where it could go no further (solvers.qre.branch)
             "stalled_at": br.stalled_at}
    if fams is not None:
        fam = None
        if lim.family is not None:
            with stages("certification"):
                from pokerdyn.solvers.qre.families import certify_point, exact_point
                sol = fams[lim.family]
                point = exact_point(sol, lim.free or {})
                fam = {"index": lim.family + 1,
                       "strategy": {k: str(v) for k, v in sol.strategy},
                       "free": lim.free, "nash_conv": lim.family_nash_conv,
                       "point": {k: str(v) for k, v in point.items()},
                       "exact_nash_conv": str(certify_point(
                           game, pot if pot is not None else game.defaults.get("P"), point))}
        limit["family"] = fam
    branch = [_point(cg, l, s, p, n)
              for l, s, p, n in zip(br.lambdas, br.profiles, br.payoffs, br.nash_conv)]
    summary = None
    if stability:
        with stages("stability"):
            summary = _stability(cg, br, branch)
    return QreResult(game=game.name, mode="branch", values=dict(cg.values), branch=branch,
                     limit=limit, stability=summary, seconds=time.perf_counter() - t0,
                     timings=stages.seconds)


def _stability(cg, br, branch: list[dict]) -> dict:
    """Each branch entry's ``stability`` (the leading eigenvalue of the logit dynamics'
    Jacobian on the strategy simplices, dynamics.learning.branch_stability) and the summary:
    the crossings of 0 and the lambda ranges where the QRE is unstable."""
    from pokerdyn.dynamics.learning import branch_stability
    st = branch_stability(cg, br)
    for entry, z in zip(branch, st.leading):
        entry["stability"] = {"max_real_eigenvalue": float(z.real), "imag": float(abs(z.imag)),
                              "stable": bool(z.real < 0)}
    # at lambda = 0 (uniform play) the Jacobian is -k: every range opens at a crossing
    ranges, start = [], None
    for c in st.crossings:
        if c["direction"] == "loses stability":
            start = c["lambda"]
        elif start is not None:
            ranges.append([start, c["lambda"]])
            start = None
    if start is not None:
        ranges.append([start, float(br.lambdas[-1])])
    lead = st.leading.real
    return {"crossings": list(st.crossings), "unstable_lambda_ranges": ranges,
            "max_real_eigenvalue": float(lead.max()) if len(lead) else None}


def _profiles(game: Game, values: dict, lambdas: Any, progress: bool) -> QreResult:
    from pokerdyn.games import compile_game
    from pokerdyn.solvers.evaluation import expected_payoffs, nash_conv
    from pokerdyn.solvers.qre import qre_profiles

    lams = parse_lambdas(lambdas)
    stages = Stages()
    with stages("compile"):
        cg = compile_game(game, values)
    t0 = time.perf_counter()
    with stages("profiles"):
        profs = qre_profiles(cg, lams, progress=progress)
        records = [_point(cg, l, s, expected_payoffs(cg, s), nash_conv(cg, s))
                   for l, s in zip(lams, profs)]
    return QreResult(game=game.name, mode="profiles", values=dict(cg.values),
                     profiles=records, seconds=time.perf_counter() - t0,
                     timings=stages.seconds)


def _selection(game: Game, pots: Any, grid: Any, progress: bool) -> QreResult:
    from pokerdyn.api.inputs import parse_float
    from pokerdyn.solvers.qre.selection import selection_map, selection_records

    lo, hi = parse_pots(pots)
    grid = int(parse_float(grid, "--grid", low=2, high=10000, integer=True))
    stages = Stages()
    t0 = time.perf_counter()
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=grid + 1, desc=f"QRE selection {game.name}", leave=False)
    with stages("selection"):
        segs = selection_map(game, lo, hi, grid=grid,
                             progress=(lambda k: bar.update(1)) if bar is not None else None)
    if bar is not None:
        bar.close()
    return QreResult(game=game.name, mode="selection", selection=selection_records(segs),
                     seconds=time.perf_counter() - t0, timings=stages.seconds)


# -- qre-fit ----------------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class QreFitResult(Result):
    """The maximum-likelihood logit precision ``lam`` (``inf`` when the likelihood still
    rises at the branch's end), its profile-likelihood ``interval`` at ``level`` (``inf``
    where it never closes), ``log_likelihood`` there, the number of ``observations``, the
    game and its ``values``; ``fit`` the full :class:`~pokerdyn.solvers.qre.estimate.
    LambdaFit` (the QRE at ``lam``, the likelihood along the branch)."""

    game: str
    values: dict[str, float]
    lam: float
    interval: tuple[float, float]
    log_likelihood: float
    level: float
    observations: int
    seconds: float
    fit: Any = field(repr=False, compare=False, default=None)
    timings: dict[str, float] = field(default_factory=dict, compare=False)

    def _summary(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ("game", "values", "lam", "interval",
                                              "log_likelihood", "level", "observations")}

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "values": dict(self.values), **self.fit.to_json(),
                "seconds": self.seconds}

    def to_text(self) -> str:
        lo, hi = self.interval
        return (f"{self.game}  {', '.join(f'{k}={v:g}' for k, v in self.values.items())}  "
                f"{self.observations} observed actions\n"
                f"lambda = {self.lam:.6g}   {100 * self.level:g}% interval [{lo:.6g}, "
                f"{hi:.6g}]   log-likelihood {self.log_likelihood:.6f}")

    def to_frame(self):
        """The log-likelihood at every branch point (``lambda``, ``log_likelihood``)."""
        import pandas as pd
        return pd.DataFrame({"lambda": self.fit.branch_lambdas,
                             "log_likelihood": self.fit.branch_log_likelihood})

    def plot(self, ax=None):
        """The log-likelihood along the branch against lambda (log scale), the estimate and
        the interval marked, on ``ax`` (a new figure when None); returns the Axes."""
        import math

        import numpy as np
        if ax is None:
            import matplotlib.pyplot as plt
            _, ax = plt.subplots(figsize=(6, 4))
        lam = np.asarray(self.fit.branch_lambdas)
        keep = lam > 0
        ax.plot(lam[keep], np.asarray(self.fit.branch_log_likelihood)[keep], lw=1.2)
        if math.isfinite(self.lam) and self.lam > 0:
            ax.axvline(self.lam, color="k", lw=0.8, label=f"lambda = {self.lam:.4g}")
        lo, hi = self.interval
        top = float(lam[keep].max()) if keep.any() else 1.0
        if lo > 0 or math.isfinite(hi):
            ax.axvspan(max(lo, float(lam[keep].min()) if keep.any() else lo),
                       hi if math.isfinite(hi) else top, alpha=0.15,
                       label=f"{100 * self.level:g}% interval")
        ax.set_xscale("log")
        ax.set_xlabel("lambda (logit precision)")
        ax.set_ylabel("log-likelihood")
        ax.set_title(f"logit precision fit, {self.game}", fontsize=9)
        ax.legend(fontsize=7)
        return ax


def qre_fit(game: "str | Game", counts: Any, pot: Any = None, *, level: Any = 0.95,
            max_memory: Any = None, force: bool = False, **options: Any) -> QreFitResult:
    """The logit precision lambda that best explains observed play: maximum likelihood over
    the principal QRE branch and its profile-likelihood interval (as Gambit's
    logit_estimate).

    Parameters
    ----------
    game : str or Game
        The game (a spec such as ``"kuhn"``, a .efg path, or a Game).
    counts : str, path, mapping or array
        Action counts per information set: a JSON file (as ``--counts``; ``pokerdyn
        simulate --counts-out`` writes one), its content (a mapping from information-set
        labels to ``{action: count}`` or to a list in the set's action order; sets left out
        count zero), or an array ``(n_infosets, n_actions)``.
    pot : str or number, optional
        The pot P.
    level : float
        Confidence level of the interval, in (0, 1) (default 0.95).
    max_memory, force
        The game-size guard (as ``--max-memory``, ``--force``).
    **options
        Game options (as in :func:`pokerdyn.game`).

    Returns
    -------
    QreFitResult
        ``lam``, ``interval``, ``log_likelihood``; ``to_dict()`` is ``pokerdyn qre-fit
        --json``; ``to_frame()``/``plot()`` the likelihood along the branch.

    Raises
    ------
    GameError
        A bad level, an unreadable counts file, counts that do not fit the game.

    Examples
    --------
    >>> import pokerdyn as pd
    >>> counts = {"P1:K|": {"k": 30, "b": 10}, "P2:J|b": {"f": 35, "c": 5}}
    >>> r = pd.qre_fit("kuhn", counts)
    >>> r.observations, round(r.lam, 2)
    (80, 1.84)
    """
    from pokerdyn.api.inputs import parse_float, read_json_file

    level = parse_float(level, "--level", low=0.0, high=1.0, low_open=True, high_open=True)
    if isinstance(counts, (str, os.PathLike)):
        counts = read_json_file(counts, "counts")   # before the game is built
    with build_limits(max_memory, force):
        g, values, _ = _game_and_values(game, pot, options)
        from pokerdyn.games import compile_game
        from pokerdyn.solvers.qre.estimate import check_counts, counts_from_json, fit_lambda

        stages = Stages()
        with stages("compile"):
            cg = compile_game(g, values)
            if isinstance(counts, Mapping):
                table = counts_from_json(cg, counts)
            elif hasattr(counts, "shape"):
                table = check_counts(cg, counts)
            else:
                table = counts_from_json(cg, counts)
        t0 = time.perf_counter()
        with stages("fit"):
            fit = fit_lambda(cg, table, level=level)
    seconds = time.perf_counter() - t0
    return QreFitResult(game=g.name, values=dict(cg.values), lam=fit.lam,
                        interval=tuple(fit.interval), log_likelihood=fit.log_likelihood,
                        level=fit.level, observations=fit.n_observations, seconds=seconds,
                        fit=fit, timings=stages.seconds)
