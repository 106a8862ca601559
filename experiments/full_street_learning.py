"""Seeded CFR+ and fictitious-play limits of kuhn3-full-simplified at sample pots against the
committed whole-axis families (figures/frontier/data/full_street_families.json): the
max-norm distance of each limit to the nearest family valid at that pot, over the 13
frequencies dominance leaves free (a point of the family satisfying all its constraints,
:mod:`solvers.symbolic.learned.limits`); runs farther than 1e-3 are run again with 4x the
iterations, three times at most (200,000 to 12.8 M iterations), and every round's
iterations, NashConv and distance are kept.

    python experiments/full_street_learning.py [--pots 5/2,3,...] [--seeds 2]
        [--rounds 3] [--workers 2] [--out FILE]

The default pots are the rational piece ends 3, 7/2, 4, 5, one pot inside each of the three
ranges where three equilibria coexist (13/4, 79/20, 87/20) and 5/2, 7, 9, 12, 15.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

POTS = "5/2,3,13/4,7/2,79/20,4,87/20,5,7,9,12,15"


def main(argv: list[str] | None = None) -> int:
    import sympy as sp

    from pokerdyn.games import get_game
    from pokerdyn.figures.frontier.full_street import RECORD
    from pokerdyn.solvers.symbolic.learned.limits import limits_at

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pots", default=POTS)
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", default="benchmarks/results/full_street_learning.json")
    a = ap.parse_args(argv)
    rec = json.loads(RECORD.read_text())
    game = get_game(rec["game"])
    rows, seconds = [], {}
    for x in a.pots.split(","):
        t = time.perf_counter()
        fams, lims = limits_at(game, rec, sp.Rational(x), seeds=a.seeds, rounds=a.rounds,
                               workers=a.workers)
        seconds[x] = round(time.perf_counter() - t, 1)
        for lim in lims:
            rows.append(lim.row(x, len(fams)))
            print(json.dumps(rows[-1]), flush=True)
    out = {"command": "python experiments/full_street_learning.py "
                      + " ".join(argv if argv is not None else sys.argv[1:]),
           "target": 1e-3, "seeds": a.seeds, "rounds": a.rounds, "seconds": seconds,
           "rows": rows}
    Path(a.out).write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
