"""Scale benchmark: build, compile and evaluate a synthetic game of ~10^7 nodes.

Reports the bytes per node of the compiled arrays, peak RSS, and the time of one
expected-payoff evaluation and of one best response (first and second call; nothing is
cached between them since best responses run in sequence form).

    python benchmarks/bench_scale.py [--nodes 10000000] [--players 2]
"""
from __future__ import annotations

import argparse

from pokerdyn.benchmarking import Measurement, peak_rss_mb, script_main, timed
from pokerdyn.games import compile_game, uniform_strategy
from pokerdyn.games.catalog.synthetic import layered_game, layered_size
from pokerdyn.solvers import best_response, expected_payoffs

QUICK = ["--nodes", "20000"]


def pick_size(nodes: int, players: int) -> tuple[int, int, int]:
    """(rounds, actions, outcomes) with the fewest nodes >= ``nodes``."""
    best = None
    for rounds in range(1, 12):
        for actions in (2, 3):
            for outcomes in range(2, 64):
                n = layered_size(rounds, players, actions, outcomes)
                if n >= nodes:
                    if best is None or n < best[0]:
                        best = (n, rounds, actions, outcomes)
                    break
    return best[1:]


def main(argv=None) -> list[Measurement]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=10_000_000)
    ap.add_argument("--players", type=int, default=2)
    args = ap.parse_args(argv)
    # warm the numba kernels on a small game so timings below exclude JIT compilation
    small = compile_game(layered_game(2, args.players))
    expected_payoffs(small, uniform_strategy(small))
    best_response(small, uniform_strategy(small), 0)
    base = peak_rss_mb()

    rounds, actions, outcomes = pick_size(args.nodes, args.players)
    t_build, game = timed(layered_game, rounds, args.players, actions, outcomes)
    t_compile, cg = timed(compile_game, game)
    sigma = uniform_strategy(cg)
    t_ev, ev = timed(expected_payoffs, cg, sigma)
    t_br1, br1 = timed(best_response, cg, sigma, 0)
    t_br2, br2 = timed(best_response, cg, sigma, 0)
    n = cg.n_nodes
    print(f"synthetic layered game: {n:,} nodes ({int((cg.kind == 0).sum()):,} terminals), "
          f"{cg.n_infosets} information sets, {args.players} players, rounds={rounds}, "
          f"actions={actions}, outcomes={outcomes}")
    print(f"compiled arrays: {cg.nbytes() / 2**20:.0f} MiB = {cg.nbytes() / n:.1f} bytes/node")
    print(f"build (game_from_arrays + validation): {t_build:.2f} s; compile_game: "
          f"{t_compile:.3f} s")
    print(f"one expected-payoff evaluation: {t_ev * 1e3:.0f} ms; one best response: "
          f"{t_br1 * 1e3:.0f} ms first, {t_br2 * 1e3:.0f} ms second")
    print(f"E = {ev.round(6).tolist()}, BR value of player 1 = {br2.value:.6f}")
    print(f"peak RSS: {peak_rss_mb():.0f} MiB (after warm-up: {base:.0f} MiB)")
    size = f"{n:,} nodes"
    return [Measurement(f"build + validation, {size}", "pokerdyn", t_build),
            Measurement(f"compile_game, {size}", "pokerdyn", t_compile),
            Measurement(f"one expected-payoff evaluation, {size}", "pokerdyn", t_ev),
            Measurement(f"one best response, {size}", "pokerdyn (second call)", t_br2,
                        "pokerdyn (first call)", t_br1)]


if __name__ == "__main__":
    script_main(main)
