"""Iterations of the hold'em paper's fictitious play to its epsilon (the largest single
player's regret) on 3P-MMH, without and with collusion (the paper, sec. 3.4: 3,600 and
"up to" 8,500 iterations to a 0.01-equilibrium); the command line of
:func:`pokerdyn.figures.mercer.epsilon.fp_epsilon_log` (the logs ``pokerdyn reproduce --only
mercer_epsilon`` reads; it runs the missing ones itself with ``--heavy``).  The log goes to
``--out`` (JSON), the profile to its ``.npy`` sibling; a killed run resumes.

    python experiments/mercer_fp_epsilon.py 'mercer-mmh(players=3,collusion=weak,colluders=[1,2])' \
        --out figures/mercer/data/fp_eps_mmh3_weak12.json
"""
from __future__ import annotations

import argparse
from pathlib import Path

from pokerdyn.figures.mercer.epsilon import fp_epsilon_log


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--eps", type=float, default=0.01)
    ap.add_argument("--check", type=int, default=25)
    ap.add_argument("--save", type=int, default=250)
    ap.add_argument("--max-iterations", type=int, default=20_000)
    a = ap.parse_args()
    fp_epsilon_log(a.game, a.out, a.eps, a.check, a.save, a.max_iterations, progress=True)


if __name__ == "__main__":
    main()
