"""Billingham Figs 2, 3, 5, 6 from the exact families (issue 3): the figures render, mark
the critical values the enumeration found, and shade exact ranges of free parameters."""
from __future__ import annotations

import json

import numpy as np
import pytest
import sympy as sp

from pokerdyn.figures.billingham.equilibria.plots import (FAMILY_GAMES, RECORDED, family_key,
                                                 load_families, value_range)
from pokerdyn.solvers.symbolic.axis.family_records import pieces_records
from pokerdyn.solvers.symbolic.axis.piecewise import equilibrium_pieces
from pokerdyn.figures.registry import load
from pokerdyn.games import get_game
from pokerdyn.solvers.symbolic.model.conditions import pot_symbol

PSTAR = "5/2 + sqrt(73)/2"  # Billingham sec. 3: P* = (5 + sqrt 73)/2


def test_skp_figures_render_and_mark_p5_and_pstar(tmp_path):
    for name in ("skp_solutions", "skp_expectations"):
        res = load(name).main(tmp_path)  # a full run: enumerated, then cached
        assert all(f.exists() and f.stat().st_size > 10_000 for f in res.files)
        assert res.numbers["critical P"] == ["5", PSTAR]
    # the second figure read the families from the cache written by the first
    assert res.numbers["enumeration"] == "cached"
    assert (tmp_path / "skp_families.json").exists()


def test_free_parameter_range_is_exact(tmp_path):
    # skp at P = 5: b_J ranges over [0, 1/3) (Billingham sec. 3, the P = 5 bifurcation);
    # E1 = -b_J/8 then ranges over (-1/24, 0].
    fams, _ = load_families("skp", tmp_path)
    p = pot_symbol(get_game("skp"))
    fam = next(f for f in fams if f["free"])
    lo, hi = value_range(fam, fam["strategy"]["b_J"], np.array([5.0]), p)
    assert (lo[0], hi[0]) == (0.0, 1 / 3) or np.allclose([lo[0], hi[0]], [0, 1 / 3])
    lo, hi = value_range(fam, fam["payoffs"][0], np.array([5.0]), p)
    assert np.allclose([lo[0], hi[0]], [-1 / 24, 0])


def test_kuhn3_third_figures_mark_2_5_and_pstar(tmp_path):
    # Billingham Fig. 2: bifurcations at P = 2 and 5 and Solution B from P*; found by the
    # enumeration, not typed in.
    res = load("kuhn3_third_frequencies").main(tmp_path, quick=True)
    crit = [sp.sympify(v) for v in res.numbers["critical P"]]
    for v in (2, 5, (5 + sp.sqrt(73)) / 2):
        assert any(sp.simplify(c - v) == 0 for c in crit), v
    # one legend entry per family of the reduced set, grouped by range of P: (0, 2) has
    # the o_K segment, P = 2 Billingham (1)'s triangle and the o_K segment, [P*, oo)
    # Solutions A and B, (5) and (6)
    legend = res.numbers["legend"]
    assert len(legend) == res.numbers["families"] == len(set(legend))
    assert [lab for lab in legend if lab.startswith("P = 2:")] == ["P = 2: 1", "P = 2: 2"]
    assert [lab for lab in legend if lab.startswith("P >= 6.77")] == ["P >= 6.77: 1", "P >= 6.77: 2"]
    res = load("kuhn3_third_expectations").main(tmp_path, quick=True)
    assert res.numbers["enumeration"].startswith("recorded") and res.files[0].exists()


@pytest.mark.parametrize("name", FAMILY_GAMES)
def test_recorded_families_are_a_fresh_enumeration(name, tmp_path):
    """The records that quick runs read are exactly what the enumeration gives now (and
    their key is the game's), so a quick figure and a full one draw the same families."""
    recorded = json.loads((RECORDED / f"{name}_families.json").read_text())
    game = get_game(name)
    assert recorded["key"] == family_key(game)
    assert recorded["families"] == pieces_records(equilibrium_pieces(game))
    fams, info = load_families(name, tmp_path, quick=True)
    assert info["enumeration"].startswith("recorded") and len(fams) == len(recorded["families"])
    assert not (tmp_path / f"{name}_families.json").exists()  # nothing cached: not enumerated


def test_range_of_a_dependent_parameter_in_a_continuum():
    # The shape of Billingham's kuhn3-third families: only b_J + b_Q is fixed (say s(P) =
    # 2/P), b_J free in [0, s].  Then b_Q = s - b_J ranges over [0, s] at each P, and a
    # substituted free parameter (as c_Q = 0 in Fig. 3) collapses the range to a point.
    P, bj = sp.Symbol("P", positive=True), sp.Symbol("b_J", real=True)
    fam = {"free": ("b_J",), "constraints": (sp.Ge(bj, 0), sp.Le(bj, 2 / P))}
    pots = np.array([3.0, 9.0])
    lo, hi = value_range(fam, 2 / P - bj, pots, P)
    assert np.allclose(lo, 0) and np.allclose(hi, 2 / pots)
    lo, hi = value_range(fam, 2 / P - bj, pots, P, subs={bj: sp.Rational(1, 9)})
    assert np.allclose(lo, 2 / pots - 1 / 9) and np.allclose(hi, lo)
    lo, _ = value_range(fam, 2 / P - bj, np.array([30.0]), P, subs={bj: sp.Rational(1, 9)})
    assert np.isnan(lo[0])  # 1/9 > 2/30: the family is empty there
