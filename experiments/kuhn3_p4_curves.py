"""The curves of equilibria of 3-player Kuhn poker (kuhn3, 4 cards) at P = 4: the three
supports that the seeded runs of ``pokerdyn equilibria kuhn3 --pot 4`` propose and whose
block of indifference equations the triangular and Groebner solvers do not finish (README,
issue 14), solved by :func:`solvers.symbolic.algebra.curves.support_curves`, and the
supports next to the curves' ends after them (``follow_curves``: the support solver first,
curves where it gives up).  Writes figures/frontier/data/kuhn3_p4_curves.json (read by the
figure ``kuhn3_p4_curves``).

    python experiments/kuhn3_p4_curves.py [--follow 6]   # 20-30 min, 1 process
"""
from __future__ import annotations

import argparse
import json
import resource
import time
from pathlib import Path

import sympy as sp

from pokerdyn.games.catalog.kuhn import kuhn3
from pokerdyn.solvers.symbolic.algebra import curves
from pokerdyn.solvers.symbolic.learned.equilibrium_set import FOLLOW, certify, follow_curves
from pokerdyn.solvers.symbolic.model.sparse_gains import counterfactual_gains, gain_system, iterated_dominance_at
from pokerdyn.solvers.symbolic.algebra.support_solve import SECONDS, SupportTimeout, deadline, solve_support

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
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--follow", type=int, default=FOLLOW,
                    help=f"supports next to the curves searched for curves (default {FOLLOW})")
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args()
    follow = args.follow
    g = kuhn3()
    sysm = gain_system(g, POT)
    dom = iterated_dominance_at(g, POT, "strict", system=sysm)
    gains = counterfactual_gains(sysm, dom.fixed)
    fixed = {**dom.fixed, **{n: 0 for n in gains.idle}}
    names = sysm.names
    fams, skipped, seen = [], list(SUPPORTS), set(SUPPORTS)

    def solve_case(case, values):
        seen.add(case)
        try:
            with deadline(SECONDS):
                fams.extend((case, f) for f in solve_support(gains.conditions, case, fixed,
                                                             names, values))
        except SupportTimeout:
            skipped.append(case)

    t = time.perf_counter()
    cs, notes = follow_curves(g, POT, gains.conditions, fixed, skipped, seen, solve_case,
                              follow)
    sec = time.perf_counter() - t
    print(f"{len(cs)} curves, {len(fams)} families next to them, {len(seen)} supports, "
          f"{sec:.0f} s", flush=True)
    families = []
    for case, f in fams:
        c = certify(sysm, f, [])
        families.append({"support": case, "free": list(f.free), "certified": c.certified,
                         "payoffs_at_witness": [str(p) for p in c.payoffs]})
    Path(args.out).write_text(json.dumps({
        "game": "kuhn3", "pot": "4", "conditions": [c.name for c in gains.conditions],
        "dominance_fixed": {k: int(v) for k, v in dom.fixed.items()},
        "idle": sorted(gains.idle), "start": list(SUPPORTS), "follow": follow,
        "seconds": sec, "supports_solved": sorted(seen),
        "searched_for_curves": sorted(set(skipped)), "notes": notes,
        "curves": [dict(curves.curve_record(c), samples=_samples(g, c)) for c in cs],
        "families": families,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "command": f"python experiments/kuhn3_p4_curves.py --follow {follow}"},
        indent=1))


if __name__ == "__main__":
    main()
