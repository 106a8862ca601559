"""Forced, excluded and optional choices of the heads-up push/fold chart, certified in exact
rational arithmetic (issue 34: "charts that say what is forced and by how much").

The exact game is the heads-up chip-EV jam/fold game (SB 1/2, BB 1, effective stack S):
deal probabilities ``P(i, j)`` = disjoint combo pairs / (1326 * 1225)
(:func:`games.preflop.classes.deal_probabilities`) and equities ``e(i, j) = (win + tie/2) /
total`` from the exact enumeration's integer counts (:func:`games.preflop.equity.
hu_equity_table`).  The small blind's payoff is -1/2 after a fold, +1 after a fold of the big
blind, ``(2 e - 1) S`` after a call: the formula below is written here, independently of the
game tree, and checked against the tree's payoffs in floats first.

* At 5.4 bb HoldemResources' chart pushes 63s (its chart: 63s "between 7.1 and 5.1bb",
  http://www.holdemresources.net/h/poker-theory/hune/usage.html); the exact equilibrium
  folds it, and every optimal strategy does: its margin is -0.012909 bb against the big
  blind's optimal strategy.
* Where the equilibrium is pure for both players (5.3 bb on the 0.1 grid) every margin is
  affine in S; the stack S* where the first margin reaches 0 is rational, and there both
  pure choices of that hand (the big blind's T5s at 5.2882 bb) are optimal: two strategies
  with the same exact value.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

pytest.importorskip("pokerdyn.games.preflop.equity")

HALF = Fraction(1, 2)


@pytest.fixture(scope="module")
def exact():
    """(names, P, D, model): P[i][j] the deal probability, D[i][j] = P (2 e - 1), exact."""
    from pokerdyn.games.preflop.classes import CLASSES, deal_probabilities
    from pokerdyn.games.preflop.equity import hu_equity_table
    from pokerdyn.games.tournament.hands import preflop_model

    t = hu_equity_table()
    P = deal_probabilities()
    K = len(CLASSES)
    D = [[P[i][j] * (2 * Fraction(2 * int(t.win[i, j]) + int(t.tie[i, j]),
                                  2 * int(t.total[i, j])) - 1) for j in range(K)]
         for i in range(K)]
    return CLASSES, P, D, preflop_model()


def sb_margins(ex, y, S):
    """Unnormalised EV(push) - EV(fold) of each SB class against BB call probabilities y."""
    _, P, D, _ = ex
    K = len(P)
    return [sum(P[i][j] * (1 - y[j]) + D[i][j] * y[j] * S for j in range(K)) +
            HALF * sum(P[i]) for i in range(K)]


def bb_margins(ex, x, S):
    """Unnormalised EV(call) - EV(fold) of each BB class facing a push, SB push probs x."""
    _, P, D, _ = ex
    K = len(P)
    return [sum(x[i] * (P[i][j] - D[i][j] * S) for i in range(K)) for j in range(K)]


def value(ex, x, y, S):
    """The SB's exact expected payoff of (x, y)."""
    _, P, D, _ = ex
    K = len(P)
    return sum(P[i][j] * ((1 - x[i]) * -HALF + x[i] * (1 - y[j])) + D[i][j] * x[i] * y[j] * S
               for i in range(K) for j in range(K))


def best_reply_values(ex, x, y, S):
    """(max over SB strategies against y, min over BB strategies against x), exact."""
    _, P, D, _ = ex
    K = len(P)
    sb = sum(max(-HALF * sum(P[i]), sum(P[i][j] * (1 - y[j]) + D[i][j] * y[j] * S
                                       for j in range(K))) for i in range(K))
    folds = sum(-HALF * (1 - x[i]) * sum(P[i]) for i in range(K))
    bb = folds + sum(min(sum(x[i] * P[i][j] for i in range(K)),
                         sum(x[i] * D[i][j] * S for i in range(K))) for j in range(K))
    return sb, bb


def lp_profile(ex, S):
    from pokerdyn.solvers.tournament import hu_chart_faces
    return hu_chart_faces(ex[3], [S], (0.5, 1.0))


