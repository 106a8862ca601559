"""The k-bucket 3-seat model (games.tournament.buckets) and fictitious play against
Freund-Schapire on it (figures.tournament.fp_hedge)."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pokerdyn.games.preflop.equity")
pytest.importorskip("phevaluator")

from pokerdyn.games.preflop.classes import class_index, pair_probabilities  # noqa: E402
from pokerdyn.games.tournament.buckets import bucket_model, equity_buckets  # noqa: E402
from pokerdyn.games.tournament.showdown import weak_orderings  # noqa: E402


@pytest.fixture(scope="module")
def small():
    return bucket_model(4, samples=60, seed=1)


def test_buckets_order_and_mass():
    """Bucket 0 holds AA, the last 32o; each bucket's deal probability is about 1/k."""
    m = equity_buckets(5)
    assert m[class_index("AA")] == 0 and m[class_index("32o")] == 4
    mass = np.bincount(m, weights=pair_probabilities().sum(axis=1))
    assert np.allclose(mass, 0.2, atol=0.03)


def test_bucket_heads_up_data_is_the_deal_weighted_class_data(small):
    """Pair probabilities add the classes' exactly; P(B_a, B_b) e_ab + P(B_b, B_a) e_ba
    equals the pair probability (equities of the two sides add to 1)."""
    from pokerdyn.games.preflop.equity import hu_equity_table
    m, P = small.model, pair_probabilities()
    S = np.eye(4)[small.members]
    assert np.allclose(m.pair_prob, S.T @ P @ S, atol=1e-15)
    e = hu_equity_table().equity
    a, b = 0, 3
    ia, ib = np.flatnonzero(small.members == a), np.flatnonzero(small.members == b)
    want = (P[np.ix_(ia, ib)] * e[np.ix_(ia, ib)]).sum() / P[np.ix_(ia, ib)].sum()
    assert m.equity[a, b] == pytest.approx(want, abs=1e-12)
    assert np.allclose(m.equity + m.equity.T, 1, atol=1e-12)


def test_three_way_outcomes_permute_with_the_seats(small):
    """Swapping two seats' buckets swaps their places in every outcome; probabilities sum
    to 1; with the strongest bucket against two weakest the strongest seat wins most often."""
    W = weak_orderings(3)
    idx = {tuple(r): i for i, r in enumerate(W)}
    p, q = small.model.multiway((0, 2, 3)), small.model.multiway((2, 0, 3))
    assert p.sum() == pytest.approx(1) and small.multiway_se > 0
    for w, x in zip(W, p):
        assert q[idx[(w[1], w[0], w[2])]] == pytest.approx(x)
    wins = [sum(x for w, x in zip(W, p) if w[i] > max(w[j] for j in range(3) if j != i))
            for i in range(3)]
    assert wins[0] > max(wins[1], wins[2]) and wins[0] > 0.4


def test_fp_and_hedge_reach_the_same_equilibrium_fp_first(tmp_path):
    """3 buckets, 3 seats 10/10/10, ICM 0.5/0.3/0.2: both solvers get NashConv below 1e-3,
    fictitious play in fewer iterations, and their strategies agree on average (the full
    measurement, 8 buckets to 1e-5, is in BENCHMARKS.md)."""
    from pokerdyn.figures.tournament.fp_hedge import compare, fp_hedge_figure
    r = compare(k=3, samples=40, target=1e-3, iterations=30_000, seconds=None, seed=2)
    fp, hd = r["fp"], r["hedge"]
    assert fp["nash_conv"] <= 1e-3 and hd["nash_conv"] <= 1e-3
    assert fp["iterations_to_target"] < hd["iterations_to_target"]
    assert r["mean_strategy_difference"] < 0.1
    assert fp_hedge_figure(tmp_path / "fph.png", r).stat().st_size > 1000
