"""``pokerdyn reproduce``: every registered figure of figures/ into one folder with
report.md; parse -> :func:`pokerdyn.api.reproduce.reproduce` -> print (done.json resume,
worker processes, interrupts: there).  The command line draws into files only, so it
selects matplotlib's Agg backend for itself."""
from __future__ import annotations

import contextlib
import os
import sys

from pokerdyn.commands.common import SEED_MAX, emit_json, int_arg


def add_arguments(p) -> None:
    p.add_argument("--quick", action="store_true", help="small runs (under a minute in all)")
    p.add_argument("--heavy", action="store_true",
                   help="also compute what the figures keep cached (the Mercer paper's long "
                        "solves: tens of minutes); without it they read cached results")
    p.add_argument("--out", default="pokerdyn-out", help="output folder (default: pokerdyn-out)")
    p.add_argument("--seed", type=int_arg("seed", 0, SEED_MAX), default=0,
                   help="random seed (default 0)")
    p.add_argument("--only", default=None, help="comma-separated figure names to run")
    p.add_argument("--jobs", type=int_arg("jobs", 1, 64), default=None,
                   help="worker processes (default: the number of cores, at most the number "
                        "of figure groups; 1: run in this process)")
    p.add_argument("--force", action="store_true", help="recompute finished figures")
    p.add_argument("--json", action="store_true", help="print a JSON summary")


@contextlib.contextmanager
def _files_only_backend():
    """Agg while the command runs: it draws into files only, on a machine with or without
    a display.  Selected here, when the command runs, never on import (a notebook keeps its
    backend); the worker processes select it themselves."""
    old = os.environ.get("MPLBACKEND")
    os.environ["MPLBACKEND"] = "agg"  # read when matplotlib is first imported
    if "matplotlib" in sys.modules and "matplotlib.pyplot" not in sys.modules:
        import matplotlib

        matplotlib.use("agg")
    try:
        yield
    finally:
        if old is None:
            del os.environ["MPLBACKEND"]
        else:
            os.environ["MPLBACKEND"] = old


def run(args) -> int:
    from pokerdyn.api.reproduce import reproduce

    with _files_only_backend():
        result = reproduce(args.out, args.only, quick=args.quick, heavy=args.heavy,
                           jobs=args.jobs, force=args.force, seed=args.seed,
                           progress=not args.json)
    if args.json:
        emit_json(result.to_dict())
    else:
        print(result.to_text())
    return 0
