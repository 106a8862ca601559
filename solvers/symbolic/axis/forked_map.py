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

    pool = ProcessPoolExecutor(min(workers, len(items)), mp.get_context("fork"),
                               initializer=_default_signals)
    try:
        yield from pool.map(fn, items, chunksize=chunksize)
    except BaseException:  # an interrupt, a failed item or the consumer gone: the items
        terminate_workers(pool)  # running are not waited for (an exact solve takes minutes)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _default_signals() -> None:
    """In a forked worker: Ctrl-C (sent to the whole process group) is the parent's to
    handle, and SIGTERM (:func:`terminate_workers`) ends the worker at once; the parent's
    handlers (pokerdyn.cli's raise KeyboardInterrupt) would let the pool's worker loop
    catch it and go on to the next item."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def terminate_workers(pool) -> None:
    """Stop the worker processes of a ProcessPoolExecutor now, the items they run with them
    (Python 3.14's ``terminate_workers``; before it, SIGTERM to each)."""
    stop = getattr(pool, "terminate_workers", None)
    if stop is not None:
        stop()
        return
    for proc in list((getattr(pool, "_processes", None) or {}).values()):
        proc.terminate()


def can_fork() -> bool:
    """Whether this process may fork workers: fork is available, this is no daemon, and
    it is single-threaded (a thread holding a lock at the fork, a dask or tqdm monitor
    thread say, would leave that lock held forever in the child; the rule of
    :func:`solvers.symbolic.axis.piecewise._map_pieces`)."""
    return ("fork" in mp.get_all_start_methods() and not mp.current_process().daemon
            and threading.active_count() == 1)


def forked_results(fn, items: list, evaluate: bool = False, min_items: int = 3,
                   workers: int | None = None) -> list:
    """``fn`` of every item, in order, shared among ``workers`` forked processes (default:
    one per CPU, at most 4) where there are at least ``min_items`` (:func:`forked_map`)
    and sympy expressions come back; the results are sent back pickled and
    loaded without evaluation, so they are the expressions computed there, as they would
    be computed here (sympy's constructors would otherwise re-canonicalise them:
    -(b_J + b_Q)/8 comes back as -b_J/8 - b_Q/8).  ``evaluate``: loaded with evaluation
    (roots: CRootOf cannot be built unevaluated; canonical values come back unchanged)."""
    import os
    import pickle

    import sympy as sp

    n = workers or min(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                       else (os.cpu_count() or 1), 4)
    if n < 2 or len(items) < min_items or not can_fork():
        return [fn(it) for it in items]
    global _FORKED_FN
    _FORKED_FN = fn
    try:
        blobs = list(forked_map(_pickled_call, items, n))
    except (OSError, RuntimeError):  # no processes to be had here: the same work, serially
        return [fn(it) for it in items]
    finally:
        _FORKED_FN = None
    with sp.evaluate(evaluate):
        return [pickle.loads(b) for b in blobs]


_FORKED_FN = None


def _pickled_call(item) -> bytes:
    import pickle

    return pickle.dumps(_FORKED_FN(item))
