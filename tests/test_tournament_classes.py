"""The 3-seat class-level jam/fold game (games.tournament.ranged) and its certification
(solvers.tournament.classes): seat orders of the Monte Carlo triples, the propagated Monte
Carlo standard deviation against the spread over seeds, zero-sum payoffs, bad input."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from pokerdyn.games.errors import GameError
from pokerdyn.games.preflop.classes import class_index
from pokerdyn.games.preflop.multiway import ThreeWayTable, triple_probabilities
from pokerdyn.games.tournament.jamfold import _terminal_values, table
from pokerdyn.games.tournament.ranged import class_jamfold, ordered_outcomes
from pokerdyn.games.tournament.showdown import weak_orderings
from pokerdyn.games.tree import TERMINAL
from pokerdyn.solvers.tournament.classes import gain_sd

AA, KK, O72 = (class_index(c) for c in ("AA", "KK", "72o"))


@pytest.fixture(scope="module")
def game_with_one_triple():
    tw = ThreeWayTable(seed=3, batch=1000)
    tw.ensure(np.array([[O72, AA, KK]]), 4000)
    return tw, class_jamfold([10, 10, 10], three_way=tw)


def test_all_in_value_follows_the_hand_not_the_seat(game_with_one_triple):
    """Equal stacks, chips: at the all-in node a seat's payoff is 30 P(best alone) + 15
    P(best with one other) + 10 P(three-way tie) - 10, whichever seat holds the hand."""
    tw, cj = game_with_one_triple
    u3 = cj.game.payoffs[cj.showdown3]
    W = weak_orderings(3)
    sorted_tri = tw.sorted_triples()[0].tolist()            # AA, KK, 72o in index order
    p = tw.probabilities(np.array([0]))[0]
    seen = {}
    for x in ([AA, KK, O72], [KK, O72, AA], [O72, AA, KK], [O72, KK, AA]):
        assert cj.computed[tuple(x)]
        assert np.isclose(u3[tuple(x)].sum(), 0, atol=1e-12)
        for seat, c in enumerate(x):
            seen.setdefault(c, []).append(u3[tuple(x)][seat])
    for c, vals in seen.items():
        pos = sorted_tri.index(c)
        top = W == W.max(axis=1, keepdims=True)
        best = top[:, pos]
        share = 30 / top.sum(axis=1)
        want = float((p * best * share).sum() - 10)
        assert np.allclose(vals, want, atol=1e-9), (c, vals, want)
    # triples without Monte Carlo keep the stand-in: no ties, still zero-sum
    assert not cj.computed[AA, AA, KK] and np.isclose(u3[AA, KK, 5].sum(), 0, atol=1e-12)


def test_every_terminal_is_zero_sum_and_deal_is_exact(game_with_one_triple):
    _, cj = game_with_one_triple
    g = cj.game
    assert g.deal is triple_probabilities()
    for v in np.flatnonzero(g.kind == TERMINAL):
        assert np.allclose(g.payoffs[v].sum(axis=-1), 0, atol=1e-9)
    assert len(g.decisions) == 6 and cj.showdown3 == g.kind.size - 1


def test_propagated_sd_matches_the_spread_over_seeds():
    """gain_sd's per-triple multinomial variance, propagated through every seat order of the
    triples, against the standard deviation of the same value over 30 seeds."""
    t = table([10, 10, 10], (0.5, 1))
    vals = _terminal_values(t, np.ones(3, dtype=bool), None)
    fake = SimpleNamespace(game=SimpleNamespace(n_classes=169, deal=triple_probabilities()),
                           outcome_values=vals)
    rng = np.random.default_rng(0)
    others = rng.choice(169, size=6, replace=False)
    tri = np.array([[AA, a, b] for a in others[:3] for b in others[3:]])
    reach3 = rng.random((3, 169))
    got, pred = [], []
    for seed in range(30):
        tw = ThreeWayTable(seed=seed, batch=200)
        tw.ensure(tri, 200)
        oo = ordered_outcomes(tw)
        pr = tw.probabilities(oo.row)
        u = np.einsum("xw,xw->x", pr, vals[oo.perm, 0])       # seat 0's payoff per order
        x = oo.x
        w = fake.game.deal[x[:, 0], x[:, 1], x[:, 2]] * reach3[1, x[:, 1]] * reach3[2, x[:, 2]]
        got.append(float((w * u)[x[:, 0] == AA].sum()))
        pred.append(gain_sd(fake, tw, reach3, 0, oo)[AA])
    ratio = np.std(got, ddof=1) / np.mean(pred)
    assert 0.55 < ratio < 1.5, ratio                       # chi-square, 29 degrees of freedom


def test_class_model_needs_three_seats():
    from pokerdyn.solvers.tournament import jamfold_equilibrium
    with pytest.raises(GameError, match="3 seats"):
        jamfold_equilibrium([10, 10, 10, 10], model="classes")
    with pytest.raises(GameError, match="model"):
        jamfold_equilibrium([10, 10, 10], model="exact")
    with pytest.raises(GameError, match="has 3"):
        class_jamfold([10, 10])


def test_cli_refuses_the_class_model_for_four_seats(capsys):
    from pokerdyn.cli import main
    code = main(["pushfold", "--stacks", "10,10,10,10", "--model", "classes"])
    assert code == 2 and "3 seats" in capsys.readouterr().err


def test_jamfold_equilibrium_wraps_the_class_model(game_with_one_triple, monkeypatch):
    """model="classes" reports the class loop's result in JamfoldEquilibrium's fields (the
    loop itself is stubbed: its full run takes minutes, BENCHMARKS.md)."""
    import pokerdyn.solvers.tournament.classes as tc
    from pokerdyn.solvers.tournament import jamfold_equilibrium
    tw, cj = game_with_one_triple
    cj_h = class_jamfold([10.1, 10.1, 10.1], three_way=tw)
    # a random profile: under a seat-symmetric one the Monte Carlo terms of a player's
    # payoff cancel over the seat orders (equal stacks), and its sd is exactly 0
    rng = np.random.default_rng(2)
    sigma = {v: rng.dirichlet([1, 1], size=169) for v in cj.game.decisions}
    cert = tc.certify(cj, cj_h, 0.1, tw, sigma)
    # chip EV, equal stacks: the gains are exactly linear in the stack
    v = int(cj.game.decisions[0])
    assert np.all(np.isfinite(cert.slope[v])) and np.abs(cert.slope[v]).max() > 0
    fake = tc.ClassEquilibrium(strategy=sigma, ranges=tc.class_ranges(cj, sigma),
                               nash_conv=0.5, expected_payoffs=np.zeros(3), certificate=cert,
                               max_displacement=cert.max_displacement, samples=4000,
                               triples=1, equity_se=0.01, rounds=1, iterations=1,
                               seconds=1.0, history=np.zeros((0, 3)), table=tw, game=cj)
    monkeypatch.setattr(tc, "class_jamfold_equilibrium", lambda *a, **k: fake)
    eq = jamfold_equilibrium([10, 10, 10], model="classes")
    assert eq.model == "classes" and eq.threshold_error == cert.max_displacement
    assert set(eq.ranges) == {"P1 push []", "P2 push [f]", "P2 call [p]", "P3 call [f p]",
                              "P3 call [p f]", "P3 call [p c]"}
    assert eq.strategy.shape == (6 * 169, 2) and eq.samples == 4000
    sd = eq.standard_error
    assert sd.shape == (3,) and (sd > 0).all() and (sd < 1e-3).all()
