"""The parts of 2 <= P <= 5 of 3-player Kuhn poker (kuhn3) that the recorded sweeps
(figures/frontier/data/kuhn3_pot.json over 2:10, kuhn3_pot_low.json over 5/2:7/2) did not
sample: (2, 5/2), (7/2, 4), (9/2, 5) and (41/10, 9/2) (across the end (7 + sqrt 113)/4 = 4.408 of the
(3.898, 4.408) family and the start (7 + sqrt 97)/4 = 4.212 of the isolated equilibrium of
(9/2, 5)), each swept by ``pot_sweep`` (supports proposed by
seeded CFR+/FP runs at three pots, solved with P symbolic, certified exactly).  Writes
figures/frontier/data/kuhn3_pot_gaps.json (read by the figure ``kuhn3_pot``).

    nice -n 10 python experiments/kuhn3_pot_gaps.py     # about 15 min, 1 worker
    python experiments/kuhn3_pot_gaps.py --only 41/10:9/2  # one range, merged
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import sympy as sp

from pokerdyn.games.catalog.kuhn import kuhn3
from pokerdyn.solvers.symbolic.learned.pot_sweep import pot_sweep, sweep_records

OUT = Path(__file__).resolve().parents[1] / "figures/frontier/data/kuhn3_pot_gaps.json"
RANGES = (("2", "5/2"), ("7/2", "4"), ("9/2", "5"), ("41/10", "9/2"))
NOTE = ("sweeps of the parts of 2 <= P <= 5 that the 2:10 and 5/2:7/2 sweeps did not "
        "sample, and of (41/10, 9/2) across 4.408 (experiments/kuhn3_pot_gaps.py); each "
        "record has the keys of `pokerdyn equilibria kuhn3 --pots A:B --json`")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", action="append", default=[], metavar="A:B",
                    help="sweep only this range (repeatable); the file's other records stay")
    only = ap.parse_args().only
    bad = [r for r in only if tuple(r.split(":")) not in RANGES]
    if bad:
        ap.error(f"--only {bad[0]}: not one of " + ", ".join(f"{a}:{b}" for a, b in RANGES))
    old = {sw["pots"]: sw for sw in json.loads(OUT.read_text())["sweeps"]} \
        if OUT.exists() else {}
    recs = []
    for a, b in RANGES:
        if only and f"{a}:{b}" not in only:
            if f"{a}:{b}" in old:
                recs.append(old[f"{a}:{b}"])
            continue
        t = time.perf_counter()
        res = pot_sweep(kuhn3(), sp.Rational(a), sp.Rational(b), grid=3, seeds=2, workers=1,
                        tol=5e-5, rounds=0, max_pots=3, progress=False)
        rec = sweep_records(res)
        rec["bench"] = {"wall_seconds": time.perf_counter() - t,
                        "command": f"pot_sweep(kuhn3(), {a}, {b}, grid=3, seeds=2, workers=1, "
                                   "tol=5e-5, rounds=0, max_pots=3)"}
        recs.append(rec)
        print(f"{a}:{b}: {len(res.families)} families, {rec['bench']['wall_seconds']:.0f} s",
              flush=True)
    OUT.write_text(json.dumps({"note": NOTE, "sweeps": recs}, indent=1))


if __name__ == "__main__":
    main()
