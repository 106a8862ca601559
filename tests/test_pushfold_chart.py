"""The heads-up chip-EV push/fold chart (SB 0.5, BB 1, no ante) against the published
HoldemResources (HRC) Nash charts, and its gaps checked against a direct EV computation.

Sources (effective stack in big blinds *before* posting the blinds, the convention of
``pokerdyn pushfold --chart`` too: ``jamfold_game`` takes the stacks before the posts):

* [HRC-usage] http://www.holdemresources.net/h/poker-theory/hune/usage.html (Jan 29, 2014):
  T3s is pushed up to 7.7 bb, Q2o is called up to 5.6 bb; 63s is pushed "between 7.1 and
  5.1bb, and stacks below 2.3bb"; "the effective stack size is the smaller of the two,
  before posting any blinds".
* [HRC-about] http://www.holdemresources.net/h/poker-theory/hune/about.html: the charts
  simplify the exact solution ("most hands are actually played with mixed strategies for at
  least a few stack sizes, and many hands have multiple smaller gaps ... similar to the 63s,
  53s, 43s hands.  These details are omitted in the chart").
* [HRC-chart] the HRC "Pusher"/"Caller" charts as reproduced at
  https://diateforno1987.netlify.app/nash-chart-poker (a copy; it agrees with [HRC-usage]
  on T3s 7.7 and marks 63s, 53s, 43s with *, **, ***).

A chart value is the largest stack at which the hand is played.  Ours is read on the 0.1 bb
grid (played = probability above 1/2), so agreement means |ours - HRC| <= 0.1 + 0.05: played
at one of t - 0.1, t, t + 0.1 and not at t + 0.2.
"""
from __future__ import annotations

import numpy as np
import pytest

from pokerdyn.games.preflop.classes import class_index

pytest.importorskip("pokerdyn.games.preflop.equity")

# (hand, largest push stack) [HRC-usage] for T3s, the rest [HRC-chart]
HRC_PUSH = [("T3s", 7.7), ("K2s", 19.3), ("Q2s", 12.7), ("J2s", 8.5), ("T2s", 6.5),
            ("95s", 14.4), ("92s", 3.7), ("84s", 10.1), ("83s", 2.7), ("K2o", 11.6),
            ("Q3o", 7.5), ("J2o", 4.6), ("86o", 7.0), ("76o", 10.7), ("65o", 2.4),
            ("32o", 1.4)]
# (hand, largest call stack) [HRC-usage] for Q2o, the rest [HRC-chart]
HRC_CALL = [("Q2o", 5.6), ("K3s", 11.4), ("Q2s", 7.2), ("J2s", 5.6), ("95s", 5.0),
            ("83s", 3.6), ("K9o", 17.1), ("T9o", 8.4), ("Q7o", 8.0), ("QJo", 19.5),
            ("JTs", 18.0)]
HRC_20_PLUS_PUSH = ["A2o", "22", "96s", "K4s"]          # "20+" [HRC-chart]
HRC_20_PLUS_CALL = ["A2s", "KQo", "K9s", "AJo"]


def _grid(t: float) -> list[float]:
    return [round(t + d, 1) for d in (-0.1, 0.0, 0.1, 0.2)]


@pytest.fixture(scope="module")
def chart():
    from pokerdyn.games.tournament.hands import preflop_model
    from pokerdyn.solvers.tournament import hu_chart
    stacks = sorted({s for _, t in HRC_PUSH + HRC_CALL for s in _grid(t)} | {20.0} |
                    {2.3, 2.4, 3.0, 4.0, 5.0, 5.1, 7.1, 7.3, 7.9, 8.0, 8.1, 8.2, 8.3, 8.4})
    model = preflop_model()
    push, call = hu_chart(model, stacks, (0.5, 1.0))
    return model, stacks, push, call


def _at(chart, which, hand, s):
    _, stacks, push, call = chart
    return (push if which == "push" else call)[stacks.index(round(s, 1)), class_index(hand)]


@pytest.mark.parametrize("which, hand, t", [("push", h, t) for h, t in HRC_PUSH] +
                         [("call", h, t) for h, t in HRC_CALL])
