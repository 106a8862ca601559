"""Dynamics through the front door: ``pd.ode`` (the adaptive-play ODE, Billingham sec. 4.1:
a run, or with ``analyze`` its equilibria and first integrals), ``pd.lyapunov`` (its chaos
diagnostics), ``pd.simulate`` (repeated play with estimators, sec. 4.2), ``pd.estimators``
(the estimators at fixed frequencies, App. D) and ``pd.sweep`` (a parameter sweep from a TOML
file or a dict, resumed).

Each function checks its input in the order the command does (one
:class:`~pokerdyn.games.GameError` line, the command line's), runs, and returns a frozen result
whose ``to_dict()`` is the command's ``--json`` and whose ``to_text()`` is its text output.
Heavy modules load inside the functions (``import pokerdyn`` stays cheap)."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from pokerdyn.api.inputs import game_and_values
from pokerdyn.api.result import Result, Stages
from pokerdyn.games import Game, GameError

PHASE_SAMPLES = 20_001    # points of the dense solution drawn in a phase portrait
CYCLE_SAMPLES = 2_000     # points of the cycle drawn
CYCLE_RETURNS = 3         # returns to the section that define the cycle (find_cycle)
CYCLE_T_MAX = 2000.0      # the cycle search's longest run
PORTRAIT_T_END = 300.0    # end time of the phase portrait's runs (analyze with a plot)


# -- shared steps -------------------------------------------------------------------------------
def _text(value: Any) -> str:
    """A value as its command-line text: a string as it is, a number, a list of numbers
    comma-separated (so that the checks and their messages are the command line's)."""
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)) or hasattr(value, "tolist"):
        items = value.tolist() if hasattr(value, "tolist") else value
        return ",".join(str(v) for v in (items if isinstance(items, list) else [items]))
    return str(value)




def _rates(k: Any, n_players: int) -> Any:
    """``k`` (one rate or one per player, in (0, K_MAX]) as ode_model takes it."""
    from pokerdyn.api.inputs import parse_list
    from pokerdyn.dynamics.budget import K_MAX

    if k is None:
        return 1.0
    ks = parse_list(_text(k), "k", (1, n_players), low=0.0, low_open=True, high=K_MAX)
    return ks[0] if len(ks) == 1 else ks


def _choice(value: Any, what: str, allowed: Sequence[str]) -> str:
    if value not in allowed:
        raise GameError(f"{what}={value!r} is not allowed; allowed: {', '.join(allowed)}")
    return value


def _plot_path(plot: Any) -> str | None:
    from pokerdyn.api.inputs import check_plot_file

    if plot is None:
        return None
    check_plot_file(os.fspath(plot))
    return os.fspath(plot)


def _save(fig, path: str) -> None:
    from pokerdyn.figures.base import save

    p = Path(path)
    save(fig, p.parent if str(p.parent) else Path("."), p.name)


def _new_axes(ax, **kw):
    if ax is not None:
        return ax
    from pokerdyn.figures.base import new_figure
    _, ax = new_figure(**kw)
    return ax


def parse_phase(phase: Any, names: Sequence[str], fixed: Sequence[str] = ()) -> tuple[str, ...]:
    """``--phase X,Y[,Z]`` (a string or a sequence of names) -> the 2 or 3 distinct names of
    a phase portrait, each one of ``names``; GameError (one line naming the bad name and the
    allowed ones) else.  ``fixed``: parameters held fixed (named as such when asked for)."""
    items = [s.strip() for s in phase.split(",")] if isinstance(phase, str) else \
        [str(s) for s in phase]
    text = phase if isinstance(phase, str) else ",".join(items)
    allowed = ", ".join(names)
    for s in items:
        if s in fixed:
            raise GameError(f"phase={text!r}: {s!r} is held fixed (reduce=dominance); "
                            f"allowed: {allowed}")
        if s not in names:
            raise GameError(f"phase={text!r}: unknown parameter {s!r}; allowed: {allowed}")
    if len(items) not in (2, 3) or len(set(items)) != len(items):
        raise GameError(f"phase={text!r} names {len(items)} parameter(s); allowed: 2 or 3 "
                        f"distinct names X,Y[,Z] of {allowed}")
    return tuple(items)


