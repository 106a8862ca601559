"""A function mapped over items in forked worker processes, results in the items' order.

The whole-axis sweep (pots) and its completeness proof (leaves, pots) hand out independent
exact solves; each result is the same wherever it is computed, so a run gives the same
answer with any number of workers.  The callers put the arguments common to every item in
a module global before the call (forked children inherit it) instead of pickling them per
item.
"""
from __future__ import annotations

import multiprocessing as mp
from typing import Callable, Iterator, Sequence


def forked_map(fn: Callable, items: Sequence, workers: int, chunksize: int = 1) -> Iterator:
    """``fn`` of every item, in order (a lazy iterator); shared among ``workers`` forked
    processes where there are several items and workers (else here, one by one)."""
    if workers < 2 or len(items) < 2 or "fork" not in mp.get_all_start_methods():
        yield from map(fn, items)
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(min(workers, len(items)), mp.get_context("fork")) as pool:
        yield from pool.map(fn, items, chunksize=chunksize)