def test_threshold_agrees_with_hrc(chart, which, hand, t):
    lo, at, hi, above = (_at(chart, which, hand, s) for s in _grid(t))
    assert max(lo, at, hi) > 0.5 and above < 0.5, (lo, at, hi, above)


def test_20_plus_hands_are_played_at_20bb(chart):
    assert all(_at(chart, "push", h, 20.0) > 0.5 for h in HRC_20_PLUS_PUSH)
    assert all(_at(chart, "call", h, 20.0) > 0.5 for h in HRC_20_PLUS_CALL)


def test_63s_gap_as_published(chart):
    """[HRC-usage]: 63s pushed below 2.3 bb and between 5.1 and 7.1 bb, folded between."""
    p = {s: _at(chart, "push", "63s", s) for s in (2.3, 2.4, 3.0, 4.0, 5.0, 5.1, 7.1, 7.3)}
    assert p[2.3] == 1 and p[5.1] == 1 and p[7.1] == 1
    assert p[2.4] == p[3.0] == p[4.0] == p[5.0] == p[7.3] == 0


def test_q4o_hrc_79_is_the_end_of_pure_pushing(chart):
    """The one hand of 85 checked push values (every one of the chart copy's numbers) that
    differs: HRC 7.9, ours pure push to 7.9, then a mixing zone 8.0-8.3 (the LP's vertex
    pushes 62% at 8.3), which [HRC-about] says the chart leaves out."""
    p = [_at(chart, "push", "Q4o", s) for s in (7.9, 8.0, 8.1, 8.2, 8.3)]
    assert p[0] == pytest.approx(1) and all(0 < x < 1 for x in p[1:])


# --- independent check: best responses computed directly from the equity table ---------

def _evs(model, S, push, call):
    """SB's push EV and BB's call EV per class, in chips relative to folding (fold: SB
    -0.5, BB -1), against the other's equilibrium probabilities, from the deal
    probabilities and the exact equities (not from the game tree)."""
    P, E = np.asarray(model.pair_prob), np.asarray(model.equity)
    cond = P / P.sum(axis=1, keepdims=True)                    # P(opponent class | mine)
    showdown = (2 * E - 1) * S                                 # net chips of an all-in
    push_ev = (cond * ((1 - call)[None, :] + call[None, :] * showdown)).sum(1)
    w = P * push[None, :]                                      # BB's view: P(j, i) push_i
    call_ev = (w * showdown).sum(1) / w.sum(1)
    return push_ev + 0.5, call_ev + 1.0


@pytest.mark.parametrize("S", [2.4, 5.0, 7.3, 10.1, 20.0])
def test_equilibrium_is_a_best_response_pair(chart, S):
    """At each stack every class pushed (called) with positive probability has EV >= fold
    and every class folded with positive probability EV <= fold (to 1e-9)."""
    model, stacks, push, call = chart
    k = stacks.index(S)
    dp, dc = _evs(model, S, push[k], call[k])
    for d, pr in ((dp, push[k]), (dc, call[k])):
        assert (d[pr > 1e-9] >= -1e-9).all() and (d[pr < 1 - 1e-9] <= 1e-9).all()


# every gap found in the 1.1-20 bb chart (pure folds between pure pushes, see BENCHMARKS.md)
GAPS = {"63s": [2.4, 3.0, 4.0, 5.0, 7.3], "43s": [2.3, 8.0, 8.2], "53s": [2.5, 3.0],
        "T3s": [7.3], "92s": [3.5], "T2s": [6.3], "94s": [6.0], "84s": [8.0, 8.2]}


def test_gaps_are_genuine():
    """Inside each gap, pushing is strictly worse than folding against the BB's equilibrium
    calling range (not an LP tie broken towards folding)."""
    from pokerdyn.games.tournament.hands import preflop_model
    from pokerdyn.solvers.tournament import hu_chart
    model = preflop_model()
    stacks = sorted({s for v in GAPS.values() for s in v})
    push, call = hu_chart(model, stacks, (0.5, 1.0))
    for hand, ss in GAPS.items():
        for s in ss:
            k = stacks.index(s)
            dp, _ = _evs(model, s, push[k], call[k])
            assert push[k, class_index(hand)] == 0 and dp[class_index(hand)] < -1e-4, \
                (hand, s, dp[class_index(hand)])
