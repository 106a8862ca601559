"""Selby's preflop hold'em (games.preflop.selby): build, sequence-form LP, the survey's claims.

Builds the game (656,904 nodes), solves it with ``solvers.solve_lp``, checks NashConv, prints
the game value, every situation's strategy as a 13x13 chart (F/C/R, M mixed, . never
reached by the player's own strategy) and measures the survey's three claims ("Case Study:
Preflop Analysis"): the big blind never folds, the small blind rarely folds, almost no hand
mixes.  Each mixed cell's actions get their range over the owner's optimal face
(``solvers.optimal_face_range``, two LPs per action): a mix is *forced* when no action of it
reaches probability 1 on the face.

    python benchmarks/bench_selby.py [--json PATH]
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from pokerdyn.benchmarking import Measurement, script_main

QUICK: list[str] = []   # one game, no smaller setting (about 40 s)


def main(argv: list[str] | None = None) -> list[Measurement]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", type=Path, help="write the numbers here")
    a = ap.parse_args(argv)
    import numpy as np

    from pokerdyn import solvers
    from pokerdyn.games.compiled import compile_game
    from pokerdyn.games.preflop.classes import CLASSES
    from pokerdyn.games.preflop.equity import hu_equity_table
    from pokerdyn.games.preflop.selby import (SITUATIONS, chart, history_probabilities,
                                              own_reach, selby_game, strategy_grids)

    hu_equity_table()
    selby_game()  # numba kernels compiled before timing
    t = time.perf_counter()
    game = selby_game()
    build = time.perf_counter() - t
    cg = compile_game(game)
    res = solvers.solve_lp(cg)
    nc = solvers.nash_conv(cg, res.strategies)
    print(f"nodes {game.n_nodes:,}, infosets {cg.n_infosets}; build {build:.2f} s, "
          f"LP {res.seconds:.2f} s")
    print(f"value to the SB {res.value:.10f} BB, to the BB {-res.value:.10f}; NashConv {nc:.3g}")
    grids = strategy_grids(game, res.strategies)
    label = {info.label: I for I, info in enumerate(game.infosets)}
    mixed, bb_fold, reached_cells = [], 0.0, 0
    for h, g in grids.items():
        k = len(h.split()) % 2
        reach = own_reach(grids, h)
        live = (reach[k] > 0) & (reach[1 - k].sum() > 0)
        reached_cells += int(live.sum())
        flat = g.reshape(len(CLASSES), -1)
        if k == 1:
            bb_fold = max(bb_fold, float(flat[live, 0].max(initial=0.0)))
        print(f"\n{SITUATIONS[h]} (history {h!r}; {int(live.sum())} hands reach it)")
        print(chart(g, live.reshape(13, 13)))
        for c in np.flatnonzero(live & ((flat > 1e-9).sum(axis=1) > 1)):
            I = label[f"P{k + 1}:{CLASSES[c]}|{h}"]
            ranges = {"fcr"[x]: solvers.optimal_face_range(cg, I, int(x), value=res.value)
                      for x in np.flatnonzero(flat[c] > 1e-9)}
            forced = all(fr.high < 1 - 1e-6 for fr in ranges.values())
            mixed.append({"situation": h, "hand": CLASSES[c],
                          "probabilities": [round(float(p), 6) for p in flat[c]],
                          "face": {x: [fr.low, fr.high] for x, fr in ranges.items()},
                          "forced": forced})
            print(f"  mixed {CLASSES[c]}: {np.round(flat[c], 4).tolist()}, optimal face "
                  + ", ".join(f"{x} [{fr.low:.4f}, {fr.high:.4f}]" for x, fr in ranges.items())
                  + (" forced" if forced else " (a pure optimal alternative exists)"))
    hp = history_probabilities(grids)
    sb_fold = sum(p for h, p in hp.items() if h.endswith("f") and len(h.split()) % 2 == 1)
    bb_fold_freq = sum(p for h, p in hp.items() if h.endswith("f") and len(h.split()) % 2 == 0)
    print(f"\nBB fold probability, max over hands and situations reached: {bb_fold:g}; "
          f"BB fold frequency {bb_fold_freq:g}")
    print(f"SB fold frequency (deal-weighted) {sb_fold:.6f}; open fold {hp['f']:.6f}")
    print(f"mixed cells {len(mixed)} of {reached_cells} reached (situation, hand) cells; "
          f"forced {sum(m['forced'] for m in mixed)}")
    if a.json:
        a.json.write_text(json.dumps({
            "nodes": game.n_nodes, "build_seconds": build, "lp_seconds": res.seconds,
            "value_sb": res.value, "nash_conv": nc, "bb_fold_max": bb_fold,
            "sb_fold_frequency": sb_fold, "history_probabilities": hp,
            "reached_cells": reached_cells, "mixed": mixed}, indent=1))
    return [Measurement(f"build Selby's game ({game.n_nodes:,} nodes)", "pokerdyn", build),
            Measurement("sequence-form LP", "pokerdyn solve_lp", res.seconds,
                        note=f"NashConv {nc:.3g}")]


if __name__ == "__main__":
    script_main(main)
