"""The Independent Chip Model (games.tournament.icm): worked examples derived exactly with
Fractions, an independent permutation-enumeration implementation, and identities."""
from __future__ import annotations

import itertools
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pokerdyn.games import GameError
from pokerdyn.games.tournament import icm, icm_batch


def harville(stacks, payouts):
    """Malmuth-Harville by enumerating every finishing order (exact with Fractions)."""
    n = len(stacks)
    eq = [F(0)] * n
    for perm in itertools.permutations(range(n)):
        p, left = F(1), sum(stacks)
        for i in perm:
            p *= F(stacks[i]) / left if left else F(1)
            left -= stacks[i]
        for k, i in enumerate(perm[:len(payouts)]):
            eq[i] += p * payouts[k]
    return eq


def test_survey_worked_example_10_20_30():
    """poker_lp_survey.txt ("Independent Chip Model", stacks 10, 20, 30 big blinds): player 1
    finishes first with probability 1/6 and second with probability 20/60*10/40 +
    30/60*10/30 = 1/4.  Payouts (1, 0) and (0, 1) pick out those probabilities."""
    assert icm([10, 20, 30], [1])[0] == pytest.approx(1 / 6, abs=1e-15)
    assert icm([10, 20, 30], [0.5, 0.5])[0] == pytest.approx((1 / 6 + 1 / 4) / 2, abs=1e-15)
    assert F(20, 60) * F(10, 40) + F(30, 60) * F(10, 30) == F(1, 4)


def test_50_30_20_with_payouts_50_30_20_exact():
    """Stacks 50/30/20, payouts 0.5/0.3/0.2, derived by hand: P(1 first) = 1/2,
    P(1 second) = 3/10*50/70 + 2/10*50/80 = 19/56, P(1 third) = 9/56, so player 1's
    equity is 1/4 + 3/10*19/56 + 2/10*9/56 = 43/112 = 0.383928..."""
    pay = [F(1, 2), F(3, 10), F(1, 5)]
    exact = harville([50, 30, 20], pay)
    assert exact[0] == F(1, 4) + F(3, 10) * F(19, 56) + F(1, 5) * F(9, 56) == F(43, 112)
    assert np.allclose(icm([50, 30, 20], [0.5, 0.3, 0.2]), [float(x) for x in exact],
                       atol=1e-15, rtol=0)
    assert sum(exact) == 1


@given(st.lists(st.integers(1, 100), min_size=2, max_size=6),
       st.lists(st.integers(0, 10), min_size=1, max_size=6))
def test_matches_permutation_enumeration(stacks, raw):
    raw = sorted(raw, reverse=True)[:len(stacks)]
    if sum(raw) == 0:
        raw[0] = 1
    pay = [F(r, sum(raw)) for r in raw]
    exact = harville(stacks, pay)
    got = icm(stacks, [float(p) for p in pay])
    assert np.allclose(got, [float(x) for x in exact], atol=1e-12, rtol=0)


@given(st.lists(st.floats(0.1, 1000), min_size=2, max_size=8))
def test_identities(stacks):
    n = len(stacks)
    pay = np.array([0.5, 0.3, 0.2][:n])
    pay = pay / pay.sum()
    eq = icm(stacks, pay)
    s = np.array(stacks)
    assert eq.sum() == pytest.approx(pay.sum(), abs=1e-12)
    # chip EV: winner takes all -> stack shares
    assert np.allclose(icm(stacks, [1.0]), s / s.sum(), atol=1e-12, rtol=0)
    # equity is monotone in the stack (same payouts, larger stack, never less equity)
    order = np.argsort(s, kind="stable")
    assert (np.diff(eq[order]) >= -1e-12).all()
    # a strict chip leader's equity share is below its chip share when places below 1st pay
    lead = int(np.argmax(s))
    if s[lead] > np.sort(s)[-2] * 1.001:
        assert eq[lead] / pay.sum() < s[lead] / s.sum()


@given(st.integers(2, 9), st.floats(0.5, 100))
def test_equal_stacks_equal_equity(n, x):
    eq = icm([x] * n, [0.6, 0.4][:n])
    assert np.allclose(eq, 1.0 / n, atol=1e-12, rtol=0)


def test_batch_and_busted_players():
    rows = np.array([[50, 30, 20], [10, 20, 30]], dtype=float)
    assert np.allclose(icm(rows, [0.5, 0.3, 0.2]),
                       [icm(r, [0.5, 0.3, 0.2]) for r in rows], atol=1e-15)
    # a busted player takes last place; two busted together split 2nd and 3rd
    assert np.allclose(icm_batch([[10, 0, 5]], [0.5, 0.3, 0.2])[0, 1], 0.2)
    assert np.allclose(icm_batch([[0, 0, 5]], [0.5, 0.3, 0.2])[0], [0.25, 0.25, 0.5])


@pytest.mark.parametrize("stacks, payouts, msg", [
    ([50, 0, 20], [1], "stack 0 is outside"),
    ([50, -3, 20], [1], "stack -3 is outside"),
    ([50, 30], [0.5, 0.3, 0.2], "more than the 2 players"),
    ([50, 30, 20], [0.6, 0.5], "sum to 1.1"),
    ([50, 30, 20], [0.3, 0.5], "not non-increasing"),
    ([50, 30, 20], [0.5, -0.1], "must be finite and >= 0"),
])
def test_bad_input(stacks, payouts, msg):
    with pytest.raises(GameError, match=msg) as err:
        icm(stacks, payouts)
    assert "\n" not in str(err.value)
