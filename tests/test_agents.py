"""Agent-based repeated play (dynamics.play.agents, dynamics.play.table, dynamics.play.experiments).

The shared conformance suite :class:`PlayerConformance` is inherited by one test class per
adaptive player; the experiments are checked against exact expectations derived from the
tree (Billingham eq. (9) and Solution B, eq. (6)/(11))."""
import numpy as np
import pytest
import sympy as sp

from pokerdyn.dynamics.play.agents import (AdaptivePlayer, AllyPlayer, FictitiousLearner, FixedPlayer,
                             GradientLearner)
from pokerdyn.dynamics.play.experiments import alliance_players, exact_table_payoffs
from pokerdyn.dynamics.play.repeated import simulate
from pokerdyn.dynamics.skp_points import skp_point
from pokerdyn.dynamics.play.table import play_table
from pokerdyn.games import GameError

S2 = skp_point("S2", 9)
NEAR_S3 = {n: v + 0.01 for n, v in skp_point("S3", 9).items()}
ROUNDS = 20_000


class PlayerConformance:
    """Every adaptive player passes these (agent 0 under test, others fixed at S2, seats
    rotating so that every seat is exercised)."""

    adapts = True

    def make(self) -> AdaptivePlayer:
        raise NotImplementedError

    def table(self, seed=1, rounds=ROUNDS, seating="cyclic"):
        others = [FixedPlayer(name="f1", init=S2), FixedPlayer(name="f2", init=S2)]
        return play_table("skp", [self.make(), *others], pot=9, rounds=rounds,
                          seating=seating, seed=seed, n_points=50)

    def test_protocol(self):
        assert isinstance(self.make(), AdaptivePlayer)

    def test_frequencies_stay_in_unit_interval(self):
        r = self.table()
        own = r.frequencies[:, [i for i, (a, _) in enumerate(r.rows) if a == 0]]
        vals = own[~np.isnan(own)]
        assert vals.size > 0 and vals.min() >= 0.0 and vals.max() <= 1.0

    def test_seeded_replay_is_identical(self):
        a, b, c = self.table(seed=7), self.table(seed=7), self.table(seed=8)
        np.testing.assert_array_equal(a.frequencies, b.frequencies)
        np.testing.assert_array_equal(a.terminal_counts, b.terminal_counts)
        assert a.mean_payoffs == b.mean_payoffs
        assert not np.array_equal(a.terminal_counts, c.terminal_counts)

    def test_one_memory_per_seat(self):
        r = self.table(rounds=300)
        seats = {slot if isinstance(slot, int) else slot[0] for a, slot in r.rows if a == 0}
        assert seats == {0, 1, 2}

    def test_moves_iff_adaptive(self):
        r = self.table()
        mine = [i for i, (a, _) in enumerate(r.rows) if a == 0]
        f = r.frequencies[:, mine]
        moved = np.nanmax(np.abs(f - f[:1]))
        assert (moved > 0) == self.adapts

    def test_bad_parameters_raise(self):
        p = self.make()
        bad = type(p)(**{**p.__dict__, "L": 0})
        with pytest.raises(GameError, match="L=0"):
            play_table("skp", [bad, FixedPlayer(), FixedPlayer()], pot=9, rounds=10)
        bad = type(p)(**{**p.__dict__, "init": {"c_K": 1.5}})
        with pytest.raises(GameError, match=r"c_K=1.5 is outside the allowed range \[0, 1\]"):
            play_table("skp", [bad, FixedPlayer(), FixedPlayer()], pot=9, rounds=10)


class TestFixedPlayer(PlayerConformance):
    adapts = False

    def make(self):
        return FixedPlayer.at_point("S2", 9)


class TestGradientLearner(PlayerConformance):
    def make(self):
        return GradientLearner(k=0.02, L=(6, 12, 24), init=NEAR_S3)


class TestGradientLearnerPaperEstimators(PlayerConformance):
    def make(self):
        return GradientLearner(k=0.02, L=12, init=NEAR_S3, estimator="paper")


class TestGradientLearnerCorrectedEstimators(PlayerConformance):
    def make(self):
        return GradientLearner(k=0.02, L=12, init=NEAR_S3, estimator="corrected")


class TestGradientLearnerML(PlayerConformance):
    def make(self):
        return GradientLearner(k=0.02, L=24, init=NEAR_S3, estimator="ml")


