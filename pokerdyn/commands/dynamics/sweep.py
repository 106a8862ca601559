"""Run a parameter sweep described by a TOML file (see README, "Parameter sweeps").

Cells are computed on local processes (--workers, default: all cores) or on a
dask.distributed cluster (--scheduler ADDRESS); each finished cell is written at once to a
Parquet dataset directory, and running the same command again computes only the missing
cells.  The file is checked before any work: its keys, types and values, and its size
(more than 100,000 cells or 100 estimated core-hours need --force).  The work is
:func:`pokerdyn.api.dynamics.sweep`."""
from __future__ import annotations

from pokerdyn.commands.common import emit_json, int_arg


MAX_WORKERS = 1024  # local processes: each a Python interpreter with numpy loaded


def add_arguments(p) -> None:
    p.add_argument("config", help="sweep file (TOML)")
    p.add_argument("--workers", type=int_arg("workers", 1, MAX_WORKERS), default=None,
                   help="local worker processes (default: number of cores; 1: this process; "
                        f"at most {MAX_WORKERS})")
    p.add_argument("--scheduler", default=None,
                   help="dask.distributed scheduler address, e.g. tcp://10.0.0.5:8786")
    p.add_argument("--out", default=None, help="output directory (overrides [sweep] output)")
    p.add_argument("--json", action="store_true", help="print a JSON summary")


def run(args) -> int:
    from pokerdyn.api.dynamics import sweep
    from pokerdyn.commands.common import UsageError

    try:
        # --force (the CLI-wide flag of long commands) lifts the size guard (cells x cost)
        res = sweep(args.config, out=args.out, workers=args.workers, scheduler=args.scheduler,
                    force=bool(getattr(args, "force", False)), progress=not args.json)
    except ImportError as exc:  # pandas/pyarrow or dask.distributed missing: one line
        raise UsageError(str(exc)) from None
    if args.json:
        emit_json(res.to_dict())
    else:
        print(res.to_text())
    return 0
