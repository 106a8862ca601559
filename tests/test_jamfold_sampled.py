"""Jam/fold over sampled deals (games.tournament.sampled) and its solvers
(solvers.tournament): determinism, agreement with the exact heads-up game within sampling
error, zero-sum, side pots by hand, the nested loop of Ganzfried & Sandholm."""
from __future__ import annotations

import numpy as np
import pytest

from pokerdyn.games.compiled import compile_game
from pokerdyn.games.preflop.classes import CLASSES
from pokerdyn.games.tournament.icm import icm_batch
from pokerdyn.games.tournament.sampled import (action_gains, deal_values, sample_deals, sampled_jamfold_game,
                                      standard_error)
from pokerdyn.solvers import expected_payoffs
from pokerdyn.solvers.tournament import jamfold_equilibrium, tournament_values


def test_same_seed_same_deals_other_seed_other_deals():
    a, b, c = sample_deals(4, 300, 7), sample_deals(4, 300, 7), sample_deals(4, 300, 8)
    assert np.array_equal(a.classes, b.classes) and np.array_equal(a.ranks, b.ranks)
    assert not np.array_equal(a.classes, c.classes)
    assert a.ranks.min() >= 1 and a.ranks.max() <= 7462


def test_several_boards_average_the_showdown():
    """With B boards per deal a terminal's payoff is the mean over the boards of the
    one-board payoffs: hole cards and boards are disjoint and every board is ranked."""
    d = sample_deals(3, 200, 3, boards=5)
    assert d.ranks.shape == (200, 5, 3) and d.boards == 5
    sj = sampled_jamfold_game(d, [2, 5, 10], (0.5, 1))
    one = [sampled_jamfold_game(type(d)(d.classes, d.ranks[:, [b]], 3), [2, 5, 10], (0.5, 1))
           for b in range(5)]
    v = len(sj.public) - 1                                    # everyone all in
    assert np.allclose(sj.terminal_pay[v], np.mean([o.terminal_pay[v] for o in one], axis=0))
    assert not np.allclose(one[0].terminal_pay[v], one[1].terminal_pay[v])


def test_pair_frequency_matches_card_counting():
    # 13 * C(4,2) / C(52,2) = 78/1326 of the hands are pairs; 4 seats x 20000 deals
    d = sample_deals(4, 20_000, 1)
    pairs = np.isin(d.classes, [14 * r for r in range(13)]).mean()
    p = 78 / 1326
    assert abs(pairs - p) < 4 * np.sqrt(p * (1 - p) / d.classes.size)


def _profile(game):
    """A fixed profile that depends on the class: push/call with class-dependent odds."""
    sigma = np.empty((len(game.infosets), 2))
    for i, info in enumerate(game.infosets):
        c = CLASSES.index(info.label.split(":")[1].split("|")[0])
        q = ((c * 37) % 100) / 100
        sigma[i] = (1 - q, q)
    return sigma


def test_heads_up_sample_agrees_with_exact_game_within_sampling_error():
    """Any profile's value over sampled deals is unbiased for the exact 169-class game
    (jamfold.py with hands.preflop_model(): exact card removal and heads-up equities)."""
    from pokerdyn.games.tournament.hands import preflop_model
    from pokerdyn.games.tournament.jamfold import jamfold_game
    exact = jamfold_game(preflop_model(), [8, 8])
    sj = sampled_jamfold_game(sample_deals(2, 100_000, 3), [8, 8])
    sig_s = _profile(sj.game)
    sig_e = _profile(exact)
    v_exact = expected_payoffs(compile_game(exact), sig_e)
    vals = deal_values(sj, sig_s)
    mean, se = vals.mean(axis=0), standard_error(vals)
    assert 0 < se[0] < 0.05
    assert abs(mean[0] - v_exact[0]) < 4 * se[0], (mean, v_exact, se)
    # the deal values are exactly the core's expected payoff
    assert np.allclose(mean, expected_payoffs(compile_game(sj.game), sig_s), atol=1e-12)


@pytest.mark.parametrize("payouts", [None, (0.5, 0.3, 0.2)])
def test_zero_sum_with_unequal_stacks_and_ante(payouts):
    sj = sampled_jamfold_game(sample_deals(4, 400, 2), [3, 7.5, 12, 5], (0.5, 1), 0.25,
                              button=1, payouts=payouts)
    assert np.allclose(sj.game.payoffs.sum(axis=1), 0, atol=1e-12)
    if payouts is not None:   # ICM payoffs are differences of ICM equities summing to 1
        start = icm_batch(np.array([[3, 7.5, 12, 5.0]]), payouts)
        assert np.isclose(start.sum(), 1.0)


def test_side_pots_by_hand():
    """Stacks 2, 5, 10, all in: the main pot 6 goes to the best of the three hands, the side
    pot 6 to the better of seats 2 and 3, seat 3's last 5 chips come back (ties split)."""
    d = sample_deals(3, 2000, 5)
    sj = sampled_jamfold_game(d, [2, 5, 10], (0.5, 1))
    v = next(v for v, node in enumerate(sj.public) if node[6] is not None and node[6].all())
    r = d.ranks[:, 0].astype(float)
    best3 = r == r.min(axis=1, keepdims=True)
    best2 = r[:, 1:] == r[:, 1:].min(axis=1, keepdims=True)
    gross = 6 * best3 / best3.sum(axis=1, keepdims=True)
    gross[:, 1:] += 6 * best2 / best2.sum(axis=1, keepdims=True)
    gross[:, 2] += 5
    want = gross - [2, 5, 10]
    assert np.allclose(sj.terminal_pay[v], want)
    # the pots do get split: there are ties among 2000 deals
    assert (best3.sum(axis=1) > 1).any()


