"""The support method of solvers.symbolic.learned (issue 14): branch-and-bound dominance
agrees with the vertex table where both run, exact NashConv at any size, the block
decomposition, seeded runs that replay, and the CLI's size rule."""
from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from pokerdyn.games import compile_game
from pokerdyn.games.catalog.kuhn import kuhn3, kuhn3_third
from pokerdyn.solvers.evaluation import nash_conv
from pokerdyn.solvers.symbolic.model.dominance import iterated_dominance
from pokerdyn.solvers.symbolic.model.sparse_gains import attains, box_max, exact_nash_conv_at, gain_system, iterated_dominance_at
from pokerdyn.solvers.symbolic.learned.propose import learned_profiles, random_profile
from pokerdyn.solvers.symbolic.algebra.support_solve import blocks

R = sp.Rational


@pytest.mark.parametrize("mode,pot", [("strict", 3), ("weak", 3), ("weak", R(15, 2))])
def test_branch_and_bound_dominance_matches_the_vertex_table(mode, pot):
    g = kuhn3_third(full=True)
    assert iterated_dominance_at(g, pot, mode).fixed == iterated_dominance(g, pot, mode).fixed


def test_box_sign_and_maximum_are_the_vertex_extremes():
    # f = 1/2 - x0 - x1 + 3 x0 x1 on [0,1]^2: vertices 1/2, -1/2, -1/2, 3/2
    t = {frozenset(): R(1, 2), frozenset({0}): R(-1), frozenset({1}): R(-1),
         frozenset({0, 1}): R(3)}
    assert box_max(t) == R(3, 2)
    assert attains(t, 1) and attains(t, -1)
    assert not attains({frozenset(): R(1), frozenset({0}): R(-1)}, -1)  # 1 - x0 >= 0
    assert attains({frozenset(): R(1), frozenset({0}): R(-1)}, -1, strict=False)


@pytest.fixture(scope="module")
def kuhn3_system():
    return gain_system(kuhn3(), 3)


def test_exact_nash_conv_matches_the_float_evaluation(kuhn3_system):
    cg = compile_game(kuhn3(), {"P": 3})
    rng = np.random.default_rng(7)
    names = kuhn3_system.names
    point = {n: R(int(rng.integers(0, 9)), 8) for n in names}
    exact = exact_nash_conv_at(kuhn3_system, point)
    from pokerdyn.games import strategy_from_params
    sigma = strategy_from_params(cg, {n: float(v) for n, v in point.items()})
    assert exact > 0
    assert abs(float(exact) - nash_conv(cg, sigma)) < 1e-12


def test_blocks_split_independent_equations():
    x, y, z, w = sp.symbols("x y z w", real=True)
    parts = blocks([x * y - 1, y - z, w - R(1, 2)], [x, y, z, w])
    assert sorted(len(u) for _, u in parts) == [1, 3]


def test_seeded_runs_replay_exactly():
    cg = compile_game(kuhn3(), {"P": 3})
    a = learned_profiles(cg, seeds=2, seed=5, iterations={"cfr+": 200, "fp": 200})
    b = learned_profiles(cg, seeds=2, seed=5, iterations={"cfr+": 200, "fp": 200}, workers=2)
    assert [r.values for r in a] == [r.values for r in b]  # in forked workers too
    s0 = random_profile(cg, np.random.default_rng(np.random.SeedSequence(5).spawn(2)[1]))
    s1 = random_profile(cg, np.random.default_rng(np.random.SeedSequence(5).spawn(2)[1]))
    assert np.array_equal(s0, s1) and not np.array_equal(s0, random_profile(
        cg, np.random.default_rng(np.random.SeedSequence(5).spawn(2)[0])))


def test_a_game_too_large_points_to_continuation(capsys):
    from pokerdyn.cli import main

    assert main(["equilibria", "kuhn3(cards=6)"]) == 2
    err = [ln for ln in capsys.readouterr().err.splitlines() if "error" in ln]
    assert len(err) == 1 and "pokerdyn continuation" in err[0] and "72 parameters" in err[0]


def test_a_support_past_its_budget_is_cut_off():
    import time

    from pokerdyn.solvers.symbolic.algebra.support_solve import SupportTimeout, deadline

    # the budget counts CPU seconds of this process (a loaded machine cuts off the same work)
    t = time.process_time()
    with pytest.raises(SupportTimeout):
        with deadline(0.2):
            while time.process_time() - t < 5:
                sum(range(100))
    assert time.process_time() - t < 2
    with deadline(5):  # a quick block is left alone
        assert sum(range(10)) == 45
