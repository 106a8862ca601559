"""Run a parameter sweep described by a TOML file (see README, "Parameter sweeps").

Cells are computed on local processes (--workers, default: all cores) or on a
dask.distributed cluster (--scheduler ADDRESS); each finished cell is written at once to a
Parquet dataset directory, and running the same command again computes only the missing
cells.  The file is checked before any work: its keys, types and values, and its size
(more than 100,000 cells or 100 estimated core-hours need --force)."""
from __future__ import annotations

from pokerdyn.commands.common import check_output_dir, emit_json, int_arg


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
    from pokerdyn.dynamics.sweep.spec import load_config
    from pokerdyn.dynamics.sweep.store import require_storage
    from pokerdyn.dynamics.sweep.runner import run_sweep

    from pokerdyn.commands.common import UsageError

    try:
        require_storage()
    except ImportError as exc:
        raise UsageError(str(exc)) from None
    # --force (the CLI-wide flag of long commands) lifts the size guard (cells x cost)
    config = load_config(args.config, force=bool(getattr(args, "force", False)))
    check_output_dir(args.out or str(config.output), "out")  # before any cell runs
    try:
        summary = run_sweep(config, output=args.out, workers=args.workers,
                            scheduler=args.scheduler, progress=not args.json)
    except ImportError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        emit_json(summary.to_dict())
        return 0
    print(f"sweep {summary.experiment}: {summary.cells} cells, {summary.skipped} already done, "
          f"{summary.computed} computed in {summary.seconds:.2f}s ({summary.executor})")
    if summary.invalid:
        print(f"{summary.invalid} unfinished cell file(s) (empty or truncated) were set aside "
              f"as .invalid-* and computed again")
    print(f"results: {summary.output}")
    return 0
