"""The indifference system of a game with two-action information sets, as a function of
the behaviour frequencies ``x`` (probability of each set's second action) and one game
parameter ``p`` (the pot).

``gain[I] = v(I, 1) - v(I, 0)``: the counterfactual values of the two actions (chance and
the other players' reach times the player's payoff, her own later play under the profile),
from the sequence-form passes of :mod:`solvers._kernels`.  A profile at which every mixed
set has gain 0, every set at 0 a gain <= 0 and every set at 1 a gain >= 0 is a Nash
equilibrium (each set best-responds counterfactually, hence the whole strategy does).

Derivatives are exact, with no finite-difference step: the payoffs are multilinear in the
behaviour frequencies (perfect recall: a set at most once on a path), so
``d gain / d x_J = gain(x_J = 1) - gain(x_J = 0)``; and they are affine in ``p`` (checked
at compile time from three values), so ``d gain / d p = gain(p = 1) - gain(p = 0)``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numba import njit
from numpy.typing import NDArray

from pokerdyn.games import Game, GameError
from pokerdyn.games.compiled import CompiledGame, compile_game

from pokerdyn.solvers._kernels import back_up, pass_buffers, sequence_pass


@njit(cache=True)
def _gains(kind, player, parent, edge, infoset, chance_prob, terminal_index, payoffs, legal,
           sigma, n_players):
    """(gain per set: v(I,1) - v(I,0); counterfactual reach per set)."""
    n = kind.shape[0]
    n_inf, amax = legal.shape
    reach, seq, direct, iparent, topo, cf_reach, cfv, br = pass_buffers(n, n_inf, amax)
    for who in range(n_players):
        m = sequence_pass(kind, player, parent, edge, infoset, chance_prob, terminal_index,
                          payoffs, sigma, who, amax, reach, seq, direct, iparent, topo,
                          cf_reach)
        back_up(sigma, legal, direct, iparent, topo, m, cfv, br, np.bool_(False), 1.0)
    g = np.zeros(n_inf)
    if amax > 1:
        for I in range(n_inf):
            g[I] = cfv[I, 1] - cfv[I, 0]
    return g, cf_reach


@njit(cache=True)
def _columns(kind, player, parent, edge, infoset, chance_prob, terminal_index, pay, pay1,
             legal, sigma, n_players, sets, x, cols):
    """``d gain / d (x[cols], p)`` for every set: the payoffs are affine in each frequency
    and in ``p``, so one more evaluation per column is exact, moving the frequency to the
    bound farther from it (0 or 1; the difference divided by at least 1/2) and ``p`` by 1
    (``pay``, ``pay1``: the payoffs at ``p`` and ``p + 1``)."""
    g0 = _gains(kind, player, parent, edge, infoset, chance_prob, terminal_index, pay, legal,
                sigma, n_players)[0]
    out = np.empty((sets.shape[0], cols.shape[0] + 1))
    for k in range(cols.shape[0]):
        j = cols[k]
        I = sets[j]
        to = 1.0 if x[j] <= 0.5 else 0.0
        sigma[I, 1] = to
        sigma[I, 0] = 1.0 - to
        g1 = _gains(kind, player, parent, edge, infoset, chance_prob, terminal_index, pay,
                    legal, sigma, n_players)[0]
        sigma[I, 1] = x[j]
        sigma[I, 0] = 1.0 - x[j]
        for r in range(sets.shape[0]):
            out[r, k] = (g1[sets[r]] - g0[sets[r]]) / (to - x[j])
    g1 = _gains(kind, player, parent, edge, infoset, chance_prob, terminal_index, pay1, legal,
                sigma, n_players)[0]
    for r in range(sets.shape[0]):
        out[r, cols.shape[0]] = g1[sets[r]] - g0[sets[r]]
    return out


@dataclass(frozen=True, eq=False)
class IndifferenceSystem:
    """Gains of a game's two-action sets as functions of ``(x, p)``.

    ``sets``: the two-action information sets (index into the compiled arrays), in order;
    ``x`` has one entry per set.  ``param``: the continued game parameter.  ``fixed``:
    other parameter values.  Build with :func:`indifference_system`.
    """

    game: Game
    param: str
    cg: CompiledGame
    p_lo: float
    pay_lo: NDArray[np.float64]
    pay_hi: NDArray[np.float64]
    sets: NDArray[np.int64]
    base: NDArray[np.float64]

    #: payoff change per unit of the parameter (the payoffs are affine in it), and the
    #: payoffs extrapolated to parameter 0: computed once, every evaluation uses them
    dpay: NDArray[np.float64] = field(init=False, repr=False)
    pay0: NDArray[np.float64] = field(init=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "dpay", self.pay_hi - self.pay_lo)
        object.__setattr__(self, "pay0", self.pay_lo - self.p_lo * self.dpay)

    @property
    def n(self) -> int:
        return int(self.sets.shape[0])

    def labels(self) -> list[str]:
        return [self.game.infosets[int(I)].label for I in self.sets]

    def sigma(self, x: NDArray[np.float64]) -> NDArray[np.float64]:
        """The behaviour profile with frequencies ``x`` (single-action sets play it)."""
        s = self.base.copy()
        s[self.sets, 1] = x
        s[self.sets, 0] = 1.0 - x
        return s

    def payoffs(self, p: float, step: bool = False) -> NDArray[np.float64]:
        """The terminal payoffs at parameter ``p`` (``step``: then one more ``dpay``),
        read-only like a compiled game's, so that the kernels they go to are the ones
        already compiled for ``CompiledGame.payoffs``."""
        pay = self.pay0 + p * self.dpay
        if step:
            pay += self.dpay
        pay.flags.writeable = False
        return pay

    def _eval(self, x, p):
        cg = self.cg
        return _gains(cg.kind, cg.player, cg.parent, cg.edge, cg.infoset, cg.chance_prob,
                      cg.terminal_index, self.payoffs(p), cg.legal, self.sigma(x), cg.n_players)

    def gains(self, x: NDArray[np.float64], p: float) -> NDArray[np.float64]:
        """Gain of each set's second action over its first at ``(x, p)``."""
        return self._eval(x, p)[0][self.sets]

    def cf_reach(self, x: NDArray[np.float64], p: float) -> NDArray[np.float64]:
        """Probability that chance and the other players reach each set."""
        return self._eval(x, p)[1][self.sets]

    def jacobian(self, x: NDArray[np.float64], p: float,
                 cols: NDArray[np.int64] | None = None) -> NDArray[np.float64]:
        """``d gains / d (x[cols], p)``: one column per listed frequency, then ``p``; exact
        by multilinearity (one gain evaluation per column, in one compiled loop)."""
        cols = np.arange(self.n) if cols is None else np.asarray(cols, dtype=np.int64)
        cg = self.cg
        x = np.asarray(x, dtype=np.float64)
        return _columns(cg.kind, cg.player, cg.parent, cg.edge, cg.infoset, cg.chance_prob,
                        cg.terminal_index, self.payoffs(float(p)), self.payoffs(float(p), True),
                        cg.legal, self.sigma(x), cg.n_players, self.sets, x, cols)

    def names(self) -> list[str]:
        """A display name per set: the named parameter of its second action, if any."""
        by = {(p.infoset, p.action): p.name for p in self.game.named}
        out = []
        for I in self.sets:
            inf = self.game.infosets[int(I)]
            out.append(by.get((inf.label, inf.actions[1]), f"{inf.label}:{inf.actions[1]}"))
        return out

    def named_values(self, x: NDArray[np.float64]) -> dict[str, float]:
        """Named-parameter values (each named action's probability) at ``x``."""
        sig = self.sigma(x)
        out = {}
        for p in self.game.named:
            I = self.game.infoset_index(p.infoset)
            out[p.name] = float(sig[I, self.game.infosets[I].actions.index(p.action)])
        return out