class TestFictitiousLearner(PlayerConformance):
    def make(self):
        return FictitiousLearner(L=24, init=NEAR_S3, k=0.001)


class TestAllyPlayer(PlayerConformance):
    adapts = False

    def make(self):
        return AllyPlayer(partner=1, init=S2, when_partner={(2, 0): {"b_J": 0.3}})

    def test_plays_by_partner_seat(self):
        r = self.table(rounds=300, seating="random")  # cyclic never seats the partner 2nd
        assert r.final(0, (2, 0)) == {"b_J": 0.3}
        assert r.final(0, (2, 1)) == {"b_J": S2["b_J"]}


def test_fixed_seating_agrees_with_simulate():
    """Three gradient learners in fixed seats are the model of dynamics.play.repeated: same
    long-run mean payoffs (12-deal convention) within a few hundredths of a chip."""
    kw = dict(k=0.01, L=6)
    table = play_table("skp", [GradientLearner(init=NEAR_S3, **kw)] * 3, pot=9,
                       rounds=400_000, deals=12, seed=3)
    sim = simulate(pot=9, rounds=400_000, seed=3, **kw)
    np.testing.assert_allclose(table.mean_payoffs, sim.mean_payoffs, atol=0.01)


def test_fictitious_learner_best_responds():
    """Against a fixed Player 3 bluffing b_J = 0.5 > 2/P, Player 1's best response is c_K = 1
    (Billingham (28): gradient b - 2/P > 0), against b_J = 0.05 it is 0; the fictitious
    learner's average of best responses to its noisy window estimates gets close."""
    for b, lo, hi in ((0.5, 0.9, 1.0), (0.05, 0.0, 0.1)):
        p3 = FixedPlayer(init={"b_J": b})
        r = play_table("skp", [FictitiousLearner(L=48, init={"c_K": 0.5}),
                               FixedPlayer(init=S2), p3], pot=9, rounds=30_000, seed=2)
        assert lo <= r.final(0, 0)["c_K"] <= hi


def test_rotation_conserves_chips():
    """Seat rotation with adaptive agents: chips are only moved between agents (P = 9: all
    payoffs are integers, so the sum of stacks is exactly zero)."""
    players = [GradientLearner(name=f"g{i}", k=0.01, L=(6, 24, 96)[i], init=NEAR_S3)
               for i in range(3)]
    for seating in ("cyclic", "random"):
        r = play_table("skp", players, pot=9, rounds=50_000, seating=seating, seed=5)
        assert sum(r.stacks) == 0.0
        assert len(r.rows) == 9


def test_pooled_payoff_is_the_sum_of_members():
    neutral, allied = alliance_players(9)
    r = play_table("kuhn3-third", allied, pot=9, rounds=20_000, seating="cyclic",
                   alliances=[(0, 1), (1, 2), (0, 1, 2)])
    m = r.mean_payoffs
    assert r.pooled[0] == pytest.approx(m[0] + m[1], abs=1e-12)
    assert r.pooled[1] == pytest.approx(m[1] + m[2], abs=1e-12)
    assert r.pooled[2] == pytest.approx(0.0, abs=1e-12)  # ex-showdown payoffs are zero-sum


@pytest.mark.parametrize("b_J,b_Q", [(sp.Rational(1, 3), 0), (sp.Rational(1, 5),
                                                               sp.Rational(1, 5)),
                                     (sp.Rational(2, 5), 0), (0, sp.Rational(11, 30))])
def test_transfer_at_p5_is_billingham_9(b_J, b_Q):
    """Billingham eq. (9): at P = 5 with the equilibrium (3), E1 = -(b_J + b_Q)/8,
    E2 = -1/12 + (b_J + b_Q)/8, E3 = 1/12: Player 3 moves profit between 1 and 2."""
    eq = {"c_Q": 0, "c_K": 0, "d_Q": 0, "d_K": 1, "o_K": 0, "b_J": b_J, "b_Q": b_Q}
    E = exact_table_payoffs("kuhn3-third", [FixedPlayer(init=eq)] * 3, 5)
    t = b_J + b_Q
    assert E == (-t / 8, -sp.Rational(1, 12) + t / 8, sp.Rational(1, 12))


