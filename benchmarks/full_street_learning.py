"""Seeded CFR+ and fictitious-play limits of kuhn3-full-simplified at sample pots against the
committed whole-axis families (figures/frontier/data/full_street_families.json): the
max-norm distance of each limit to the nearest family valid at that pot, over the 13
frequencies dominance leaves free (a family's free parameters taken at the limit's own
values, clipped to the family's constraints where they are bounds on one parameter).

    PYTHONPATH=. python benchmarks/full_street_learning.py [--pots 3,5,7,9,12,15] [--seeds 2]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import sympy as sp


def families_at(rec: dict, pot: sp.Expr) -> list[dict]:
    from solvers.symbolic.family_records import parse_set

    out = []
    for pc in rec["pieces"]:
        s = parse_set(pc["p_set"])
        if s.contains(pot) is sp.true:
            out += pc["families"]
    return out


def distance(fam: dict, values: dict, names: list[str], pot: sp.Expr) -> float:
    """Max-norm distance from the limit to the family at ``pot``: a linear programme over
    the family's free parameters in [0, 1] (its strategy is affine in them at a fixed pot;
    the family's other constraints on them are left out, so this is a lower bound when the
    free parameters end up outside them)."""
    import numpy as np
    from scipy.optimize import linprog

    P = sp.Symbol("P", positive=True)
    xs = [sp.Symbol(k) for k in fam["free"]]
    rows, rhs = [], []
    for n in names:
        e = sp.expand(sp.sympify(fam["strategy"][n], locals={"P": P}).xreplace({P: pot}))
        a = [float(e.coeff(x, 1)) for x in xs]
        b = float(e.xreplace({x: 0 for x in xs}))
        rows += [a + [-1.0], [-c for c in a] + [-1.0]]
        rhs += [values[n] - b, b - values[n]]
    k = len(xs)
    res = linprog(np.r_[np.zeros(k), 1.0], A_ub=np.array(rows), b_ub=np.array(rhs),
                  bounds=[(0, 1)] * k + [(0, None)])
    return float(res.x[-1])


def main(argv: list[str] | None = None) -> int:
    from games import get_game
    from games.compiled import compile_game
    from solvers.symbolic.supports.propose import learned_profiles
    from figures.frontier.full_street import RECORD

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pots", default="3,5,7,9,12,15")
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--out", default="benchmarks/results/full_street_learning.json")
    a = ap.parse_args(argv)
    rec = json.loads(RECORD.read_text())
    names = rec["free_names"]
    game = get_game(rec["game"])
    rows = []
    for x in a.pots.split(","):
        pot = sp.Rational(x)
        fams = families_at(rec, pot)
        cg = compile_game(game, {"P": float(pot)})
        for run in learned_profiles(cg, seeds=a.seeds, seed=0,
                                    iterations={"cfr+": 200_000, "fp": 200_000}):
            d = min((distance(f, run.values, names, pot) for f in fams), default=float("inf"))
            rows.append({"pot": x, "method": run.method, "seed": run.seed,
                         "nash_conv": run.nash_conv, "families_at_pot": len(fams),
                         "distance": d})
            print(json.dumps(rows[-1]), flush=True)
    Path(a.out).write_text(json.dumps({"rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
