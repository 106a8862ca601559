"""Analysis of the skp ODE model (Billingham sec. 4.1): equilibria S1, S2, S3 and their
eigen-structure, S2's change of stability at P*, first integrals on c_K = 0, periods,
Floquet multipliers, the stable manifold of S3 and the basins of the attracting planes."""
from __future__ import annotations

import json

import numpy as np
import pytest
import sympy as sp
from scipy.integrate import trapezoid

from pokerdyn.games import get_game
from pokerdyn.dynamics import (basin_map, find_cycle, find_equilibria, find_first_integrals,
                      manifold_paths, ode_model, ode_rhs)
from pokerdyn.dynamics import simulate_ode as simulate
from pokerdyn.dynamics.ode.equilibria import classify

R = sp.Rational
PSTAR = (5 + sp.sqrt(73)) / 2          # Billingham: P* = (5 + sqrt 73)/2


@pytest.fixture(scope="module")
def m9():
    return ode_model(get_game("skp"), {"P": 9})


@pytest.fixture(scope="module")
def eqs9(m9):
    return {tuple(e.exact.values()): e for e in find_equilibria(m9)}


# Billingham (12)-(14) at P = 9
S1, S2, S3 = (R(1, 5), 0, R(2, 5)), (R(2, 9), R(2, 5), 0), (R(2, 9), R(2, 11), R(4, 15))


def _face(e, plane):
    return next(f for f in e.faces if f.plane == plane)


def test_equilibria_at_P9(m9, eqs9):
    corners = {(a, b, c) for a in (0, 1) for b in (0, 1) for c in (0, 1)}
    assert set(eqs9) == corners | {S1, S2, S3}
    for e in eqs9.values():
        assert np.allclose(m9.f(0, e.x), 0, atol=1e-15)


def test_S1_stable_line_and_centre_in_cK0(eqs9):
    e = eqs9[S1]
    assert (e.stable_dim, e.unstable_dim, e.centre_dim) == (1, 0, 2)
    f = _face(e, "c_K=0")
    assert f.transverse.real < 0                       # 1-D stable manifold
    assert np.allclose(f.in_plane.real, 0, atol=1e-14) and np.all(f.in_plane.imag != 0)
    assert "centre (oscillatory, in c_K=0)" in e.type


def test_S2_stable_line_and_centre_in_dQ0(eqs9):
    e = eqs9[S2]
    assert (e.stable_dim, e.unstable_dim, e.centre_dim) == (1, 0, 2)
    f = _face(e, "d_Q=0")
    assert f.transverse.real < 0
    assert np.allclose(f.in_plane.real, 0, atol=1e-14) and np.all(f.in_plane.imag != 0)
    assert "in d_Q=0" in e.type


def test_S3_saddle_with_oscillatory_stable_manifold(eqs9):
    e = eqs9[S3]
    assert (e.stable_dim, e.unstable_dim, e.centre_dim) == (2, 1, 0)
    st = e.eigenvalues[e.eigenvalues.real < 0]
    assert np.all(np.abs(st.imag) > 0.1)               # spiral: oscillatory stable manifold
    assert e.type.startswith("saddle") and "2-D stable (oscillatory)" in e.type


@pytest.mark.parametrize("pot, stable", [(R(67, 10), False), (R(68, 10), True),
                                         (R(9), True)])
def test_S2_changes_stability_at_Pstar(pot, stable):
    assert R(67, 10) < PSTAR < R(68, 10)
    m = ode_model(get_game("skp"), {"P": pot})
    S = {x: v for x, v in zip(m.symbols, (2 / pot, (pot - 5) / (pot + 1), 0))}
    e = classify(m, S)
    assert (_face(e, "d_Q=0").transverse.real < 0) == stable
    # S3 exists in the cube only above P*
    has_S3 = any(0 < v < 1 for v in [(pot**2 - 5 * pot - 12) / (pot * (pot + 1))])
    assert has_S3 == (pot > PSTAR)


def test_S2_transverse_eigenvalue_vanishes_at_Pstar_exactly():
    game = get_game("skp")
    xs, rhs, _ = ode_rhs(game)
    P = game.params[0]
    S2s = {xs[0]: 2 / P, xs[1]: (P - 5) / (P + 1), xs[2]: 0}
    lam = sp.diff(rhs[2], xs[2]).subs(S2s)
    assert sp.simplify(lam.subs(P, PSTAR)) == 0
    assert sp.simplify(lam * P * (P + 1)**2 + (P**2 - 5 * P - 12)) == 0


def test_first_integral_cK0_closed_and_conserved(m9):
    fis = {f.plane: f for f in find_first_integrals(m9)}
    assert {"c_K=0", "d_Q=0"} <= set(fis)
    H = fis["c_K=0"]
    assert H.hessian_definite and H.centre == {"b_J": R(1, 5), "d_Q": R(2, 5)}
    bJ, dQ = sp.symbols("b_J d_Q", real=True)
    # dH/dt = 0 along (21)/(23) restricted to c_K = 0
    fb = bJ * (1 - bJ) * (R(4, 10) - dQ)
    fd = dQ * (1 - dQ) * (-R(2, 10) + bJ)
    Hs = H.H.subs({s: {"b_J": bJ, "d_Q": dQ}[s.name] for s in H.H.free_symbols})
    assert sp.simplify(sp.diff(Hs, bJ) * fb + sp.diff(Hs, dQ) * fd) == 0
    # numerically constant to 1e-9 over 10 periods (period ~ 32.6)
    tr = simulate(m9, [0.3, 0.0, 0.4], 330.0, t_eval=np.linspace(0, 330, 3301),
                  rtol=1e-12, atol=1e-14)
    h = H.along(tr.names, tr.states)
    assert np.max(np.abs(h - h[0])) / abs(h[0]) < 1e-9


