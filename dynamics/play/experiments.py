"""Agent-based experiments on :func:`dynamics.play.table.play_table`.

* :func:`exact_table_payoffs`: the exact expected ex-showdown payoff per agent of a table of
  fixed players (average over the seatings of the symbolic payoffs,
  :func:`solvers.symbolic.model.payoffs.symbolic_payoffs`) - the reference for simulated means.
* :func:`alliance_experiment`: Billingham sec. 2.1 in ``kuhn3-third`` with seat rotation.
  Every player always plays an equilibrium of the one-hand game, so nobody gains by
  deviating alone, but two allied agents use the equilibrium's free parameter to move profit
  from the outsider to the alliance:

  - ``P = 5`` (eq. (3), (9)): in seat 3 an ally bluffs ``b_J + b_Q = 1/3`` when the partner
    sits in seat 1 (maximising E1) and ``2/5`` when it sits in seat 2 (maximising E2);
  - ``P = 9 >= P*`` (Solution B, eq. (6), (11)): in seat 1 an ally calls with Q at
    ``c_Q = 2/(P+4)`` when the partner sits in seat 3, moving ``c_Q/24`` per hand from
    seat 2 to seat 3.  (The printed (11) has ``E2 = -c_Q - ...``; the tree gives
    ``-c_Q/24 - ...``: :func:`exact_table_payoffs`, test ``test_solution_b_transfer``.)

  Non-allied ("neutral") agents play the midpoint of the free parameter (P = 5) or
  ``c_Q = 0`` (P = 9).
* :func:`heterogeneous_experiment`: one SKP gradient learner with its own (k, L) against two
  learners with the paper's common (k, L); mean payoffs per configuration.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

import numpy as np
import sympy as sp
from numpy.typing import NDArray

from pokerdyn.games import GameError, compile_game, get_game, param_symbols
from pokerdyn.solvers.symbolic.model.payoffs import symbolic_payoffs

from pokerdyn.dynamics.play.agents import AdaptivePlayer, AllyPlayer, FixedPlayer, GradientLearner
from pokerdyn.dynamics.play.observation import observation_model
from pokerdyn.dynamics.play.tables import checkdown_payoffs
from pokerdyn.dynamics.skp_points import skp_point
from pokerdyn.dynamics.play.table import TableResult, play_table, seatings
from pokerdyn.dynamics.summary import summary_repr


def _exact(v) -> sp.Rational:
    if isinstance(v, float):
        return sp.Rational(Fraction(v).limit_denominator(10 ** 9))
    return sp.nsimplify(v, rational=True)


def exact_table_payoffs(game: str, players: Sequence[AdaptivePlayer], pot: float,
                        seating: str = "fixed") -> tuple[sp.Expr, ...]:
    """Exact expected ex-showdown payoff per round of each agent (all deals), averaged over
    the seatings of ``seating``; every player must be fixed (rule 0)."""
    g = get_game(game)
    values = {"P": _exact(pot)} if "P" in g.param_names else {}
    E = symbolic_payoffs(g, values)
    syms = param_symbols(g)
    cg = compile_game(g, {k: float(v) for k, v in values.items()})
    model = observation_model(g)
    check = checkdown_payoffs(cg)
    ref = [sum(model.deal_prob[d] * _exact(float(check[d, s])) for d in range(check.shape[0]))
           for s in range(g.n_players)]
    confs = seatings(seating, g.n_players)
    total = [sp.Integer(0)] * g.n_players
    for conf in confs:
        prof = {}
        for s, a in enumerate(conf):
            spec = players[a].spec(g, players[a].slot(s, conf))
            if spec.rule != 0:
                raise GameError(f"exact payoffs need fixed players; {players[a].name} adapts")
            prof.update({syms[n]: _exact(v) for n, v in spec.init.items()})
        for s, a in enumerate(conf):
            total[a] += sp.expand(E[s].subs(prof)) - ref[s]
    return tuple(sp.nsimplify(t / len(confs)) for t in total)


def alliance_players(pot: int) -> tuple[list[AdaptivePlayer], list[AdaptivePlayer]]:
    """(neutral table, table where agents 0 and 1 are allied) for ``kuhn3-third`` at P = 5
    or P = 9 (see the module docstring)."""
    if pot == 5:  # Billingham (3): b_J + b_Q in [1/3, 2/5], c = d_Q = o_K = 0, d_K = 1
        base = {"b_Q": 0, "c_Q": 0, "c_K": 0, "d_Q": 0, "d_K": 1, "o_K": 0}
        mid = {**base, "b_J": sp.Rational(11, 30)}
        ally = {(2, 0): {"b_J": sp.Rational(1, 3)}, (2, 1): {"b_J": sp.Rational(2, 5)}}
    elif pot == 9:  # Billingham (6), Solution B: c_Q in [0, 2/(P+4)]
        mid = {"b_J": sp.Rational(2, 9), "b_Q": 0, "c_Q": 0, "c_K": sp.Rational(4, 10),
               "d_Q": 0, "d_K": 1, "o_K": 0}
        ally = {(0, 2): {"c_Q": sp.Rational(2, 13)}}
    else:
        raise GameError(f"alliance experiment: pot={pot} is not allowed; allowed: 5, 9")
    neutral = [FixedPlayer(name=nm, init=mid) for nm in ("A", "B", "C")]
    allied = [AllyPlayer(name="A", partner=1, init=mid, when_partner=ally),
              AllyPlayer(name="B", partner=0, init=mid, when_partner=ally),
              FixedPlayer(name="C", init=mid)]
    return neutral, allied


@dataclass(frozen=True, eq=False)
class AllianceExperiment:

    __repr__ = summary_repr  # short: arrays by shape and range (issue 35)
    pot: int
    neutral: TableResult
    alliance: TableResult
    exact_neutral: tuple[sp.Expr, ...]
    exact_alliance: tuple[sp.Expr, ...]

    def shift(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Per agent: allied minus neutral mean payoff and its batch-means standard error.
        Both tables use the same random numbers, so most hands are identical and the
        difference is far less noisy than either mean."""
        a, b = self.alliance, self.neutral
        inc = [np.diff(r.payoffs * r.times[:, None], axis=0, prepend=0.0)
               / np.diff(r.times, prepend=0)[:, None] for r in (a, b)]
        d = inc[0] - inc[1]
        return (np.asarray(a.mean_payoffs) - np.asarray(b.mean_payoffs),
                d.std(axis=0, ddof=1) / np.sqrt(d.shape[0]))


