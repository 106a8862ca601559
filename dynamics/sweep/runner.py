"""Run a sweep's missing cells on local processes or a dask.distributed cluster.

Workers only compute (``run_timed``: experiment name, arguments, SeedSequence -> results);
this process writes every finished cell to the store as it arrives, so workers need no
shared filesystem and no pandas/pyarrow, and an interruption (Ctrl-C, a failing cell, a
lost cluster) keeps every cell finished so far.  Running the sweep again computes only the
missing cells.
"""
from __future__ import annotations

import contextlib
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Sequence

import numpy as np
from tqdm.auto import tqdm

from pokerdyn.games import GameError

from pokerdyn.dynamics.sweep.spec import Cell, SweepConfig
from pokerdyn.dynamics.sweep.store import cell_row, open_store, require_storage, write_cell
from pokerdyn.dynamics.sweep.experiments import run_cell
from pokerdyn.dynamics.summary import summary_repr


@dataclass(frozen=True)
class SweepSummary:
    """What one invocation did: ``computed`` cells were run now, ``skipped`` were found
    finished in the store."""

    __repr__ = summary_repr  # short: arrays by shape and range (issue 35)

    output: Path
    experiment: str
    cells: int
    skipped: int
    computed: int
    seconds: float
    executor: str
    invalid: int = 0  # cell files found unfinished (empty, truncated): set aside, recomputed

    def to_dict(self) -> dict:
        return {**self.__dict__, "output": str(self.output)}


def run_timed(name: str, params: dict, seed: np.random.SeedSequence) -> tuple[dict, float]:
    """Run one cell and measure its wall time (the task a worker executes)."""
    t0 = time.perf_counter()
    res = run_cell(name, params, seed)
    return res, time.perf_counter() - t0


Results = Iterator[tuple[Cell, tuple[dict, float]]]


def _serial(name: str, todo: Sequence[Cell]) -> Results:
    for c in todo:
        yield c, run_timed(name, c.params, c.seed)


def _worker_signals() -> None:
    """In each worker process: Ctrl-C and SIGTERM are the main process's to handle (it
    terminates the workers); a worker neither raises KeyboardInterrupt nor runs the CLI's
    handlers it inherited by fork."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _processes(name: str, todo: Sequence[Cell], workers: int) -> Results:
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from concurrent.futures.process import BrokenProcessPool

    ex = ProcessPoolExecutor(max_workers=workers, initializer=_worker_signals)
    try:
        futs = {ex.submit(run_timed, name, c.params, c.seed): c for c in todo}
        for f in as_completed(futs):
            try:
                res = f.result()
            except BrokenProcessPool:
                raise GameError("a sweep worker process died (killed, or out of memory); "
                                "the finished cells are kept: run the sweep again to resume, "
                                "with fewer --workers if memory ran out") from None
            yield futs[f], res
    except BaseException:  # interrupted: stop the running cells now, they are recomputed later
        from pokerdyn.solvers.symbolic.axis.forked_map import terminate_workers

        terminate_workers(ex)
        ex.shutdown(wait=False, cancel_futures=True)
        raise
    ex.shutdown()


def check_address(address: str) -> None:
    """GameError unless ``address`` is a well-formed scheduler address (ImportError without
    dask.distributed): checked before the store is created and before connecting, so that a
    malformed address is one clear error instead of a hanging half-built client."""
    try:
        from distributed.comm import parse_address
        from distributed.comm.addressing import parse_host_port
    except ImportError:
        raise ImportError("pokerdyn sweep --scheduler needs dask.distributed: "
                          "pip install 'pokerdyn[dask]'") from None
    try:
        proto, loc = parse_address(address, strict=False)
        if proto in ("tcp", "tls", "ws", "wss", "ucx"):
            parse_host_port(loc)
    except ValueError as exc:
        raise GameError(f"scheduler address {address!r} is not of the form "
                        f"tcp://HOST:PORT ({exc})") from None


def connect(address: str, timeout: str = "20s"):
    """A ``distributed.Client`` for the scheduler at ``address`` (checked first)."""
    check_address(address)
    from distributed import Client

    try:
        return Client(address, set_as_default=False, timeout=timeout)
    except (OSError, TimeoutError) as exc:
        raise GameError(f"cannot connect to the dask scheduler at {address!r}: {exc}") from None


def _dask(name: str, todo: Sequence[Cell], client) -> Results:
    from distributed import as_completed

    futs = []
    try:
        keys = [f"pokerdyn-sweep-{name}-{c.cell_id}" for c in todo]
        futs = client.map(run_timed, [name] * len(todo), [c.params for c in todo],
                          [c.seed for c in todo], key=keys)
        by_key = {f.key: c for f, c in zip(futs, todo)}
        for f, res in as_completed(futs, loop=client.loop, with_results=True):
            yield by_key[f.key], res
    finally:
        client.cancel(futs)
        client.close()


def run_sweep(config: SweepConfig, output: str | os.PathLike | None = None,
              workers: int | None = None, scheduler: str | None = None,
              progress: bool = True, on_cell: Callable[[Cell], None] | None = None
              ) -> SweepSummary:
    """Compute every cell of ``config`` that ``output`` does not hold yet.

    ``workers``: local processes (default ``os.cpu_count()``; 1 runs in this process);
    ``scheduler``: a dask.distributed scheduler address (then ``workers`` is ignored).
    ``on_cell(cell)`` is called after each cell is written.  Results are identical for any
    ``workers``/``scheduler``: each cell's seed is fixed by the config.
    """
    require_storage()
    out = Path(output) if output is not None else config.output
    if out is None:
        raise GameError("no output given: set [sweep] output or pass --out")
    if workers is not None and workers < 1:
        raise GameError(f"workers={workers} is outside the allowed range [1, inf)")
    if scheduler is not None:
        check_address(scheduler)
    cells = config.cells()
    invalid: list[Path] = []
    done = open_store(out, config, set_aside=invalid)
    todo = [c for c in cells if c.cell_id not in done]
    if not todo:
        gen, executor = _serial(config.experiment, ()), "none"
    elif scheduler is not None:
        gen, executor = _dask(config.experiment, todo, connect(scheduler)), f"dask:{scheduler}"
    else:
        n = min(workers or os.cpu_count() or 1, max(len(todo), 1))
        gen = _serial(config.experiment, todo) if n == 1 else \
            _processes(config.experiment, todo, n)
        executor = f"processes:{n}"
    t0 = time.perf_counter()
    computed = 0
    bar = tqdm(total=len(cells), initial=len(cells) - len(todo), unit="cell",
               desc=f"sweep {config.experiment}", disable=not progress or not todo)
    with contextlib.closing(gen), bar:
        for cell, (res, secs) in gen:
            write_cell(out, cell, cell_row(config, cell, res, secs))
            computed += 1
            bar.update()
            if on_cell is not None:
                on_cell(cell)
    return SweepSummary(out, config.experiment, len(cells), len(cells) - len(todo), computed,
                        time.perf_counter() - t0, executor, len(invalid))
