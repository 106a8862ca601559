"""The exact wing's front door: payoffs as polynomials, every equilibrium family exactly
(the algorithm chosen by :func:`pokerdyn.solvers.symbolic.entry.solve_equilibria`), the
families cross-checked against fictitious play, equilibrium branches followed along P,
and a game written for another solver.  Each returns a result whose ``to_dict()`` is the
command's ``--json`` and ``to_text()`` its text output."""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pokerdyn.api.inputs import (SEED_MAX, atomic_write_text, check_output_file,
                                 game as _game, game_and_values, parse_float, parse_int,
                                 parse_pot, read_json_file, require_pot, with_notice)
from pokerdyn.api.result import Result, Stages
from pokerdyn.games.errors import GameError

# -- payoffs ---------------------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class PayoffsResult(Result):
    """Each player's expected payoff as a polynomial in the named parameters."""

    game: str
    parameters: tuple[str, ...]
    payoffs: tuple[str, ...]
    timings: dict = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "parameters": list(self.parameters),
                "payoffs": list(self.payoffs)}

    def to_text(self) -> str:
        return "\n".join(f"E{p + 1} = {e}" for p, e in enumerate(self.payoffs))


def payoffs(game: Any, pot: Any = None) -> PayoffsResult:
    """Each player's expected payoff as a polynomial in the game's named parameters.

    Parameters
    ----------
    game : str or Game
        The game (spec string, .efg path or Game).
    pot : str, int, Fraction or sympy number, optional
        The pot ``P`` (exact: ``"2.5"`` is 5/2); None leaves it symbolic.

    Returns
    -------
    PayoffsResult
        ``payoffs``: one factored sympy string per player; ``parameters``: the names.

    Examples
    --------
    >>> import pokerdyn as pd
    >>> pd.payoffs("skp", pot=9).payoffs[0]
    '(9*b_J*c_K - 7*b_J - 2*c_K)/24'
    """
    import sympy as sp

    from pokerdyn.solvers.symbolic.model.payoffs import symbolic_payoffs

    stages = Stages()
    with stages("build"):
        g = _game(game)
        values = {"P": _pot(g, pot)} if pot is not None else {}
    with stages("payoffs"):
        exprs = symbolic_payoffs(g, values)
    return PayoffsResult(g.name, tuple(g.named_names),
                         tuple(str(sp.factor_terms(e)) for e in exprs), stages.seconds)


def _pot(g: Any, pot: Any) -> Any:
    """The exact pot of ``pot`` for ``g`` with the checks of ``--pot`` (text as given,
    other values through :func:`pokerdyn.api.inputs.pot_value`)."""
    from pokerdyn.api.inputs import pot_value

    require_pot(g)
    return parse_pot(pot, g) if isinstance(pot, str) else pot_value(g, pot)


# -- equilibria ------------------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class EquilibriaResult(Result):
    """Every exact equilibrium family found, the algorithm that found them and why.

    ``families``: the family records (strategy by parameter name and by information set,
    free parameters, constraints, payoffs in the free parameters; on the whole-axis path
    the families of every piece); ``record``: the whole JSON record."""

    game: str
    method: str
    method_reason: str
    families: tuple
    record: dict = field(repr=False)
    text: str = field(repr=False, default="")
    pots: tuple | None = field(repr=False, default=None)
    timings: dict = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return copy.deepcopy(self.record)

    def to_text(self) -> str:
        return self.text

    def plot(self, ax=None):
        """The frequencies of every family against P (a band where free parameters let a
        frequency range, the line at its middle), over the pots asked; returns
        the Axes."""
        from pokerdyn.figures.families import plot_families

        return plot_families(self.record, self.pots, ax=ax)