def test_transfer_simulated_matches_billingham_9():
    """Simulated means (fixed seats, 300k hands) within 4 standard errors of eq. (9)."""
    eq = {"c_Q": 0, "c_K": 0, "d_Q": 0, "d_K": 1, "o_K": 0, "b_Q": 0}
    for t in (sp.Rational(1, 3), sp.Rational(2, 5)):
        ps = [FixedPlayer(init={**eq, "b_J": t})] * 3
        r = play_table("kuhn3-third", ps, pot=5, rounds=300_000, seed=11, n_points=60)
        exact = np.array([-t / 8, -sp.Rational(1, 12) + t / 8, sp.Rational(1, 12)], float)
        assert np.all(np.abs(np.array(r.mean_payoffs) - exact) < 4 * r.stderr())


def test_solution_b_transfer():
    """Billingham Solution B (6) at P = 9: Player 1's c_Q moves profit from Player 2 to
    Player 3.  The tree gives E2 = -c_Q/24 - (P-1)(P-2)/(12P(P+1)); the printed (11) has
    -c_Q (a missing factor 1/24: the tree and (9)-(10) agree, so we trust the tree)."""
    c = sp.Rational(2, 13)
    base = {"b_J": sp.Rational(2, 9), "b_Q": 0, "c_K": sp.Rational(2, 5), "d_Q": 0, "d_K": 1,
            "o_K": 0}
    E = exact_table_payoffs("kuhn3-third", [FixedPlayer(init={**base, "c_Q": c})] * 3, 9)
    P = 9
    assert E[0] == -sp.Rational(P - 2, 12 * P)
    assert E[1] == -c / 24 - sp.Rational((P - 1) * (P - 2), 12 * P * (P + 1))
    assert E[2] == c / 24 + sp.Rational(P - 2, 6 * (P + 1))


@pytest.mark.parametrize("pot,expected", [(5, (sp.Rational(1, 720), sp.Rational(1, 720),
                                                 -sp.Rational(1, 360))),
                                          (9, (sp.Rational(1, 468), 0, -sp.Rational(1, 468)))])
def test_alliance_under_rotation(pot, expected):
    """With rotating seats and everybody at an equilibrium, the alliance gains exactly what
    the outsider loses; neutral tables are fair (every agent expects 0 ex-showdown)."""
    neutral, allied = alliance_players(pot)
    assert exact_table_payoffs("kuhn3-third", neutral, pot, "cyclic") == (0, 0, 0)
    assert exact_table_payoffs("kuhn3-third", allied, pot, "cyclic") == expected


def test_bad_table_input():
    with pytest.raises(GameError, match="needs 3 players"):
        play_table("skp", [FixedPlayer()] * 2)
    with pytest.raises(GameError, match="unknown seating 'round'"):
        play_table("skp", [FixedPlayer()] * 3, seating="round")
    with pytest.raises(GameError, match=r"k=-1.0 is outside the allowed range \[0, inf\)"):
        play_table("skp", [GradientLearner(k=-1)] * 3, rounds=10)
    with pytest.raises(GameError, match="unknown estimator"):
        play_table("skp", [GradientLearner(estimator="mle")] * 3, rounds=10)


@pytest.mark.parametrize("pot", [5, 9])
def test_alliance_shift_simulated(pot):
    """Simulated allied - neutral payoff shift (common random numbers) within 4 standard
    errors of the exact shift, and the outsider measurably loses."""
    from pokerdyn.dynamics.play.experiments import alliance_experiment
    ex = alliance_experiment(pot, rounds=150_000, seed=4)
    d, se = ex.shift()
    exact = np.array([float(a - b) for a, b in zip(ex.exact_alliance, ex.exact_neutral)])
    assert np.all(np.abs(d - exact) < 4 * se)
    assert d[2] < -3 * se[2]


def test_heterogeneous_learners_replay_and_differ():
    """Per-player (k_p, L_p): same seed -> identical; a faster Player 1 changes the run."""
    from pokerdyn.dynamics.play.experiments import heterogeneous_experiment
    kw = dict(variants=((0.01, 24),), rounds=30_000, seed=9)
    a, b = heterogeneous_experiment(**kw), heterogeneous_experiment(**kw)
    for key in a:
        np.testing.assert_array_equal(a[key].frequencies, b[key].frequencies)
    base, fast = a[(0.001, 6)], a[(0.01, 24)]
    assert not np.array_equal(base.frequencies[:, 0], fast.frequencies[:, 0])
