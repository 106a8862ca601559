"""Why the hold'em paper's footnote 6 finds strong-collusion gains "on the order of 1e-4" in
3P-SMH where we find +0.080 antes per hand (seats 2 and 3): every reading the text and the
Java code allow, computed from the rules; the command line of
:func:`pokerdyn.figures.mercer.strong.run` (its module docstring lists the readings; ``pokerdyn
reproduce --only mercer_strong --heavy`` runs it itself).

    nice python experiments/mercer_strong_readings.py --out figures/mercer/data/strong_readings.json
"""
from __future__ import annotations

import argparse
from pathlib import Path

from pokerdyn.figures.mercer.strong import run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tol", type=float, default=2e-4)
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args()
    run(a.out, a.tol, progress=True)


if __name__ == "__main__":
    main()
