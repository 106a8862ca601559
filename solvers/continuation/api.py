"""``continuation(game, pots)``: equilibrium branches of a game along its pot, as one frozen
result with a JSON form (``branches``: support, pot range and bifurcation points of each)."""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from pokerdyn.games import Game, GameError

from pokerdyn.solvers.continuation.arclength import HELD, MIXED, ONE, ZERO
from pokerdyn.solvers.continuation.start import Start, find_start, polish
from pokerdyn.solvers.continuation.system import IndifferenceSystem, indifference_system
from pokerdyn.solvers.continuation.trace import (PASSES_PER_BRANCH, Branch, BranchPoint, Options,
                                        moving, trace_branches)

MAX_SAMPLES = 400  # points per branch kept in the JSON form
MAX_RESTARTS = 60  # fresh starts when the curve leaves the range on the wrong side


@dataclass(frozen=True)
class ContinuationResult:
    """Branches met following the equilibrium found at ``start_pot`` through ``pots``
    (upwards from the start and downwards when the start is inside the range), ordered
    down-branches first; a branch whose start point has kind ``start`` begins at a freshly
    found equilibrium (the first, or a restart where the curve left the range early)."""

    system: IndifferenceSystem
    pots: tuple[float, float]
    start_pot: float
    branches: tuple[Branch, ...]
    start_nash_conv: float
    dominance: str
    seconds: float
    start_method: str = ""

    @property
    def names(self) -> list[str]:
        return self.system.names()

    def max_certificate(self) -> float:
        """Largest exact NashConv over all certified branch points."""
        pts = [q for b in self.branches for q in (b.start, b.end, *b.folds) if q is not None]
        return max((q.certificate.get("nash_conv", 0.0) for q in pts), default=0.0)

    def to_json(self) -> dict[str, Any]:
        names = self.names
        return {
            "game": self.system.game.name, "parameter": self.system.param,
            "pots": list(self.pots), "start_pot": self.start_pot,
            "start_solver_nash_conv": self.start_nash_conv, "start_method": self.start_method,
            "dominance": self.dominance,
            "frequencies": names, "seconds": self.seconds,
            "max_nash_conv": self.max_certificate(),
            "branches": [branch_record(b, names, i, self.system)
                         for i, b in enumerate(self.branches)],
        }


def support_record(codes: np.ndarray, names: list[str],
                   reach: np.ndarray | None = None) -> dict[str, list[str]]:
    """Names of the frequencies at 0, at 1, mixed (solved for), held (a free parameter of a
    family of equilibria, held at its value along the branch) and unreached (held too: a
    set that chance and the others never reach, payoff-irrelevant; needs ``reach``)."""
    off = np.zeros(len(codes), dtype=bool) if reach is None else (reach < 1e-12)
    pick = {"zero": codes == ZERO, "one": codes == ONE, "mixed": codes == MIXED,
            "held": (codes == HELD) & ~off, "unreached": (codes == HELD) & off}
    return {k: [names[i] for i in np.nonzero(m)[0]] for k, m in pick.items()}


def point_record(q: BranchPoint, names: list[str]) -> dict[str, Any]:
    return {"kind": q.kind, "set": names[q.set_index] if q.set_index >= 0 else None,
            "pot": q.pot, "frequencies": dict(zip(names, map(float, q.x))), **q.certificate}


def branch_record(b: Branch, names: list[str], index: int,
                  system: IndifferenceSystem | None = None) -> dict[str, Any]:
    step = max(1, math.ceil(len(b.pots) / MAX_SAMPLES))
    keep = list(range(0, len(b.pots), step))
    if keep[-1] != len(b.pots) - 1:
        keep.append(len(b.pots) - 1)
    xs = np.array([b.xs[i] for i in keep])
    mixed = np.nonzero(b.codes == MIXED)[0]
    return {
        "index": index,
        "support": support_record(b.codes, names, None if system is None else
                                  system.cf_reach(b.xs[0], b.pots[0])),
        "pot_range": list(b.pot_range),
        "bifurcation_points": [point_record(q, names) for q in (b.start, *b.folds, b.end)
                               if q is not None],
        "samples": {"pot": [b.pots[i] for i in keep],
                    "frequencies": {names[k]: xs[:, k].tolist() for k in mixed}},
    }