def test_formula_is_the_game_trees(exact):
    """The exact formula, in floats, equals the tree's value of a random profile (1e-12)."""
    from pokerdyn.games.compiled import compile_game
    from pokerdyn.games.tournament.jamfold import jamfold_game
    from pokerdyn.solvers.evaluation import expected_payoffs

    names, P, D, model = exact
    S = 5.4
    g = jamfold_game(model, [S, S], (0.5, 1.0))
    cg = compile_game(g)
    rng = np.random.default_rng(0)
    x, y = rng.random(len(names)), rng.random(len(names))
    sigma = np.zeros((cg.n_infosets, int(cg.n_actions.max())))
    for n, a, b in zip(names, x, y):
        sigma[g.infoset_index(f"P1:{n}|")] = [1 - a, a]
        sigma[g.infoset_index(f"P2:{n}|p")] = [1 - b, b]
    Pf = np.array(P, dtype=float)
    Df = np.array(D, dtype=float)
    v = (Pf * ((1 - x)[:, None] * -0.5 + x[:, None] * (1 - y)[None, :])).sum() + \
        (Df * S * x[:, None] * y[None, :]).sum()
    assert expected_payoffs(cg, sigma)[0] == pytest.approx(v, abs=1e-12)


def _exact_equilibrium(ex, ch, S):
    """The LP's equilibrium at S made exact: its pure choices kept, each player's single
    mixed class solved from the other's indifference (linear in one unknown)."""
    names = ex[0]
    x = [Fraction(int(round(p))) for p in ch.push[0]]
    y = [Fraction(int(round(p))) for p in ch.call[0]]
    mixed_x = np.flatnonzero((ch.push[0] > 1e-9) & (ch.push[0] < 1 - 1e-9))
    mixed_y = np.flatnonzero((ch.call[0] > 1e-9) & (ch.call[0] < 1 - 1e-9))
    assert len(mixed_x) == len(mixed_y) == 1, (mixed_x, mixed_y)
    (h,), (c,) = mixed_x, mixed_y
    # SB class h indifferent: its margin is affine in y[c]; BB class c: affine in x[h]
    for vec, k, margin, other in ((y, c, lambda v: sb_margins(ex, v, S)[h], "y"),
                                  (x, h, lambda v: bb_margins(ex, v, S)[c], "x")):
        vec[k] = Fraction(0)
        m0 = margin(vec)
        vec[k] = Fraction(1)
        m1 = margin(vec)
        vec[k] = m0 / (m0 - m1)
        assert 0 < vec[k] < 1, (names[k], other, vec[k])
    return x, y, h, c


def test_63s_at_5_4bb_is_a_forced_fold(exact):
    """At 5.4 bb (HRC's chart: push) every optimal strategy folds 63s: the exact equilibrium
    (T6o and J6o the only mixed classes) is certified by equal best-reply values, and 63s
    loses 0.012909 bb by pushing against the big blind's optimal strategy; the LP's margin
    agrees within the bound its strategy error allows."""
    names, P, _, _ = exact
    S = Fraction(27, 5)
    ch = lp_profile(exact, 5.4)
    x, y, h, c = _exact_equilibrium(exact, ch, S)
    assert (names[h], names[c]) == ("T6o", "J6o")
    sb, bb = best_reply_values(exact, x, y, S)
    assert sb == bb == value(exact, x, y, S)                # exact equilibrium
    i = names.index("63s")
    margin = sb_margins(exact, y, S)[i] / sum(P[i])         # per hand dealt, in bb
    assert margin < 0 and float(margin) == pytest.approx(-0.012909, abs=5e-7)
    # the LP's margin: its y differs from the exact one only at J6o, and the margin moves
    # by at most (1 + 2S) per unit of y
    err = abs(ch.call[0, c] - float(y[c]))
    assert err < 1e-7
    assert ch.push_margin[0, i] == pytest.approx(float(margin), abs=(1 + 2 * 5.4) * err + 1e-12)
    assert ch.push_low[0, i] == ch.push_high[0, i] == 0.0   # excluded over the whole face
    # the only indifferent classes are the mixed ones, whose face is a single point
    assert ch.push_high[0, h] - ch.push_low[0, h] < 1e-9
    assert ch.push_low[0, h] == pytest.approx(float(x[h]), abs=1e-7)


