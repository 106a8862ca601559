"""The CFR family's variants (issue 37) against CFR+ and against the field's implementations,
all measured in one run:

* per game, the wall time (NashConv checkpoints included) of every variant to a NashConv
  target, against CFR+'s (``leduc`` 1e-4, ``river`` 1e-6, ``openspiel:leduc_poker(players=3)``
  and ``mercer-mmh(players=3)`` 1e-2);
* on Leduc with 2 and (not with ``--quick``) 3 players (OpenSpiel's ``leduc_poker``), seconds per CFR+ iteration of
  pokerdyn against LiteEFG's CFR+ (Liu, Farina & Ozdaglar 2024; C++ behind a Python graph)
  and OpenSpiel's C++ ``CFRPlusSolver``, and the wall time to NashConv 1e-3 of pokerdyn's best
  variant against CFR+ and both peers (each peer checks its NashConv every ``--check``
  iterations).

Peers that do not import (``pip install ".[bench]"``) are reported as not measured.

    python benchmarks/bench_cfr_variants.py [--budget 60] [--peer-iterations 200] [--quick]
"""
from __future__ import annotations

import argparse
import time

from pokerdyn.benchmarking import Measurement, script_main
from pokerdyn.games import compile_game, get_game
from pokerdyn.solvers.learning.cfr_plus import variant
from pokerdyn.solvers.methods import CFR_METHODS, run_method
from pokerdyn.games.strategy import uniform_strategy

TARGETS = {"leduc": 1e-4, "river": 1e-6, "openspiel:leduc_poker(players=3)": 1e-2,
           "mercer-mmh(players=3)": 1e-2}
QUICK_GAMES = ("leduc", "river")
PEER_TARGET = 1e-3
QUICK = ["--quick", "--budget", "5", "--peer-iterations", "20"]


def to_target(cg, name, target, budget):
    """(seconds, iterations, reached) of variant ``name`` to NashConv ``target``."""
    run_method(name, cg, iterations=1)  # numba compilation outside the timing
    r = run_method(name, cg, iterations=10**9, tol=target, seconds=budget)
    return r.seconds, r.iterations, bool(r.converged), r.nash_conv


def per_iteration(cg, name, n):
    m = variant(name)
    warm = m.init(cg, uniform_strategy(cg))
    m.advance(cg, warm, 0, 2)
    state = m.init(cg, uniform_strategy(cg))
    t = time.perf_counter()
    m.advance(cg, state, 0, n)
    return (time.perf_counter() - t) / n


def liteefg_run(spec, n, check, target, budget):
    """LiteEFG's CFR+ (its own baseline graph, every player updated each iteration):
    seconds per iteration over ``n`` iterations, and (seconds, iterations) to ``target``
    with its exploitability measured every ``check`` iterations (None: not within
    ``budget`` seconds)."""
    import contextlib
    import io

    import LiteEFG as leg
    import pyspiel
    from LiteEFG.baselines.CFRplus import graph

    game = pyspiel.load_game(spec)
    players = range(1, game.num_players() + 1)

    def fresh():
        with contextlib.redirect_stdout(io.StringIO()):  # its banners
            env = leg.OpenSpielEnv(game, traverse_type="Enumerate", regenerate=False)
            g = graph()
            env.set_graph(g)
        return env, g

    def step(env, g):
        for p in players:
            env.update(g.strategy, upd_player=p)
        env.update_strategy(g.current_strategy(), update_best=False)

    env, g = fresh()
    step(env, g)
    t = time.perf_counter()
    for _ in range(n):
        step(env, g)
    per = (time.perf_counter() - t) / n
    env, g = fresh()
    t, i = time.perf_counter(), 0
    while time.perf_counter() - t < budget:
        step(env, g)
        i += 1
        if i % check == 0 and sum(env.exploitability(g.current_strategy(),
                                                     "linear-avg-iterate")) <= target:
            return per, (time.perf_counter() - t, i)
    return per, None


def openspiel_run(spec, n, check, target, budget):
    """OpenSpiel's C++ CFRPlusSolver: seconds per iteration, and (seconds, iterations) to
    ``target`` checking NashConv every ``check`` iterations (None: not within budget)."""
    import pyspiel

    game = pyspiel.load_game(spec)
    s = pyspiel.CFRPlusSolver(game)
    s.evaluate_and_update_policy()
    t = time.perf_counter()
    for _ in range(n):
        s.evaluate_and_update_policy()
    per = (time.perf_counter() - t) / n
    s = pyspiel.CFRPlusSolver(game)
    t, i = time.perf_counter(), 0
    while time.perf_counter() - t < budget:
        s.evaluate_and_update_policy()
        i += 1
        if i % check == 0 and pyspiel.nash_conv(game, s.average_policy()) <= target:
            return per, (time.perf_counter() - t, i)
    return per, None


