"""Tournament endgames through the front door: ``pd.icm`` (ICM equity of each player),
``pd.pushfold`` (jam/fold equilibria of 2 to 6 seats) and ``pd.pushfold_chart`` (the heads-up
thresholds chart over a grid of stacks).

Each function checks its input in the order the command does (one
:class:`~pokerdyn.games.GameError` line, the command line's), computes, and returns a frozen
result whose ``to_dict()`` is the command's ``--json`` and ``to_text()`` its text output.
Numbers and lists of numbers are taken as the command line writes them (``"50,30,20"``) or
as Python numbers and sequences.  Heavy modules load inside the functions.

Methods are named as in the registry (:mod:`pokerdyn.solvers.methods`): ``fp``, ``hedge``,
``lp`` (heads-up), ``cfr+``; ``cfr`` stays accepted as the jam/fold solvers' alias of ``cfr+``
(:data:`pokerdyn.solvers.tournament.METHOD_ALIASES`: the CFR family there is CFR+ only)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pokerdyn.api.inputs import build_limits
from pokerdyn.api.result import Result, Stages
from pokerdyn.games.errors import GameError

POSITIONS = {2: ("SB", "BB"), 3: ("BTN", "SB", "BB"), 4: ("CO", "BTN", "SB", "BB"),
             5: ("UTG", "CO", "BTN", "SB", "BB"), 6: ("UTG", "HJ", "CO", "BTN", "SB", "BB")}
UNITS_CHIPS = "chips"
UNITS_ICM = "ICM equity (prize-pool fractions)"


# -- shared steps -----------------------------------------------------------------------------
def _text(value: Any) -> str:
    """A list of numbers as the command line writes it ("50,30,20")."""
    if isinstance(value, str):
        return value
    try:
        items = list(value)
    except TypeError:
        items = [value]
    return ",".join(str(x) for x in items)


def _numbers(value: Any, what: str, **kw: Any) -> list[float]:
    """``value`` (text "a,b,c", a number or a sequence) checked as the command's list."""
    from pokerdyn.api.inputs import parse_list
    return parse_list(_text(value), what, **kw)




def _blinds_ante(blinds: Any, ante: Any) -> tuple[list[float], float]:
    from pokerdyn.api.inputs import parse_float
    return (_numbers(blinds, "blinds", counts=(2,), low=0, low_open=True),
            parse_float(ante, "ante", low=0))


def _check_hand(hand: str | None) -> None:
    if hand is not None:
        from pokerdyn.games.preflop.classes import class_index
        class_index(hand)


def _grid(names, probs) -> list[list[float]]:
    import numpy as np

    from pokerdyn.games.preflop.classes import grid_cell
    g = np.zeros((13, 13))
    for n, p in zip(names, probs):
        g[grid_cell(n)] = p
    return np.round(g, 6).tolist()


def _heads_up_ranges(game, sigma, order: tuple[int, ...], hand: str | None) -> dict:
    """Range key ("SB push []", "BB call [p]") -> 13x13 grid, from the information sets."""
    import numpy as np
    out, seen = {}, {}
    for I, info in enumerate(game.infosets):
        seen.setdefault((info.player, info.label.split("|", 1)[1]), []).append(I)
    order_pos = POSITIONS[len(order)]
    for (p, hist), idx in seen.items():
        acts = game.infosets[idx[0]].actions
        act = "call" if "c" in acts else "push"
        a = acts.index("c" if act == "call" else "p")
        names = [game.infosets[I].label.split(":", 1)[1].split("|", 1)[0] for I in idx]
        probs = sigma[idx, a]
        if hand is not None:
            probs = np.where(np.array(names) == hand, probs, 0.0)
        pos = order_pos[order.index(p)]
        out[f"{pos} {act} [{hist}]"] = _grid(names, probs)
    return out


def _show_grid(title: str, grid) -> list[str]:
    from pokerdyn.games.preflop.classes import RANKS
    lines = [f"{title}  (% of combos played)", "     " + "".join(f"{r:>4}" for r in RANKS)]
    for r, row in zip(RANKS, grid):
        lines.append(f"{r:>4} " + "".join("   ." if x < 5e-3 else " 100" if x > 0.995
                                          else f"{100 * x:>4.0f}" for x in row))
    return lines


