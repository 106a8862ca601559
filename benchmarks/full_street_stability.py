"""Stability of every equilibrium of the full-street simplified 3-player Kuhn ODE along the pot
(issue 14), and the long runs' profit rates against the equilibria's payoffs.

Per pot: the exact families of ``pokerdyn equilibria kuhn3-full-simplified --pot P --json``
(support method, supports proposed by seeded CFR+ and FP runs; cached as
``figures/frontier/data/eq/full_street_P{P}.json``) and those whose supports the ODE proposes
(:func:`ode_families`: the long runs' time averages and their polished rest points, solved
and certified by the same exact code; ``full_street_P{P}_ode.json``), each sampled
at its certified points and at up to ``--samples`` further points of its free parameters
(:func:`solvers.symbolic.supports.geometry.sample`), polished into rest points of the ODE on
the frequencies dominance leaves free (:func:`dynamics.chaos.rest_points.find_rest_points`;
CFR+ limits only at pots without a support record, interior rest points from 10 seeded
starts), with the time averages of the
long runs (``full_street_long_runs.json``) polished too.  Per rest point: Nash or not,
payoffs, largest real part of the Jacobian's eigenvalues and the counts unstable / centre /
stable.  Writes ``figures/frontier/data/full_street_stability.json``.

Run: PYTHONPATH=. nice -n 10 python benchmarks/full_street_stability.py [--pots 4 6]
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
    from solvers.symbolic.supports.equilibrium_set import family_from_record
    from solvers.symbolic.supports.geometry import Numeric, sample

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


def ode_families(game, model, pot: float, averages) -> dict:
    """Exact families from supports proposed by the ODE: each long run's time average and
    the rest point it polishes to (Nash or not) enter :func:`equilibrium_set` as "runs"
    (method ``ode``), solved and certified exactly like the CFR+/FP limits; the record of
    :func:`set_record`."""
    import sympy as sp

    from dynamics.chaos.rest_points import find_rest_points
    from solvers.symbolic.supports.equilibrium_set import equilibrium_set, set_record
    from solvers.symbolic.supports.propose import LearnedProfile

    fixed = {k: float(v) for k, v in model.meta["fixed"].items()}
    props = []
    for a in averages:
        x = np.array([a[n] for n in model.names])
        props.append(dict(zip(model.names, x.tolist())))
        for p in find_rest_points(game, model, n_starts=0, interior_starts=0, averages=[x]):
            props.append(p.point)
    runs = [LearnedProfile("ode", k, {**fixed, **q}, 0.0, 0) for k, q in enumerate(props)]
    res = equilibrium_set(game, sp.Rational(str(pot)), runs=runs, rounds=0)
    return set_record(res)


def stability(pots, n_samples: int = 4) -> dict:
    from games import get_game
    from dynamics import ode_model
    from dynamics.chaos.rest_points import dedupe, find_rest_points

    game = get_game(GAME)
    long_runs = DATA / "full_street_long_runs.json"
    runs = json.loads(long_runs.read_text())["runs"] if long_runs.exists() else []
    out = {}
    for pot in pots:
        model = ode_model(game, {"P": pot}, fixed="dominance")
        avgs = [r["time_average"] for r in runs if r["pot"] == pot and r["tau"] == 1.0
                and r["rtol"] == 1e-9]
        f = DATA / "eq" / f"full_street_P{_pot_key(pot)}.json"
        fo = DATA / "eq" / f"full_street_P{_pot_key(pot)}_ode.json"
        if avgs and not fo.exists():
            fo.write_text(json.dumps(ode_families(game, model, pot, avgs), indent=1) + "\n")
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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pots", type=float, nargs="*", default=list(POTS))
    ap.add_argument("--samples", type=int, default=4)
    a = ap.parse_args()
    path = DATA / "full_street_stability.json"
    doc = json.loads(path.read_text()) if path.exists() else {"game": GAME, "pots": {}}
    doc["pots"].update(stability(a.pots, a.samples))
    doc["pots"] = dict(sorted(doc["pots"].items(), key=lambda kv: float(kv[0])))
    path.write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main()
