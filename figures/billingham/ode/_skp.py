"""Shared set-up of the ODE figures (Billingham sec. 4.1): the skp model at P = 9,
k_1 = k_2 = k_3 = 1, its equilibria S1, S2, S3 found by the analysis (not typed), and the
two initial states of Figs. 9-10 (either side of the stable manifold of S3)."""
from __future__ import annotations

from functools import lru_cache

from pokerdyn.games import get_game
from pokerdyn.dynamics import Equilibrium, ODEModel, find_equilibria, ode_model

POT = 9
# two initial frequency triples (b_J, c_K, d_Q) on either side of the manifold of S3
STARTS = ((0.3, 0.2, 0.4), (0.3, 0.4, 0.2))


@lru_cache(maxsize=None)
def skp_model() -> ODEModel:
    return ode_model(get_game("skp"), {"P": POT}, k=1)


@lru_cache(maxsize=None)
def named_equilibria() -> dict[str, Equilibrium]:
    """S1 (centre in c_K = 0), S2 (centre in d_Q = 0), S3 (saddle, interior)."""
    out = {}
    for e in find_equilibria(skp_model()):
        planes = {f.plane for f in e.faces}
        if e.centre_dim == 2 and "c_K=0" in planes:
            out["S1"] = e
        elif e.centre_dim == 2 and "d_Q=0" in planes:
            out["S2"] = e
        elif not planes:
            out["S3"] = e
    return out