def _class_names_by_cell() -> dict[tuple[int, int], str]:
    from pokerdyn.games.preflop.classes import CLASSES, grid_cell
    return {grid_cell(n): n for n in CLASSES}


# -- icm --------------------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class IcmResult(Result):
    """ICM equity (fractions of the prize pool) of each player: ``stacks``, ``payouts``,
    ``equity`` and ``chip_share`` (the stacks' shares of the chips), one per player."""

    stacks: list[float]
    payouts: list[float]
    equity: list[float]
    chip_share: list[float]
    timings: dict[str, float] = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {"stacks": list(self.stacks), "payouts": list(self.payouts),
                "equity": list(self.equity), "chip_share": list(self.chip_share)}

    def to_text(self) -> str:
        lines = [f"{'player':>6} {'stack':>10} {'chips %':>8} {'equity':>9}"]
        for i, (s, c, e) in enumerate(zip(self.stacks, self.chip_share, self.equity),
                                      start=1):
            lines.append(f"{i:>6} {s:>10g} {100 * c:>7.2f}% {e:>9.5f}")
        return "\n".join(lines)

    def to_frame(self):
        """One row per player (1, 2, ...): stack, chip_share, equity."""
        import pandas as pd
        return pd.DataFrame({"stack": self.stacks, "chip_share": self.chip_share,
                             "equity": self.equity},
                            index=pd.RangeIndex(1, len(self.stacks) + 1, name="player"))


def icm(stacks: Any, payouts: Any) -> IcmResult:
    """ICM (Independent Chip Model, Malmuth-Harville) tournament equity of each player.

    Parameters
    ----------
    stacks : str or sequence of float
        Chips per player (positive), e.g. ``[50, 30, 20]`` or ``"50,30,20"``.
    payouts : str or sequence of float
        Prize fractions of 1st, 2nd, ... place (non-increasing, summing to at most 1, at
        most one per player); ``[1]`` is chip EV.

    Returns
    -------
    IcmResult
        ``equity`` and ``chip_share`` per player; ``to_dict()`` is ``pokerdyn icm --json``,
        ``to_frame()`` one row per player.

    Raises
    ------
    GameError
        A stack that is not positive, payouts that are not a prize structure.

    Examples
    --------
    >>> import pokerdyn as pd
    >>> r = pd.icm([50, 30, 20], [0.5, 0.3, 0.2])
    >>> [round(e, 4) for e in r.equity]
    [0.3839, 0.3275, 0.2886]
    """
    import numpy as np

    from pokerdyn.games.tournament.icm import icm as icm_equity

    stages = Stages()
    text = _text(stacks)
    stacks = _numbers(text, "stacks", low=0, low_open=True)
    payouts = _numbers(payouts, "payouts", low=0, high=1)
    with stages("icm"):
        eq = icm_equity(stacks, payouts)
        top = max(stacks)
        # shares of the scaled stacks: the sum of stacks near 1e308 overflows
        share = [s / top / sum(t / top for t in stacks) for s in stacks] if top > 0 else []
    if not (np.isfinite(eq).all() and np.isfinite(share).all()):  # never print NaN
        raise GameError(f"stacks={text} give no finite equity; allowed: positive "
                        "finite stacks")
    return IcmResult(stacks, payouts, eq.tolist(), share, stages.seconds)