def test_equilibrium_deterministic_and_small_nash_conv():
    kw = dict(payouts=(0.5, 0.3, 0.2), samples=1500, seed=4, iterations=300, method="cfr")
    a, b = jamfold_equilibrium([6, 9, 7], **kw), jamfold_equilibrium([6, 9, 7], **kw)
    assert a.ranges == b.ranges and np.array_equal(a.strategy, b.strategy)
    assert set(a.ranges) == {"P1 push []", "P2 push [f]", "P2 call [p]", "P3 call [f p]",
                             "P3 call [p f]", "P3 call [p c]"}
    assert a.nash_conv < 2e-3
    assert np.isclose(a.expected_payoffs.sum(), 0, atol=1e-12)
    assert (a.standard_error > 0).all() and (a.standard_error < 0.01).all()
    # AA always pushes first in and always calls a push
    # AA (about 7 of the 1500 deals per seat, 8 boards each) pushes first in, calls a push
    assert a.ranges["P1 push []"][0][0] > 0.99 and a.ranges["P3 call [p f]"][0][0] > 0.99


def test_fp_and_hedge_reach_the_same_three_player_equilibrium_values():
    kw = dict(payouts=(0.5, 0.3, 0.2), samples=800, seed=6)
    fp = jamfold_equilibrium([5, 5, 5], method="fp", iterations=400, **kw)
    hd = jamfold_equilibrium([5, 5, 5], method="hedge", iterations=400, **kw)
    assert fp.nash_conv < 2e-3 and hd.nash_conv < 3e-2
    assert hd.nash_conv > fp.nash_conv                      # the paper: FP converges faster
    assert np.allclose(fp.expected_payoffs, hd.expected_payoffs,
                       atol=fp.nash_conv + hd.nash_conv)


def test_nested_loop_converges_on_a_tiny_tournament():
    """Ganzfried & Sandholm's outer loop: values start at ICM and are re-valued from the
    hands' equilibria until they change by less than delta."""
    res = tournament_values(4.0, (0.5, 0.3, 0.2), samples=400, iterations=100, delta=1e-3,
                            max_rounds=20)
    assert res.converged and res.changes[-1] < 1e-3 < res.changes[0]
    assert np.allclose(res.values.sum(axis=1), 1.0)          # the prize pool is conserved
    assert np.abs(res.values - res.icm).max() > 1e-2         # jam/fold play moves values
    assert (res.nash_conv < 5e-3).all()


def test_cli_three_seats_json(capsys):
    import json

    from pokerdyn.cli import main
    code = main(["pushfold", "--stacks", "6,9,7", "--payouts", "0.5,0.3,0.2", "--method",
                 "fp", "--samples", "600", "--seed", "2", "--iterations", "100", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code in (0, None)
    assert {"ranges", "nash_conv", "seconds", "samples", "seed", "standard_error"} <= set(out)
    assert set(out["ranges"]) == {"BTN push []", "SB push [f]", "SB call [p]", "BB call [f p]",
                                  "BB call [p f]", "BB call [p c]"}
    assert out["samples"] == 600 and out["seed"] == 2 and len(out["standard_error"]) == 3
    assert 0 <= out["nash_conv"] < 0.01


def test_action_gains_equal_the_core_counterfactual_values():
    """action_gains (per-deal, numpy) equals cfv[I, push] - cfv[I, fold] of the core's
    counterfactual-value kernel (Zinkevich et al. 2007, eq. 7 times the reach)."""
    from pokerdyn.solvers.evaluation import _arrays
    from pokerdyn.solvers.learning._regret_kernels import counterfactual_values
    sj = sampled_jamfold_game(sample_deals(4, 300, 9), [4, 6, 5, 7], payouts=(0.6, 0.4))
    cg = compile_game(sj.game)
    rng = np.random.default_rng(0)
    sigma = rng.random((len(sj.game.infosets), 2))
    sigma /= sigma.sum(axis=1, keepdims=True)
    gain, se = action_gains(sj, sigma)
    owner = np.array([I.player for I in sj.game.infosets])
    want = np.zeros_like(gain)
    for who in range(4):
        cfv, reach, own = np.zeros_like(sigma), np.zeros(len(gain)), np.zeros(len(gain))
        counterfactual_values(*_arrays(cg), cg.terminal_index, cg.payoffs, sigma, who, cfv,
                              reach, own)
        want[owner == who] = (cfv[:, 1] - cfv[:, 0])[owner == who]
    assert np.allclose(gain, want, atol=1e-15) and np.abs(want).max() > 1e-4
    assert (se >= 0).all() and (se > 0).mean() > 0.9


def test_heads_up_equilibrium_value_agrees_with_the_exact_lp_value():
    """The CFR+ equilibrium of 50,000 sampled deals x 4 boards is worth what the exact
    169-class game's LP equilibrium is worth (chips, 8 bb each), within 3 standard errors."""
    from pokerdyn.games.tournament.hands import preflop_model
    from pokerdyn.games.tournament.jamfold import jamfold_game
    from pokerdyn.solvers import solve_lp
    cg = compile_game(jamfold_game(preflop_model(), [8, 8]))
    exact = expected_payoffs(cg, solve_lp(cg).strategies)
    eq = jamfold_equilibrium([8, 8], samples=50_000, boards=4, method="cfr", iterations=300)
    assert eq.nash_conv < 1e-3 and 0 < eq.standard_error[0] < 0.02
    assert abs(eq.expected_payoffs[0] - exact[0]) < 3 * eq.standard_error[0]
