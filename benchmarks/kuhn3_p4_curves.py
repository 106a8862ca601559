"""The curves of equilibria of 3-player Kuhn poker (kuhn3, 4 cards) at P = 4: the two
supports that the seeded runs of ``pokerdyn equilibria kuhn3 --pot 4`` propose and whose
block of indifference equations the triangular and Groebner solvers do not finish (README,
issue 14), solved by :func:`solvers.symbolic.supports.curves.support_curves` with every
unknown tried as the curve's parameter.  Writes figures/frontier/data/kuhn3_p4_curves.json (read by the
figure ``kuhn3_p4_curves``) with the time each support took.

    PYTHONPATH=. python benchmarks/kuhn3_p4_curves.py     # a few minutes, one process
"""
from __future__ import annotations

import json
import resource
import time
from pathlib import Path

import sympy as sp

from games.catalog.kuhn import kuhn3
from solvers.symbolic.supports import curves
from solvers.symbolic.supports.gains import (counterfactual_gains, gain_system,
                                             iterated_dominance_at)

OUT = Path(__file__).resolve().parents[1] / "figures/frontier/data/kuhn3_p4_curves.json"
SUPPORTS = ("ccbbcbcbabccbcbbaccbbcbccbc", "ccbbcbcbabccbcbbaccbccbccbc",
            "ccbbcbcbabccccbbaccbbcbccbc")  # skipped at P = 4 by the support solver (30 s)
POT = sp.Integer(4)


def _samples(g, c, n: int = 60) -> dict:
    """The curve at ``n`` points per part: its parameter, the payoffs, the frequencies."""
    pts, pay = curves.sampled_payoffs(g, POT, c, n)
    return {"parameter": [p[c.parameter] for p in pts], "payoffs": pay.tolist(),
            "frequencies": {k: [p[k] for p in pts] for k, _ in c.values}}


def main() -> None:
    g = kuhn3()
    sysm = gain_system(g, POT)
    dom = iterated_dominance_at(g, POT, "strict", system=sysm)
    gains = counterfactual_gains(sysm, dom.fixed)
    fixed = {**dom.fixed, **{n: 0 for n in gains.idle}}
    recs = []
    for case in SUPPORTS:
        t = time.perf_counter()
        cs, notes = curves.support_curves(g, POT, gains.conditions, case, fixed)
        sec = time.perf_counter() - t
        recs.append({"support": case, "seconds": sec, "notes": notes,
                     "curves": [dict(curves.curve_record(c), samples=_samples(g, c))
                                for c in cs]})
        print(f"{case}: {len(cs)} curves in {sec:.0f} s", flush=True)
    OUT.write_text(json.dumps({
        "game": "kuhn3", "pot": "4", "conditions": [c.name for c in gains.conditions],
        "dominance_fixed": {k: int(v) for k, v in dom.fixed.items()},
        "idle": sorted(gains.idle), "supports": recs,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "command": "PYTHONPATH=. python benchmarks/kuhn3_p4_curves.py"}, indent=1))


if __name__ == "__main__":
    main()