# -- pushfold ---------------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class PushFoldResult(Result):
    """A jam/fold equilibrium: ``ranges`` maps a range key (``"SB push []"``, ``"BB call
    [p]"``; seats by position) to a 13x13 grid of push (call) probabilities (row = first
    card, column = second; pairs on the diagonal, suited above it; None for a class a
    sampled game never dealt, or outside ``hand``), its ``nash_conv`` (in ``units``) and
    ``seconds``.  ``model`` is None heads-up (the exact game), else ``"sampled"`` (sampled
    deals: ``samples``, ``seed``, ``boards``, ``expected_payoffs`` and their
    ``standard_error``, ``iterations``, ``nodes``, ``undetermined``) or ``"classes"`` (3 seats
    over the 169 classes: also ``threshold_error`` and ``equity_se``)."""

    stacks: list[float]
    blinds: list[float]
    ante: float
    button: int
    payouts: list[float] | None
    method: str
    units: str
    ranges: dict[str, list[list[float | None]]]
    nash_conv: float
    seconds: float
    model: str | None = None
    samples: int | None = None
    seed: int | None = None
    boards: int | None = None
    expected_payoffs: list[float] | None = None
    standard_error: list[float] | None = None
    iterations: int | None = None
    nodes: int | None = None
    undetermined: float | None = None
    threshold_error: float | None = None
    equity_se: float | None = None
    timings: dict[str, float] = field(default_factory=dict, compare=False)

    def _summary(self) -> dict[str, Any]:
        return {"stacks": self.stacks, "method": self.method, "model": self.model,
                "units": self.units, "nash_conv": self.nash_conv,
                "ranges": f"<{len(self.ranges)} ranges: {', '.join(self.ranges)}>"}

    def to_dict(self) -> dict[str, Any]:
        out = {"stacks": self.stacks, "blinds": self.blinds, "ante": self.ante,
               "button": self.button, "payouts": self.payouts, "method": self.method,
               "units": self.units, "ranges": self.ranges, "nash_conv": self.nash_conv,
               "seconds": self.seconds}
        if self.model is None:
            return out
        out.update({"samples": self.samples, "seed": self.seed, "boards": self.boards,
                    "expected_payoffs": self.expected_payoffs,
                    "standard_error": self.standard_error, "iterations": self.iterations,
                    "nodes": self.nodes, "undetermined": self.undetermined,
                    "model": self.model})
        if self.model != "sampled":
            out.update({"threshold_error": self.threshold_error, "equity_se": self.equity_se,
                        "mc_samples": self.samples})
        return out

    def to_text(self) -> str:
        if self.model is None:
            lines = [f"jam/fold, stacks {self.stacks}, blinds {self.blinds}, ante "
                     f"{self.ante:g}, method {self.method}: NashConv {self.nash_conv:.3g} "
                     f"({self.units}), {self.seconds:.2f} s"]
            grids = self.ranges
        elif self.model == "classes":
            lines = [f"jam/fold, stacks {self.stacks}, 169 classes (exact deal probabilities "
                     f"and heads-up equities, {self.samples:,} 3-way Monte Carlo deals, seed "
                     f"{self.seed}): NashConv {self.nash_conv:.3g} ({self.units}), "
                     f"{self.seconds:.1f} s; largest threshold displacement "
                     f"{self.threshold_error:.3g} bb"]
            grids = self.ranges
        else:
            se = self.standard_error
            lines = [f"jam/fold, stacks {self.stacks}, blinds {self.blinds}, ante "
                     f"{self.ante:g}, method {self.method}, {self.samples} sampled deals "
                     f"(seed {self.seed}): NashConv {self.nash_conv:.3g} ({self.units}), "
                     f"{self.seconds:.2f} s",
                     "expected payoffs " + ", ".join(f"{v:+.4f} (se {e:.4f})" for v, e in
                                                     zip(self.expected_payoffs, se)),
                     f"{100 * self.undetermined:.0f}% of the decisions are within 2 standard "
                     "errors of indifference (raise --samples to settle them)"]
            grids = {k: [[0.0 if x is None else x for x in row] for row in g]
                     for k, g in self.ranges.items()}
        for key, grid in grids.items():
            lines += _show_grid(key, grid)
        return "\n".join(lines)

    def to_frame(self):
        """One row per hand class (169, in grid order), one column per range key: the push
        (call) probability (NaN where the range has no value)."""
        import pandas as pd
        cells = _class_names_by_cell()
        order = sorted(cells)
        data = {k: [g[r][c] if g[r][c] is not None else float("nan") for r, c in order]
                for k, g in self.ranges.items()}
        return pd.DataFrame(data, index=pd.Index([cells[rc] for rc in order], name="hand"))

    def plot(self, ax=None, key: str | None = None):
        """The 13x13 grid of range ``key`` (default the first) as a heatmap on ``ax`` (a new
        figure when None); returns the Axes."""
        import numpy as np

        from pokerdyn.games.preflop.classes import RANKS
        key = next(iter(self.ranges)) if key is None else key
        if key not in self.ranges:
            raise GameError(f"key={key!r} is not a range of this result; allowed: "
                            f"{', '.join(self.ranges)}")
        if ax is None:
            import matplotlib.pyplot as plt
            _, ax = plt.subplots(figsize=(5, 5))
        g = np.array([[np.nan if x is None else x for x in row] for row in self.ranges[key]],
                     dtype=float)
        im = ax.imshow(g, cmap="viridis", vmin=0, vmax=1)
        ax.set_xticks(range(13), list(RANKS))
        ax.set_yticks(range(13), list(RANKS))
        ax.set_title(f"{key} (probability)", fontsize=9)
        ax.figure.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
        return ax