def equilibria(game: Any, pot: Any = None, *, method: str = "auto", seeds: int | None = None,
               seed: int = 0, workers: int | None = None, state: str | None = None,
               prove_complete: bool = False, progress: bool = False,
               force: bool = False) -> EquilibriaResult:
    """Every equilibrium family of a game, exactly: at one pot, piecewise over the whole
    P axis (``pot=None``), or over a pot range ``pot=(low, high)``.

    Parameters
    ----------
    game : str or Game
        The game (spec string, .efg path or Game).
    pot : number, str or (low, high), optional
        One exact pot (``"(5+sqrt(73))/2"`` allowed); a pair or ``"A:B"`` is a pot range
        (``--pots``; ``high`` may be ``"oo"`` on the whole-axis path); None: every P.
    method : str
        ``"auto"`` (chosen by the game's size, recorded with the reason), or one of
        ``casesearch``, ``behaviour-supports``, ``axis``, ``supports``
        (``pokerdyn.solvers.symbolic.entry``).
    seeds, seed, workers : int, optional
        Learning runs proposing supports (support method), their seed, processes.
    state : str, optional
        Whole-axis path: the resume file of the pots done (default
        ``.pokerdyn-GAME-axis.json``).
    prove_complete : bool
        Whole-axis path: prove the result complete with P symbolic.
    progress : bool
        Progress bars on stderr for long runs.
    force : bool
        Run the exact case search past its size limit (more than
        ``walk.MAX_CASE_LEAVES`` case combinations are refused otherwise, with the size;
        ``--force``).

    Returns
    -------
    EquilibriaResult
        ``families``, ``method``, ``method_reason``; ``to_dict()`` is ``pokerdyn
        equilibria --json``; ``plot()`` draws the frequencies against P.

    Examples
    --------
    >>> import pokerdyn as pd
    >>> r = pd.equilibria("skp", pot=9)
    >>> r.method, len(r.families), r.families[0]["strategy"]
    ('casesearch', 3, {'b_J': '1/5', 'c_K': '0', 'd_Q': '2/5'})
    >>> r.families[0]["strategy_by_infoset"]["P3:J|"]
    {'k': '4/5', 'b': '1/5'}
    >>> r.families[0]["payoffs"]
    ['-7/120', '-7/120', '7/60']
    """
    pots = None
    if isinstance(pot, (tuple, list)):
        if len(pot) != 2:
            raise GameError(f"pot={pot!r} is not a pot range; allowed: (low, high)")
        pots, pot = f"{_text(pot[0])}:{_text(pot[1])}", None
    elif isinstance(pot, str) and ":" in pot:
        pots, pot = pot, None
    return equilibria_of(game, pot, pots, method=method, seeds=seeds, seed=seed,
                         workers=workers, state=state, prove_complete=prove_complete,
                         progress=progress, force=force)


def _text(x: Any) -> str:
    """A range end as ``--pots`` text (a float as its exact rational, 2.5 -> 5/2)."""
    if isinstance(x, float) and x == x and abs(x) != float("inf"):
        from pokerdyn.games.exact_values import rational_of_float
        return str(rational_of_float(x))
    return "oo" if isinstance(x, float) and x == float("inf") else str(x)


def equilibria_of(game: Any, pot: Any = None, pots: str | None = None, **kw: Any
                  ) -> EquilibriaResult:
    """:func:`equilibria` with the pot (``--pot``) and the range (``--pots``) given apart,
    as the command takes them; ``game`` may be a built game object."""
    stages = Stages()
    prove = kw.get("prove_complete", False)
    if kw.get("state") is not None:  # before the game's build: a bad state is refused at once
        read_state(kw["state"], prove)
    with stages("build"):
        g = _game(game) if isinstance(game, str) else game
        if pot is not None:  # before the paths below, some of which would not read it
            require_pot(g)
    with stages("solve"):
        eq = _solve(g, pot, pots, stages=stages, **kw)
    return _result(eq, stages)


def _solve(g: Any, pot: Any, pots: str | None, *, method: str = "auto",
           seeds: int | None = None, seed: int = 0, workers: int | None = None,
           state: str | None = None, prove_complete: bool = False, progress: bool = False,
           stages: Stages | None = None, force: bool = False) -> Any:
    from pokerdyn.solvers.symbolic import entry

    axis = method == "axis" or (method == "auto" and _axis_likely(g, pot))
    saved = path = None
    if axis:
        path = Path(state or f".pokerdyn-{g.name}-axis.json")
        saved = read_state(str(path), prove_complete)
    value = pot if pot is None or isinstance(pot, str) else _pot(g, pot)
    return entry.solve_equilibria(
        g, value, pots, method, seeds=seeds, seed=seed, workers=workers,
        read_pot=lambda t: parse_pot(t, g), state=saved,
        save_state=(lambda: atomic_write_text(path, json.dumps(saved))) if axis else None,
        proof_state=_proof_state(path) if axis else None, prove_complete=prove_complete,
        progress=progress, force=force)


