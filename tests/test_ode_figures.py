"""Smoke test of the ODE figures in quick mode, asserting their key numbers."""
from __future__ import annotations

import numpy as np

from pokerdyn.figures.registry import FIGURES, load

ODE_FIGS = ("ode_cycles", "ode_manifold", "ode_fates", "ode_expectations", "ode_portrait3d",
            "ode_basin")


def test_ode_figures_render_quick(tmp_path):
    assert set(ODE_FIGS) <= set(FIGURES)
    res = {n: load(n).main(tmp_path, quick=True) for n in ODE_FIGS}
    for r in res.values():
        assert all(p.exists() and p.stat().st_size > 5000 for p in r.files)
    periods = res["ode_cycles"].numbers["periods around S1"]
    assert np.all(np.diff(periods) > 0)           # period grows with amplitude (Fig. 7)
    assert float(res["ode_cycles"].numbers["max relative drift of H on a cycle (S1)"]) < 1e-8
    a, b = res["ode_fates"].numbers["final states"]
    assert a["c_K"] < 1e-3 < a["d_Q"] and b["d_Q"] < 1e-3 < b["c_K"]   # different fates
    counts = res["ode_basin"].numbers
    assert counts["c_K=0"] > 50 and counts["d_Q=0"] > 50