def test_period_agrees_between_integrators(m9):
    kw = {"rtol": 1e-12, "atol": 1e-14, "n_returns": 1, "floquet": False, "t_max": 100.0}
    a = find_cycle(m9, [0.3, 0.0, 0.4], ("d_Q", 0.4), method="DOP853", **kw)
    b = find_cycle(m9, [0.3, 0.0, 0.4], ("d_Q", 0.4), method="Radau", **kw)
    assert 30 < a.period < 35
    assert abs(a.period - b.period) / a.period < 1e-8


def test_floquet_multipliers_of_cycle_in_cK0(m9):
    c = find_cycle(m9, [0.3, 0.0, 0.4], ("d_Q", 0.4), n_returns=2)
    assert c.closed and c.closure < 1e-8
    mu = c.multipliers
    # two multipliers 1 (flow direction and the neutral nested family, a Jordan block) ...
    assert np.allclose(mu[:2], 1, atol=1e-4)
    # ... and the transverse one exp(int k1 (b_J - 2/P) dt) (eq. (22) at c_K = 0)
    o = c.orbit
    expected = np.exp(trapezoid(o.column("b_J") - 2 / 9, o.times))
    assert abs(mu[2] - expected) < 1e-4 and expected < 1     # attracting in 3-D
    # Billingham (15): the cycle's mean E1 equals E1 at S1, -(P-2)/(12(P+1)) = -7/120
    assert abs(o.payoffs[-1, 0] / c.period + 7 / 120) < 1e-8


def test_stable_manifold_of_S3_separates_basins(m9, eqs9):
    e = eqs9[S3]
    (path,) = manifold_paths(m9, e, "stable", t_end=400.0, radius=1e-2)
    far = path.states[-1]
    d0 = np.linalg.norm(far - e.x)
    assert d0 > 0.05                                   # the path has left S3 ...
    fwd = simulate(m9, far, 400.0, t_eval=[0.0, 400.0], rtol=1e-11, atol=1e-13)
    assert np.linalg.norm(fwd.states[-1] - e.x) < 0.2 * d0   # ... and flows back to it
    # pushed off the manifold along S3's unstable direction, it goes to different planes
    u = np.real(e.eigenvectors[:, np.argmax(e.eigenvalues.real)])
    bm = basin_map(m9, [far + 0.02 * u, far - 0.02 * u], t_end=800.0)
    assert sorted(bm.faces[i] for i in bm.labels) == ["c_K=0", "d_Q=0"]


def test_basins_of_the_attracting_planes(m9):
    pts = [[0.22, 0.05, 0.6], [0.22, 0.6, 0.05]]
    bm = basin_map(m9, pts, t_end=600.0)
    assert [bm.faces[i] for i in bm.labels] == ["c_K=0", "d_Q=0"]


def test_cli_analyze_json_and_errors(capsys):
    from pokerdyn.cli import main
    args = ["ode", "skp", "--pot", "9"]
    assert main(args + ["--analyze", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    s1 = next(e for e in data["equilibria"] if e["exact"] == {"b_J": "1/5", "c_K": "0",
                                                             "d_Q": "2/5"})
    assert len(s1["eigenvalues"]) == 3 and "centre" in s1["type"]
    assert any(f["plane"] == "c_K=0" and f["closed_orbits"] for f in data["first_integrals"])
    assert main(args + ["--init", "0.2,1.5,0.1"]) == 2
    assert "outside the allowed range [0, 1]" in capsys.readouterr().err
    assert main(args + ["--k", "1,0,1"]) == 2
    assert "k=0" in capsys.readouterr().err
    assert main(args + ["--init", "0.3,0.2,0.1", "--t-end", "50", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["final"]) == {"b_J", "c_K", "d_Q"} and len(out["payoff_integrals"]) == 3


@pytest.mark.parametrize("pot", [R(67, 10), R(9)])
def test_cycles_around_S2_attract_only_above_Pstar(pot):
    """Billingham footnote 2: the cycles around S2 (in d_Q = 0) are unstable for P < P*."""
    m = ode_model(get_game("skp"), {"P": pot})
    b2, c2 = float(2 / pot), float((pot - 5) / (pot + 1))
    c = find_cycle(m, [b2 + 0.05, c2, 0.0], ("c_K", c2), n_returns=1, t_max=200.0)
    transverse = c.multipliers[np.argmax(np.abs(c.multipliers - 1))]
    assert (abs(transverse) < 1) == (pot > PSTAR)


def test_general_system_18_to_20_same_structure():
    """Billingham: the local picture also holds for the general system (18)-(20); here
    g = sin(pi x), f = arctan."""
    m = ode_model(get_game("skp"), {"P": 9}, g=lambda z: sp.sin(sp.pi * z), f=sp.atan)
    eqs = {tuple(e.exact.values()): e for e in find_equilibria(m)}
    assert {S1, S2, S3} <= set(eqs)
    assert "centre (oscillatory, in c_K=0)" in eqs[S1].type
    assert "centre (oscillatory, in d_Q=0)" in eqs[S2].type
    assert (eqs[S3].stable_dim, eqs[S3].unstable_dim) == (2, 1)