# -- pd.ode --------------------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class OdeResult(Result):
    """The adaptive-play ODE of a game: one run (``mode="run"``: final state, payoff
    integrals, the :class:`~pokerdyn.dynamics.trajectory.Trajectory` with its dense solution
    and, with ``phase``, the cycle found) or its analysis (``mode="analysis"``: exact
    equilibria and first integrals; ``"numeric analysis"`` beyond 6 parameters: rest points
    found numerically)."""

    game: str
    model: str
    mode: str
    names: tuple[str, ...]
    t_end: float | None = None
    initial: dict[str, float] | None = None
    final: dict[str, float] | None = None
    payoff_integrals: tuple[float, ...] = ()
    mean_payoffs: tuple[float, ...] = ()
    equilibria: tuple = ()
    first_integrals: tuple = ()
    fixed: dict[str, Any] = field(default_factory=dict)
    any_stable: bool | None = None
    phase: tuple[str, ...] | None = None
    cycle: Any = None
    trajectory: Any = None
    plot_file: str | None = None
    ode_model: Any = field(default=None, repr=False, compare=False)
    timings: dict[str, float] = field(default_factory=dict, compare=False)

    def _cycle_dict(self) -> dict[str, Any] | None:
        import numpy as np

        c = self.cycle
        if c is None:
            return None
        sec = c.meta["section"]
        return {"section": [sec[0], float(sec[1])], "period": float(c.period),
                "start": float(self.t_end + c.meta["crossing_times"][-2]),
                "closure": float(c.closure), "closed": c.closed,
                "returns": [float(r) for r in c.returns],
                "floquet_moduli": None if c.multipliers is None else
                [float(v) for v in np.abs(c.multipliers)]}

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game, "model": self.model}
        if self.mode == "run":
            out.update({"t_end": self.t_end, "initial": dict(self.initial or {}),
                        "final": dict(self.final or {}),
                        "payoff_integrals": list(self.payoff_integrals),
                        "mean_payoffs": list(self.mean_payoffs)})
        elif self.mode == "analysis":
            out["equilibria"] = [e.to_json() for e in self.equilibria]
            out["first_integrals"] = [f.to_json() for f in self.first_integrals]
        else:
            out.update({"free": list(self.names), "fixed": dict(self.fixed),
                        "equilibria": [p.to_json() for p in self.equilibria],
                        "any_stable": self.any_stable})
        if self.phase is not None:
            out["phase"] = list(self.phase)
            if self.mode == "run":
                out["cycle"] = self._cycle_dict()
        if self.plot_file is not None:
            out["plot"] = self.plot_file
        return out

    def _lines(self) -> list[str]:
        if self.mode == "run":
            lines = ["final: " + ", ".join(f"{k} = {v:.6g}" for k, v in self.final.items())]
            lines += [f"E{p + 1}: integral {v:.6g}, mean {m:.6g}"
                      for p, (v, m) in enumerate(zip(self.payoff_integrals, self.mean_payoffs))]
            if self.phase is not None:
                c = self._cycle_dict()
                lines.append("cycle: none found" if c is None else
                             f"cycle: period {c['period']:.6g} from t = {c['start']:.6g} on "
                             "the section "
                             f"{c['section'][0]} = {c['section'][1]:.6g}, closure "
                             f"{c['closure']:.3g} ({'closed' if c['closed'] else 'not closed'})")
            return lines
        if self.mode == "analysis":
            lines = []
            for e in self.equilibria:
                pt = ", ".join(f"{k} = {v}" for k, v in e.exact.items())
                ev = ", ".join(f"{z.real:.4g}{z.imag:+.4g}i" for z in e.eigenvalues)
                lines.append(f"({pt}): {e.type}; eigenvalues {ev}")
            lines += [f"first integral on {f.plane}: H({', '.join(f.variables)}) = {f.H}"
                      + ("  [closed orbits]" if f.hessian_definite else "")
                      for f in self.first_integrals]
            return lines
        lines = [f"({', '.join(f'{k} = {v:.6g}' for k, v in p.point.items())}): "
                 f"{'Nash' if p.nash else 'not Nash'}, {p.kind()}, max Re eigenvalue "
                 f"{p.max_real:.4g}" for p in self.equilibria]
        lines.append(f"asymptotically stable: {'yes' if self.any_stable else 'none'}")
        return lines

    def to_text(self) -> str:
        return "\n".join([self.model, *self._lines()])

    def to_frame(self):
        """A run's samples (t, the parameters, the payoff integrals E1...); an analysis's
        equilibria (one row each)."""
        if self.trajectory is not None:
            return self.trajectory.to_frame()
        import pandas as pd

        return pd.DataFrame([{**e.point, "type": getattr(e, "type", None) or e.kind()}
                             for e in self.equilibria])

    def plot(self, ax=None):
        """A run: its phase portrait with the cycle (``phase`` given) or the parameters
        against time; an analysis: the phase portrait of seeded runs with the equilibria."""
        if self.mode != "run":
            return _portrait(self.ode_model, self.equilibria, self.phase, ax)
        if self.phase is not None:
            return _phase_portrait(self, ax)
        from pokerdyn.dynamics.plotting import time_series

        ax = _new_axes(ax)
        time_series(ax, self.trajectory)
        ax.set_title(self.model, fontsize=9)
        return ax


def _dense(trajectory, n: int = PHASE_SAMPLES):
    """The trajectory's dense solution (solve_ivp's interpolant) at ``n`` evenly spaced
    times: what a phase portrait draws, not the integrator's steps."""
    import numpy as np

    sol = trajectory.meta["sol"]
    t = np.linspace(trajectory.times[0], trajectory.times[-1], n)
    return t, sol(t)[:len(trajectory.names)].T


def _phase_portrait(res: OdeResult, ax=None):
    """The run's path in the phase variables (dense output, light), the cycle found (bold,
    with its period) and the start and end points; 3 names: a 3-D axes."""
    import numpy as np

    names, tr = res.phase, res.trajectory
    idx = [tr.names.index(n) for n in names]
    three = len(names) == 3
    ax = _new_axes(ax, **({"subplot_kw": {"projection": "3d"}} if three else {}))
    _, Y = _dense(tr)
    P = Y[:, idx]
    ax.plot(*P.T, color="0.55", lw=0.7, label=f"run, t in [0, {res.t_end:g}]")
    ax.scatter(*P[0], color="k", s=14, zorder=5, label="start")
    c = res.cycle
    if c is not None:
        from pokerdyn.dynamics import simulate_ode

        # the run continued from t_end to where the cycle starts, dense too
        t_c = float(c.meta["crossing_times"][-2])
        if t_c > 0:
            more = simulate_ode(res.ode_model, np.clip(tr.states[-1], 0.0, 1.0), t_c,
                                t_eval=[0.0, t_c], dense_output=True, check=False)
            _, Y2 = _dense(more)
            ax.plot(*Y2[:, idx].T, color="C0", lw=0.7, ls="--",
                    label=f"continued to t = {res.t_end + t_c:.4g}")
        O = c.orbit.states[:, idx]
        ax.plot(*O.T, color="C3", lw=2.0, label=f"cycle, period {c.period:.4g}"
                + ("" if c.closed else f" (closure {c.closure:.2g})"))
        j = len(O) // 3
        d = O[j + 1] - O[j]
        if not three and np.linalg.norm(d) > 0:
            ax.annotate("", xy=tuple(O[j + 1]), xytext=tuple(O[j]),
                        arrowprops={"arrowstyle": "-|>", "color": "C3", "lw": 1.5,
                                    "mutation_scale": 14})
    ax.set_xlabel(names[0])
    ax.set_ylabel(names[1])
    if three:
        ax.set_zlabel(names[2])
    ax.set_title(res.model, fontsize=9)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    return ax


