"""Numeric compilation of a :class:`~games.tree.Game` to flat float64/int arrays.

The compiled form is what every numeric algorithm reads (numba kernels in ``solvers``).
Nodes keep the game's order (each parent before its children), so a forward loop computes
reach probabilities and a backward loop accumulates values.  Memory: 24 bytes per node plus
8 bytes per payoff entry (see ``bytes_per_node``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np
import sympy as sp
from numpy.typing import NDArray

from pokerdyn.games.tree import (CHANCE, DECISION, MAX_ACTIONS, TERMINAL, Game, GameError,
                        check_n_edges, check_n_players)

# Largest payoff magnitude a compiled game may hold: sums of products of payoffs and reach
# probabilities (best responses, NashConv, the LP's sequence-form matrices, squared
# regrets) then stay far from float overflow (1e150 ** 2 = 1e300 < 1.8e308); larger
# payoffs are refused rather than turned into inf or NaN.  Rescale such a game.
MAX_ABS_PAYOFF = 1e150


_ARRAYS = ("kind", "player", "parent", "edge", "infoset", "chance_prob", "terminal_index",
           "payoffs", "infoset_player", "n_actions", "legal")


@dataclass(frozen=True, eq=False)
class CompiledGame:
    """A game with numeric parameter values, as flat arrays.

    Per node (``n_nodes``): ``kind`` int8, ``player`` int8, ``parent`` int32, ``edge`` int16,
    ``infoset`` int32, ``chance_prob`` float64 (edge probability from a chance parent, else
    1), ``terminal_index`` int32 (row of ``payoffs`` or -1).  Per information set:
    ``infoset_player`` int8, ``n_actions`` int16, ``legal`` bool ``(n_infosets, max_actions)``.
    """

    game: Game
    values: Mapping[str, float]
    kind: NDArray[np.int8]
    player: NDArray[np.int8]
    parent: NDArray[np.int32]
    edge: NDArray[np.int16]
    infoset: NDArray[np.int32]
    chance_prob: NDArray[np.float64]
    terminal_index: NDArray[np.int32]
    payoffs: NDArray[np.float64]
    infoset_player: NDArray[np.int8]
    n_actions: NDArray[np.int16]
    legal: NDArray[np.bool_]
    cache: dict = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        # Every array is read-only, whichever way the game was built or replaced: the
        # numba kernels then see one array type and compile once per signature (a writable
        # and a read-only chance_prob were two compilations of each kernel).
        for name in _ARRAYS:
            a = getattr(self, name)
            if a.flags.writeable:
                a = a.view()
                a.flags.writeable = False
                object.__setattr__(self, name, a)

    @property
    def name(self) -> str:
        return self.game.name

    @property
    def n_players(self) -> int:
        return self.game.n_players

    @property
    def n_nodes(self) -> int:
        return int(self.kind.shape[0])

    @property
    def n_infosets(self) -> int:
        return int(self.n_actions.shape[0])

    @property
    def max_actions(self) -> int:
        return int(self.legal.shape[1]) if self.legal.ndim == 2 else 0

    @property
    def infoset_labels(self) -> tuple[str, ...]:
        return tuple(I.label for I in self.game.infosets)

    def __repr__(self) -> str:
        # short (a notebook cell, issue 35): the dataclass repr printed every array
        values = ", ".join(f"{k}={v:g}" if isinstance(v, (int, float)) else f"{k}={v}"
                           for k, v in list(self.values.items())[:8])
        more = f", ... {len(self.values)} in all" if len(self.values) > 8 else ""
        name = self.name if len(self.name) <= 200 else self.name[:197] + "..."
        return (f"CompiledGame({name!r}, values={{{values[:400]}{more}}}, "
                f"players={self.n_players}, nodes={self.n_nodes:,}, "
                f"terminals={int(self.payoffs.shape[0]):,}, infosets={self.n_infosets:,}, "
                f"max_actions={self.max_actions}, parameters={len(self.game.named):,})")

    def nbytes(self) -> int:
        """Bytes held by the compiled arrays."""
        return int(sum(getattr(self, name).nbytes for name in _ARRAYS))


def check_values(game: Game, values: Mapping[str, Any]) -> dict[str, float]:
    """Merge ``values`` with the game's defaults and check them against the domains."""
    names = game.param_names
    for k in values:
        if k not in names:
            allowed = ", ".join(names) if names else "none"
            raise GameError(f"game {game.name!r} has no parameter {k!r} (parameters: {allowed})")
    out: dict[str, float] = {}
    for name in names:
        raw = values.get(name, game.defaults.get(name))
        if raw is None:
            raise GameError(f"game {game.name!r} needs a value for parameter {name!r}")
        try:
            x = float(raw)
        except (TypeError, ValueError):
            raise GameError(f"parameter {name}={raw!r} is not a number") from None
        dom = game.domains.get(name)
        if not math.isfinite(x) or (dom is not None and not dom.contains(x)):
            rng = dom.describe() if dom is not None else "(-inf, inf)"
            raise GameError(f"parameter {name}={raw} is outside the allowed range {rng}")
        out[name] = x
    return out


