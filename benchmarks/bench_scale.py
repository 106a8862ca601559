"""Scale benchmark: build, compile and evaluate a synthetic game of ~10^7 nodes.

Reports the bytes per node of the compiled arrays, peak RSS, and the time of one
expected-payoff evaluation and of one best response (first and second call; nothing is
cached between them since best responses run in sequence form).

    python benchmarks/bench_scale.py [--nodes 10000000] [--players 2]
"""
from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pokerdyn.games import compile_game, uniform_strategy  # noqa: E402
from pokerdyn.games.catalog.synthetic import layered_game, layered_size  # noqa: E402
from pokerdyn.solvers import best_response, expected_payoffs  # noqa: E402


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


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


def timed(f, *a):
    t = time.perf_counter()
    out = f(*a)
    return out, time.perf_counter() - t


def main(argv=None) -> None:
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
    game, t_build = timed(layered_game, rounds, args.players, actions, outcomes)
    cg, t_compile = timed(compile_game, game)
    sigma = uniform_strategy(cg)
    ev, t_ev = timed(expected_payoffs, cg, sigma)
    br1, t_br1 = timed(best_response, cg, sigma, 0)
    br2, t_br2 = timed(best_response, cg, sigma, 0)
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


if __name__ == "__main__":
    main()