def test_an_optional_hand_has_two_optimal_strategies_of_equal_exact_value(exact):
    """At 5.3 bb both players' LP strategies are pure.  With them fixed, every class's
    margin is affine in S, so the pure equilibrium lasts down to the largest rational root
    S* < 5.3 of a margin: the big blind's T5s call at S* = 5.2882 bb.  There calling and
    folding T5s are both optimal: the two profiles are exact equilibria (equal best-reply
    values) with one exact game value, and hu_chart_faces reports the call optional over
    [0, 1].  (The other end, 5.3447 bb, is T6o's push: optional only over [0.652, 1],
    since the big blind's calls change below 0.652.)"""
    names, P, D, _ = exact
    K = len(names)
    ch = lp_profile(exact, 5.3)
    assert not ((ch.push > 1e-9) & (ch.push < 1 - 1e-9)).any()
    assert not ((ch.call > 1e-9) & (ch.call < 1 - 1e-9)).any()
    x = [Fraction(int(round(p))) for p in ch.push[0]]
    y = [Fraction(int(round(p))) for p in ch.call[0]]
    roots = []
    for side, f in (("push", lambda S: sb_margins(exact, y, S)),
                    ("call", lambda S: bb_margins(exact, x, S))):
        m0, m1 = f(Fraction(0)), f(Fraction(1))             # margins alpha + beta S
        roots += [(-m0[k] / (m1[k] - m0[k]), side, k) for k in range(K) if m1[k] != m0[k]]
    S, side, k = max(r for r in roots if r[0] < Fraction(53, 10))
    assert (side, names[k], y[k]) == ("call", "T5s", 0)
    assert float(S) == pytest.approx(5.28819, abs=1e-5)
    assert bb_margins(exact, x, S)[k] == 0
    values = set()
    for call in (Fraction(0), Fraction(1)):
        yk = list(y)
        yk[k] = call
        sb, bb = best_reply_values(exact, x, yk, S)
        assert sb == bb == value(exact, x, yk, S)           # an exact equilibrium
        values.add(sb)
    assert len(values) == 1                                  # one exact game value
    # the chart's computation at the float nearest S* sees the call as optional
    ch = lp_profile(exact, float(S))
    assert ch.optional("call")[0, k]
    assert ch.call_low[0, k] == pytest.approx(0, abs=1e-6)
    assert ch.call_high[0, k] == pytest.approx(1, abs=1e-6)


def test_face_ranges_agree_with_the_general_face_lps(exact):
    """hu_chart_faces' small LPs against solvers.sequence.face.optimal_face_ranges (the
    general optimal-face LPs, whose value slack of 1e-9 widens ranges slightly) at 5.9 bb:
    94s mixes at 0.508, 63s is excluded (the general LPs: [0, 0.0004], issue 34)."""
    from pokerdyn.games.compiled import compile_game
    from pokerdyn.games.tournament.jamfold import jamfold_game
    from pokerdyn.solvers.sequence.face import optimal_face_ranges

    names, _, _, model = exact
    ch = lp_profile(exact, 5.9)
    g = jamfold_game(model, [5.9, 5.9], (0.5, 1.0))
    fr = optimal_face_ranges(compile_game(g), [(g.infoset_index("P1:94s|"), 1),
                                               (g.infoset_index("P1:63s|"), 1)])
    i, j = names.index("94s"), names.index("63s")
    assert fr[0].low - 1e-3 <= ch.push_low[0, i] <= ch.push_high[0, i] <= fr[0].high + 1e-3
    assert ch.push_low[0, i] == pytest.approx(0.508, abs=1e-3)
    assert ch.push_high[0, j] == 0.0 and fr[1].low == 0.0 and fr[1].high < 1e-3
    assert ch.push_margin[0, j] == pytest.approx(-0.000793, abs=1e-6)


def test_chart_json_has_margins_and_face_tables(tmp_path):
    """``pokerdyn pushfold --chart --json`` keeps ``push``/``call`` and adds the margins (one
    per stack), the optional and near-indifferent tables; 63s at 5.4 bb: -0.012909 bb."""
    import contextlib
    import io
    import json

    from pokerdyn.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["pushfold", "--chart", "--max-stack", "5.4", "--step", "2.7", "--json",
                     "--margin", "0.02"])
    assert code == 0
    r = json.loads(out.getvalue())
    assert r["stacks"] == [2.7, 5.4] and r["margin_threshold_bb"] == 0.02
    for key in ("push", "call"):
        assert {key, f"{key}_mixed", f"{key}_optional", f"{key}_near",
                f"{key}_margin_bb"} <= set(r)
        assert all(len(v) == 2 for v in r[f"{key}_margin_bb"].values())
        assert r[f"{key}_optional"] == {}                  # forced or uniquely mixed
    assert r["push_margin_bb"]["63s"][1] == pytest.approx(-0.012909, abs=1e-6)
    assert [5.4, r["push_margin_bb"]["63s"][1]] in r["push_near"]["63s"]
    assert r["push_margin_bb"]["AA"][1] > 0.02 and "AA" not in r["push_near"]
    assert r["push_mixed"]["T6o"] == [[5.4, pytest.approx(0.63478, abs=1e-5)]]


def test_bad_margin_is_refused(tmp_path):
    from hostile import run_bad
    run_bad(["pushfold", "--chart", "--margin", "-0.1"], ("margin",), tmp_path)
    run_bad(["pushfold", "--chart", "--margin", "nan"], ("margin",), tmp_path)
