"""An OpenSpiel game imported into pokerdyn (games.io.openspiel) against OpenSpiel's own C++
algorithms on the same game: import time (first and cached), one exact NashConv of the
uniform profile, one CFR+ iteration.

    python benchmarks/bench_openspiel.py [--game 'leduc_poker(players=3)'] [--repeat 3]

The first import walks the pyspiel tree into a fresh temporary cache folder; the cached
import reads it back.  pokerdyn's "cold" NashConv / CFR+ times are the first call in this
process (numba kernels loaded from NUMBA_CACHE_DIR, or compiled if it is empty; best-response
orders computed and cached on the compiled game); "warm" is the median of ``--repeat`` later
calls.  OpenSpiel: ``pyspiel.nash_conv(game, pyspiel.UniformRandomPolicy(game))`` (C++ tabular
best responses) and ``evaluate_and_update_policy()`` of ``pyspiel.CFRSolver`` and
``pyspiel.CFRPlusSolver`` (constructor time reported apart).
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile

from pokerdyn.benchmarking import Measurement, script_main, timed
from pokerdyn.games import compile_game
from pokerdyn.games.strategy import uniform_strategy
from pokerdyn.games.io.openspiel import load_openspiel
from pokerdyn.solvers import nash_conv
from pokerdyn.solvers.learning.cfr_plus import CFR


QUICK = ["--game", "kuhn_poker(players=3)", "--repeat", "1", "--openspiel-iterations", "1"]


def cold_warm(f, repeat):
    """(first call seconds, median of ``repeat`` later calls, last result)."""
    cold, out = timed(f)
    warm = []
    for _ in range(repeat):
        dt, out = timed(f)
        warm.append(dt)
    return cold, statistics.median(warm), out


def main(argv=None) -> list[Measurement]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="leduc_poker(players=3)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--openspiel-iterations", type=int, default=2)
    ap.add_argument("--skip-openspiel", action="store_true",
                    help="time pokerdyn only (OpenSpiel's NashConv takes ~45 s here)")
    args = ap.parse_args(argv)
    import pyspiel

    before = os.environ.get("POKERDYN_CACHE")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["POKERDYN_CACHE"] = tmp
        try:
            t_first, g = timed(load_openspiel, args.game)
            t_cached, g = timed(load_openspiel, args.game)
        finally:   # the harness runs other benchmarks in this process after this one
            if before is None:
                os.environ.pop("POKERDYN_CACHE", None)
            else:
                os.environ["POKERDYN_CACHE"] = before
    cg = compile_game(g)
    sigma = uniform_strategy(cg)
    print(f"{g.name}: {g.n_nodes:,} histories, {g.terminal_node.size:,} terminals, "
          f"{g.n_infosets:,} information sets, {g.n_players} players\n")

    nc_cold, nc_warm, nc = cold_warm(lambda: nash_conv(cg, sigma), args.repeat)
    game = pyspiel.load_game(args.game)
    os_nc_t, os_nc = (float("nan"), float("nan")) if args.skip_openspiel else \
        timed(pyspiel.nash_conv, game, pyspiel.UniformRandomPolicy(game))

    method = CFR()
    state = method.init(cg, sigma)
    it = iter(range(10**9))
    cfr_cold, cfr_warm, _ = cold_warm(lambda: method.advance(cg, state, next(it), 1),
                                      args.repeat)
    os_cfr = {}
    for name in () if args.skip_openspiel else ("CFRSolver", "CFRPlusSolver"):
        t_init, solver = timed(getattr(pyspiel, name), game)
        steps = [timed(solver.evaluate_and_update_policy)[0]
                 for _ in range(args.openspiel_iterations)]
        os_cfr[name] = (t_init, statistics.median(steps))

    nan = (float("nan"), float("nan"))
    plus, plain = os_cfr.get("CFRPlusSolver", nan), os_cfr.get("CFRSolver", nan)
    rows = [("import, first (pyspiel tree walk)", t_first, float("nan"), ""),
            ("import, cached", t_cached, float("nan"), ""),
            ("NashConv of uniform, cold", nc_cold, os_nc_t, "pyspiel.nash_conv"),
            ("NashConv of uniform, warm", nc_warm, os_nc_t, "pyspiel.nash_conv"),
            ("one CFR+ iteration, cold", cfr_cold, plus[1],
             f"CFRPlusSolver (+ {plus[0]:.1f} s constructor)"),
            ("one CFR+ iteration, warm", cfr_warm, plus[1], "CFRPlusSolver"),
            ("one CFR+ iteration, warm", cfr_warm, plain[1],
             f"CFRSolver (+ {plain[0]:.1f} s constructor)")][:None if os_cfr else -1]
    print("| quantity | pokerdyn | OpenSpiel 2.0.2 (C++) | OpenSpiel / pokerdyn |")
    print("|---|---|---|---|")
    for what, ours, theirs, how in rows:
        other = "-" if theirs != theirs else f"{theirs:.2f} s {how}"
        ratio = "-" if theirs != theirs else f"{theirs / ours:.0f}x"
        print(f"| {what} | {ours:.3f} s | {other} | {ratio} |")
    print(f"\nNashConv of the uniform profile: pokerdyn {nc:.12g}, OpenSpiel {os_nc:.12g} "
          f"(difference {abs(nc - os_nc):.1e})")
    return [Measurement(f"{what}, {args.game}", "pokerdyn", ours,
                        None if theirs != theirs else f"OpenSpiel 2.0.2 (C++) {how}".strip(),
                        None if theirs != theirs else theirs)
            for what, ours, theirs, how in rows]


if __name__ == "__main__":
    script_main(main)