def pushfold(stacks: Any, *, blinds: Any = (0.5, 1), ante: Any = 0, button: int = 0,
             payouts: Any = None, method: str | None = None, model: str | None = None,
             samples: int | None = None, seed: int = 0, boards: int = 8,
             iterations: int | None = None, max_displacement: Any = 0.1,
             hand: str | None = None, progress: bool = False, max_memory: Any = None,
             force: bool = False) -> PushFoldResult:
    """Jam/fold (push/fold) equilibrium of 2 to 6 seats: each player pushes all-in or folds,
    and after a push calls all-in or folds.

    Seats act UTG first, big blind last (heads-up the small blind, on the button, first).
    Heads-up the game is exact (169 hand classes, exact deal probabilities and equities);
    3 to 6 seats play over sampled deals (``model="sampled"``), or 3 seats over the 169
    classes with a certified 3-way Monte Carlo (``model="classes"``, CFR+, 10-30 minutes).

    Parameters
    ----------
    stacks : str or sequence of float
        Chips per seat in big blinds, e.g. ``[10, 10]``.
    blinds : str or pair of float
        Small and big blind (default 0.5, 1).
    ante : float
        Ante posted by every seat (default 0).
    button : int
        0-based seat of the button.
    payouts : str or sequence of float, optional
        ICM payouts (fractions of the prize pool); None for chip EV.
    method : str, optional
        ``"lp"`` (heads-up; the default there), ``"fp"`` (the default for 3+ seats),
        ``"hedge"`` or ``"cfr+"`` (``"cfr"``: its alias here).
    model : str, optional
        3+ seats: ``"sampled"`` (the default) or ``"classes"`` (3 seats).
    samples, seed, boards : int, optional
        3+ seats: sampled deals (default 20000), their seed, boards per deal.
    iterations : int, optional
        Iterations of fp / hedge / cfr+ (default 2000; model classes: 300 CFR+ iterations).
    max_displacement : float
        Model classes: largest threshold displacement allowed, big blinds.
    hand : str, optional
        Show only this hand class (e.g. ``"AKs"``) in the ranges.
    progress : bool
        Show a progress bar.
    max_memory, force
        The game-size guard (as ``--max-memory``, ``--force``).

    Returns
    -------
    PushFoldResult
        ``ranges`` (13x13 grids), ``nash_conv``; ``to_dict()`` is ``pokerdyn pushfold
        --json``, ``to_frame()`` one row per hand class, ``plot()`` one range's grid.

    Raises
    ------
    GameError
        Bad stacks, blinds, payouts, method or hand class.

    Examples
    --------
    >>> import pokerdyn as pd
    >>> r = pd.pushfold([10, 10])
    >>> list(r.ranges), r.method, r.nash_conv < 1e-9
    (['SB push []', 'BB call [p]'], 'lp', True)
    >>> r.ranges["SB push []"][0][0]          # AA is always pushed
    1.0
    """
    import time

    from pokerdyn.api.inputs import parse_int

    blinds, ante = _blinds_ante(blinds, ante)
    _check_hand(hand)
    if stacks is None:
        raise GameError("pushfold needs --stacks (e.g. 10,10) or --chart")
    button = parse_int(button, "button", 0, 5)
    seed = parse_int(seed, "seed", 0, 2**32 - 1)
    boards = parse_int(boards, "boards", 1)
    samples = None if samples is None else parse_int(samples, "samples", 1)
    iterations = None if iterations is None else parse_int(iterations, "iterations", 1)
    if method is not None and method not in ("fp", "hedge", "lp", "cfr+", "cfr"):
        raise GameError(f"method={method!r} is unknown; allowed: fp, hedge, lp, cfr+, cfr")
    if model is not None and model not in ("classes", "sampled"):
        raise GameError(f"model={model!r} is unknown; allowed: classes, sampled")
    stacks = _numbers(stacks, "stacks", low=0, low_open=True)
    payouts = None if payouts is None else _numbers(payouts, "payouts", low=0)
    from pokerdyn.games.tournament.icm import check_payouts
    from pokerdyn.games.tournament.jamfold import table

    with build_limits(max_memory, force):
        t = table(stacks, blinds, ante, button)
        if payouts is not None:
            check_payouts(payouts, len(stacks))
        chosen = method or ("lp" if len(stacks) == 2 else "fp")
        if chosen == "lp" and len(stacks) != 2:
            raise GameError(f"--method lp solves heads-up games; {len(stacks)} seats need fp, "
                            "hedge or cfr")
        common = dict(stacks=stacks, blinds=blinds, ante=ante, button=button,
                      payouts=payouts, units=UNITS_CHIPS if payouts is None else UNITS_ICM)
        if (model or "sampled") == "classes":
            if len(stacks) != 3 or method not in (None, "cfr", "cfr+"):
                raise GameError(f"--model classes solves 3 seats with cfr (got {len(stacks)} "
                                f"seats, method {method or chosen})")
            return _sampled(common, method or "cfr", "classes", t, samples, seed, boards,
                            iterations, max_displacement, hand, progress)
        if len(stacks) >= 3:
            return _sampled(common, chosen, "sampled", t, samples, seed, boards, iterations,
                            max_displacement, hand, progress)
        from pokerdyn.games.compiled import compile_game
        from pokerdyn.games.tournament import hands
        from pokerdyn.games.tournament.jamfold import jamfold_game
        from pokerdyn.solvers.tournament import solve_heads_up

        stages = Stages()
        start = time.perf_counter()
        with stages("build"):
            game = jamfold_game(hands.preflop_model(), stacks, blinds, ante, button, payouts)
            cg = compile_game(game)
        with stages("solve"):
            sigma, nc = solve_heads_up(cg, chosen, iterations or 2000, progress)
        seconds = time.perf_counter() - start
        ranges = _heads_up_ranges(game, sigma, t.order, hand)
        return PushFoldResult(**common, method=chosen, ranges=ranges, nash_conv=nc,
                              seconds=seconds, timings=stages.seconds)


