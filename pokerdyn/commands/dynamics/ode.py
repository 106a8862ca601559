"""ODE dynamics of adaptive players (Billingham sec. 4.1): every named parameter moves up
its owner's payoff gradient, dx/dt = k_p x(1-x) s_x dE_p/dx.  Prints the final state and the
payoff integrals, or (--analyze) the equilibria with their eigenvalues and the first
integrals of the invariant planes."""
from __future__ import annotations

from pokerdyn.commands.common import GAME_HELP, check_plot_file, emit_json, game_and_values, parse_float, parse_list


def add_arguments(p) -> None:
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--pot", default=None, help="pot size P")
    p.add_argument("--k", default=None, help="rates k per player, K1,K2,... (or one value); "
                   "default 1")
    p.add_argument("--init", default=None, help="initial frequencies x1,x2,... in [0, 1] in "
                   "parameter order (default 0.5 each)")
    p.add_argument("--t-end", default="100", help="end time (default 100)")
    p.add_argument("--method", default="DOP853", help="solve_ivp method (default DOP853)")
    p.add_argument("--normalisation", default="paper", choices=("paper", "raw"),
                   help="gradient scale s_x (default: paper, Billingham (21)-(23))")
    p.add_argument("--reduce", default="none", choices=("none", "dominance"),
                   help="dominance: hold the parameters iterated dominance fixes (the model "
                   "runs on the others; default none)")
    p.add_argument("--analyze", action="store_true", help="equilibria, eigenvalues, first "
                   "integrals (more than 6 parameters: equilibria found numerically, no "
                   "first integrals)")
    p.add_argument("--plot", default=None, help="write a PNG of the trajectory here")
    p.add_argument("--json", action="store_true", help="print JSON")


def _model(args):
    from pokerdyn.dynamics import ode_model
    from pokerdyn.dynamics.budget import K_MAX

    game, values = game_and_values(args.game, args.pot)
    k = 1.0
    if args.k is not None:
        ks = parse_list(args.k, "k", (1, game.n_players), low=0.0, low_open=True, high=K_MAX)
        k = ks[0] if len(ks) == 1 else ks
    return ode_model(game, values, k=k, normalisation=args.normalisation,
                     fixed="dominance" if args.reduce == "dominance" else None), game


def run(args) -> int:
    from pokerdyn.dynamics.ode.solve import check_method

    check_method(args.method)
    if args.plot:
        check_plot_file(args.plot)
    t_end = parse_float(args.t_end, "t-end", low=0.0, low_open=True)
    model, game = _model(args)
    if args.analyze:
        if args.plot:  # the portrait's runs, before the analysis
            from pokerdyn.dynamics.budget import check_run_length
            from pokerdyn.dynamics.ode.solve import MAX_NFEV
            check_run_length(model, PORTRAIT_T_END, MAX_NFEV, what="the portrait's t-end")
        return _analyze(model, args) if model.n <= 6 else _analyze_numeric(model, game, args)
    y0 = [0.5] * model.n if args.init is None else \
        parse_list(args.init, "init", (model.n,), low=0.0, high=1.0)
    import numpy as np

    from pokerdyn.dynamics import simulate_ode as simulate
    from pokerdyn.dynamics.budget import check_run_length
    from pokerdyn.dynamics.ode.solve import MAX_NFEV
    # the option's name in the message (simulate checks again, naming t_end)
    check_run_length(model, t_end, MAX_NFEV, what="t-end", y0=y0)
    tr = simulate(model, y0, t_end, method=args.method,
                  t_eval=np.linspace(0.0, t_end, 2001))
    integrals = [float(v) for v in tr.payoffs[-1]]
    out = {"game": model.game, "model": model.label(), "t_end": t_end,
           "initial": dict(zip(model.names, y0)), "final": tr.final,
           "payoff_integrals": integrals, "mean_payoffs": [v / t_end for v in integrals]}
    lines = ["final: " + ", ".join(f"{k} = {v:.6g}" for k, v in tr.final.items())]
    lines += [f"E{p + 1}: integral {v:.6g}, mean {m:.6g}"
              for p, (v, m) in enumerate(zip(integrals, out["mean_payoffs"]))]
    return _report(args, out, lines, lambda: _plot(model, tr, args.plot))