def _portrait(model, points, phase, ax=None):
    """Seeded runs of the model in its first 2 or 3 parameters (or ``phase``), with the
    equilibria (rest points) marked."""
    import numpy as np

    from pokerdyn.dynamics import simulate_batch
    from pokerdyn.dynamics.plotting import mark_points, phase_3d, phase_plane

    rng = np.random.default_rng(0)
    trs = simulate_batch(model, rng.uniform(0.05, 0.95, (8, model.n)), PORTRAIT_T_END)
    names = tuple(phase) if phase else model.names[:3]
    if len(names) == 3:
        ax = _new_axes(ax, subplot_kw={"projection": "3d"})
        phase_3d(ax, trs, names, lw=0.7)
    else:
        ax = _new_axes(ax)
        for tr in trs:
            phase_plane(ax, tr, *names[:2], lw=0.7)
    mark_points(ax, [e.point for e in points], names)
    ax.set_title(model.label(), fontsize=9)
    return ax


def _find_cycle(model, trajectory, phase: tuple[str, ...]):
    """The cycle the run approaches: from its last point, on the section ``phase[0]`` = its
    mean over the run's second half (crossed upwards); None when the run has settled at a
    rest point or crosses the section fewer than twice (no cycle)."""
    import numpy as np

    from pokerdyn.dynamics import find_cycle

    t, Y = _dense(trajectory)
    x = Y[len(Y) // 2:, trajectory.names.index(phase[0])]
    if x.max() - x.min() < 1e-9:
        return None
    section = (phase[0], float(np.mean(x)))
    try:
        return find_cycle(model, np.clip(trajectory.states[-1], 0.0, 1.0), section,
                          n_returns=CYCLE_RETURNS, t_max=CYCLE_T_MAX, n_samples=CYCLE_SAMPLES)
    except GameError:  # fewer than two returns: no cycle
        return None


def ode(game: "str | Game", *, pot: Any = None, k: Any = None, init: Any = None,
        t_end: Any = 100.0, method: str = "DOP853", normalisation: str = "paper",
        reduce: str = "none", analyze: bool = False, plot: "str | os.PathLike | None" = None,
        phase: "str | Sequence[str] | None" = None, progress: bool = False) -> OdeResult:
    """The adaptive-play ODE of a game (Billingham sec. 4.1, eqs. (18)-(23)): every named
    parameter moves up its owner's payoff gradient, ``dx/dt = k_p x(1-x) s_x dE_p/dx``.

    What ``pokerdyn ode`` does: one run from ``init`` to ``t_end`` (final state, payoff
    integrals), or with ``analyze`` the equilibria with their eigenvalues and the first
    integrals of the invariant planes.

    Parameters
    ----------
    game : str or Game
        A game with named parameters (``"skp"``, ``"kuhn3-third"``, a spec or a Game).
    pot : number or str, optional
        The pot P (``--pot``).
    k : number, str or sequence, optional
        Rates, one or one per player (default 1).
    init : str or sequence, optional
        Initial frequencies in parameter order (default 0.5 each).
    t_end : float
        End time of the run (default 100).
    method : str
        A solve_ivp method (default ``"DOP853"``).
    normalisation : {"paper", "raw"}
        The gradient scale s_x (Billingham (21)-(23), or 1).
    reduce : {"none", "dominance"}
        ``"dominance"``: hold the parameters that iterated dominance fixes.
    analyze : bool
        Equilibria, eigenvalues and first integrals instead of a run.
    plot : path, optional
        Write the picture here (checked before any work).
    phase : str or sequence, optional
        ``"X,Y"`` or ``"X,Y,Z"``: the picture is a phase portrait in these parameters, and a
        run also finds the cycle it approaches (drawn from the dense output).
    progress : bool
        Unused (a run shows no progress bar); the same keyword as the other calls.

    Returns
    -------
    OdeResult
        ``to_dict()`` is ``pokerdyn ode ... --json``; ``trajectory`` the run,
        ``plot(ax)`` the picture.

    Examples
    --------
    >>> import pokerdyn as pd
    >>> r = pd.ode("skp", pot=9, t_end=10)
    >>> r.model, sorted(r.final)
    ('skp: P = 9, k = 1', ['b_J', 'c_K', 'd_Q'])
    >>> round(r.to_dict()["final"]["b_J"], 3)
    0.031
    >>> pd.ode("skp", pot=9, phase="b_J,x")
    Traceback (most recent call last):
    ...
    pokerdyn.games.errors.GameError: phase='b_J,x': unknown parameter 'x'; allowed: b_J, c_K, d_Q
    """
    from pokerdyn.api.inputs import parse_float, parse_list
    from pokerdyn.dynamics.ode.solve import check_method

    stages = Stages()
    check_method(method)
    plot_file = _plot_path(plot)
    t_end = parse_float(t_end, "t-end", low=0.0, low_open=True)
    _choice(normalisation, "normalisation", ("paper", "raw"))
    _choice(reduce, "reduce", ("none", "dominance"))
    with stages("model"):
        g, values = game_and_values(game, pot)
        if phase is not None:  # the names before the model is built (quick and clear)
            parse_phase(phase, g.named_names)
        from pokerdyn.dynamics import ode_model

        model = ode_model(g, values, k=_rates(k, g.n_players), normalisation=normalisation,
                          fixed="dominance" if reduce == "dominance" else None)
    ph = None if phase is None else parse_phase(phase, model.names,
                                                fixed=tuple(model.meta.get("fixed", {})))
    common = {"game": model.game, "model": model.label(), "names": model.names,
              "phase": ph, "ode_model": model}
    if analyze:
        return _ode_analysis(g, model, plot_file, common, stages)
    y0 = [0.5] * model.n if init is None else \
        parse_list(_text(init), "init", (model.n,), low=0.0, high=1.0)
    import numpy as np

    from pokerdyn.dynamics import simulate_ode
    from pokerdyn.dynamics.budget import check_run_length
    from pokerdyn.dynamics.ode.solve import MAX_NFEV

    # the option's name in the message (simulate checks again, naming t_end)
    check_run_length(model, t_end, MAX_NFEV, what="t-end", y0=y0)
    with stages("integrate"):
        tr = simulate_ode(model, y0, t_end, method=method,
                          t_eval=np.linspace(0.0, t_end, 2001), dense_output=True)
    cycle = None
    if ph is not None:
        with stages("cycle"):
            cycle = _find_cycle(model, tr, ph)
    integrals = tuple(float(v) for v in tr.payoffs[-1])
    res = OdeResult(**common, mode="run", t_end=t_end, initial=dict(zip(model.names, y0)),
                    final=tr.final, payoff_integrals=integrals,
                    mean_payoffs=tuple(v / t_end for v in integrals), cycle=cycle,
                    trajectory=tr, plot_file=plot_file, timings=stages.seconds)
    if plot_file:
        with stages("plot"):
            _write_ode_plot(res, plot_file)
    return res


def _write_ode_plot(res: OdeResult, path: str) -> None:
    """The command's picture: a run's phase portrait (``phase``) or its parameters and
    payoff integrals against time (two panels); an analysis's portrait."""
    from pokerdyn.figures.base import new_figure

    if res.mode != "run" or res.phase is not None:
        ax = res.plot()
        _save(ax.figure, path)
        return
    from pokerdyn.dynamics.plotting import payoff_series, time_series

    fig, (a, b) = new_figure(1, 2, size=(10, 4))
    time_series(a, res.trajectory)
    payoff_series(b, res.trajectory)
    a.set_title(res.model, fontsize=9)
    _save(fig, path)


def _ode_analysis(g, model, plot_file, common, stages) -> OdeResult:
    if plot_file:  # the portrait's runs, before the analysis
        from pokerdyn.dynamics.budget import check_run_length
        from pokerdyn.dynamics.ode.solve import MAX_NFEV
        check_run_length(model, PORTRAIT_T_END, MAX_NFEV, what="the portrait's t-end")
    with stages("analysis"):
        if model.n <= 6:
            from pokerdyn.dynamics import find_equilibria, find_first_integrals

            res = OdeResult(**common, mode="analysis", equilibria=tuple(find_equilibria(model)),
                            first_integrals=tuple(find_first_integrals(model)),
                            plot_file=plot_file, timings=stages.seconds)
        else:
            from pokerdyn.dynamics.chaos.rest_points import find_rest_points

            pts = tuple(find_rest_points(g, model))
            res = OdeResult(**common, mode="numeric analysis", equilibria=pts,
                            fixed=dict(model.meta.get("fixed", {})),
                            any_stable=any(p.stable() for p in pts), plot_file=plot_file,
                            timings=stages.seconds)
    if plot_file:
        with stages("plot"):
            _write_ode_plot(res, plot_file)
    return res


# -- pd.lyapunov ---------------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class LyapunovResult(Result):
    """Chaos diagnostics of the adaptive-play ODE: per seeded start the largest Lyapunov
    exponent (Benettin), its spread, the Poincare section's classification and the profit
    rates; their summary over the starts; with ``equilibria`` the rest points."""

    game: str
    model: str
    free: tuple[str, ...]
    fixed: dict[str, Any]
    t_end: float
    t_skip: float
    tau: float
    seed: int
    runs: tuple[dict[str, Any], ...]
    lyapunov: dict[str, float]
    equilibria: tuple | None = None
    any_stable: bool | None = None
    plot_file: str | None = None
    chaos_runs: tuple = field(default=(), repr=False, compare=False)
    timings: dict[str, float] = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game, "model": self.model, "free": list(self.free),
                               "fixed": self.fixed, "t_end": self.t_end, "t_skip": self.t_skip,
                               "tau": self.tau, "seed": self.seed,
                               "runs": [dict(r) for r in self.runs]}
        if self.equilibria is not None:
            out["equilibria"] = [p.to_json() for p in self.equilibria]
            out["any_stable"] = self.any_stable
        out["lyapunov"] = dict(self.lyapunov)
        if self.plot_file is not None:
            out["plot"] = self.plot_file
        return out

    def to_text(self) -> str:
        lines = [self.model, f"free: {', '.join(self.free)}"]
        for i, rec in enumerate(self.runs):
            lines.append(f"start {i}: {rec['kind']}, lambda = {rec['lyapunov']:.4g} (spread "
                         f"last quarter {rec['lyapunov_spread']:.2g}), {rec['crossings']} "
                         f"crossings of {rec['section'][0]}={rec['section'][1]:.4g}, profit "
                         "rates " + ", ".join(f"{v:.5g}" for v in rec["profit_rates"]))
        ly = self.lyapunov
        lines.append(f"lambda over starts: mean {ly['mean']:.4g}, std {ly['std']:.2g}")
        for j, p in enumerate(self.equilibria or ()):
            lines.append(f"equilibrium {j} ({'Nash' if p.nash else 'not Nash'}): max Re "
                         f"eigenvalue {p.max_real:.4g} ({p.kind()}), payoffs "
                         + ", ".join(f"{v:.5g}" for v in p.payoffs))
        return "\n".join(lines)

    def to_frame(self):
        """One row per start: its class, exponent, spread, crossings and profit rates."""
        import pandas as pd

        rows = []
        for rec in self.runs:
            row = {k: v for k, v in rec.items() if k not in ("initial", "section",
                                                             "profit_rates")}
            row["section"] = f"{rec['section'][0]}={rec['section'][1]:.6g}"
            row.update({f"profit_rate_{p + 1}": v for p, v in enumerate(rec["profit_rates"])})
            rows.append(row)
        return pd.DataFrame(rows)

    def plot(self, ax=None):
        """The running Lyapunov estimate of every start against time."""
        from pokerdyn.figures.frontier.full_street_dynamics import lyapunov_panel

        ax = _new_axes(ax)
        lyapunov_panel(ax, self.chaos_runs)
        ax.set_title(self.model, fontsize=9)
        return ax