def _sampled(common: dict, method: str, model: str, t, samples, seed, boards, iterations,
             max_displacement, hand, progress) -> PushFoldResult:
    """3 to 6 seats: the equilibrium over sampled deals, or 3 seats over the 169 classes
    (solvers.tournament.jamfold_equilibrium)."""
    import time

    from pokerdyn.api.inputs import parse_float
    from pokerdyn.solvers.tournament import jamfold_equilibrium

    samples = samples or 20_000
    iterations = iterations or (300 if model == "classes" else 2000)
    shift = parse_float(max_displacement, "max-displacement", low=0, low_open=True)
    stacks = common["stacks"]
    start = time.perf_counter()
    eq = jamfold_equilibrium(stacks, common["blinds"], common["ante"], common["payouts"],
                             common["button"], method, samples, seed, boards, iterations,
                             progress=progress, model=model, max_displacement=shift)
    seconds = time.perf_counter() - start
    names = POSITIONS[len(stacks)]
    ranges = {}
    for key, grid in eq.ranges.items():
        seat, rest = key.split(" ", 1)
        if hand is not None:
            from pokerdyn.games.preflop.classes import grid_cell
            r, c = grid_cell(hand)
            grid = [[x if (i, j) == (r, c) else None for j, x in enumerate(row)]
                    for i, row in enumerate(grid)]
        ranges[f"{names[t.order.index(int(seat[1:]) - 1)]} {rest}"] = grid
    timings = {"build": eq.build_seconds, "solve": eq.solve_seconds}
    return PushFoldResult(**common, method=method, ranges=ranges, nash_conv=eq.nash_conv,
                          seconds=seconds, model=model, samples=eq.samples, seed=eq.seed,
                          boards=boards, expected_payoffs=eq.expected_payoffs.tolist(),
                          standard_error=eq.standard_error.tolist(),
                          iterations=eq.iterations, nodes=eq.nodes,
                          undetermined=eq.undetermined,
                          threshold_error=None if model == "sampled" else eq.threshold_error,
                          equity_se=None if model == "sampled" else eq.equity_se,
                          timings=timings)


# -- pushfold chart ---------------------------------------------------------------------------
def _count(table: dict) -> int:
    return sum(len(v) for v in table.values())