def indifference_system(game: Game, param: str = "P", values: dict | None = None
                        ) -> IndifferenceSystem:
    """The indifference system of ``game`` along its parameter ``param``.

    The payoffs are compiled at three values of ``param`` (its default, or 1, and the next
    two).  Raises GameError when the game lacks ``param``, when an information set has more than
    two actions, or when the payoffs are not affine in ``param`` (the exact derivative in
    ``p`` relies on it)."""
    if param not in game.param_names:
        have = ", ".join(game.param_names) or "none"
        raise GameError(f"game {game.name!r} has no parameter {param!r} to continue in "
                        f"(parameters: {have})")
    values = dict(values or {})
    v0 = float(game.defaults.get(param, 1.0))
    c0, c1, c2 = (compile_game(game, {**values, param: v0 + k}) for k in range(3))
    if c0.max_actions > 2:
        raise GameError(f"continuation handles two-action information sets; {game.name!r} "
                        f"has sets of up to {c0.max_actions} actions")
    if not np.allclose(c2.payoffs - c1.payoffs, c1.payoffs - c0.payoffs, atol=1e-12):
        raise GameError(f"the payoffs of {game.name!r} are not affine in {param!r}")
    if not (np.array_equal(c0.chance_prob, c1.chance_prob)
            and np.array_equal(c1.chance_prob, c2.chance_prob)):
        raise GameError(f"chance probabilities of {game.name!r} depend on {param!r}")
    sets = np.nonzero(c0.n_actions == 2)[0].astype(np.int64)
    base = np.zeros(c0.legal.shape)
    base[:, 0] = 1.0
    return IndifferenceSystem(game, param, c0, v0, c0.payoffs, c1.payoffs, sets, base)