def _section(text: Any, names) -> tuple[str, float]:
    from pokerdyn.api.inputs import parse_float

    name, eq, value = str(text).partition("=")
    if not eq or name not in names:
        raise GameError(f"--section {text!r}: give NAME=VALUE with NAME one of "
                        f"{', '.join(names)}")
    return name, parse_float(value, f"section value of {name}", low=0.0, high=1.0,
                             low_open=True, high_open=True)


def lyapunov(game: "str | Game", *, pot: Any = None, starts: Any = 3, init: Any = None,
             seed: Any = 0, t_end: Any = 5000.0, t_skip: Any = None, tau: Any = 1.0,
             section: Any = None, k: Any = None, normalisation: str = "paper",
             reduce: str = "dominance", equilibria: bool = False, cfr_starts: Any = 6,
             plot: "str | os.PathLike | None" = None, progress: bool = False
             ) -> LyapunovResult:
    """Chaos diagnostics of the adaptive-play ODE (Billingham sec. 4.1) on the parameters
    that iterated dominance leaves free: the largest Lyapunov exponent by Benettin's method,
    Poincare-section crossings classified as periodic / quasi-periodic / chaotic, mean profit
    rates and, with ``equilibria``, the rest points with their eigenvalues.

    Parameters
    ----------
    game : str or Game
        A game with named parameters.
    pot : number or str, optional
        The pot P.
    starts : int
        Seeded random initial points (default 3; ignored with ``init``).
    init : str or sequence, optional
        One initial point in (0, 1)^n instead.
    seed : int
        Random seed of the starts (and of the CFR+ runs of ``equilibria``).
    t_end, t_skip, tau : float
        End time of each run, the transient not counted (default t_end/5) and the
        renormalisation interval.
    section : str, optional
        ``"NAME=VALUE"``, the Poincare section (default: the frequency that varies most).
    k : number, str or sequence, optional
        Rates, one or one per player.
    normalisation : {"paper", "raw"}
        The gradient scale.
    reduce : {"dominance", "none"}
        Hold the parameters that iterated dominance fixes (default).
    equilibria : bool
        Also find the rest points, their eigenvalues and the closest payoffs.
    cfr_starts : int
        CFR+ starts for ``equilibria`` (default 6).
    plot : path, optional
        Write the running exponents and the section here.
    progress : bool
        A progress bar over the starts (when more than one).

    Returns
    -------
    LyapunovResult
        ``to_dict()`` is ``pokerdyn lyapunov ... --json``; ``to_frame()`` one row per start.

    Examples
    --------
    >>> import pokerdyn as pd
    >>> r = pd.lyapunov("skp", pot=9, starts=1, t_end=50)
    >>> r.free, len(r.runs), r.runs[0]["section"][0]
    (('b_J', 'c_K', 'd_Q'), 1, 'c_K')
    """
    import numpy as np
    from tqdm.auto import tqdm

    from pokerdyn.api.inputs import SEED_MAX, parse_float, parse_int, parse_list
    from pokerdyn.dynamics import ode_model
    from pokerdyn.dynamics.budget import STEPS_PER_UNIT, check_run_length
    from pokerdyn.dynamics.chaos.classify import (auto_section, classify_run, profit_match,
                                                  time_average)
    from pokerdyn.dynamics.chaos.kernels import MAX_STEPS
    from pokerdyn.dynamics.chaos.lyapunov import random_starts, run_chaos

    stages = Stages()
    n_starts = parse_int(starts, "starts", 1, 1000)
    seed = parse_int(seed, "seed", 0, SEED_MAX)
    cfr_starts = parse_int(cfr_starts, "cfr-starts", 0, 1000)
    _choice(normalisation, "normalisation", ("paper", "raw"))
    _choice(reduce, "reduce", ("dominance", "none"))
    plot_file = _plot_path(plot)
    t_end = parse_float(t_end, "t-end", low=0.0, low_open=True, high=1e7)
    t_skip = t_end / 5 if t_skip is None else \
        parse_float(t_skip, "t-skip", low=0.0, high=t_end, high_open=True)
    tau = parse_float(tau, "tau", low=0.0, low_open=True, high=t_end)
    with stages("model"):
        g, values = game_and_values(game, pot)
        model = ode_model(g, values, k=_rates(k, g.n_players), normalisation=normalisation,
                          fixed="dominance" if reduce == "dominance" else None)
    sec_given = _section(section, model.names) if section else None
    y_starts = random_starts(model, n_starts, seed) if init is None else \
        np.array([parse_list(_text(init), "init", (model.n,), low=0.0, high=1.0,
                             low_open=True, high_open=True)])
    # all runs together, before the first: a run that cannot finish is refused up front
    check_run_length(model, t_end, MAX_STEPS, what="t-end", unit="integration steps",
                     runs=len(y_starts), per_unit=STEPS_PER_UNIT)
    runs, classes = [], []
    with stages("runs"):
        for y in tqdm(y_starts, desc="lyapunov", disable=not progress or len(y_starts) < 2):
            pre = min(t_end, 1000.0)
            sec = sec_given or auto_section(run_chaos(model, y, pre), pre / 2)
            r = run_chaos(model, y, t_end, t_skip, tau, sec)
            runs.append(r)
            classes.append(classify_run(r))
    pts = None
    if equilibria:
        from pokerdyn.dynamics.chaos.rest_points import find_rest_points
        with stages("equilibria"):
            pts = tuple(find_rest_points(g, model, n_starts=cfr_starts, seed=seed,
                                         averages=[time_average(r) for r in runs]))
    records = []
    for y, r, c in zip(y_starts, runs, classes):
        rec = {"initial": y.tolist(), "section": list(r.section), **c.to_json(),
               "profit_rates": r.profit_rates.tolist()}
        if pts:
            j, d = profit_match(r.profit_rates, pts)
            rec["closest_equilibrium"], rec["payoff_distance"] = j, d
            j, d = profit_match(r.profit_rates, pts, nash_only=False)
            rec["closest_rest_point"], rec["rest_point_payoff_distance"] = j, d
        records.append(rec)
    ex = np.array([r.exponent for r in runs])
    res = LyapunovResult(
        game=model.game, model=model.label(), free=tuple(model.names),
        fixed=model.meta["fixed"], t_end=t_end, t_skip=t_skip, tau=tau, seed=seed,
        runs=tuple(records), lyapunov={"mean": float(ex.mean()), "std": float(ex.std()),
                                       "min": float(ex.min()), "max": float(ex.max())},
        equilibria=pts, any_stable=None if pts is None else any(p.stable() for p in pts),
        plot_file=plot_file, chaos_runs=tuple(runs), timings=stages.seconds)
    if plot_file:
        from pokerdyn.figures.base import new_figure
        from pokerdyn.figures.frontier.full_street_dynamics import lyapunov_panel, section_panel

        with stages("plot"):
            fig, (a, b) = new_figure(1, 2, size=(10, 4))
            lyapunov_panel(a, runs)
            section_panel(b, runs[0])
            a.set_title(model.label(), fontsize=9)
            _save(fig, plot_file)
    return res


