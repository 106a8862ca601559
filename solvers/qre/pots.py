"""The branch limit at one pot and the segments of a selection map (solvers.qre.selection,
solvers.qre.jumps): ``PotPoint``, ``Segment`` and ``limit_at_pot``."""
from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import sympy as sp

from pokerdyn.games import Game, GameError, compile_game
from pokerdyn.games.strategy import params_from_strategy
from pokerdyn.solvers.qre.branch import qre_branch
from pokerdyn.solvers.qre.limit import branch_limit


@dataclass(frozen=True)
class PotPoint:
    """The branch limit at one pot: named parameters, NashConv, the matched family's
    display expressions (``None``: no family matched, e.g. a game too large to enumerate),
    its free-parameter values, and the limit's support (legal actions of positive
    probability, row-major: what tells selections apart where no family is known)."""

    pot: float
    params: dict[str, float]
    nash_conv: float
    family: tuple[tuple[str, Any], ...] | None
    free: dict[str, float] | None
    support: tuple[bool, ...] = ()


@dataclass(frozen=True)
class Segment:
    """Pots ``[low, high]`` over which the same family is selected; ``strategy`` the
    family's expressions in P (and its free parameters, if any); ``points`` the grid pots
    inside with what was selected there; ``selected``: for a continuum, each free
    parameter's selected value as an expression in P where :func:`fit_rational` finds one
    through the grid points."""

    low: Any
    high: Any
    strategy: tuple[tuple[str, Any], ...] | None
    free: tuple[str, ...]
    points: tuple[PotPoint, ...] = field(default=())
    selected: tuple[tuple[str, Any], ...] = ()

    def exact_strategy(self) -> dict[str, Any] | None:
        """The selected strategy as expressions in P: the family's, with the free
        parameters replaced by their selected expressions; None where not exact."""
        if self.strategy is None or len(self.selected) < len(self.free):
            return None
        sub = dict(self.selected)
        out = {}
        for k, e in self.strategy:
            e = sp.sympify(e)
            e = e.xreplace({q: sub[q.name] for q in e.free_symbols if q.name in sub})
            out[k] = sp.factor(sp.simplify(e.xreplace(
                {q: sp.Symbol("P", positive=True) for q in e.free_symbols if q.name == "P"})))
        return out


def _pieces(game: Game) -> list:
    from pokerdyn.solvers.symbolic.model.conditions import MAX_PARAMETERS
    from pokerdyn.solvers.symbolic.axis.piecewise import equilibrium_pieces
    if len(game.named) == 0 or len(game.named) > MAX_PARAMETERS:
        return []
    return equilibrium_pieces(game)


def _families_at(pieces: list, pot: float) -> list:
    """The display families of the piece holding ``pot``, with P substituted."""
    for pc in pieces:
        if pc.p_set.contains(sp.Float(pot, 30)) is sp.true:
            out = []
            for s in pc.solutions:
                sub = {q: pot for _, e in s.strategy for q in sp.sympify(e).free_symbols
                       if q.name == "P"}
                sub.update({q: pot for c in s.constraints
                            for q in getattr(c, "free_symbols", ()) if q.name == "P"})
                out.append(SimpleNamespace(
                    strategy=tuple((k, sp.sympify(e).xreplace(sub)) for k, e in s.strategy),
                    free=s.free, constraints=tuple(c.xreplace(sub) for c in s.constraints),
                    display=s.strategy))
            return out
    return []


def limit_at_pot(game: Game, pot: float, pieces: list | None = None,
                 tol: float = 1e-6, dsigma: float = 0.05) -> PotPoint:
    """The principal branch's limit at pot ``pot`` and the family it selects (``dsigma``:
    the branch's largest change of a probability per step)."""
    cg = compile_game(game, {"P": pot})
    fams = _families_at(_pieces(game) if pieces is None else pieces, pot)
    try:
        br = qre_branch(cg, tol=tol, dsigma=dsigma)
    except GameError:       # a stalled walk (kuhn3 at some pots): once more, finer steps
        br = qre_branch(cg, tol=tol, dsigma=dsigma / 10)
    lim = branch_limit(cg, br, fams)
    fam = fams[lim.family].display if lim.family is not None else None
    supp = tuple(bool(b) for b in (lim.strategy[cg.legal] > 0))
    return PotPoint(pot, params_from_strategy(cg, lim.strategy), lim.nash_conv, fam, lim.free,
                    supp)