def _report(args, out: dict, lines: list[str], plot) -> int:
    """Write the plot (if asked), then JSON or the text lines."""
    if args.plot:
        plot()
        out["plot"] = args.plot
    if args.json:
        emit_json(out)
        return 0
    print(out["model"])
    print("\n".join(lines))
    return 0


def _analyze(model, args) -> int:
    from pokerdyn.dynamics import find_equilibria, find_first_integrals

    eqs = find_equilibria(model)
    fis = find_first_integrals(model)
    out = {"game": model.game, "model": model.label(),
           "equilibria": [e.to_json() for e in eqs],
           "first_integrals": [f.to_json() for f in fis]}
    lines = []
    for e in eqs:
        pt = ", ".join(f"{k} = {v}" for k, v in e.exact.items())
        ev = ", ".join(f"{z.real:.4g}{z.imag:+.4g}i" for z in e.eigenvalues)
        lines.append(f"({pt}): {e.type}; eigenvalues {ev}")
    lines += [f"first integral on {f.plane}: H({', '.join(f.variables)}) = {f.H}"
              + ("  [closed orbits]" if f.hessian_definite else "") for f in fis]
    return _report(args, out, lines, lambda: _plot_portrait(model, eqs, args.plot))


def _analyze_numeric(model, game, args) -> int:
    from pokerdyn.dynamics.chaos.rest_points import find_rest_points

    pts = find_rest_points(game, model)
    out = {"game": model.game, "model": model.label(), "free": list(model.names),
           "fixed": model.meta.get("fixed", {}), "equilibria": [p.to_json() for p in pts],
           "any_stable": any(p.stable() for p in pts)}
    lines = [f"({', '.join(f'{k} = {v:.6g}' for k, v in p.point.items())}): "
             f"{'Nash' if p.nash else 'not Nash'}, {p.kind()}, max Re eigenvalue "
             f"{p.max_real:.4g}" for p in pts]
    lines.append(f"asymptotically stable: {'yes' if out['any_stable'] else 'none'}")
    return _report(args, out, lines, lambda: _plot_portrait(model, pts, args.plot))


def _plot(model, tr, path) -> None:
    from pokerdyn.dynamics.plotting import payoff_series, time_series
    from pokerdyn.figures.base import new_figure, save
    from pathlib import Path

    fig, (a, b) = new_figure(1, 2, size=(10, 4))
    time_series(a, tr)
    payoff_series(b, tr)
    a.set_title(model.label(), fontsize=9)
    p = Path(path)
    save(fig, p.parent, p.name)


PORTRAIT_T_END = 300.0  # end time of the phase portrait's runs (--analyze --plot)


def _plot_portrait(model, eqs, path) -> None:
    import numpy as np
    from pathlib import Path

    from pokerdyn.dynamics import simulate_batch
    from pokerdyn.dynamics.plotting import mark_points, phase_3d, phase_plane
    from pokerdyn.figures.base import new_figure, save

    rng = np.random.default_rng(0)
    trs = simulate_batch(model, rng.uniform(0.05, 0.95, (8, model.n)), PORTRAIT_T_END)
    names = model.names[:3]
    if len(names) == 3:
        fig, ax = new_figure(subplot_kw={"projection": "3d"})
        phase_3d(ax, trs, names, lw=0.7)
    else:
        fig, ax = new_figure()
        for tr in trs:
            phase_plane(ax, tr, *names[:2], lw=0.7)
    mark_points(ax, [e.point for e in eqs], names)
    ax.set_title(model.label(), fontsize=9)
    p = Path(path)
    save(fig, p.parent, p.name)
