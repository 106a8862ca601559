"""Learned limits of full-street simplified 3-player Kuhn poker against the whole-axis record
(Billingham, arXiv 1707.01392; the record: figures/frontier/data/full_street_families.json):
the families read back at a pot, the distance of a point to them, the refinement of far
runs, and the committed benchmark (benchmarks/full_street_learning.py)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import sympy as sp

from pokerdyn.figures.frontier.full_street import RECORD
from pokerdyn.games import GameError, compile_game, get_game
from pokerdyn.solvers.symbolic.families.geometry import Numeric, distance
from pokerdyn.solvers.symbolic.learned.limits import families_at, limits_at
from pokerdyn.solvers.symbolic.learned.propose import learned_profiles, refine

REC = json.loads(RECORD.read_text())
GAME = get_game(REC["game"])
NAMES = REC["free_names"]
RESULTS = Path(__file__).parents[1] / "benchmarks" / "results" / "full_street_learning.json"


def test_families_at_the_coexistence_pots_and_off_the_axis():
    # three coexisting equilibria at 13/4 (F2, F3, F10), 79/20 (F4, F5, F6), 87/20 (F5, F7, F8)
    assert [f.cases for f in families_at(REC, GAME, sp.Rational(13, 4))] == [
        "cbbcbcbccbccb", "cbbcbcbccbacb", "cbbcccbccbccb"]
    assert [f.cases for f in families_at(REC, GAME, sp.Rational(79, 20))] == [
        "cbbccabccbacb", "ccbccaccbbacc", "cbbccaccbbacc"]
    assert len(families_at(REC, GAME, sp.Rational(87, 20))) == 3
    (f9,) = families_at(REC, GAME, 7)
    assert f9.free == () and dict(f9.strategy)["b1_Q"] == sp.Rational(2, 7)
    assert families_at(REC, GAME, 1) == []  # P < 2: dominance alone, no piece families


def test_a_certificate_point_is_on_its_family_and_a_shift_is_measured():
    for pc in REC["pieces"]:
        for rec in pc["families"]:
            cert = rec["certificate"]
            pot = sp.sympify(cert["pot"])
            fam = next(f for f in families_at(REC, GAME, pot) if f.cases == rec["support"])
            y = np.array([float(sp.sympify(cert["sample"][n])) for n in NAMES])
            assert distance(Numeric(fam, NAMES), y)[0] < 1e-7
    (f9,) = families_at(REC, GAME, 7)
    y = np.array([float(v) for _, v in f9.strategy])
    y[NAMES.index("b2_Q")] += 0.01
    assert distance(Numeric(f9, NAMES), y)[0] == pytest.approx(0.01, abs=1e-12)


def test_refine_reruns_only_the_far_runs_from_their_own_starts():
    cg = compile_game(GAME, {"P": 7.0})
    its = {"cfr+": 2000, "fp": 2000}
    runs = learned_profiles(cg, 2, 5, iterations=its)
    out = refine(cg, runs, [1, 2], seed=5, factor=3)
    assert out[0] is runs[0] and out[3] is runs[3]
    again = learned_profiles(cg, 2, 5, iterations={"cfr+": 6000, "fp": 6000})
    for k in (1, 2):
        assert (out[k].method, out[k].seed, out[k].iterations) == (
            runs[k].method, runs[k].seed, 6000)
        assert out[k].values == again[k].values  # the same start, three times as long


def test_limits_at_a_pot_with_one_equilibrium():
    fams, lims = limits_at(GAME, REC, 7, seeds=1, iterations={"cfr+": 20_000, "fp": 20_000},
                           target=1e-2, rounds=1)
    assert len(fams) == 1 and len(lims) == 2
    for lim in lims:
        row = lim.row(7, len(fams))
        assert row["family"] == "cabcaacacbcca" and row["distance"] == lim.distances[-1]
        assert lim.distances[-1] < 2e-2 and lim.run.nash_conv < 1e-3
        if len(lim.distances) == 2:  # refined: four times the iterations
            assert lim.run.iterations == 80_000 and lim.distances[0] > 1e-2
    with pytest.raises(GameError, match="target=0"):
        limits_at(GAME, REC, 7, target=0)


def test_committed_limits_lie_on_the_families_where_the_runs_converge():
    """benchmarks/results/full_street_learning.json (README, "every equilibrium piecewise in
    P"): two seeded starts per method at 12 pots, refined up to 12.8 M iterations."""
    rows = json.loads(RESULTS.read_text())["rows"]
    assert {r["pot"] for r in rows} == {"5/2", "3", "13/4", "7/2", "79/20", "4", "87/20", "5",
                                         "7", "9", "12", "15"}
    odd = {("4", "cfr+"), ("4", "fp"), ("13/4", "cfr+"), ("5", "cfr+")}
    for r in rows:
        nc = [h["nash_conv"] for h in r["history"]]
        if (r["pot"], r["method"]) not in odd:
            assert r["distance"] <= 1e-3 and nc[-1] < 1e-4, r
        elif r["pot"] == "4":  # no convergence: NashConv flat from 0.2 M to 12.8 M iterations
            assert len(nc) == 4 and min(nc) > 5e-4 and r["distance"] > 0.1, r
        elif r["pot"] == "13/4":  # CFR+'s average stalls (seed 0) or creeps (seed 1)
            assert len(nc) == 4 and min(nc) > 4e-4 and r["distance"] > 0.02, r
        else:  # P = 5: near-equilibria 2-5e-3 from the families, closing slowly
            assert nc[-1] < 5e-6 and 1e-3 < r["distance"] < r["history"][0]["distance"] < 5e-3