@dataclass(frozen=True, repr=False)
class PushFoldChart(Result):
    """The heads-up chip-EV jam/fold chart: ``tables`` (the command's JSON tables: ``push``
    and ``call`` map each class to its ``[low, high]`` intervals of played stacks,
    ``*_mixed``, ``*_optional``, ``*_near``, ``*_margin_bb``; ``plot`` where a figure was
    written), the ``stacks`` of the grid, ``blinds``, ``ante``, ``step``, ``hands`` (the
    classes shown), ``margin_threshold_bb`` and ``seconds``."""

    tables: dict[str, Any]
    stacks: list[float]
    blinds: list[float]
    ante: float
    step: float
    hands: list[str]
    margin_threshold_bb: float
    seconds: float
    timings: dict[str, float] = field(default_factory=dict, compare=False)

    def _summary(self) -> dict[str, Any]:
        return {"stacks": f"<{len(self.stacks)} stacks {self.stacks[0]:g} to "
                          f"{self.stacks[-1]:g}>", "blinds": self.blinds, "ante": self.ante,
                "hands": f"<{len(self.hands)} classes>", "seconds": self.seconds}

    def to_dict(self) -> dict[str, Any]:
        return {**self.tables, "blinds": self.blinds, "ante": self.ante,
                "stacks": list(self.stacks), "margin_threshold_bb": self.margin_threshold_bb,
                "seconds": self.seconds}

    def to_text(self) -> str:
        res, near_bb, grid = self.tables, self.margin_threshold_bb, self.stacks
        lines = [f"heads-up jam/fold chart, blinds {self.blinds}, ante {self.ante:g}, stacks "
                 f"{grid[0]:g} to {grid[-1]:g} step {self.step:g} ({self.seconds:.1f} s); "
                 "intervals in big blinds",
                 f"optional: pushing {_count(res['push_optional'])}, calling "
                 f"{_count(res['call_optional'])} (hand, stack) cells; near-indifferent "
                 f"(|margin| < {near_bb:g} bb, marked ~): pushing {_count(res['push_near'])}, "
                 f"calling {_count(res['call_near'])}"]
        for h in self.hands:
            fmt = lambda iv: ", ".join(f"{a:g}-{b:g}" for a, b in iv) or "-"  # noqa: E731
            mark = lambda key: "~" if h in res[f"{key}_near"] else " "  # noqa: E731
            lines.append(f"{h:>4}  push{mark('push')}{fmt(res['push'][h]):<28} call"
                         f"{mark('call')}{fmt(res['call'][h])}")
        if "plot" in res:
            lines.append(f"wrote {res['plot']}")
        return "\n".join(lines)

    def to_frame(self):
        """One row per class: ``push_up_to``/``call_up_to`` (the largest stack of the grid
        at which it is pushed / called; NaN if never), ``push``/``call`` (the intervals)."""
        import pandas as pd
        top = {k: [iv[-1][1] if iv else float("nan") for iv in
                   (self.tables[k][h] for h in self.hands)] for k in ("push", "call")}
        return pd.DataFrame({"push_up_to": top["push"], "call_up_to": top["call"],
                             "push": [self.tables["push"][h] for h in self.hands],
                             "call": [self.tables["call"][h] for h in self.hands]},
                            index=pd.Index(self.hands, name="hand"))

    def plot(self, ax=None, which: str = "push"):
        """The chart's ``which`` ("push" or "call") heatmap on ``ax`` (a new figure when
        None): per class the largest stack at which it is played, a gap outlined in red,
        optional classes hatched, near-indifferent ones dashed
        (:func:`pokerdyn.figures.tournament.chart.draw`); returns the Axes."""
        import numpy as np

        from pokerdyn.figures.tournament.chart import draw, near_classes
        from pokerdyn.games.preflop.classes import grid_cell
        if which not in ("push", "call"):
            raise GameError(f"which={which!r} is not a table of the chart; allowed: push, call")
        if ax is None:
            import matplotlib.pyplot as plt
            _, ax = plt.subplots(figsize=(5.6, 5.6))
        top, gap = np.zeros((13, 13)), np.zeros((13, 13), dtype=bool)
        optional, near = np.zeros((13, 13), dtype=bool), np.zeros((13, 13), dtype=bool)
        for name, iv in self.tables[which].items():
            if iv:
                top[grid_cell(name)] = iv[-1][1]
                gap[grid_cell(name)] = len(iv) > 1
        for name in self.tables[f"{which}_optional"]:
            optional[grid_cell(name)] = True
        for name in near_classes({**self.tables, "stacks": self.stacks}, which):
            near[grid_cell(name)] = True
        title = "SB pushes up to (bb)" if which == "push" else "BB calls up to (bb)"
        im = draw(ax, top, gap, title, float(self.stacks[-1]), optional, near)
        ax.figure.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
        return ax


