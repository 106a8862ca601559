"""Stability of every equilibrium of the full-street simplified 3-player Kuhn ODE along the pot
(issue 14), and the long runs' profit rates against the equilibria's payoffs.

Per pot: the exact families of ``pokerdyn equilibria kuhn3-full-simplified --pot P --json``
(support method, supports proposed by seeded CFR+ and FP runs; cached as
``figures/frontier/data/eq/full_street_P{P}.json``) and those whose supports the ODE proposes
(:func:`ode_families`: the long runs' time averages and their polished rest points, solved
and certified by the same exact code; ``full_street_P{P}_ode.json``), each sampled
at its certified points and at up to ``--samples`` further points of its free parameters
(:func:`solvers.symbolic.families.geometry.sample`), polished into rest points of the ODE on
the frequencies dominance leaves free (:func:`dynamics.chaos.rest_points.find_rest_points`;
CFR+ limits only at pots without a support record, interior rest points from 10 seeded
starts), with the time averages of the
long runs (``full_street_long_runs.json``) polished too.  Per rest point: Nash or not,
payoffs, largest real part of the Jacobian's eigenvalues and the counts unstable / centre /
stable.  Writes ``figures/frontier/data/full_street_stability.json``.

Run: nice -n 10 python experiments/full_street_stability.py [--pots 4 6]
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

GAME = "kuhn3-full-simplified"
DATA = Path(__file__).resolve().parents[1] / "figures/frontier/data"
POTS = (2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 12.0, 15.0, 20.0)


def family_profiles(rec: dict, n_samples: int, seed: int = 0) -> list[tuple[str, dict]]:
    """(label, profile by name) for every family of an ``equilibria --json`` record: its
    certified points, then up to ``n_samples`` sampled points of its free parameters."""
    from pokerdyn.solvers.symbolic.learned.equilibrium_set import family_from_record
    from pokerdyn.solvers.symbolic.families.geometry import Numeric, sample

    rng = np.random.default_rng(seed)
    out = []
    for k, frec in enumerate(rec["families"]):
        fam, pts = family_from_record(frec)
        for j, q in enumerate(pts):
            out.append((f"family {k} certified {j}", {n: float(v) for n, v in q.items()}))
        if fam.free:
            num = Numeric(fam, [n for n, _ in fam.strategy])
            for j, th in enumerate(sample(num, rng, n_samples)):
                out.append((f"family {k} sample {j}",
                            dict(zip([n for n, _ in fam.strategy], num.x(th).tolist()))))
    return out


def _pot_key(p: float) -> str:
    return f"{p:g}"


def ode_families(game, model, pot: float, averages, cfr_starts: int = 6) -> dict:
    """Exact families from supports proposed by the ODE: each long run's time average (and
    windowed averages) and the rest point it polishes to (Nash or not) enter
    :func:`equilibrium_set` as "runs" (method ``ode``), with ``cfr_starts`` short seeded
    CFR+ runs (:func:`dynamics.chaos.rest_points.nash_profiles`), solved and certified
    exactly like the CFR+/FP limits of the support method; the record of
    :func:`set_record`."""
    import sympy as sp

    from pokerdyn.dynamics.chaos.rest_points import find_rest_points, nash_profiles
    from pokerdyn.solvers.symbolic.learned.equilibrium_set import equilibrium_set, set_record
    from pokerdyn.solvers.symbolic.learned.propose import LearnedProfile

    fixed = {k: float(v) for k, v in model.meta["fixed"].items()}
    props = []
    for a in averages:
        x = np.array([a[n] for n in model.names])
        props.append(dict(zip(model.names, x.tolist())))
        for p in find_rest_points(game, model, n_starts=0, interior_starts=0, averages=[x]):
            props.append(p.point)
    runs = [LearnedProfile("ode", k, {**fixed, **q}, 0.0, 0) for k, q in enumerate(props)]
    runs += [LearnedProfile("cfr+", k, q, 0.0, 3000) for k, q in
             enumerate(nash_profiles(game, {"P": pot}, cfr_starts))]
    res = equilibrium_set(game, sp.Rational(str(pot)), runs=runs, rounds=0)
    return set_record(res)


def stability(pots, n_samples: int = 8) -> dict:
    from pokerdyn.games import get_game
    from pokerdyn.dynamics import ode_model
    from pokerdyn.dynamics.chaos.rest_points import dedupe, find_rest_points

    game = get_game(GAME)
    long_runs = DATA / "full_street_long_runs.json"
    runs = json.loads(long_runs.read_text())["runs"] if long_runs.exists() else []
    out = {}
    for pot in pots:
        model = ode_model(game, {"P": pot}, fixed="dominance")
        sel = [r for r in runs if r["pot"] == pot and r["tau"] == 1.0 and r["rtol"] == 1e-9]
        avgs = [r["time_average"] for r in sel]
        wavgs = [dict(zip(model.names, w)) for r in sel for w in r.get("window_averages", [])]
        f = DATA / "eq" / f"full_street_P{_pot_key(pot)}.json"
        fo = DATA / "eq" / f"full_street_P{_pot_key(pot)}_ode.json"
        if not fo.exists():
            fo.write_text(json.dumps(ode_families(game, model, pot, avgs + wavgs), indent=1)
                          + "\n")
        recs = {"supports": json.loads(f.read_text()) if f.exists() else {"families": []},
                "ode": json.loads(fo.read_text()) if fo.exists() else {"families": []}}
        rec = {"families": recs["supports"]["families"] + recs["ode"]["families"]}
        profs = family_profiles(rec, n_samples)
        pts = []
        for label, prof in profs:  # one at a time, to keep each rest point's source
            for p in find_rest_points(game, model, [prof], n_starts=0, interior_starts=0):
                pts.append((label, p))
        for j, a in enumerate(avgs):
            for p in find_rest_points(game, model, n_starts=0, interior_starts=0,
                                      averages=[np.array([a[n] for n in model.names])]):
                pts.append((f"time average {j}", p))
        cfr = 0 if recs["supports"]["families"] else 6  # no exact record: CFR+ limits
        for p in find_rest_points(game, model, n_starts=cfr, interior_starts=10):
            pts.append(("cfr+" if p.source == "cfr+" else "interior", p))
        rows = []
        for p in dedupe([p for _, p in pts]):
            labels = sorted({lab for lab, q in pts if np.max(np.abs(q.x - p.x)) <= 1e-6})
            re = p.eigenvalues.real
            rows.append({"sources": labels, "nash": p.nash, "payoffs": p.payoffs.tolist(),
                         "max_real": p.max_real, "unstable": int((re > 1e-7).sum()),
                         "centre": int((abs(re) <= 1e-7).sum()),
                         "stable": int((re < -1e-7).sum()), "point": p.point})
        out[_pot_key(pot)] = {"families": len(rec["families"]),
                              "support_families": len(recs["supports"]["families"]),
                              "ode_families": len(recs["ode"]["families"]),
                              "family_payoffs": [fr["payoffs_at_witness"]
                                                 for fr in rec["families"]],
                              "family_free": [fr["free"] for fr in rec["families"]],
                              "rest_points": rows}
        print(f"P = {pot:g}: {len(rec['families'])} families, {len(rows)} rest points, "
              f"Nash max Re {[round(r['max_real'], 5) for r in rows if r['nash']]}",
              flush=True)
    return out


def tables(doc: dict, runs: list[dict]) -> str:
    """Markdown: stability of the Nash rest points per pot, and the runs' profit rates
    against the nearest equilibrium payoffs."""
    out = ["| P | families (supports + ODE) | Nash rest points | max Re (min..max) | "
           "unstable / centre / stable | non-Nash rest points (max Re) |", "|---" * 6 + "|"]
    for pot, d in doc["pots"].items():
        nash = [r for r in d["rest_points"] if r["nash"]]
        other = [r for r in d["rest_points"] if not r["nash"]]
        mr = [0.0 if abs(r["max_real"]) < 1e-8 else r["max_real"] for r in nash]
        kinds = sorted({f"{r['unstable']}/{r['centre']}/{r['stable']}" for r in nash})
        out.append(f"| {pot} | {d['support_families']} + {d['ode_families']} | {len(nash)} | "
                   + (f"{min(mr):.2g}..{max(mr):.2g}" if mr else "-") + " | "
                   + ", ".join(kinds) + f" | {len(other)}"
                   + (f" ({max(r['max_real'] for r in other):.2g})" if other else "") + " |")
    out += ["", "| P | start | t | profit rates | nearest equilibrium payoffs | distance |",
            "|---" * 6 + "|"]
    longest = {}
    for r in runs:
        if r["tau"] == 1.0 and r["rtol"] == 1e-9:
            k = (r["pot"], r["start"])
            longest[k] = max(longest.get(k, 0.0), r["t_end"])
    for r in sorted(runs, key=lambda r: (r["pot"], r["start"], -r["t_end"])):
        if r["tau"] != 1.0 or r["rtol"] != 1e-9 or r["t_end"] < longest[r["pot"], r["start"]]:
            continue
        d = doc["pots"].get(_pot_key(r["pot"]))
        nash = [q for q in d["rest_points"] if q["nash"]] if d else []
        rate = np.array(r["profit_rates"])
        best = min(nash, key=lambda q: np.abs(rate - q["payoffs"]).max(), default=None)
        near = ("-" if best is None else ", ".join(f"{v:.5f}" for v in best["payoffs"]))
        dist = ("-" if best is None else f"{np.abs(rate - best['payoffs']).max():.1e}")
        out.append(f"| {r['pot']:g} | {r['start']} | {r['t_end']:g} | "
                   + ", ".join(f"{v:.5f}" for v in rate) + f" | {near} | {dist} |")
    out += ["", "| P | start | t | rtol, tau | running estimate | judged estimate +- s.e. | "
            "drift | early - judged (z) | verdict | sticky phases (longest) | section dim. |",
            "|---" * 11 + "|"]
    for r in sorted(runs, key=lambda r: (r["pot"], r["start"], -r["t_end"])):
        if r["t_end"] < 1e5:
            continue
        c = r["convergence"]
        ph = [b - a for a, b in c["regular_phases"]]
        out.append(f"| {r['pot']:g} | {r['start']} | {r['t_end']:g} | {r['rtol']:g}, "
                   f"{r['tau']:g} | {c['running']:.5f} | {c['estimate']:.5f} +- "
                   f"{c['stderr']:.5f} | {c['drift']:+.4f} | {c['shift']:+.4f} "
                   f"({c['shift_z']:.1f}) | {c['verdict']} | {len(ph)}"
                   + (f" ({max(ph):.3g})" if ph else "") + f" | {r['late_dimension']:.2f} |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pots", type=float, nargs="*", default=list(POTS))
    ap.add_argument("--samples", type=int, default=8)
    ap.add_argument("--table", action="store_true", help="print the README tables only")
    a = ap.parse_args()
    if a.table:
        runs = json.loads((DATA / "full_street_long_runs.json").read_text())["runs"]
        print(tables(json.loads((DATA / "full_street_stability.json").read_text()), runs))
        return
    path = DATA / "full_street_stability.json"
    doc = json.loads(path.read_text()) if path.exists() else {"game": GAME, "pots": {}}
    doc["pots"].update(stability(a.pots, a.samples))
    doc["pots"] = dict(sorted(doc["pots"].items(), key=lambda kv: float(kv[0])))
    path.write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main()
