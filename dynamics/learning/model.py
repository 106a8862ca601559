"""Learning dynamics in behaviour strategies on any compiled game, as ODE models that
:func:`dynamics.ode.solve.simulate` integrates like the adaptive-play models of
:mod:`dynamics.ode.model` (same ``f(t, y)`` / ``jac(t, y)`` / payoff interface).

The state ``y`` lists the probabilities of the legal actions, information set by set (row
order of ``games.strategy`` profiles); each set's block stays on its simplex.  ``v`` are the
conditional action values of :func:`solvers.qre.core.action_values` (the owner's payoff of
``a`` given that ``I`` is reached) and ``D = dv/dsigma`` their Jacobian
(:func:`solvers.qre.core.value_jacobian`); every Jacobian below is analytic.

* ``logit`` (Fudenberg and Levine 1998, ch. 4; Hofbauer and Sandholm 2002):
  ``dy/dt = k (softmax(lam v(y)) - y)`` per set.  Its rest points are exactly the agent
  logit QRE at ``lam``; ``J = k (lam S D - 1)`` with ``S`` the softmax Jacobian.
* ``replicator`` (Taylor and Jonker 1978, in behaviour strategies):
  ``dy_Ia/dt = k y_Ia (u_Ia - sum_b y_Ib u_Ib)`` with ``u = v`` (``weighting="conditional"``)
  or ``u = dE_owner/dsigma`` (``"reach"``: the values weighted by the probability of
  reaching ``I``; on two-action sets this is Billingham's gradient dynamics (18) with
  ``normalisation="raw"``).
* ``smoothed-br`` (smoothed best-response dynamics, Fudenberg and Kreps 1993;
  Hofbauer and Sandholm 2002): ``dy/dt = k (B_lam(y) - y)`` where ``B_lam`` is each player's
  logit best response to the others' current play, solved by backward induction over the
  player's own later sets (own continuation play is the response, not the current ``y``).
  At a rest point ``B_lam(y) = y``, so the rest points are again the agent logit QRE; off them
  the flow differs from ``logit`` in games where a player moves twice.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from pokerdyn.games import CompiledGame, GameError
from pokerdyn.games.strategy import check_strategy
from pokerdyn.dynamics.model_protocol import FieldMethods
from pokerdyn.solvers.evaluation import expected_payoffs
from pokerdyn.solvers.qre.core import action_values, check_lambda, softmax_rows, value_jacobian

from pokerdyn.dynamics.learning import _kernels as LK
from pokerdyn.dynamics.summary import summary_repr

RULES = ("logit", "replicator", "smoothed-br")
WEIGHTINGS = ("conditional", "reach")


@dataclass(frozen=True, eq=False)
class LearningModel(FieldMethods):
    """A learning dynamics on ``cg`` (see module docstring), a
    :class:`~pokerdyn.dynamics.model_protocol.DynamicsModel`: ``f(t, y)`` and ``jac(t, y)``
    follow :func:`scipy.integrate.solve_ivp`; ``y`` of shape ``(n,)`` or ``(n, m)``."""

    __repr__ = summary_repr  # short: arrays by shape and range (issue 35)

    cg: CompiledGame
    rule: str
    lam: float | None
    rates: NDArray[np.float64]          # (n,) the rate k of each state component's owner
    weighting: str
    names: tuple[str, ...]
    idx: NDArray[np.int64]              # flat (I * A + a) index of each state component
    meta: dict[str, Any] = field(default_factory=dict)

    # --- the DynamicsModel protocol (dynamics.model_protocol), as dynamics.ode.solve uses it
    @property
    def game(self) -> str:
        return self.cg.name

    @property
    def values(self) -> dict[str, float]:
        return dict(self.cg.values)

    @property
    def k(self) -> tuple[float, ...]:
        owners = self.cg.infoset_player[self.idx // self.cg.max_actions]
        return tuple(float(self.rates[np.argmax(owners == p)]) if (owners == p).any() else 0.0
                     for p in range(self.cg.n_players))

    @property
    def n(self) -> int:
        return int(self.idx.size)

    @property
    def n_players(self) -> int:
        return self.cg.n_players

    def label(self) -> str:
        vals = ", ".join(f"{k} = {v:g}" for k, v in self.cg.values.items())
        lam = "" if self.lam is None else f", lambda = {self.lam:g}"
        return f"{self.game} {self.rule} dynamics{': ' + vals if vals else ''}{lam}"

    # --- conversions
    def profile(self, y: ArrayLike) -> NDArray[np.float64]:
        """The behaviour profile ``(n_infosets, max_actions)`` of a state."""
        out = np.zeros(self.cg.legal.size)
        y = np.asarray(y, dtype=np.float64)
        if y.shape != (self.n,):
            raise GameError(f"state y has shape {y.shape}; the model needs shape ({self.n},): "
                            "one probability per legal action")
        out[self.idx] = y
        return out.reshape(self.cg.legal.shape)

    def state(self, sigma: ArrayLike) -> NDArray[np.float64]:
        """The state of a behaviour profile."""
        return check_strategy(self.cg, sigma, "sigma", full=False).ravel()[self.idx].copy()

    def uniform(self) -> NDArray[np.float64]:
        """Uniform play at every set."""
        return self.state(self.cg.legal / self.cg.legal.sum(axis=1, keepdims=True))

    # --- vector field
    def _batch(self, fn, y):
        y = np.asarray(y, dtype=np.float64)
        if y.ndim == 1:
            return fn(y)
        return np.stack([fn(y[:, j]) for j in range(y.shape[1])], axis=-1)

    def _f(self, y):
        return self._batch(self._field, y)

    def _jac(self, y):
        return self._batch(self._jacobian, y)

    def _pay(self, y):
        # an integrator's state is only near the simplex: shape checked, not the sums
        return self._batch(lambda z: expected_payoffs(self.cg, self.profile(z), check=False), y)

    def _dpay(self, y):
        return self._batch(lambda z: _gradient(self.cg, self.profile(z))[self.idx].T, y)

    def _field(self, y):
        s = self.profile(y)
        if self.rule == "logit":
            F = softmax_rows(self.cg, self.lam * action_values(self.cg, s)) - s
        elif self.rule == "smoothed-br":
            F = _smoothed_br(self, s)[0] - s
        else:
            u = self._u(s)
            F = s * (u - (s * u).sum(axis=1, keepdims=True))
        return self.rates * F.ravel()[self.idx]

    def _u(self, s):
        if self.weighting == "conditional":
            return action_values(self.cg, s)
        G = _gradient(self.cg, s)
        own = self.cg.infoset_player.repeat(self.cg.max_actions)
        return G[np.arange(G.shape[0]), own].reshape(s.shape)

    def _jacobian(self, y):
        cg, s = self.cg, self.profile(y)
        N = cg.legal.size
        if self.rule == "logit":
            v, D = value_jacobian(cg, s)
            r = softmax_rows(cg, self.lam * v)
            J = self.lam * _softmax_jac(r) @ D - np.eye(N)
        elif self.rule == "smoothed-br":
            J = _smoothed_br(self, s, jac=True)[1] - np.eye(N)
        else:
            if self.weighting == "conditional":
                u, du = value_jacobian(cg, s)
            else:
                u, du = self._u(s), _hessian(cg, s)
            x, uf = s.ravel(), u.ravel()
            rows = np.arange(N) // cg.max_actions
            same = rows[:, None] == rows[None, :]
            ubar = (s * u).sum(axis=1)[rows]
            M = np.where(same, uf[None, :], 0.0) + (np.where(same, x[None, :], 0.0) @ du)
            J = np.diag(uf - ubar) + x[:, None] * (du - M)
        return self.rates[:, None] * J[np.ix_(self.idx, self.idx)]


def _arrays(cg: CompiledGame) -> tuple:
    return (cg.kind, cg.player, cg.parent, cg.edge, cg.infoset, cg.chance_prob,
            cg.terminal_index, cg.payoffs, cg.legal)


def _gradient(cg: CompiledGame, s: NDArray[np.float64]) -> NDArray[np.float64]:
    return LK.payoff_gradient(*_arrays(cg), np.ascontiguousarray(s))


def _hessian(cg: CompiledGame, s: NDArray[np.float64]) -> NDArray[np.float64]:
    return LK.owner_hessian(*_arrays(cg), np.ascontiguousarray(s))


def _softmax_jac(r: NDArray[np.float64]) -> NDArray[np.float64]:
    """Block-diagonal ``d softmax / dz``: ``r_a (delta_ab - r_b)`` within each row of ``r``."""
    n_inf, A = r.shape
    blocks = r[:, :, None] * (np.eye(A)[None] - r[:, None, :])
    S = np.zeros((n_inf * A, n_inf * A))
    for I in range(n_inf):
        S[I * A:(I + 1) * A, I * A:(I + 1) * A] = blocks[I]
    return S


def own_levels(cg: CompiledGame) -> NDArray[np.int64]:
    """Per information set, the number of its owner's decisions above it (perfect recall:
    the same at every node of the set)."""
    if "own_levels" not in cg.cache:
        lev = np.zeros(cg.n_infosets, dtype=np.int64)
        for h in np.flatnonzero(cg.kind == LK.DECISION):
            q, k, c = cg.player[h], int(h), 0
            while k > 0:
                k = int(cg.parent[k])
                c += int(cg.kind[k] == LK.DECISION and cg.player[k] == q)
            lev[cg.infoset[h]] = c
        cg.cache["own_levels"] = lev
    return cg.cache["own_levels"]


def _smoothed_br(model: LearningModel, s: NDArray[np.float64], jac: bool = False):
    """Every player's logit best response to ``s`` by backward induction over the player's
    own sets (deepest first), and with ``jac`` its Jacobian ``dB/dsigma`` (chain rule through
    the responses already substituted below)."""
    cg, lam = model.cg, model.lam
    A, N = cg.max_actions, cg.legal.size
    lev = own_levels(cg)
    out = s.copy()
    dout = np.zeros((N, N)) if jac else None
    for p in range(cg.n_players):
        mix = s.copy()
        R = np.eye(N) if jac else None
        sets = np.flatnonzero(cg.infoset_player == p)
        for d in sorted(set(lev[sets].tolist()), reverse=True):
            here = sets[lev[sets] == d]
            if jac:
                v, D = value_jacobian(cg, mix)
            else:
                v = action_values(cg, mix)
            r = softmax_rows(cg, lam * v)
            mix[here] = r[here]
            if jac:
                rows = (here[:, None] * A + np.arange(A)[None, :]).ravel()
                S = _softmax_jac(r)[np.ix_(rows, rows)]
                R[rows] = lam * S @ (D[rows] @ R)
        out[sets] = mix[sets]
        if jac:
            rows = (sets[:, None] * A + np.arange(A)[None, :]).ravel()
            dout[rows] = R[rows]
    return out, dout


def learning_model(cg: CompiledGame, rule: str = "logit", lam: float | None = None,
                   k: float | Sequence[float] = 1.0, weighting: str = "conditional"
                   ) -> LearningModel:
    """The learning dynamics ``rule`` (``"logit"``, ``"replicator"``, ``"smoothed-br"``) on
    ``cg``; ``lam`` > 0 the precision (logit and smoothed-br), ``k`` > 0 a rate or one per
    player, ``weighting`` the replicator's values (``"conditional"`` or ``"reach"``)."""
    if rule not in RULES:
        raise GameError(f"unknown learning rule {rule!r}; allowed: {', '.join(RULES)}")
    if weighting not in WEIGHTINGS:
        raise GameError(f"unknown weighting {weighting!r}; allowed: {', '.join(WEIGHTINGS)}")
    if rule != "replicator":
        lam = check_lambda(lam)
    elif lam is not None:
        raise GameError("the replicator dynamics takes no lambda")
    ks = np.atleast_1d(np.asarray(k, dtype=np.float64))
    if ks.size not in (1, cg.n_players) or not np.all(np.isfinite(ks)) or (ks <= 0).any():
        raise GameError(f"k={k} must be one rate > 0 or one per player ({cg.n_players})")
    idx = np.flatnonzero(cg.legal.ravel())
    owner = cg.infoset_player[idx // cg.max_actions]
    rates = ks[owner] if ks.size > 1 else np.full(idx.size, float(ks[0]))
    labels = cg.infoset_labels
    names = tuple(f"{labels[i // cg.max_actions]}:{cg.game.infosets[i // cg.max_actions].actions[i % cg.max_actions]}"
                  for i in idx)
    return LearningModel(cg, rule, lam, rates, weighting, names, idx)


__all__ = ["LearningModel", "RULES", "WEIGHTINGS", "learning_model", "own_levels"]