def _reach(x):
    """(seconds, iterations[, reached]) as a table cell."""
    if x is None or (len(x) > 2 and not x[2]):
        return "not reached" + ("" if x is None else f" in {x[0]:.0f} s ({x[1]:,} it.)")
    return f"{x[0]:.2f} s ({x[1]:,} it.)"


def main(argv=None) -> list[Measurement]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=60.0,
                    help="seconds per variant and game (default 60)")
    ap.add_argument("--peer-iterations", type=int, default=200,
                    help="iterations timed per peer (default 200)")
    ap.add_argument("--check", type=int, default=10,
                    help="peers' NashConv check interval (default 10 iterations)")
    ap.add_argument("--quick", action="store_true", help="leduc and river only")
    a = ap.parse_args(argv)
    out: list[Measurement] = []
    games = QUICK_GAMES if a.quick else tuple(TARGETS)
    print(f"time to the NashConv target, every CFR variant, {a.budget:g} s budget each\n")
    print("| game | target | variant | seconds | iterations | reached |")
    print("|---|---|---|---|---|---|")
    best: dict[str, tuple[str, float, int]] = {}
    for spec in games:
        cg = compile_game(get_game(spec))
        target = TARGETS[spec]
        res = {m: to_target(cg, m, target, a.budget) for m in CFR_METHODS}
        for m, (s, it, ok, nc) in res.items():
            print(f"| {spec} | {target:g} | {m} | {s:.3f} | {it:,} | "
                  f"{'yes' if ok else f'no ({nc:.1e})'} |")
            if m != "cfr+":
                out.append(Measurement(
                    f"to NashConv {target:g}, {spec}", f"pokerdyn {m}", s, "pokerdyn CFR+",
                    res["cfr+"][0], note=f"{m} {it:,} it.{'' if ok else ' (not reached)'}; "
                    f"CFR+ {res['cfr+'][1]:,} it.{'' if res['cfr+'][2] else ' (not reached)'}"))
        reached = [(s, m, it) for m, (s, it, ok, _) in res.items() if ok]
        if reached:
            s, m, it = min(reached)
            best[spec] = (m, s, it)
    print()
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("open-spiel is not importable: the peers are not measured")
        return out
    n = a.peer_iterations
    print(f"per CFR+ iteration and to NashConv {PEER_TARGET:g}, Leduc, against LiteEFG and "
          "OpenSpiel's C++ CFR+\n")
    print("| game | implementation | ms / CFR+ iteration | to NashConv 1e-3 |")
    print("|---|---|---|---|")
    for players in (2,) if a.quick else (2, 3):
        spec = "leduc_poker" if players == 2 else "leduc_poker(players=3)"
        ours = f"openspiel:{spec}" if players == 3 else "leduc"
        cg = compile_game(get_game(ours))
        us = per_iteration(cg, "cfr+", max(n, 50))
        n_peer = n if players == 2 else min(n, 5)  # the peers take seconds per iteration
        runs = {m: to_target(cg, m, PEER_TARGET, a.budget) for m in CFR_METHODS}
        fastest = min((r[0], m) for m, r in runs.items() if r[2]) if any(
            r[2] for r in runs.values()) else (runs["cfr+"][0], "cfr+")
        print(f"| {spec} | pokerdyn CFR+ | {us * 1e3:.3f} | {_reach(runs['cfr+'][:3])} |")
        print(f"| {spec} | pokerdyn {fastest[1]} (fastest variant) | - | "
              f"{_reach(runs[fastest[1]][:3])} |")
        if fastest[1] != "cfr+":
            out.append(Measurement(f"to NashConv 1e-3, {spec}", f"pokerdyn {fastest[1]}",
                                   fastest[0], "pokerdyn CFR+", runs["cfr+"][0]))
        peers = {}
        try:
            peers["LiteEFG CFR+"] = liteefg_run(spec, n_peer, a.check, PEER_TARGET, a.budget)
        except ImportError:
            print(f"| {spec} | LiteEFG | not installed (pip install liteefg) | - |")
        peers["OpenSpiel C++ CFR+"] = openspiel_run(spec, n_peer, a.check, PEER_TARGET, a.budget)
        for who, (per, hit) in peers.items():
            print(f"| {spec} | {who} | {per * 1e3:.3f} | {_reach(hit)} |")
            out.append(Measurement(f"one CFR+ iteration, {spec}", "pokerdyn CFR+", us, who,
                                   per))
            out.append(Measurement(
                f"to NashConv 1e-3, {spec}", f"pokerdyn {fastest[1]}", fastest[0], who,
                hit[0] if hit else a.budget,
                note=("" if hit else f"{who} not within {a.budget:g} s (its budget is the "
                      "baseline: a lower bound of the ratio)")
                + ("" if runs[fastest[1]][2] else "; pokerdyn not within its budget either")))
    return out


if __name__ == "__main__":
    script_main(main)
