"""The CFR family's variants (issue 37) against CFR+ and against the field's implementations,
all measured in one run:

* per game and engine (the history tree; the public tree where the game has one), the wall
  time (NashConv checkpoints included) of every variant to a NashConv target, against
  CFR+'s, and the time per CFR+ iteration of the public tree against the history tree (``leduc`` 1e-4, ``river`` 1e-6, ``openspiel:leduc_poker(players=3)``
  and ``mercer-mmh(players=3)`` 1e-2);
* on Leduc with 2 and (not with ``--quick``) 3 players (OpenSpiel's ``leduc_poker``), seconds per CFR+ iteration of
  pokerdyn's fastest engine against LiteEFG's CFR+ (Liu, Farina & Ozdaglar 2024; C++ behind a Python graph)
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
from pokerdyn.games import GameError, compile_game, get_game
from pokerdyn.games.public import public_from_compiled, public_game
from pokerdyn.solvers import public as PS
from pokerdyn.solvers.learning.cfr_plus import variant
from pokerdyn.solvers.methods import CFR_METHODS, run_method
from pokerdyn.games.strategy import uniform_strategy

BUILDERS = ("leduc", "mercer-smh", "mercer-mmh")

TARGETS = {"leduc": 1e-4, "river": 1e-6, "openspiel:leduc_poker(players=3)": 1e-2,
           "mercer-mmh(players=3)": 1e-2}
QUICK_GAMES = ("leduc", "river")
PEER_TARGET = 1e-3
QUICK = ["--quick", "--budget", "5", "--peer-iterations", "20"]


def forms(spec):
    """``{engine: game}``: the compiled history tree and the public tree (built from the
    rules for the builder games, else derived; left out where the histories do not factor)."""
    cg = compile_game(get_game(spec))
    out = {"tree": cg}
    try:
        out["public"] = public_game(spec) if spec.split("(")[0] in BUILDERS else \
            public_from_compiled(cg)
    except GameError:
        pass
    return out


def _run(engine, g, name, iterations, tol=None, seconds=None):
    if engine == "tree":
        return run_method(name, g, iterations=iterations, tol=tol, seconds=seconds)
    return PS.cfr(g, iterations, tol, seconds=seconds, method=variant(name))


def to_target(engine, g, name, target, budget):
    """(seconds, iterations, reached, NashConv) of variant ``name`` to NashConv ``target``."""
    _run(engine, g, name, 1)  # numba compilation outside the timing
    r = _run(engine, g, name, 10**9, target, budget)
    return r.seconds, r.iterations, bool(r.converged), r.nash_conv


def per_iteration(engine, g, name, n=None):
    """Seconds per iteration of variant ``name`` on ``engine`` (after a warm-up), over ``n``
    iterations (None: as many as take about a second, 5 to 1000)."""
    m = variant(name) if engine == "tree" else PS.PublicCFR(**variant(name).__dict__)
    start = uniform_strategy(g) if engine == "tree" else g.uniform()
    warm = m.init(g, start)
    m.advance(g, warm, 0, 2)
    if n is None:
        t = time.perf_counter()
        m.advance(g, warm, 2, 3)
        n = int(min(1000, max(5, 3.0 / max(time.perf_counter() - t, 1e-9))))
    state = m.init(g, start)
    t = time.perf_counter()
    m.advance(g, state, 0, n)
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
    print(f"time to the NashConv target, every CFR variant on both engines, {a.budget:g} s "
          "budget each\n")
    print("| game | engine | target | variant | seconds | iterations | reached |")
    print("|---|---|---|---|---|---|---|")
    speed = []
    for spec in games:
        target = TARGETS[spec]
        for engine, g in forms(spec).items():
            res = {m: to_target(engine, g, m, target, a.budget) for m in CFR_METHODS}
            for m, (s, it, ok, nc) in res.items():
                print(f"| {spec} | {engine} | {target:g} | {m} | {s:.3f} | {it:,} | "
                      f"{'yes' if ok else f'no ({nc:.1e})'} |")
                if m != "cfr+":
                    c = res["cfr+"]
                    out.append(Measurement(
                        f"to NashConv {target:g}, {spec} ({engine})", f"pokerdyn {m}", s,
                        "pokerdyn CFR+", c[0],
                        note=f"{m} {it:,} it.{'' if ok else ' (not reached)'}; CFR+ {c[1]:,} "
                        f"it.{'' if c[2] else ' (not reached)'}"))
            speed.append((spec, engine, per_iteration(engine, g, "cfr+")))
    print("\n| game | engine | ms / CFR+ iteration |\n|---|---|---|")
    for spec, engine, sec in speed:
        print(f"| {spec} | {engine} | {sec * 1e3:.3f} |")
    per = {(spec, e): sec for spec, e, sec in speed}
    for spec in games:
        if (spec, "public") in per:
            out.append(Measurement(f"one CFR+ iteration, {spec}", "pokerdyn public tree",
                                   per[spec, "public"], "pokerdyn history tree",
                                   per[spec, "tree"]))
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
        fs = forms(ours)
        times = {e: per_iteration(e, g, "cfr+") for e, g in fs.items()}
        engine = min(times, key=times.get)   # pokerdyn's fastest engine here
        us, g = times[engine], fs[engine]
        n_peer = n if players == 2 else min(n, 5)  # the peers take seconds per iteration
        runs = {m: to_target(engine, g, m, PEER_TARGET, a.budget) for m in CFR_METHODS}
        fastest = min((r[0], m) for m, r in runs.items() if r[2]) if any(
            r[2] for r in runs.values()) else (runs["cfr+"][0], "cfr+")
        for e, sec in times.items():
            print(f"| {spec} | pokerdyn CFR+, {e} | {sec * 1e3:.3f} | "
                  f"{_reach(runs['cfr+'][:3]) if e == engine else '-'} |")
        print(f"| {spec} | pokerdyn {fastest[1]}, {engine} (fastest variant) | - | "
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
            out.append(Measurement(f"one CFR+ iteration, {spec}",
                                   f"pokerdyn CFR+ ({engine} engine)", us, who, per))
            out.append(Measurement(
                f"to NashConv 1e-3, {spec}", f"pokerdyn {fastest[1]}", fastest[0], who,
                hit[0] if hit else a.budget,
                note=("" if hit else f"{who} not within {a.budget:g} s (its budget is the "
                      "baseline: a lower bound of the ratio)")
                + ("" if runs[fastest[1]][2] else "; pokerdyn not within its budget either")))
    return out


if __name__ == "__main__":
    script_main(main)
