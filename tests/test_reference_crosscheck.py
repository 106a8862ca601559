"""Two implementations of the same rules must agree: the numba kernels against the
plain-Python recursive reference of solvers/reference.py (values, best responses,
NashConv and fictitious-play iterates)."""
from __future__ import annotations

import numpy as np
import pytest
from conftest import compiled, profiles
from hypothesis import given, settings

from pokerdyn.solvers import best_response, expected_payoffs, fictitious_play, nash_conv
from pokerdyn.solvers.reference import Reference

GAMES = ["kuhn", "kuhn3", "skp", "kuhn3-third-full"]


@pytest.mark.parametrize("name", GAMES)
def test_values_and_best_responses_agree(name):
    cg = compiled(name)
    ref = Reference(cg)

    @settings(max_examples=10)
    @given(sigma=profiles(cg))
    def check(sigma):
        rows = [list(sigma[i, :k]) for i, k in enumerate(cg.n_actions)]
        np.testing.assert_allclose(ref.values(rows), expected_payoffs(cg, sigma), atol=1e-12)
        for p in range(cg.n_players):
            v, _ = ref.best_response(rows, p)
            assert v == pytest.approx(best_response(cg, sigma, p).value, abs=1e-12)
        assert ref.nash_conv(rows) == pytest.approx(nash_conv(cg, sigma), abs=1e-12)

    check()


@pytest.mark.parametrize("name", GAMES)
def test_fictitious_play_iterates_agree(name):
    cg = compiled(name)
    ref = Reference(cg)
    mine = fictitious_play(cg, iterations=40).strategy
    theirs = ref.fictitious_play(40)
    for i, row in enumerate(theirs):
        np.testing.assert_allclose(mine[i, :len(row)], row, atol=1e-12)
