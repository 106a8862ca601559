"""The public-tree-over-classes solver (solvers.ranges on games.ranges.RangeGame) against the
core's deal-enumerating jam/fold game (games.tournament.jamfold): same expected payoffs and
NashConv for any profile, by the 3-player matrix-product path and the generic einsum path;
CFR+ over ranges converges to the core's equilibrium value."""
from __future__ import annotations

import numpy as np
import pytest

from pokerdyn.games.compiled import compile_game
from pokerdyn.games.errors import GameError
from pokerdyn.games.ranges import RangeGame
from pokerdyn.games.tournament.jamfold import (_public_tree, _terminal_values, deal_probabilities,
                                      jamfold_game, table)
from pokerdyn.games.tree import TERMINAL
from pokerdyn.solvers import expected_payoffs, nash_conv
from pokerdyn.solvers.ranges import nash_conv as range_nash_conv
from pokerdyn.solvers.ranges import range_cfr


def range_game(model, stacks, payouts=None) -> RangeGame:
    """The jam/fold game of ``model`` as a RangeGame (same rules, deal and showdowns as
    jamfold_game; written here independently of games.tournament.ranged)."""
    t = table(stacks, (0.5, 1.0))
    n, K = len(stacks), len(model.names)
    pub = _public_tree(t)
    seats, pays = [], []
    for k, par, e, actor, acts, hist, inn in pub:
        if k != TERMINAL:
            seats.append(None)
            pays.append(None)
            continue
        vals = _terminal_values(t, inn, payouts)
        live = tuple(int(s) for s in np.flatnonzero(inn))
        if len(live) == 1:
            seats.append(())
            pays.append(vals[0])
            continue
        idx = np.indices((K,) * len(live)).reshape(len(live), -1).T
        seats.append(live)
        pays.append((model.outcome_probs(idx) @ vals).reshape((K,) * len(live) + (n,)))
    return RangeGame(n_players=n, n_classes=K, deal=deal_probabilities(model, n),
                     kind=np.array([p[0] for p in pub], dtype=np.int8),
                     parent=np.array([p[1] for p in pub]), edge=np.array([p[2] for p in pub]),
                     actor=np.array([p[3] for p in pub]), actions=tuple(p[4] for p in pub),
                     seats=tuple(seats), payoffs=tuple(pays),
                     labels=tuple(" ".join(p[5]) for p in pub), names=tuple(model.names))


def _profiles(core, rg, seed):
    """The same random profile for the core game (infosets) and the range game (nodes)."""
    rng = np.random.default_rng(seed)
    sig = {int(v): rng.dirichlet([0.7, 0.7], size=rg.n_classes) for v in rg.decisions}
    node = {(int(rg.actor[v]), rg.labels[v]): int(v) for v in rg.decisions}
    out = np.zeros((len(core.infosets), 2))
    for i, info in enumerate(core.infosets):
        head, hist = info.label.split("|", 1)
        seat, cls = head.split(":")
        out[i] = sig[node[(int(seat[1:]) - 1, hist)]][rg.names.index(cls)]
    return out, sig


@pytest.fixture(scope="module")
def buckets3():
    from pokerdyn.games.tournament.buckets import bucket_model
    return bucket_model(4, samples=200, seed=1).model


@pytest.mark.parametrize("stacks, payouts", [([10, 10, 10], None), ([6, 9, 7], (0.5, 0.3, 0.2))])
def test_three_players_match_the_core_game(buckets3, stacks, payouts):
    core = jamfold_game(buckets3, stacks, payouts=payouts)
    rg = range_game(buckets3, stacks, payouts)
    cg = compile_game(core)
    for seed in range(3):
        sc, sr = _profiles(core, rg, seed)
        nc, u, br = range_nash_conv(rg, sr)
        assert np.allclose(u, expected_payoffs(cg, sc), atol=1e-12)
        assert np.isclose(nc, nash_conv(cg, sc), atol=1e-12)
        assert (br >= u - 1e-12).all() and nc > 1e-3


def test_heads_up_169_classes_match_the_core_game():
    """The generic (einsum) path: 2 players, all 169 classes, exact heads-up table."""
    from pokerdyn.games.tournament.hands import preflop_model
    model = preflop_model()
    core = jamfold_game(model, [8, 8])
    rg = range_game(model, [8, 8])
    sc, sr = _profiles(core, rg, 4)
    nc, u, _ = range_nash_conv(rg, sr)
    cg = compile_game(core)
    assert np.allclose(u, expected_payoffs(cg, sc), atol=1e-12)
    assert np.isclose(nc, nash_conv(cg, sc), atol=1e-10)


def test_cfr_plus_over_ranges_reaches_the_core_equilibrium_value(buckets3):
    from pokerdyn.solvers import cfr
    rg = range_game(buckets3, [10, 10, 10])
    res = range_cfr(rg, iterations=600, check_every=200)
    assert res.nash_conv < 2e-3 and res.history[-1, 2] == pytest.approx(res.nash_conv)
    assert res.history[0, 2] > res.nash_conv                   # it does converge
    core = cfr(compile_game(jamfold_game(buckets3, [10, 10, 10])), iterations=600)
    assert np.allclose(res.expected_payoffs, core.expected_payoffs,
                       atol=res.nash_conv + core.nash_conv)
    # continuing from the state keeps improving
    more = range_cfr(rg, iterations=200, state=res.state, check_every=200)
    assert more.iterations == 800 and more.nash_conv <= res.nash_conv * 1.01


def test_bad_range_game_is_refused(buckets3):
    rg = range_game(buckets3, [10, 10, 10])
    with pytest.raises(GameError, match="deal"):
        RangeGame(**{**rg.__dict__, "deal": rg.deal * 2})