def _axis_likely(g: Any, pot: Any) -> bool:
    """Whether ``auto`` may take the whole-axis path (its state file is read first)."""
    from pokerdyn.solvers.symbolic.entry import axis_applies
    from pokerdyn.solvers.symbolic.model.conditions import MAX_PARAMETERS

    from pokerdyn.solvers.symbolic.casesearch.behaviour_supports import many_actions

    return len(g.named) > MAX_PARAMETERS and axis_applies(g, pot) and not many_actions(g)


def _result(eq: Any, stages: Stages) -> EquilibriaResult:
    from pokerdyn.api import exact_text as tx

    rec = eq.record
    if eq.method == "axis":
        fams = tuple(f for pc in rec["pieces"] for f in pc["families"])
        text = tx.axis_text(rec) if rec["pieces"] else None
        if text is None:
            raise GameError(f"no equilibrium family found on {rec['p_min']} <= P <= "
                            f"{rec['p_max']}")
    elif eq.method == "supports" and eq.pots is not None:
        fams, text = tuple(rec["families"]), tx.pot_sweep_text(eq.game, eq.found)
    elif eq.method == "supports":
        fams, text = tuple(rec["families"]), tx.supports_set_text(eq.game, eq.pot, eq.found)
    else:
        fams, text = tuple(rec["families"]), tx.families_text(eq.game, eq.families, eq.fixed)
    return EquilibriaResult(eq.game.name, eq.method, eq.reason, fams, rec, text,
                            _plot_range(eq), stages.seconds)


def _plot_range(eq: Any) -> tuple | None:
    """The pots asked: the range of a range run, the pot of a one-pot run, else None
    (the whole axis: the plot picks a range around the critical values)."""
    if eq.pots is not None:
        return tuple(eq.pots)
    if eq.pot is not None:
        return (eq.pot, eq.pot)
    return None


def axis_applies(game: Any, args: Any) -> bool:
    """Whether the whole-axis path answers (no --pot, a pot parameter, at most
    ``entry.MAX_NAMED`` named frequencies)."""
    from pokerdyn.solvers.symbolic.entry import axis_applies as applies

    return applies(game, getattr(args, "pot", None))


STATE_FORM = ('a state file of this command: {"pots": {pot: [support, ...]}, "undecided": '
              '{pot: [[support, reason], ...]}, "extra": [support, ...]} (or a new file name)')


def read_state(text: str, prove: bool = False) -> dict:
    """The resume state of --state ``text``, checked before any work: the path is writable
    (missing folders are made on the first write) and an existing file holds a state this
    command wrote (STATE_FORM, or the pot -> supports of earlier versions), else GameError
    naming the file; ``{"pots": {}, "undecided": {}}`` for a new file.  ``prove``
    (--prove-complete): the proof's state file beside it is checked as well
    (:func:`read_proof_state`)."""
    import sympy as sp

    path = check_output_file(text, "state")
    if prove:
        read_proof_state(_proof_state(path))
    if not path.exists():
        return {"pots": {}, "undecided": {}}
    data = read_json_file(path, "state")
    if isinstance(data, dict) and "pots" not in data:  # earlier versions: pot -> supports
        data = {"pots": data, "undecided": {}}

    def pot(k) -> bool:
        try:
            return sp.Rational(k) > 0
        except (TypeError, ValueError, SyntaxError, ZeroDivisionError):
            return False

    def supports(v) -> bool:
        return isinstance(v, list) and all(isinstance(c, str) for c in v)

    problem = (
        f"holds a JSON {type(data).__name__}" if not isinstance(data, dict) else
        "has keys other than pots, undecided and extra"
        if set(data) - {"pots", "undecided", "extra"} else
        "has no object of pots" if not isinstance(data["pots"], dict) else
        "has no object undecided" if not isinstance(data.get("undecided"), dict) else
        "has an extra that is not a list of supports"
        if not supports(data.get("extra", [])) else
        "has a key that is not a positive rational pot"
        if not all(pot(k) for k in (*data["pots"], *data["undecided"])) else
        "has pots whose supports are not lists of strings"
        if not all(supports(v) for v in data["pots"].values()) else
        "has undecided entries that are not lists of [support, reason]"
        if not all(isinstance(v, list) and all(isinstance(u, list) and len(u) == 2 and
                                               supports(u) for u in v)
                   for v in data["undecided"].values()) else None)
    if problem:
        raise GameError(f"state={text!r} {problem}; allowed: {STATE_FORM}")
    return data


