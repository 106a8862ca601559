"""Fictitious play against Freund-Schapire (hedge) on the 3-seat ICM jam/fold game of
figures.tournament.fp_hedge: NashConv against iterations and seconds, the figure and a JSON
of the histories.

    python benchmarks/bench_fp_hedge.py [--k 8] [--samples 2000] [--target 1e-5]
        [--seconds 150] [--out benchmarks/results] [--json figures/tournament/data/fp_hedge.json]

The JSON is what ``pokerdyn reproduce --only tournament_fp_hedge`` draws (package data).
"""
from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from pokerdyn.benchmarking import Measurement, script_main

DATA_JSON = Path(__file__).resolve().parents[1] / "figures" / "tournament" / "data" / "fp_hedge.json"
_TMP = Path(tempfile.gettempdir()) / "pokerdyn-bench-fp-hedge"
QUICK = ["--k", "3", "--samples", "200", "--target", "1e-2", "--seconds", "2",
         "--out", str(_TMP), "--json", str(_TMP / "fp_hedge.json")]   # never the package data


def measurements(r: dict) -> list[Measurement]:
    """Seconds to the target NashConv (the whole capped run where it is not reached)."""
    def seconds(x: dict) -> tuple[float, str]:
        hit = x["seconds_to_target"]
        return (hit, f"{x['iterations_to_target']:,} it.") if hit is not None else \
            (x["seconds"], f"not reached in {x['iterations']:,} it. ({x['nash_conv']:.1e})")
    (fp, fnote), (hd, hnote) = seconds(r["fp"]), seconds(r["hedge"])
    return [Measurement(f"to NashConv {r['target']:g}, 3-seat ICM jam/fold (k={r['k']})",
                        "pokerdyn FP", fp, "pokerdyn hedge", hd, note=f"FP {fnote}; hedge {hnote}")]


def main(argv: list[str] | None = None) -> list[Measurement]:
    from pokerdyn.figures.tournament.fp_hedge import compare, fp_hedge_figure
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--k", type=int, default=8)
    ap.add_argument("--samples", type=int, default=2000)
    ap.add_argument("--target", type=float, default=1e-5)
    ap.add_argument("--seconds", type=float, default=150.0)
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results"))
    ap.add_argument("--json", type=Path, default=DATA_JSON)
    a = ap.parse_args(argv)
    r = compare(k=a.k, samples=a.samples, target=a.target, iterations=10_000_000,
                seconds=a.seconds)
    a.out.mkdir(parents=True, exist_ok=True)
    a.json.write_text(json.dumps(r))
    print(fp_hedge_figure(a.out / "fp_hedge.png", r))
    for name in ("fp", "hedge"):
        print(name, {k: v for k, v in r[name].items() if k != "history"})
    print({k: v for k, v in r.items() if k not in ("fp", "hedge")})
    return measurements(r)


if __name__ == "__main__":
    script_main(main)
