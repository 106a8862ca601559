"""4-player Multiround Mercer Hold'em: its size, and the build's cost measured on smaller decks
and extrapolated (the full game, 382,234,181 nodes, is not built here: MMH bets after the
board, so the board collapse of SMH does not apply).

One subprocess per deck (so each peak RSS is its own): nodes (``count_nodes``), build seconds
(rules -> validated Game -> CompiledGame), compiled bytes per node, peak RSS and peak bytes per
node; then the full game's nodes and its peak RSS at the largest measured deck's bytes per
node.

    python benchmarks/bench_mercer_mmh4.py --decks 3x4 4x3 --json benchmarks/results/mercer_scale_mmh4.json
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

from pokerdyn.benchmarking import Measurement, script_main

QUICK = ["--decks", "5x2"]   # 10 cards: the smallest deck that deals 4 players


def _rounds():
    from pokerdyn.games.holdem import Round
    return (Round(ante=1, hole_cards=2, bets=(4,), max_bets=2),
            Round(shared_cards=2, bets=(4,), max_bets=2))


def one(ranks: int, copies: int) -> dict:
    from pokerdyn.games import compile_game
    from pokerdyn.games.holdem import Deck, MercerEvaluator, build_game
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2 ** 20
    t = time.perf_counter()
    cg = compile_game(build_game(Deck(ranks=ranks, copies=copies), _rounds(), MercerEvaluator(),
                                 4, name="mercer-mmh"))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2 ** 20
    return {"ranks": ranks, "copies": copies, "nodes": cg.n_nodes,
            "infosets": cg.n_infosets, "build_s": time.perf_counter() - t,
            "bytes_per_node": cg.nbytes() / cg.n_nodes, "peak_rss_gb": peak,
            "baseline_rss_gb": base, "peak_bytes_per_node": (peak - base) * 2 ** 30 / cg.n_nodes}


def main(argv=None) -> list[Measurement]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decks", nargs="+", default=["3x4", "4x3"], help="RANKSxCOPIES")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--one", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.one:
        print(json.dumps(one(*map(int, a.one.split("x")))), flush=True)
        return []
    from pokerdyn.games.holdem.build import count_nodes
    from pokerdyn.games.holdem.standard import MERCER_DECK
    rows = []
    for deck in a.decks:
        out = subprocess.run([sys.executable, __file__, "--one", deck], check=True,
                             stdout=subprocess.PIPE, text=True).stdout
        rows.append(json.loads(out.strip().splitlines()[-1]))
        r = rows[-1]
        print(f"| {r['ranks']}x{r['copies']} | {r['nodes']:,} | {r['infosets']:,} | "
              f"{r['build_s']:.1f} s | {r['bytes_per_node']:.1f} | {r['peak_rss_gb']:.2f} GB | "
              f"{r['peak_bytes_per_node']:.0f} |", flush=True)
    full = count_nodes(MERCER_DECK, _rounds(), 4)
    last = rows[-1]
    est = {"nodes": full, "compiled_gb": full * last["bytes_per_node"] / 2 ** 30,
           "peak_rss_gb": last["baseline_rss_gb"] + full * last["peak_bytes_per_node"] / 2 ** 30,
           "build_s": last["build_s"] * full / last["nodes"]}
    print(f"4P-MMH (5x4): {full:,} nodes; at {last['ranks']}x{last['copies']}'s rates: compiled "
          f"{est['compiled_gb']:.1f} GB, build peak {est['peak_rss_gb']:.1f} GB, build "
          f"{est['build_s']:.0f} s", flush=True)
    if a.json:
        a.json.write_text(json.dumps({"decks": rows, "full_estimate": est}, indent=1) + "\n")
    return [Measurement(f"build 4P-MMH, deck {r['ranks']}x{r['copies']} ({r['nodes']:,} nodes)",
                        "pokerdyn", r["build_s"], note=f"peak {r['peak_rss_gb']:.2f} GB")
            for r in rows] + [
        Measurement(f"build 4P-MMH, full deck ({full:,} nodes)", "pokerdyn", est["build_s"],
                    note=f"extrapolated from {last['ranks']}x{last['copies']}, not built")]


if __name__ == "__main__":
    script_main(main)