def _proof_state(state: Path) -> Path:
    """The file of the completeness proof's resume state beside --state."""
    return state.with_name(state.name + ".complete.json")


# the keys of the proof's state (solvers.symbolic.certificates.completeness.certify_complete)
PROOF_KEYS = {"range": list, "leaves": list, "critical": list, "next": int, "families": int,
              "new": list, "algebraic": list, "nonlinear": list, "undecided": list,
              "tasks": dict, "walk_seconds": (int, float), "checked": dict,
              "retried_split": bool, "empty": int}


def read_proof_state(path: Path) -> None:
    """Check the proof's state file beside --state before any work (GameError naming it):
    a JSON object whose keys have the types certify_complete writes."""
    if not path.exists():
        return
    check_output_file(str(path), "state")
    data = read_json_file(path, "state")
    bad = [k for k, t in PROOF_KEYS.items() if isinstance(data, dict) and k in data
           and not (isinstance(data[k], t) and (t is bool or not isinstance(data[k], bool)))]
    if not isinstance(data, dict) or bad:
        what = f"a JSON {type(data).__name__}" if not isinstance(data, dict) else \
            f"{', '.join(bad)} of the wrong type"
        raise GameError(f"state={str(path)!r} holds {what}; allowed: the proof's state "
                        "file this command wrote beside --state (or delete it)")


def save_plot(result: Result, path: str, title: str | None = None) -> None:
    """``result.plot()`` written to ``path`` (atomically; the format from the suffix)."""
    from pokerdyn.figures.base import new_figure, save

    fig, ax = new_figure(size=(8, 4.5))
    result.plot(ax=ax)
    if title:
        ax.set_title(title)
    p = Path(path)
    save(fig, p.parent, p.name)


# -- crosscheck ------------------------------------------------------------------------------

# FP runs about 10^5 iterations a second on these games: more than this is hours
MAX_FP_ITERATIONS = 10**9
CROSSCHECK_POTS = "1.5,2,3,5,6,9,12"


@dataclass(frozen=True, repr=False)
class CrosscheckResult(Result):
    """Fictitious play from random starts against the exact families, per pot; a run
    farther than ``tol`` from every family, or a family sample with nonzero exact NashConv,
    is a failure (``failures``)."""

    game: str
    pots: tuple
    starts: int
    iterations: int
    seed: int
    tol: float
    failures: int
    timings: dict = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict[str, Any]:
        tol = self.tol
        return {"game": self.game, "distance": "max-norm over named parameters",
                "pots": [{"pot": pc.pot,
                          "runs": [{"start": r.start, "distance": r.distance,
                                    "nash_conv": r.nash_conv,
                                    "nearest_family": r.nearest_family,
                                    "failure": r.distance > tol} for r in pc.runs],
                          "families": [{"index": f["index"],
                                        "sample": {k: str(v) for k, v in f["sample"].items()},
                                        "nash_conv_exact": str(f["nash_conv_exact"])}
                                       for f in pc.families]} for pc in self.pots],
                "failures": self.failures}

    def to_text(self) -> str:
        tol = self.tol
        lines = [f"{self.game}: FP ({self.iterations} iterations, alternating) from "
                 f"{self.starts} random starts (seed {self.seed}); distance = max-norm over "
                 "named parameters to the nearest family",
                 f"{'pot':>6} {'families':>8} {'exact NashConv':>15} {'max dist':>10} "
                 f"{'max FP NashConv':>16} {'family:runs':>16}"]
        for pc in self.pots:
            nc = ",".join(str(f["nash_conv_exact"]) for f in pc.families)
            near: dict[int, int] = {}
            for r in pc.runs:
                near[r.nearest_family] = near.get(r.nearest_family, 0) + 1
            far = [r.start for r in pc.runs if r.distance > tol]
            lines.append(f"{pc.pot:>6g} {len(pc.families):>8} {nc:>15} "
                         f"{max(r.distance for r in pc.runs):>10.2e} "
                         f"{max(r.nash_conv for r in pc.runs):>16.2e} "
                         f"{' '.join(f'{k + 1}:{v}' for k, v in sorted(near.items())):>16}"
                         + (f"  FAILURE: starts {far} far from every family" if far else ""))
        lines.append("all runs near an enumerated family; every sample exact NashConv 0"
                     if not self.failures else f"{self.failures} failure(s)")
        return "\n".join(lines)

    def to_frame(self):
        """One row per run: pot, start, distance, NashConv, nearest family, failure."""
        import pandas as pd

        return pd.DataFrame([{"pot": p["pot"], **r} for p in self.to_dict()["pots"]
                             for r in p["runs"]])