# -- pd.simulate and pd.estimators ---------------------------------------------------------------
def _play_setup(command: str, game: Any, pot: Any, estimator: str, deals: Any):
    """Game, values and deal count of the repeated-play calls, with the estimator and the
    deals checked before any work (no progress bar on bad input)."""
    from pokerdyn.api.inputs import game as load, parse_int
    from pokerdyn.dynamics.play.estimators import ESTIMATORS
    from pokerdyn.dynamics.play.tables import deal_counts

    g = load(game)
    if "P" not in g.param_names:  # the repeated-play model is Billingham's (pot P)
        raise GameError(f"{command} plays games with a pot parameter P (skp, kuhn3-third); "
                        f"{g.name!r} has none")
    g, values = game_and_values(g, pot)
    if estimator not in ESTIMATORS:
        raise GameError(f"unknown estimator {estimator!r}; allowed: {', '.join(ESTIMATORS)}")
    allowed = deal_counts(g)
    d = allowed[0] if deals is None else parse_int(deals, "deals", low=1)
    if d not in allowed:
        raise GameError(f"deals={d} is not allowed for game {g.name!r}; allowed: "
                        f"{' or '.join(map(str, allowed))}")
    return g, values, d


@dataclass(frozen=True, repr=False)
class SimulateResult(Result):
    """Repeated play by adaptive players with sliding-window estimators: mean ex-showdown
    payoffs per round, the final frequencies and (``run``) the sampled time series
    (:class:`~pokerdyn.dynamics.play.repeated.SimulationResult`)."""

    game: str
    pot: float | None
    rounds: int
    mean_payoffs: tuple[float, ...]
    final: dict[str, float]
    seconds: float
    rounds_per_second: float
    run: Any = None
    plot_file: str | None = None
    counts_file: str | None = None
    timings: dict[str, float] = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return self.run.to_json()

    def to_text(self) -> str:
        r = self.run
        return "\n".join([
            f"{self.game}  P={self.pot}  k={r.options['k']}  L={r.options['L']}  "
            f"rounds={r.rounds}  {r.seconds:.3f}s  ({r.rounds_per_second:.3g} rounds/s)",
            "mean ex-showdown payoff per round: "
            + "  ".join(f"P{i + 1}={v:+.5f}" for i, v in enumerate(r.mean_payoffs)),
            "final: " + "  ".join(f"{n}={v:.4f}" for n, v in r.final.items())])

    def to_frame(self):
        """The samples: round, the frequencies and each player's running mean payoff."""
        return self.run.trajectory().to_frame().rename(columns={"t": "round"})

    def plot(self, ax=None):
        """The frequencies against the round."""
        r = self.run
        ax = _new_axes(ax)
        for j, name in enumerate(r.names):
            ax.plot(r.times, r.frequencies[:, j], lw=0.8, label=name)
        ax.set_xlabel("round")
        ax.set_ylabel("frequency")
        ax.set_ylim(0, 1)
        ax.set_title(f"{r.options['game']}  P={r.options['pot']:g}  k={r.options['k']}  "
                     f"L={r.options['L']}")
        ax.legend()
        return ax


