"""A function mapped over items in forked worker processes, results in the items' order.

The whole-axis sweep (pots) and its completeness proof (leaves, pots) hand out independent
exact solves; each result is the same wherever it is computed, so a run gives the same
answer with any number of workers.  The callers put the arguments common to every item in
a module global before the call (forked children inherit it) instead of pickling them per
item.
"""
from __future__ import annotations

import multiprocessing as mp
import threading
from typing import Callable, Iterator, Sequence


def forked_map(fn: Callable, items: Sequence, workers: int, chunksize: int = 1) -> Iterator:
    """``fn`` of every item, in order (a lazy iterator); shared among ``workers`` forked
    processes where there are several items and workers and :func:`can_fork` (else here,
    one by one)."""
    if workers < 2 or len(items) < 2 or not can_fork():
        yield from map(fn, items)
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(min(workers, len(items)), mp.get_context("fork")) as pool:
        yield from pool.map(fn, items, chunksize=chunksize)


def can_fork() -> bool:
    """Whether this process may fork workers: fork is available, this is no daemon, and
    it is single-threaded (a thread holding a lock at the fork, a dask or tqdm monitor
    thread say, would leave that lock held forever in the child; the rule of
    :func:`solvers.symbolic.piecewise._map_pieces`)."""
    return ("fork" in mp.get_all_start_methods() and not mp.current_process().daemon
            and threading.active_count() == 1)
