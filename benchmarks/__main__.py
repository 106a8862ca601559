"""``python -m benchmarks NAME|all|list [--quick] [--out FILE.json] [--markdown FILE.md]
[-- SCRIPT ARGS]``: run registered benchmarks through the harness (pokerdyn.benchmarking),
write their results as one JSON file and, with ``--markdown``, their tables into the
generated section of BENCHMARKS.md.  ``--table RESULTS.json`` writes the tables of a saved
result file without running anything."""
from __future__ import annotations

import argparse
import sys

from pokerdyn import benchmarking

from . import BENCHMARKS, script


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    extra: list[str] = []
    if "--" in argv:
        k = argv.index("--")
        argv, extra = argv[:k], argv[k + 1:]
    ap = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", help="benchmark names, 'all' or 'list'")
    ap.add_argument("--quick", action="store_true", help="each script's smallest settings")
    ap.add_argument("--out", default=None, help="write the results here (JSON)")
    ap.add_argument("--markdown", default=None, metavar="FILE.md",
                    help="rewrite the generated tables of this file (BENCHMARKS.md)")
    ap.add_argument("--table", default=None, metavar="RESULTS.json",
                    help="the tables of a saved result file (nothing is run)")
    a = ap.parse_args(argv)
    if a.names == ["list"] or (not a.names and a.table is None):
        for name, (file, what) in BENCHMARKS.items():
            print(f"{name:20s} {file:24s} {what}")
        return 0
    if a.table is not None:
        runs = benchmarking.load(a.table)
    else:
        names = list(BENCHMARKS) if a.names == ["all"] else a.names
        unknown = [n for n in names if n not in BENCHMARKS]
        if unknown:
            ap.error(f"unknown benchmark {unknown[0]!r}; allowed: all, list, "
                     + ", ".join(BENCHMARKS))
        if extra and len(names) != 1:
            ap.error("arguments after -- go to one benchmark; name one")
        runs, failed = [], []
        for name in names:
            print(f"== {name}", flush=True)
            try:
                runs.append(benchmarking.run_script(name, script(name), extra, quick=a.quick))
            except RuntimeError as exc:   # the others still run; the exit status says so
                print(f"benchmarks: {exc}", file=sys.stderr, flush=True)
                failed.append(name)
                continue
            if a.out:   # after each benchmark, so an interrupted 'all' keeps what ran
                benchmarking.save(runs, a.out)
    if a.markdown:
        from pathlib import Path
        path = Path(a.markdown)
        path.write_text(benchmarking.update_markdown(path.read_text(encoding="utf-8"), runs),
                        encoding="utf-8")
    elif a.table is not None:
        for run in runs:
            print(benchmarking.markdown(run))
    if a.table is None and failed:
        print(f"benchmarks: failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