def pushfold_chart(*, blinds: Any = (0.5, 1), ante: Any = 0, max_stack: Any = 20,
                   step: Any = 0.1, margin: Any = 0.01, hand: str | None = None,
                   plot: Any = None, progress: bool = False, max_memory: Any = None,
                   force: bool = False) -> PushFoldChart:
    """The heads-up chip-EV jam/fold chart: the LP equilibrium at every effective stack
    ``step, 2 step, ... <= max_stack`` big blinds above the big blind plus ante.

    A class is *played* at a stack when its push (call) probability exceeds 1/2; each
    choice's EV margin (big blinds) against the other player's LP strategy, and its range
    over all optimal strategies (the optimal face), are reported too
    (``pokerdyn.solvers.tournament.hu_chart_faces``).

    Parameters
    ----------
    blinds : str or pair of float
        Small and big blind (default 0.5, 1).
    ante : float
        Ante posted by every seat.
    max_stack, step : float
        The grid of stacks (big blinds).
    margin : float
        A choice whose EV margin is below this many big blinds is near-indifferent.
    hand : str, optional
        Only this hand class.
    plot : str or path, optional
        Also write the two 13x13 threshold heatmaps to this file (.png, .pdf).
    progress : bool
        Show a progress bar.
    max_memory, force
        ``force`` lifts the chart's stack-count limit (as ``--force``).

    Returns
    -------
    PushFoldChart
        ``to_dict()`` is ``pokerdyn pushfold --chart --json``; ``to_frame()`` one row per
        class; ``plot(ax, which="push")`` one heatmap.

    Raises
    ------
    GameError
        Bad blinds, ante, grid (too many stacks, none above the blinds), margin or hand.

    Examples
    --------
    >>> import pokerdyn as pd
    >>> c = pd.pushfold_chart(max_stack=3, step=1, hand="AA")
    >>> c.stacks, c.tables["push"]
    ([2.0, 3.0], {'AA': [[2.0, 3.0]]})
    """
    import time

    from pokerdyn.api.inputs import check_plot_file, parse_float

    blinds, ante = _blinds_ante(blinds, ante)
    _check_hand(hand)
    from pokerdyn.figures.tournament.chart import chart_tables
    from pokerdyn.games.preflop.classes import grid_cell
    from pokerdyn.games.tournament import hands
    from pokerdyn.games.tournament.jamfold import MAX_DEPTH
    from pokerdyn.solvers.tournament import chart_stacks, hu_chart_faces

    path = None if plot is None else check_plot_file(str(plot))
    step = parse_float(step, "step", low=0, low_open=True)
    top = parse_float(max_stack, "max-stack", low=0, low_open=True, high=MAX_DEPTH * blinds[1])
    grid = chart_stacks(top, step, blinds[1] + ante, bool(force))
    near_bb = parse_float(margin, "margin", low=0)
    stages = Stages()
    with build_limits(max_memory, force):
        start = time.perf_counter()
        with stages("chart"):
            model = hands.preflop_model()
            ch = hu_chart_faces(model, grid, blinds, ante, progress=progress)
        seconds = time.perf_counter() - start
    names = [hand] if hand else list(model.names)
    with stages("tables"):
        res = chart_tables(ch, names, [model.names.index(h) for h in names], near_bb)
    if path is not None:
        from pokerdyn.figures.tournament.chart import chart_figure, near_classes
        with stages("plot"):
            tables = {**res, "stacks": grid.tolist()}
            res["plot"] = str(chart_figure(path, res["push"], res["call"],
                                           {h: grid_cell(h) for h in names}, float(grid[-1]),
                                           optional={k: set(res[f"{k}_optional"]) for k in
                                                     ("push", "call")},
                                           near={k: near_classes(tables, k) for k in
                                                 ("push", "call")}, margin_bb=near_bb))
    return PushFoldChart(res, grid.tolist(), blinds, ante, step, names, near_bb, seconds,
                         stages.seconds)