MAX_ROUNDS = 10**13  # rounds and window lengths: the bounds of the sweep experiment


def simulate(game: "str | Game" = "skp", *, pot: Any = "9", seed: Any = 0, deals: Any = None,
             estimator: str = "unbiased", k: Any = "0.001", L: Any = "6",
             rounds: Any = 10_000_000, init: Any = None, points: Any = 1000,
             plot: "str | os.PathLike | None" = None,
             counts_out: "str | os.PathLike | None" = None,
             progress: bool = False) -> SimulateResult:
    """Repeated play of a game by adaptive players with sliding-window estimators
    (Billingham sec. 4.2, eqs. (27)-(29)): frequencies move by k times the payoff gradient
    at each player's estimates.  Mean payoffs are ex-showdown per round.

    Parameters
    ----------
    game : str or Game
        A game with a pot P (``"skp"``, ``"kuhn3-third"``).
    pot : number or str
        The pot (default 9).
    seed : int
        Random seed; the same seed replays bit for bit.
    deals : int, optional
        Deals drawn: the informative ones only (default; skp: 12) or all (skp: 24).
    estimator : str
        ``"unbiased"`` (default), ``"paper"``, ``"corrected"`` or ``"ml"``.
    k, L : number, str or sequence
        Adaptation rate(s) (>= 0) and window length(s) (>= 1): one or one per player.
    rounds : int
        Hands to play (default 1e7).
    init : str or sequence, optional
        Initial frequencies in parameter order (default: near S3).
    points : int
        Samples of the time series (default 1000).
    plot : path, optional
        Write the frequency time series here.
    counts_out : path, optional
        Write the actions taken at each information set (JSON, the input of
        ``pokerdyn qre-fit --counts``).
    progress : bool
        Unused (the kernel runs in one call); the same keyword as the other calls.

    Returns
    -------
    SimulateResult
        ``to_dict()`` is ``pokerdyn simulate ... --json``; ``run`` the time series.

    Examples
    --------
    >>> import pokerdyn as pd
    >>> r = pd.simulate("skp", pot=9, rounds=10_000, seed=1, points=10)
    >>> r.rounds, sorted(r.final)
    (10000, ['b_J', 'c_K', 'd_Q'])
    >>> r.to_frame().shape
    (10, 7)
    """
    from pokerdyn.api.inputs import atomic_write_text, check_output_file, parse_int, parse_list
    from pokerdyn.dynamics.budget import K_MAX
    from pokerdyn.dynamics.play.repeated import MAX_L, simulate as run_play

    stages = Stages()
    points = parse_int(points, "points", 2, 10**7)
    seed = _seed(seed)
    # every output path before any work (a bad second path must not follow a written first)
    plot_file = _plot_path(plot)
    counts_file = None if counts_out is None else os.fspath(counts_out)
    if counts_file is not None:
        check_output_file(counts_file, "counts-out")
    g, values, d = _play_setup("simulate", game, pot, estimator, deals)
    counts = (1, g.n_players)
    ks = parse_list(_text(k), "k", counts, low=0.0, high=K_MAX)
    Ls = parse_list(_text(L), "L", counts, integer=True, low=1, high=MAX_L)
    n_rounds = parse_int(rounds, "rounds", 1, MAX_ROUNDS)
    init_v = None if init is None else parse_list(
        _text(init), "initial frequency", (len(g.named),), low=0.0, high=1.0)
    with stages("play"):
        run = run_play(g.name, pot=values.get("P", 0.0), k=ks[0] if len(ks) == 1 else ks,
                       L=Ls[0] if len(Ls) == 1 else Ls, rounds=n_rounds, init=init_v,
                       seed=seed, deals=d, n_points=points, estimator=estimator)
    res = SimulateResult(game=g.name, pot=values.get("P"), rounds=run.rounds,
                         mean_payoffs=tuple(run.mean_payoffs), final=dict(run.final),
                         seconds=run.seconds, rounds_per_second=run.rounds_per_second, run=run,
                         plot_file=plot_file, counts_file=counts_file, timings=stages.seconds)
    counts_text = _counts_text(g, values, run) if counts_file else None
    if plot_file:
        with stages("plot"):
            _save(res.plot().figure, plot_file)  # written atomically (figures.base.save)
    if counts_text is not None:
        atomic_write_text(counts_file, counts_text)
    return res


