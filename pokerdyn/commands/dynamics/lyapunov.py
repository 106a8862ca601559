"""Chaos diagnostics of the adaptive-play ODE (Billingham sec. 4.1) on the parameters that
iterated dominance leaves free: the largest Lyapunov exponent by Benettin's method (running
estimate, its spread over the last quarter of each run and between seeded starts), Poincare
section crossings classified as periodic / quasi-periodic / chaotic, mean profit rates and,
with --equilibria, the game's equilibria (rest points) with their Jacobian eigenvalues."""
from __future__ import annotations

from pokerdyn.commands.common import (GAME_HELP, SEED_MAX, check_plot_file, emit_json,
                                      game_and_values, int_arg, parse_float, parse_list)


def add_arguments(p) -> None:
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--pot", default=None, help="pot size P")
    p.add_argument("--starts", type=int_arg("starts", 1, 1000), default=3,
                   help="seeded random initial points (default 3)")
    p.add_argument("--init", default=None, help="one initial point x1,x2,... in (0, 1) "
                   "(instead of --starts)")
    p.add_argument("--seed", type=int_arg("seed", 0, SEED_MAX), default=0,
                   help="random seed (default 0)")
    p.add_argument("--t-end", default="5000", help="end time of each run (default 5000)")
    p.add_argument("--t-skip", default=None, help="transient not counted (default t-end/5)")
    p.add_argument("--tau", default="1", help="renormalisation interval (default 1)")
    p.add_argument("--section", default=None, help="Poincare section NAME=VALUE, crossed "
                   "upward (default: the frequency that varies most, at its mean)")
    p.add_argument("--k", default=None, help="rates k per player, K1,K2,... (or one value)")
    p.add_argument("--normalisation", default="paper", choices=("paper", "raw"),
                   help="gradient scale s_x (default: paper)")
    p.add_argument("--reduce", default="dominance", choices=("dominance", "none"),
                   help="hold the parameters that iterated dominance fixes (default)")
    p.add_argument("--equilibria", action="store_true", help="also find the equilibria "
                   "(seeded CFR+ runs and the runs' time averages, polished), their "
                   "eigenvalues and the closest payoffs")
    p.add_argument("--cfr-starts", type=int_arg("cfr-starts", 0, 1000), default=6,
                   help="CFR+ starts for --equilibria (default 6)")
    p.add_argument("--plot", default=None, help="write a PNG: running exponent, section")
    p.add_argument("--json", action="store_true", help="print JSON")


def _section(text: str, names) -> tuple[str, float]:
    from pokerdyn.games import GameError

    name, eq, value = text.partition("=")
    if not eq or name not in names:
        raise GameError(f"--section {text!r}: give NAME=VALUE with NAME one of "
                        f"{', '.join(names)}")
    return name, parse_float(value, f"section value of {name}", low=0.0, high=1.0,
                             low_open=True, high_open=True)