def crosscheck(game: Any, pots: Any = CROSSCHECK_POTS, *, starts: Any = 10,
               iterations: Any = 20000, seed: Any = 0, tol: Any = 1e-2,
               force: bool = False) -> CrosscheckResult:
    """The exact equilibrium families checked against fictitious play: per pot, FP runs
    from random starts and each run's max-norm distance to the nearest family; per family
    the exact NashConv of a sample point (must be 0).

    Parameters
    ----------
    game : str or Game
        A game the case search takes (at most 16 named parameters).
    pots : str or sequence
        Pot sizes, comma-separated text or a list (exact: 2.5 is 5/2).
    starts, iterations, seed : int
        Random starts per pot, FP iterations per run, seed of the starts.
    tol : float
        Distance counted as a failure.
    force : bool
        Run more than the 10^9 FP iterations allowed in all.

    Returns
    -------
    CrosscheckResult
        ``failures`` (the command exits 1 when nonzero) and the runs per pot.

    Examples
    --------
    >>> import pokerdyn as pd
    >>> r = pd.crosscheck("skp", pots="9", starts=2, iterations=2000)
    >>> r.failures, len(r.pots[0].families)
    (0, 3)
    """
    from pokerdyn.solvers.methods.crosscheck import crosscheck as run

    stages = Stages()
    starts = parse_int(starts, "starts", low=1, high=10_000)
    iters = parse_int(iterations, "iterations", low=1, high=10_000_000)
    seed = parse_int(seed, "seed", low=0, high=SEED_MAX)
    tol = parse_float(tol, "tol", low=0, low_open=True)
    texts = [t.strip() for t in pots.split(",") if t.strip()] if isinstance(pots, str) \
        else [p if isinstance(p, str) else _text(p) for p in pots]
    if not texts:
        raise GameError(f"--pots={pots!r} names no pot size")
    total = len(texts) * starts * iters
    if total > MAX_FP_ITERATIONS and not force:
        raise GameError(f"{len(texts)} pots x starts={starts} x iterations={iters} is "
                        f"{total:,} FP iterations; allowed: at most {MAX_FP_ITERATIONS:,} "
                        "(hours of work; --force runs it anyway)")
    with stages("build"):
        if isinstance(game, str):
            g, _ = game_and_values(game, texts[0])  # validates the game and the first pot
        else:
            g = _game(game)
            _pot(g, texts[0])
        values = [parse_pot(t, g) for t in texts]  # exact: 2.5 is 5/2, (5+sqrt(73))/2 too
    with stages("crosscheck"):
        result = run(g, values, starts=starts, iterations=iters, seed=seed)
    failures = sum(r.distance > tol for pc in result for r in pc.runs)
    failures += sum(f["nash_conv_exact"] != 0 for pc in result for f in pc.families)
    return CrosscheckResult(g.name, tuple(result), starts, iters, seed, tol, int(failures),
                            stages.seconds)

# -- continuation ----------------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class ContinuationResult(Result):
    """Equilibrium branches along P (``result``: the solver's ContinuationResult)."""

    game: str
    pots: tuple[float, float]
    branches: int
    result: Any = field(repr=False)
    timings: dict = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return self.result.to_json()

    def to_text(self) -> str:
        from pokerdyn.solvers.continuation.api import branch_record

        res, (a, b) = self.result, self.pots
        names = res.names
        lines = [f"{self.game}: {len(res.branches)} branches for P in [{a:g}, {b:g}] from the "
                 f"equilibrium at P = {res.start_pot:g} ({res.start_method}); {res.dominance}; "
                 f"largest exact NashConv at a branch point {res.max_certificate():.2e}; "
                 f"{res.seconds:.1f} s"]
        for i, br in enumerate(res.branches):
            rec = branch_record(br, names, i, res.system)
            lo, hi = rec["pot_range"]
            if hi - lo < 1e-9 and i + 1 < len(res.branches):
                continue   # a support passed through at one pot: its end shows on the next
            sup = rec["support"]
            end = rec["bifurcation_points"][-1]
            lines.append(f"  branch {i}: P in [{lo:.6g}, {hi:.6g}], mixed {len(sup['mixed'])} "
                         f"(held {len(sup['held'])}, unreached {len(sup['unreached'])}), "
                         f"at 1: {len(sup['one'])}; ends: {end['kind']}"
                         f"{' ' + end['set'] if end['set'] else ''} at P = {end['pot']:.8g} "
                         f"(exact NashConv {end.get('nash_conv', float('nan')):.1e})")
        return "\n".join(lines)

    def plot(self, ax=None):
        """The frequencies of the branches against P; returns the Axes."""
        from pokerdyn.figures.frontier.n_card import plot_branches

        if ax is None:
            from pokerdyn.figures.base import new_figure
            ax = new_figure(size=(8, 4.5))[1]
        plot_branches(ax, self.result)
        return ax