def _seed(seed: Any) -> int:
    from pokerdyn.api.inputs import SEED_MAX, parse_int

    return parse_int(seed, "seed", 0, SEED_MAX)


def _counts_text(game, values, run) -> str:
    """The counts file's JSON: the actions taken at each information set."""
    import json

    from pokerdyn.games import compile_game
    from pokerdyn.solvers.qre.estimate import counts_from_terminals, counts_to_json

    cg = compile_game(game, values)
    counts = counts_to_json(cg, counts_from_terminals(cg, run.terminal_counts))
    return json.dumps(counts, indent=1) + "\n"


@dataclass(frozen=True, repr=False)
class EstimatorsResult(Result):
    """Mean, standard deviation and standard error of every estimate of the opponents'
    frequencies, per window length L, with the frequencies held at ``at``
    (:class:`~pokerdyn.dynamics.play.repeated.EstimatorStudy`)."""

    game: str
    pot: float | None
    at: dict[str, float]
    L: tuple[int, ...]
    estimator: str
    names: tuple[str, ...]
    rounds: int
    discard: int
    study: Any = None
    timings: dict[str, float] = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return self.study.to_json()

    def to_text(self) -> str:
        s = self.study
        lines = [f"{self.game}  P={self.pot}  at {s.at}  estimator={s.estimator}  "
                 f"rounds={s.rounds} (first {s.discard} discarded)  {s.seconds:.2f}s",
                 "L".rjust(6) + "".join(f"{n:>22}" for n in s.names),
                 "truth".rjust(6) + "".join(f"{t:>22.4f}" for t in s.truth)]
        for i, L in enumerate(s.L):
            lines.append((f"{L:>6}" + "".join(f"{m:>12.4f} ±{sd:<9.4f}"
                                               for m, sd in zip(s.mean[i], s.std[i]))).rstrip())
        return "\n".join(lines)

    def to_frame(self):
        """One row per (L, estimate): truth, mean, std and stderr."""
        import pandas as pd

        s = self.study
        return pd.DataFrame([{"L": L, "estimate": n, "truth": s.truth[j],
                              "mean": s.mean[i, j], "std": s.std[i, j],
                              "stderr": s.stderr[i, j]}
                             for i, L in enumerate(s.L) for j, n in enumerate(s.names)])

    def plot(self, ax=None):
        """Each estimate's mean (and +- one standard deviation) against L, with its truth."""
        s = self.study
        ax = _new_axes(ax)
        for j, n in enumerate(s.names):
            (line,) = ax.plot(s.L, s.mean[:, j], marker="o", lw=1, label=n)
            ax.fill_between(s.L, s.mean[:, j] - s.std[:, j], s.mean[:, j] + s.std[:, j],
                            color=line.get_color(), alpha=0.12)
            ax.axhline(s.truth[j], color=line.get_color(), lw=0.6, ls="--")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("window length L")
        ax.set_ylabel("estimate")
        ax.legend(fontsize=8)
        return ax


def estimators(game: "str | Game" = "skp", *, pot: Any = "9", seed: Any = 0,
               deals: Any = None, estimator: str = "unbiased", at: Any = "S3",
               L: Any = "6,12,24,48,96,192,384", rounds: Any = 11_000_000,
               discard: Any = 1_000_000, progress: bool = False) -> EstimatorsResult:
    """Mean and standard deviation of each estimator of the opponents' frequencies with the
    frequencies held fixed (Billingham Appendix D, Figs. 16-17): one run per L, the first
    ``discard`` rounds not counted.

    Parameters
    ----------
    game : str or Game
        A game with a pot P (``"skp"``).
    pot : number or str
        The pot (default 9).
    seed : int
        Random seed (the runs' seeds are spawned from it).
    deals : int, optional
        Deals drawn (skp: 12, the default, or 24).
    estimator : str
        ``"unbiased"`` (default), ``"paper"``, ``"corrected"`` or ``"ml"``.
    at : str or sequence
        ``"S1"``, ``"S2"``, ``"S3"`` or explicit frequencies b,c,d (default S3).
    L : str or sequence
        Window lengths (default 6,12,...,384).
    rounds : int
        Rounds per L (default 1.1e7).
    discard : int
        Rounds not counted (default 1e6).
    progress : bool
        A progress bar over the window lengths.

    Returns
    -------
    EstimatorsResult
        ``to_dict()`` is ``pokerdyn estimators ... --json``; ``to_frame()`` the table.

    Examples
    --------
    >>> import pokerdyn as pd
    >>> r = pd.estimators("skp", pot=9, L=[6, 12], rounds=20_000, discard=1_000)
    >>> r.L, r.names[:2]
    ((6, 12), ('b_J@P1', 'b_J@P2'))
    >>> r.to_frame().shape
    (10, 6)
    """
    from pokerdyn.api.inputs import parse_int, parse_list
    from pokerdyn.dynamics.play.repeated import MAX_L, estimator_study
    from pokerdyn.dynamics.skp_points import skp_point

    stages = Stages()
    seed = _seed(seed)
    g, values, d = _play_setup("estimators", game, pot, estimator, deals)
    at_text = _text(at)
    if "," in at_text:
        at_v = parse_list(at_text, "at", (len(g.named),), low=0.0, high=1.0)
    else:
        # resolved here, not in the study: a bad name fails before the progress bar
        at_v = list(skp_point(at_text, values.get("P", 9.0)).values())
    Ls = parse_list(_text(L), "L", integer=True, low=1, high=MAX_L)
    n_rounds = parse_int(rounds, "rounds", 1, MAX_ROUNDS)
    n_discard = parse_int(discard, "discard", 0, n_rounds - 1)
    with stages("study"):
        study = estimator_study(pot=values.get("P", 9.0), at=at_v, L=Ls, rounds=n_rounds,
                                seed=seed, discard=n_discard, estimator=estimator, deals=d,
                                game=g.name, progress=progress)
    return EstimatorsResult(game=g.name, pot=values.get("P"), at=dict(study.at),
                            L=tuple(study.L), estimator=study.estimator,
                            names=tuple(study.names), rounds=study.rounds,
                            discard=study.discard, study=study, timings=stages.seconds)