def warm_start(S: IndifferenceSystem, branches: list[Branch], st: Start, p1: float,
               direction: float) -> Start | None:
    """An equilibrium at ``p1`` polished from the farthest point reached so far (cheap; a
    fold there means the branch found this way is another one), or None."""
    pts = [(p, x) for br in branches for p, x in zip(br.pots, br.xs)]
    _, x0 = max(pts, key=lambda q: direction * q[0])
    locked = {int(k): int(st.support.codes[k]) for k in np.nonzero(st.support.locked)[0]}
    x = x0.copy()
    sup = polish(S, x, p1, locked)
    if sup is None or regrets_ok(S, x, p1) is False:
        return None
    return Start(x, float(p1), sup, 0.0, 0, st.dominance, "warm")


def regrets_ok(S: IndifferenceSystem, x: np.ndarray, p: float) -> bool:
    from pokerdyn.games.compiled import compile_game
    from pokerdyn.solvers.evaluation import nash_conv

    return nash_conv(compile_game(S.game, {**S.cg.values, S.param: p}), S.sigma(x),
                     check=False) < 1e-9


def _cover(S: IndifferenceSystem, st: Start, pots: tuple[float, float], direction: float,
           opts: Options, progress: bool, iterations: int) -> list[Branch]:
    """Branches from ``st`` in ``direction``; where the curve leaves the range on the
    other side (or stops) before reaching the far end, a fresh equilibrium is found a little
    further on (2% of the range: polished from the farthest point, else found from scratch)
    and followed both ways, back over the gap and on, at most ``MAX_RESTARTS`` times."""
    a, b = pots
    out = trace_branches(S, st.support, st.x.copy(), st.pot, pots, direction, opts, progress)
    for _ in range(MAX_RESTARTS):
        reach = max(br.pot_range[1] for br in out) if direction > 0 else \
            min(br.pot_range[0] for br in out)
        gap = b - reach if direction > 0 else reach - a
        if (gap < 1e-9 * (b - a) or moving(out) >= opts.max_branches
                or len(out) >= PASSES_PER_BRANCH * opts.max_branches):
            break
        p1 = reach + direction * min(gap, 0.02 * (b - a))
        nxt = warm_start(S, out, st, p1, direction)
        if nxt is None:
            try:
                nxt = find_start(S, p1, pots, iterations=iterations)
            except GameError:
                break
        # back over the gap jumped (stopping where the range covered so far ends), then on
        gap_pots = (reach, p1) if direction > 0 else (p1, reach)
        back = trace_branches(S, nxt.support, nxt.x.copy(), p1, gap_pots, -direction, opts,
                              False)
        out += back[::-1] + trace_branches(S, nxt.support, nxt.x.copy(), p1, pots, direction,
                                           opts, progress)
    return out


def continuation(game: Game, pots: tuple[float, float], start: float | None = None,
                 param: str = "P", opts: Options = Options(), progress: bool = False,
                 iterations: int = 20_000) -> ContinuationResult:
    """Equilibrium branches of ``game`` for ``param`` in ``pots = (A, B)``.

    The start (default ``A``) is an equilibrium found by CFR+ after iterated dominance and
    polished by Newton; from it the branches are followed up to ``B`` (and down to ``A``
    when the start lies inside).  Raises GameError for an empty or reversed range, a start
    outside it, or a range outside the parameter's domain.
    """
    a, b = (float(v) for v in pots)
    if not (math.isfinite(a) and math.isfinite(b)) or not a < b:
        raise GameError(f"pot range {a:g}:{b:g} is empty or reversed; give A:B with A < B")
    dom = game.domains.get(param)
    if dom is not None and not (dom.contains(a) and dom.contains(b)):
        raise GameError(f"pot range {a:g}:{b:g} is outside the allowed range "
                        f"{dom.describe()} of {param}")
    p0 = a if start is None else float(start)
    if not a <= p0 <= b:
        raise GameError(f"start={p0:g} is outside the pot range [{a:g}, {b:g}]")
    t0 = time.perf_counter()
    S = indifference_system(game, param)
    st = find_start(S, p0, (a, b), iterations=iterations)
    up = _cover(S, st, (a, b), 1.0, opts, progress, iterations) if p0 < b else []
    down = _cover(S, st, (a, b), -1.0, opts, progress, iterations) if p0 > a else []
    return ContinuationResult(S, (a, b), p0, tuple(down[::-1] + up), st.solver_nash_conv,
                              st.dominance, time.perf_counter() - t0, st.method)


__all__ = ["ContinuationResult", "continuation", "support_record"]
