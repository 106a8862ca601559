"""Gambit's ``enumpoly`` on SKP at a fixed pot (optional: needs ``pygambit``).

Exports SKP exactly (games.io.efg.to_efg_exact), loads it with pygambit, runs
``pygambit.nash.enumpoly_solve`` and checks the equilibria it finds against Billingham
eqs. (12)-(14) at that pot.  The baseline measured in the same run is pokerdyn's own exact
check of those three profiles (symbolic payoffs, every parameter's gain g_x = dE_p/dx has the
equilibrium sign), so the ratio says how much slower the general-purpose polynomial solver
is than verifying the closed forms.

    python benchmarks/bench_gambit.py [--pot 9] [--repeat 3]
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import sympy as sp

from pokerdyn.benchmarking import Measurement, script_main
from pokerdyn.games import get_game
from pokerdyn.games.io.efg import to_efg_exact
from pokerdyn.games.strategy import param_symbols
from pokerdyn.solvers import symbolic_payoffs

QUICK = ["--repeat", "1"]


def solutions(P):
    """Billingham eqs. (12)-(14) at pot P (benchmark data, for the check)."""
    return [dict(b_J=2 / (P + 1), c_K=0, d_Q=(P - 5) / (P + 1)),
            dict(b_J=2 / P, c_K=(P - 5) / (P + 1), d_Q=0),
            dict(b_J=2 / P, c_K=2 / (P + 2), d_Q=(P**2 - 5 * P - 12) / (P * (P + 1)))]


def verify(game, P) -> bool:
    """Exact equilibrium check of the three closed forms at pot P."""
    E, syms = symbolic_payoffs(game, {"P": P}), param_symbols(game)
    for sol in solutions(P):
        at = {syms[k]: v for k, v in sol.items()}
        for name, x in syms.items():
            g = sp.diff(E[game.owner(name)], x).subs(at)
            v = at[x]
            if not ((g == 0) or (g > 0 and v == 1) or (g < 0 and v == 0)):
                return False
    return True


def main(argv=None) -> list[Measurement]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pot", default="9")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    try:
        import pygambit as gbt
    except ImportError:
        print("pygambit is not installed: nothing to measure")
        return []
    game, P = get_game("skp"), sp.Rational(args.pot)
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "skp.efg"
        f.write_text(to_efg_exact(game, {"P": P}))
        g = gbt.read_efg(str(f))
    t_gambit, t_ours = [], []
    for _ in range(args.repeat):
        t = time.perf_counter()
        res = gbt.nash.enumpoly_solve(g)
        t_gambit.append(time.perf_counter() - t)
        t = time.perf_counter()
        ok = verify(game, P)
        t_ours.append(time.perf_counter() - t)
    found = sorted(tuple(round(float(eq[list(i.actions)[1]]), 9) for p in g.players
                         for i in p.infosets if len(i.actions) > 1) for eq in res.equilibria)
    print(f"pygambit {gbt.__version__}: enumpoly on skp at P={P}: {len(res.equilibria)} "
          f"equilibria in {min(t_gambit):.3f} s (best of {args.repeat})")
    print(f"  found (c_K, d_Q, b_J): {found}")
    print(f"pokerdyn exact check of eqs. (12)-(14): {ok} in {min(t_ours):.3f} s")
    print(f"ratio enumpoly / exact check: {min(t_gambit) / min(t_ours):.1f}")
    return [Measurement(f"skp at P = {P}: equilibria", "pokerdyn exact check of eqs. (12)-(14)",
                        min(t_ours), f"pygambit {gbt.__version__} enumpoly_solve", min(t_gambit),
                        note=f"best of {args.repeat}; check {ok}")]


if __name__ == "__main__":
    script_main(main)
