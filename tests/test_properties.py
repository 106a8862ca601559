"""Property tests over random points: exact symbolic payoffs agree with the numba
evaluation; payoffs sum to zero; a best response never scores below the strategy it
answers and its value is what its profile earns."""
from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from conftest import compiled, profiles, rationals
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerdyn.games import compile_game, get_game, strategy_from_params
from pokerdyn.solvers import best_response, expected_payoffs, symbolic_payoffs


def _symbols(game):
    out = {}
    for e in symbolic_payoffs(game):
        out.update({s.name: s for s in e.free_symbols})
    return out


def _check_point(name, point, pot):
    game = get_game(name)
    syms = _symbols(game)
    subs = {syms[k]: sp.Rational(v.numerator, v.denominator)
            for k, v in point.items() if k in syms}
    if pot is not None:
        subs[syms["P"]] = sp.Rational(pot.numerator, pot.denominator)
    exact = [sp.expand(e).xreplace(subs) for e in symbolic_payoffs(game)]
    assert all(x.is_Rational for x in exact)
    assert sum(exact) == 0  # zero-sum, exactly
    cg = compile_game(game, {} if pot is None else {"P": float(pot)})
    num = expected_payoffs(cg, strategy_from_params(cg, {k: float(v) for k, v in point.items()}))
    np.testing.assert_allclose(num, [float(x) for x in exact], rtol=0, atol=1e-12)
    assert abs(num.sum()) < 1e-12


def _point(name):
    return st.fixed_dictionaries({n: rationals() for n in get_game(name).named_names})


@pytest.mark.parametrize("name", ["kuhn", "kuhn3-third", "skp"])
def test_symbolic_equals_numeric_at_rational_points(name):
    pots = rationals(1, 30) if get_game(name).params else st.none()

    @given(point=_point(name), pot=pots)
    def check(point, pot):
        _check_point(name, point, pot)

    check()


@settings(max_examples=4)
@given(point=_point("kuhn3"), pot=rationals(1, 30))
def test_symbolic_equals_numeric_kuhn3(point, pot):
    # kuhn3 keeps its pot P symbolic (stake P/3 each; P = 3 is the ACPC game)
    _check_point("kuhn3", point, pot)


def test_symbolic_payoffs_sum_to_zero_identically():
    for name in ["kuhn", "kuhn3", "kuhn3-third", "kuhn3-third-full", "skp"]:
        assert sp.expand(sp.Add(*symbolic_payoffs(get_game(name)))) == 0


@pytest.mark.parametrize("name", ["kuhn", "kuhn3", "kuhn3-third", "kuhn3-third-full", "skp"])
def test_best_response_never_scores_below_current(name):
    cg = compiled(name)

    @given(sigma=profiles(cg))
    def check(sigma):
        ev = expected_payoffs(cg, sigma)
        assert abs(ev.sum()) < 1e-12
        for p in range(cg.n_players):
            br = best_response(cg, sigma, p)
            assert br.value >= ev[p] - 1e-12
            # the best response's value is what the deviation actually earns
            assert expected_payoffs(cg, br.apply(sigma))[p] == pytest.approx(br.value, abs=1e-12)
            # and no single pure switch at any one of p's sets does better (local check)
            mine = np.nonzero(cg.infoset_player == p)[0]
            for I in mine[:4]:
                for a in range(int(cg.n_actions[I])):
                    alt = br.apply(sigma)
                    alt[I] = 0.0
                    alt[I, a] = 1.0
                    assert expected_payoffs(cg, alt)[p] <= br.value + 1e-12

    check()
