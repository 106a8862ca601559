"""Heads-up preflop equity table benchmark (games.preflop.equity).

Rebuilds the exact 169 x 169 table from scratch (every board through its suit-isomorphism
class) and reports: seconds for the canonical boards, the phevaluator ranks and the class
kernel (numba compiled before timing), peak RSS, the stored file's size, and whether the
counts equal the copy shipped with the package (reproducibility).

    python benchmarks/bench_equity.py [--write PATH]
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from pokerdyn.benchmarking import Measurement, peak_rss_mb, script_main

QUICK: list[str] = []   # the table is the benchmark (about a minute)


def main(argv: list[str] | None = None) -> list[Measurement]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", type=Path, help="also save the rebuilt table here")
    a = ap.parse_args(argv)
    import numpy as np
    from numba import get_num_threads

    from pokerdyn.games.preflop.boards import canonical_boards
    from pokerdyn.games.preflop.equity import SHIPPED, build_hu_equity, load_table, save_table, \
        showdown_counts

    t = time.perf_counter()
    boards, sizes = canonical_boards()
    t_boards = time.perf_counter() - t
    showdown_counts(boards[:8], sizes[:8])  # compile (or load) the kernels
    t = time.perf_counter()
    table = build_hu_equity()
    t_build = time.perf_counter() - t
    with tempfile.TemporaryDirectory() as tmp:
        path = save_table(table, a.write or Path(tmp) / "hu_equity.npz")
        size = path.stat().st_size
    shipped = load_table(SHIPPED)
    same = shipped is not None and all(np.array_equal(getattr(table, k), getattr(shipped, k))
                                       for k in ("win", "tie", "total"))
    rss = peak_rss_mb()
    print(f"canonical boards: {len(boards):,} in {t_boards:.2f} s; table build (warm kernels, "
          f"{get_num_threads()} threads): {t_build:.2f} s; npz {size / 1e3:.0f} kB; "
          f"peak RSS {rss:.0f} MB; equal to the shipped copy: {same}")
    return [Measurement("canonical boards", "pokerdyn", t_boards),
            Measurement("heads-up equity table (169 x 169), warm kernels", "pokerdyn", t_build,
                        note=f"{get_num_threads()} threads; equal to the shipped copy: {same}")]


if __name__ == "__main__":
    script_main(main)