def alliance_experiment(pot: int = 5, rounds: int = 1_000_000, seed: int = 0,
                        seating: str = "cyclic") -> AllianceExperiment:
    """Neutral vs allied table of ``kuhn3-third`` at ``pot`` (5 or 9), seats rotating;
    both tables draw the same random numbers (common random numbers)."""
    neutral, allied = alliance_players(pot)
    ss = np.random.SeedSequence([seed, pot])
    runs = [play_table("kuhn3-third", ps, pot=pot, rounds=rounds, seating=seating,
                       seed=ss, alliances=[(0, 1)], n_points=100)
            for ps in (neutral, allied)]
    return AllianceExperiment(pot, runs[0], runs[1],
                              exact_table_payoffs("kuhn3-third", neutral, pot, seating),
                              exact_table_payoffs("kuhn3-third", allied, pot, seating))


def heterogeneous_experiment(pot: float = 9.0, k: float = 0.001, L: int = 6,
                             variants: Sequence[tuple[float, int]] = ((0.01, 6), (0.001, 96)),
                             rounds: int = 1_000_000, seed: int = 0, seating: str = "fixed",
                             deals: int = 12) -> dict[tuple[float, int], TableResult]:
    """SKP from near S3: agent 0 uses each (k_0, L_0) of ``variants`` (and the common
    ``(k, L)`` as baseline), agents 1 and 2 use (k, L); one run per variant, seeds spawned
    from ``seed``."""
    init = {n: min(1.0, v + 0.01) for n, v in skp_point("S3", pot).items()}
    cases = [(k, L), *[tuple(v) for v in variants]]
    out = {}
    for (k0, L0), ss in zip(cases, np.random.SeedSequence(seed).spawn(len(cases))):
        ps = [GradientLearner(name="agent0", k=k0, L=L0, init=init),
              GradientLearner(name="agent1", k=k, L=L, init=init),
              GradientLearner(name="agent2", k=k, L=L, init=init)]
        out[(k0, L0)] = play_table("skp", ps, pot=pot, rounds=rounds, seating=seating,
                                   seed=ss, deals=deals)
    return out


__all__ = ["AllianceExperiment", "alliance_experiment", "alliance_players",
           "exact_table_payoffs", "heterogeneous_experiment"]