# -- pd.sweep ------------------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class SweepResult(Result):
    """What one sweep invocation did (cells found done, computed now, set aside) and where
    its results are; ``to_frame()`` reads them (one row per finished cell).  The fields are
    the sweep runner's report (:class:`~pokerdyn.dynamics.sweep.runner.SweepSummary`:
    ``output``, ``experiment``, ``cells``, ``skipped``, ``computed``, ``seconds``,
    ``executor``, ``invalid``), read through this result."""

    summary: Any
    timings: dict[str, float] = field(default_factory=dict, compare=False)

    def __getattr__(self, name: str) -> Any:  # the report's fields (only called when missing)
        if name.startswith("__") or name == "summary":
            raise AttributeError(name)
        return getattr(self.summary, name)

    def to_dict(self) -> dict[str, Any]:
        return self.summary.to_dict()

    def to_text(self) -> str:
        lines = [f"sweep {self.experiment}: {self.cells} cells, {self.skipped} already done, "
                 f"{self.computed} computed in {self.seconds:.2f}s ({self.executor})"]
        if self.invalid:
            lines.append(f"{self.invalid} unfinished cell file(s) (empty or truncated) were "
                         "set aside as .invalid-* and computed again")
        lines.append(f"results: {self.output}")
        return "\n".join(lines)

    def to_frame(self):
        """The sweep's results: one row per finished cell, its arguments and results."""
        from pokerdyn.dynamics.sweep.store import load_results

        return load_results(self.output)


def sweep(path_or_spec: "str | os.PathLike | Mapping[str, Any]", *,
          out: "str | os.PathLike | None" = None, workers: Any = None,
          scheduler: str | None = None, force: bool = False,
          progress: bool = False) -> SweepResult:
    """Run a parameter sweep: every cell of a TOML sweep file (or of the same tables as a
    dict) that the output folder does not hold yet, on local processes or a dask cluster.
    Each finished cell is written at once, so an interrupted sweep keeps its finished cells
    and the same call again computes only the missing ones.

    Parameters
    ----------
    path_or_spec : path or mapping
        The sweep file, or its tables ``{"sweep": {...}, "fixed": {...}, "grid": {...}}``
        (a relative output is then relative to the working folder).
    out : path, optional
        The output folder (overrides ``[sweep] output``).
    workers : int, optional
        Local worker processes (default: the number of cores; 1: this process).
    scheduler : str, optional
        A dask.distributed scheduler address (``tcp://HOST:PORT``).
    force : bool
        Lift the size guard (more than 100,000 cells or 100 core-hours).
    progress : bool
        A progress bar over the cells.

    Returns
    -------
    SweepResult
        ``to_dict()`` is ``pokerdyn sweep ... --json``; ``to_frame()`` the results.

    Examples
    --------
    >>> import pokerdyn as pd, tempfile
    >>> spec = {"sweep": {"experiment": "toy", "base_seed": 1},
    ...         "fixed": {"n": 2}, "grid": {"mu": [0.0, 1.0]}}
    >>> folder = tempfile.mkdtemp()
    >>> r = pd.sweep(spec, out=folder + "/toy", workers=1)
    >>> r.cells, r.computed, pd.sweep(spec, out=folder + "/toy", workers=1).skipped
    (2, 2, 2)
    >>> r.to_frame().sort_values("mu")["mu"].tolist()
    [0.0, 1.0]
    """
    from pokerdyn.api.inputs import check_output_dir, parse_int
    from pokerdyn.dynamics.sweep.runner import run_sweep
    from pokerdyn.dynamics.sweep.spec import load_config, parse_config
    from pokerdyn.dynamics.sweep.store import require_storage

    stages = Stages()
    require_storage()  # ImportError with the install hint (the command line: one line)
    if workers is not None:
        workers = parse_int(workers, "workers", 1)
    # force (the command line's --force) lifts the size guard (cells x cost)
    if isinstance(path_or_spec, Mapping):
        config = parse_config(dict(path_or_spec), Path.cwd(), force=bool(force))
    else:
        config = load_config(os.fspath(path_or_spec), force=bool(force))
    target = os.fspath(out) if out is not None else \
        (str(config.output) if config.output is not None else None)
    if target is None:
        raise GameError("no output given: set [sweep] output or pass out")
    check_output_dir(target, "out")  # before any cell runs
    with stages("cells"):
        summary = run_sweep(config, output=target, workers=workers, scheduler=scheduler,
                            progress=progress)
    return SweepResult(summary=summary, timings=stages.seconds)


__all__ = ["EstimatorsResult", "LyapunovResult", "OdeResult", "SimulateResult", "SweepResult",
           "estimators", "lyapunov", "ode", "parse_phase", "simulate", "sweep"]
