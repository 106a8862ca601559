"""Agent logit QRE (solvers.qre) against pygambit, measured in the same run.

Whole principal branch of ``kuhn`` and ``kuhn3-third`` (P = 6) against pygambit's
``logit_solve_branch`` on this package's exact .efg exports (with the largest per-action
difference between the limits and ``logit_solve``'s end points), the ``kuhn3`` branch to
NashConv 1e-6, the selection maps of ``skp``, ``kuhn3-third`` and ``kuhn3`` over (0, 12]
(kuhn3's also to figures/qre/data/kuhn3_selection.json, the figure's data), and the
``leduc`` branch (time and NashConv).  Results go to benchmarks/results/qre.json.

    python benchmarks/bench_qre.py [--skip-maps] [--skip-leduc] [--maps skp,kuhn3-third,kuhn3]
"""
from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # threads only contend on small systems

import numpy as np  # noqa: E402

from pokerdyn.benchmarking import Measurement, script_main  # noqa: E402
from pokerdyn.games import compile_game, get_game  # noqa: E402
from pokerdyn.games.io.efg import to_efg_exact  # noqa: E402
from pokerdyn.solvers.qre import branch_limit, qre_branch  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results" / "qre.json"
QUICK = ["--skip-maps", "--skip-leduc", "--results",
         str(Path(tempfile.gettempdir()) / "pokerdyn-bench-qre.json")]


def _best(f, repeat=3):
    ts = []
    for _ in range(repeat):
        t = time.perf_counter()
        out = f()
        ts.append(time.perf_counter() - t)
    return min(ts), out


def gambit_compare(name: str, values: dict) -> dict:
    import pygambit as gbt
    cg = compile_game(get_game(name), values)
    qre_branch(cg)  # numba compile
    t_ours, br = _best(lambda: qre_branch(cg))
    lim = branch_limit(cg, br)
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "g.efg"
        f.write_text(to_efg_exact(get_game(name), values))
        g = gbt.read_efg(str(f))
    t_branch, _ = _best(lambda: gbt.qre.logit_solve_branch(g), repeat=1)
    t_end, res = _best(lambda: gbt.nash.logit_solve(g), repeat=1)
    eq = res.equilibria[0]
    diff = 0.0
    labels = cg.infoset_labels
    for p in g.players:
        for i in p.infosets:
            I = labels.index(i.label)
            for k, a in enumerate(i.actions):
                diff = max(diff, abs(float(eq[a]) - lim.strategy[I, k]))
    return {"game": name, "values": values, "ours_branch_s": t_ours, "points": len(br),
            "ours_nash_conv": float(br.nash_conv[-1]), "limit_nash_conv": lim.nash_conv,
            "gambit_branch_s": t_branch, "gambit_logit_solve_s": t_end,
            "speedup_branch": t_branch / t_ours, "max_diff_limit_vs_gambit": diff,
            "gambit": gbt.__version__}


def measurements(out: dict) -> list[Measurement]:
    """The harness's records of this run's results."""
    ms = [Measurement(f"principal QRE branch, {r['game']} {r['values'] or ''}".strip(),
                      "pokerdyn qre_branch", r["ours_branch_s"],
                      f"pygambit {r['gambit']} logit_solve_branch", r["gambit_branch_s"],
                      note=f"{r['points']} points") for r in out["compare"]]
    ms.append(Measurement("QRE branch to NashConv 1e-6, kuhn3", "pokerdyn qre_branch",
                          out["kuhn3"]["seconds"]))
    ms += [Measurement(f"selection map over (0, 12], {k[4:]}", "pokerdyn selection_map",
                       v["seconds"]) for k, v in out.items() if k.startswith("map_")]
    if "leduc" in out:
        ms.append(Measurement("QRE branch, leduc", "pokerdyn qre_branch", out["leduc"]["seconds"]))
    return ms


def main(argv=None) -> list[Measurement]:
    with np.errstate(all="ignore"):
        return _main(argv)


def _main(argv=None) -> list[Measurement]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--skip-maps", action="store_true")
    ap.add_argument("--skip-leduc", action="store_true")
    ap.add_argument("--maps", default="skp,kuhn3-third,kuhn3",
                    help="comma-separated games whose selection maps to compute")
    ap.add_argument("--results", type=Path, default=RESULTS,
                    help="the JSON of the results (default benchmarks/results/qre.json)")
    args = ap.parse_args(argv)
    out: dict = {"compare": []}
    for name, values in [("kuhn", {}), ("kuhn3-third", {"P": 6}), ("skp", {"P": 9})]:
        r = gambit_compare(name, values)
        out["compare"].append(r)
        print(f"{name} {values}: ours {r['ours_branch_s']:.3f} s ({r['points']} points), "
              f"pygambit branch {r['gambit_branch_s']:.3f} s ({r['speedup_branch']:.0f}x), "
              f"max |limit - logit_solve| {r['max_diff_limit_vs_gambit']:.1e}", flush=True)
    cg = compile_game(get_game("kuhn3"))
    qre_branch(cg)
    t, br = _best(lambda: qre_branch(cg, tol=1e-6))
    out["kuhn3"] = {"seconds": t, "points": len(br), "nash_conv": float(br.nash_conv[-1]),
                    "lambda": float(br.lambdas[-1])}
    print(f"kuhn3 branch to NashConv 1e-6: {t:.3f} s, {len(br)} points", flush=True)
    if not args.skip_maps:
        from pokerdyn.solvers.qre.selection import selection_map
        from pokerdyn.commands.qre.qre import selection_records
        for name in args.maps.split(","):
            t = time.perf_counter()
            segs = selection_map(get_game(name), 0.0, 12.0, grid=48)
            dt = time.perf_counter() - t
            if name == "kuhn3":      # the figure's committed data (figures.qre.selection)
                fig = Path(__file__).resolve().parents[1] / "figures/qre/data/kuhn3_selection.json"
                fig.parent.mkdir(exist_ok=True)
                fig.write_text(json.dumps({"game": name, "seconds": dt,
                                           "selection": selection_records(segs)},
                                          indent=1, default=float))
            out[f"map_{name}"] = {"seconds": dt, "segments": [
                {"pots": [str(s.low), str(s.high)],
                 "strategy": ({k: str(v) for k, v in s.exact_strategy().items()}
                              if s.exact_strategy() is not None else
                              {k: str(v) for k, v in s.strategy} if s.strategy else None)}
                for s in segs]}
            print(f"selection map {name} over (0, 12]: {dt:.1f} s, {len(segs)} segments",
                  flush=True)
    if not args.skip_leduc:
        cg = compile_game(get_game("leduc"))
        t = time.perf_counter()
        br = qre_branch(cg, tol=1e-6)
        dt = time.perf_counter() - t
        out["leduc"] = {"seconds": dt, "points": len(br), "nash_conv": float(br.nash_conv[-1]),
                        "lambda": float(br.lambdas[-1])}
        print(f"leduc branch: {dt:.1f} s, NashConv {br.nash_conv[-1]:.2e} at lambda "
              f"{br.lambdas[-1]:.3g}", flush=True)
    ms = measurements(out)
    res = args.results
    if res.exists():   # parts skipped in this run keep their previous results
        old = json.loads(res.read_text())
        out = {**{k: v for k, v in old.items() if k not in out}, **out}
    res.write_text(json.dumps(out, indent=2, default=float))
    print(f"wrote {res}")
    return ms


if __name__ == "__main__":
    script_main(main)