def continuation_range(text: str) -> tuple[float, float]:
    """``A:B`` as two pots with A < B and a span the branches can cover (GameError
    otherwise): the range reader of the exact wing
    (:func:`pokerdyn.solvers.symbolic.model.pot_values.pot_range`), then floats."""
    from pokerdyn.solvers.continuation.trace import Options
    from pokerdyn.solvers.symbolic.model.pot_values import POT_MAX_EXP, POT_MIN_EXP, pot_range

    def read(s: str):
        from pokerdyn.games.exact_values import rational_of_float
        return rational_of_float(parse_float(s, "--pots", low=10.0**POT_MIN_EXP,
                                             high=10.0**POT_MAX_EXP))

    a, b = (float(v) for v in pot_range(text, check=read))
    # each branch moves P by at most hmax a step and takes at most max_steps steps: a wider
    # range would run for hours before the branches' limit stops it
    span = Options.hmax * Options.max_steps
    if b - a > span:
        raise GameError(f"--pots={text} spans {b - a:g}; allowed: ranges of at most {span:g} "
                        f"(continuation steps P by at most {Options.hmax:g})")
    return a, b


def continuation(game: Any, pot: Any, *, start: Any = None, max_branches: int = 60,
                 progress: bool = False) -> ContinuationResult:
    """Equilibrium branches along the pot P by pseudo-arclength continuation, each support
    change located and certified by an exact NashConv.

    Parameters
    ----------
    game : str or Game
        A game with a pot parameter P (large ones: ``kuhn3(cards=N)``).
    pot : str or (low, high)
        The pot range ``"A:B"`` or a pair, A < B.
    start : float, optional
        Pot where the first equilibrium is found (default A).
    max_branches : int
        Stop after this many branches in each direction.
    progress : bool
        A progress bar on stderr.

    Returns
    -------
    ContinuationResult
        ``to_dict()`` is ``pokerdyn continuation --json``; ``plot()`` the branches.

    Examples
    --------
    >>> import pokerdyn as pd
    >>> r = pd.continuation("skp", (6, 8))
    >>> r.branches >= 1, sorted(r.to_dict()["frequencies"])
    (True, ['b_J', 'c_K', 'd_Q'])
    """
    from pokerdyn.solvers.continuation.api import continuation as run
    from pokerdyn.solvers.continuation.trace import Options

    stages = Stages()
    text = pot if isinstance(pot, str) else \
        f"{_text(pot[0])}:{_text(pot[1])}" if isinstance(pot, (tuple, list)) and len(pot) == 2 \
        else None
    if text is None:
        raise GameError(f"pot={pot!r} is not a pot range; allowed: 'A:B' or (low, high)")
    a, b = continuation_range(text)
    st = None if start is None else parse_float(start, "--start", a, b)
    if not isinstance(max_branches, int) or not 1 <= max_branches <= 10_000:
        raise GameError(f"--max-branches={max_branches!r} is outside the allowed range "
                        "[1, 10000]")
    with stages("build"):
        g = _game(game)
    if "P" not in g.param_names:
        raise GameError(f"game {g.name!r} has no pot parameter P to continue in")
    with stages("continuation"):
        res = run(g, (a, b), start=st, opts=Options(max_branches=max_branches),
                  progress=progress)
    return ContinuationResult(g.name, (a, b), len(res.branches), res, stages.seconds)


# -- export ----------------------------------------------------------------------------------

FORMATS = ("efg", "nfg")
# Exact .efg text is written at about 20,000 nodes/s (3P-SMH: 227,991 nodes, 10 s, 8 MB);
# larger games are refused at once rather than run for minutes into hundreds of MB.
MAX_EXPORT_NODES = 1_000_000


