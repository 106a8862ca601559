"""The hold'em paper's open question (sec. 5): how collusion pays as the number of colluders
grows; the command line of :func:`pokerdyn.figures.mercer.colluders.run` (the data of
``pokerdyn reproduce --only mercer_colluders``, which runs it itself with ``--heavy``).

For Mercer Hold'em with N players and k colluders (the last k seats) under each constraint
(strong, weak, pot), CFR+ solves the collusion game and the game without collusion.  Each
solve is cached in ``--out`` (JSON, one entry per game), so an interrupted run resumes;
``--shard i/m`` solves every m-th game from the i-th (run m shards in parallel, each to its
own ``--out``, then merge the files with ``--merge``).

    python experiments/mercer_colluders.py --players 3 4 --out figures/mercer/data/mercer_colluders.json
    python experiments/mercer_colluders.py --players 5 --iterations 20 --growth 2 --shard 0/2 --out a.json
"""
from __future__ import annotations

import argparse
from pathlib import Path

from pokerdyn.figures.mercer.colluders import merge, run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="+", default=[3, 4])
    ap.add_argument("--game", default="smh", choices=("smh", "mmh"))
    ap.add_argument("--tol", type=float, default=0.002)
    ap.add_argument("--iterations", type=int, default=400)
    ap.add_argument("--growth", type=float, default=1.1,
                    help="NashConv checkpoints: 1..10 then geometric by this factor")
    ap.add_argument("--shard", default="0/1", help="i/m: every m-th game from the i-th")
    ap.add_argument("--merge", type=Path, nargs="*", default=[],
                    help="only merge these result files into --out")
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args()
    if a.merge:
        merge(a.out, a.merge)
        return
    i, m = (int(x) for x in a.shard.split("/"))
    run(a.out, a.players, a.game, a.tol, a.iterations, a.growth, (i, m), progress=True)


if __name__ == "__main__":
    main()