def run(args) -> int:
    import numpy as np
    from tqdm.auto import tqdm

    from pokerdyn.dynamics import ode_model
    from pokerdyn.dynamics.budget import K_MAX, STEPS_PER_UNIT, check_run_length
    from pokerdyn.dynamics.chaos.classify import (auto_section, classify_run, profit_match,
                                         time_average)
    from pokerdyn.dynamics.chaos.kernels import MAX_STEPS
    from pokerdyn.dynamics.chaos.lyapunov import random_starts, run_chaos

    if args.plot:
        check_plot_file(args.plot)
    t_end = parse_float(args.t_end, "t-end", low=0.0, low_open=True, high=1e7)
    t_skip = t_end / 5 if args.t_skip is None else \
        parse_float(args.t_skip, "t-skip", low=0.0, high=t_end, high_open=True)
    tau = parse_float(args.tau, "tau", low=0.0, low_open=True, high=t_end)
    game, values = game_and_values(args.game, args.pot)
    k = 1.0
    if args.k is not None:
        ks = parse_list(args.k, "k", (1, game.n_players), low=0.0, low_open=True, high=K_MAX)
        k = ks[0] if len(ks) == 1 else ks
    model = ode_model(game, values, k=k, normalisation=args.normalisation,
                      fixed="dominance" if args.reduce == "dominance" else None)
    section = _section(args.section, model.names) if args.section else None
    starts = random_starts(model, args.starts, args.seed) if args.init is None else \
        np.array([parse_list(args.init, "init", (model.n,), low=0.0, high=1.0,
                             low_open=True, high_open=True)])
    # all runs together, before the first: a run that cannot finish is refused up front
    check_run_length(model, t_end, MAX_STEPS, what="t-end", unit="integration steps",
                     runs=len(starts), per_unit=STEPS_PER_UNIT)
    runs, classes = [], []
    for y in tqdm(starts, desc="lyapunov", disable=args.json or len(starts) < 2):
        pre = min(t_end, 1000.0)
        sec = section or auto_section(run_chaos(model, y, pre), pre / 2)
        r = run_chaos(model, y, t_end, t_skip, tau, sec)
        runs.append(r)
        classes.append(classify_run(r))
    out = {"game": model.game, "model": model.label(), "free": list(model.names),
           "fixed": model.meta["fixed"], "t_end": t_end, "t_skip": t_skip, "tau": tau,
           "seed": args.seed, "runs": []}
    pts = []
    if args.equilibria:
        from pokerdyn.dynamics.chaos.rest_points import find_rest_points
        pts = find_rest_points(game, model, n_starts=args.cfr_starts, seed=args.seed,
                               averages=[time_average(r) for r in runs])
        out["equilibria"] = [p.to_json() for p in pts]
        out["any_stable"] = any(p.stable() for p in pts)
    for y, r, c in zip(starts, runs, classes):
        rec = {"initial": y.tolist(), "section": list(r.section), **c.to_json(),
               "profit_rates": r.profit_rates.tolist()}
        if pts:
            j, d = profit_match(r.profit_rates, pts)
            rec["closest_equilibrium"], rec["payoff_distance"] = j, d
            j, d = profit_match(r.profit_rates, pts, nash_only=False)
            rec["closest_rest_point"], rec["rest_point_payoff_distance"] = j, d
        out["runs"].append(rec)
    ex = np.array([r.exponent for r in runs])
    out["lyapunov"] = {"mean": float(ex.mean()), "std": float(ex.std()),
                       "min": float(ex.min()), "max": float(ex.max())}
    if args.plot:
        _plot(model, runs, args.plot)
        out["plot"] = args.plot
    if args.json:
        emit_json(out)
        return 0
    print(out["model"])
    print(f"free: {', '.join(model.names)}")
    for i, rec in enumerate(out["runs"]):
        print(f"start {i}: {rec['kind']}, lambda = {rec['lyapunov']:.4g} (spread last quarter "
              f"{rec['lyapunov_spread']:.2g}), {rec['crossings']} crossings of "
              f"{rec['section'][0]}={rec['section'][1]:.4g}, profit rates "
              + ", ".join(f"{v:.5g}" for v in rec["profit_rates"]))
    ly = out["lyapunov"]
    print(f"lambda over starts: mean {ly['mean']:.4g}, std {ly['std']:.2g}")
    for j, p in enumerate(pts):
        print(f"equilibrium {j} ({'Nash' if p.nash else 'not Nash'}): max Re eigenvalue "
              f"{p.max_real:.4g} ({p.kind()}), payoffs "
              + ", ".join(f"{v:.5g}" for v in p.payoffs))
    return 0


def _plot(model, runs, path) -> None:
    from pathlib import Path

    from pokerdyn.figures.base import new_figure, save
    from pokerdyn.figures.frontier.full_street_dynamics import lyapunov_panel, section_panel

    fig, (a, b) = new_figure(1, 2, size=(10, 4))
    lyapunov_panel(a, runs)
    section_panel(b, runs[0])
    a.set_title(model.label(), fontsize=9)
    p = Path(path)
    save(fig, p.parent, p.name)