def _evaluate(exprs: list, game: Game, vals: dict[str, float]) -> NDArray[np.float64]:
    """Evaluate numbers / sympy expressions in the game parameters, vectorised."""
    if isinstance(exprs, np.ndarray) and exprs.dtype.kind in "fiu":  # games.arrays: no loop
        return exprs.astype(np.float64, copy=False)
    if all(isinstance(e, (int, float)) for e in exprs):
        return np.asarray(exprs, dtype=np.float64)
    uniq: dict[Any, int] = {}
    codes = np.empty(len(exprs), dtype=np.int64)
    for i, e in enumerate(exprs):
        codes[i] = uniq.setdefault(e, len(uniq))
    subs = {s: vals[s.name] for s in game.params}
    table = np.empty(len(uniq), dtype=np.float64)
    for e, j in uniq.items():
        v = sp.sympify(e).subs(subs) if isinstance(e, sp.Basic) else e
        try:
            table[j] = float(v)
        except TypeError:
            raise GameError(f"expression {e} does not evaluate to a number with {vals}") from None
    return table[codes]


def compile_game(game: Game, values: Mapping[str, Any] | None = None, **kw: Any) -> CompiledGame:
    """Substitute parameter values (``P=9`` ...) and return the flat numeric form.

    Raises :class:`GameError` when a value is missing, not finite or out of its domain, or
    when a chance probability evaluates outside [0, 1].
    """
    vals = check_values(game, {**(values or {}), **kw})
    ep = game.edge_prob
    probs = _evaluate(ep if isinstance(ep, np.ndarray) else list(ep), game, vals)
    bad = np.nonzero(~((probs >= -1e-12) & (probs <= 1 + 1e-12)))[0]  # NaN too
    if bad.size:
        n = int(bad[0])
        raise GameError(f"chance probability {probs[n]} of outcome {game.edge_label[n]!r} "
                        f"is outside [0, 1] for {vals}")
    nt = len(game.payoffs)
    if isinstance(game.payoffs, np.ndarray):
        payoffs = _evaluate(game.payoffs, game, vals)
    else:
        flat = [u for row in game.payoffs for u in row]
        payoffs = _evaluate(flat, game, vals).reshape(nt, game.n_players) if nt else \
            np.zeros((0, game.n_players))
    bad = np.nonzero(~(np.abs(payoffs) <= MAX_ABS_PAYOFF))  # NaN too
    if bad[0].size:
        t, p = int(bad[0][0]), int(bad[1][0])
        raise GameError(f"payoff {payoffs[t, p]!r} of player {p + 1} at terminal {t} (node "
                        f"{int(game.terminal_node[t])}) is outside the allowed range "
                        f"[-{MAX_ABS_PAYOFF:g}, {MAX_ABS_PAYOFF:g}] (rescale the payoffs)")
    check_n_players(game.n_players)
    term = np.full(game.n_nodes, -1, dtype=np.int32)
    term[game.terminal_node] = np.arange(nt, dtype=np.int32)
    n_act = np.fromiter((len(I.actions) for I in game.infosets), dtype=np.int64,
                        count=len(game.infosets))
    if n_act.size and n_act.max() > MAX_ACTIONS:
        check_n_edges(int(n_act.max()), f"information set "
                      f"{game.infosets[int(np.argmax(n_act))].label!r}")
    n_act = n_act.astype(np.int16)
    amax = int(n_act.max()) if n_act.size else 1
    legal = np.arange(amax)[None, :] < n_act[:, None]
    cg = CompiledGame(
        game=game, values=vals, kind=game.kind, player=game.player, parent=game.parent,
        edge=game.edge, infoset=game.infoset, chance_prob=probs, terminal_index=term,
        payoffs=np.ascontiguousarray(payoffs),
        infoset_player=np.fromiter((I.player for I in game.infosets), dtype=np.int8,
                                   count=len(game.infosets)),
        n_actions=n_act, legal=legal,
    )
    return cg


__all__ = ["CompiledGame", "MAX_ABS_PAYOFF", "compile_game", "check_values", "TERMINAL", "CHANCE",
           "DECISION"]