@dataclass(frozen=True, repr=False)
class ExportResult(Result):
    """A game written in another solver's format: the text, and the file when written."""

    game: str
    format: str
    file: str | None
    size: str
    content: str = field(repr=False)
    timings: dict = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "format": self.format, "file": self.file,
                "size": self.size, "characters": len(self.content)}

    def to_text(self) -> str:
        """The line ``pokerdyn export`` prints after writing a file (without a file: the
        exported text itself, what ``export GAME -`` writes)."""
        if self.file is None or self.file == "-":
            return self.content
        return f"wrote {self.file} ({self.game}, {self.size})"


def export(game: Any, path: str | None = None, pot: Any = None, *, format: str | None = None,
           **options: Any) -> ExportResult:
    """A game written with exact rationals as Gambit's ``.efg`` (the tree) or ``.nfg`` (the
    reduced normal form).

    Parameters
    ----------
    game : str or Game
        The game; ``options`` are its spec options (``max_bets=2``).
    path : str, optional
        The file to write (atomically); None or ``"-"``: nothing written, the text is in
        ``content``.
    pot : number or str, optional
        The pot P (rational); needed by games with a symbolic pot.
    format : str, optional
        ``"efg"`` or ``"nfg"`` (default: the file's suffix, else efg).

    Returns
    -------
    ExportResult
        ``content`` (the text), ``size`` (nodes or reduced plans), ``file``.

    Examples
    --------
    >>> import pokerdyn as pd
    >>> r = pd.export("kuhn")
    >>> r.content.splitlines()[0][:4], r.size
    ('EFG ', '55 nodes')
    """
    from pokerdyn.games.io.efg import to_efg_exact

    if format is None:
        format = Path(path).suffix.lstrip(".").lower() if path not in (None, "-") else "efg"
        if format not in FORMATS:
            raise GameError(f"file={path!r}: the format is not told by the suffix; give "
                            f"--format ({', '.join(FORMATS)}) or name the file *.efg or *.nfg")
    if format not in FORMATS:
        raise GameError(f"format={format!r} is not one of {', '.join(FORMATS)}")
    if path not in (None, "-"):
        check_output_file(path, "file")
    stages = Stages()
    with stages("build"):
        if isinstance(game, str):
            g = game_and_values(game, pot if pot is None or isinstance(pot, str)
                                else _text(pot), **options)[0]
        else:
            g = _game(game, **options)
    if g.n_nodes > MAX_EXPORT_NODES:
        raise GameError(f"game {g.name!r} has {g.n_nodes:,} nodes, more than the "
                        f"{MAX_EXPORT_NODES:,} that export writes")
    values = {}
    if pot is not None:
        v = _pot(g, pot)
        if not v.is_Rational:
            raise GameError(f"pot={pot} is not rational; the .efg format holds rational "
                            "payoffs (allowed: a rational in (0, inf), e.g. 9 or 15/2)")
        values["P"] = v
    elif "P" in g.param_names and "P" not in g.defaults:
        raise GameError(f"game {g.name!r} has a symbolic pot P: give it with --pot "
                        "(e.g. --pot 9 or --pot 15/2)")
    name = path if path not in (None, "-") else "-"
    with stages("write"):
        if format == "efg":
            text = with_notice(f"writing {name}", lambda: to_efg_exact(g, values),
                               lambda t: f"{len(t):,} characters")
            size = f"{text.count(chr(10)) - 2} nodes"
        else:
            from pokerdyn.games import compile_game
            from pokerdyn.games.io.nfg import to_nfg
            from pokerdyn.games.normal_form import normal_form

            nf = with_notice("building the reduced normal form", lambda: normal_form(
                compile_game(g, values), exact=True, exact_params=values),
                lambda nf: " x ".join(f"{n:,}" for n in nf.shape) + " plans")
            text = with_notice(f"writing {name}", lambda: to_nfg(nf),
                               lambda t: f"{len(t):,} characters")
            size = " x ".join(f"{n:,}" for n in nf.shape) + " reduced plans"
        if path not in (None, "-"):
            atomic_write_text(path, text, "file")
    return ExportResult(g.name, format, path, size, text, stages.seconds)


__all__ = ["ContinuationResult", "CrosscheckResult", "EquilibriaResult", "ExportResult",
           "PayoffsResult", "continuation", "crosscheck", "equilibria", "export", "payoffs"]
