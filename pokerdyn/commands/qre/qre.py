"""Agent logit quantal response equilibrium (McKelvey and Palfrey 1998): without --lambda
the principal branch from uniform play (lambda = 0) until the profile's NashConv is below
--tol, and its limit (matched with an enumerated equilibrium family where the game is
enumerable); with --lambda the QRE at those precisions; with --pots A:B the equilibrium the
branch selects at every pot in (A, B]."""
from __future__ import annotations

import sys
import time

from pokerdyn.games import GameError

from pokerdyn.commands.common import (GAME_HELP, emit_json, game_and_values, parse_float,
                                      parse_pot)


def add_arguments(p) -> None:
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--pot", default=None, help="pot size P")
    p.add_argument("--lambda", dest="lambdas", default=None,
                   help="comma-separated precisions in (0, 1e7]: the QRE at each (e.g. "
                        "1,10,100)")
    p.add_argument("--pots", default=None, help="A:B, the selection map over pots in (A, B]")
    p.add_argument("--tol", default="1e-6", help="stop the branch at this NashConv (default 1e-6)")
    p.add_argument("--grid", default="48", help="pots of the selection map's grid (default 48)")
    p.add_argument("--max-lambda", dest="max_lambda", default=None,
                   help="trace the branch to this precision instead of stopping at --tol "
                        "(e.g. where the QRE is the equilibrium from the start)")
    p.add_argument("--stability", action="store_true",
                   help="with the branch: the largest real part of the logit dynamics' "
                        "eigenvalues at every branch point, and the lambda ranges where the "
                        "QRE is unstable (Hopf points)")
    p.add_argument("--json", action="store_true", help="print JSON")


def parse_lambdas(text: str) -> list[float]:
    """The precisions of --lambda; GameError unless each is a number > 0."""
    from pokerdyn.solvers.qre import check_lambda
    parts = [t.strip() for t in text.split(",")]
    if not parts or any(not t for t in parts):
        raise GameError(f"--lambda={text!r} is not a comma-separated list of numbers > 0; "
                        "allowed: precisions in (0, 1e7], e.g. 0.5,2,10")
    return [check_lambda(t) for t in parts]


def parse_pots(text: str) -> tuple[float, float]:
    """``A:B`` with 0 <= A < B <= the largest pot (solvers.symbolic.pot_values); GameError
    otherwise."""
    from pokerdyn.solvers.symbolic.pot_values import POT_MAX_EXP

    a, sep, b = text.partition(":")
    if not sep:
        raise GameError(f"--pots={text!r} is not of the form A:B")
    top = 10.0 ** POT_MAX_EXP
    lo = parse_float(a, "pot range start", low=0.0, high=top)
    hi = parse_float(b, "pot range end", low=0.0, low_open=True, high=top)
    if not lo < hi:
        raise GameError(f"pot range {text} is empty or reversed; allowed: A:B with 0 <= A < B")
    return lo, hi


def _profile(cg, sigma) -> dict:
    labels = cg.infoset_labels
    return {labels[I]: {a: float(sigma[I, k]) for k, a in enumerate(cg.game.infosets[I].actions)}
            for I in range(cg.n_infosets)}


def _families(game, values):
    from pokerdyn.solvers.symbolic.enumeration import MAX_PARAMETERS
    if not game.named or len(game.named) > MAX_PARAMETERS:
        return None
    if "P" in game.param_names:
        from pokerdyn.solvers.symbolic.piecewise import solutions_at
        return solutions_at(game, values.get("P", game.defaults.get("P")))
    from pokerdyn.solvers.symbolic.piecewise import equilibrium_pieces
    return list(equilibrium_pieces(game)[0].solutions)


def _branch(args, game, values) -> dict:
    from pokerdyn.games import compile_game
    from pokerdyn.solvers.evaluation import expected_payoffs
    from pokerdyn.solvers.qre import branch_limit, check_lambda, trace_branch
    tol = parse_float(args.tol, "--tol", low=0.0, low_open=True)
    top = 1e7
    if args.max_lambda is not None:
        tol, top = 0.0, check_lambda(args.max_lambda, "max-lambda")
    cg = compile_game(game, values)
    t0 = time.perf_counter()
    br = trace_branch(cg, tol=tol, max_lambda=top,
                      progress=not args.json and sys.stderr.isatty())[0]
    fams = _families(game, values)
    lim = branch_limit(cg, br, fams)
    limit = {"strategy": _profile(cg, lim.strategy), "nash_conv": lim.nash_conv,
             "expected_payoffs": expected_payoffs(cg, lim.strategy).tolist(),
             "certified": bool(lim.certified),
             # the walk's end game: where it could go no further (solvers.qre.branch)
             "stalled_at": br.stalled_at}
    if fams is not None:
        fam = None
        if lim.family is not None:
            sol = fams[lim.family]
            fam = {"index": lim.family + 1, "strategy": {k: str(v) for k, v in sol.strategy},
                   "free": lim.free, "nash_conv": lim.family_nash_conv}
            from pokerdyn.solvers.qre.families import certify, exact_point
            pot = parse_pot(args.pot, game) if args.pot is not None else game.defaults.get("P")
            fam["point"] = {k: str(v) for k, v in exact_point(sol, lim.free or {}).items()}
            fam["exact_nash_conv"] = str(certify(game, pot, sol, lim.free or {}))
        limit["family"] = fam
    out = {"game": game.name, "values": dict(cg.values),
           "branch": [{"lambda": float(l), "strategy": _profile(cg, s),
                       "expected_payoffs": p.tolist(), "nash_conv": float(n)}
                      for l, s, p, n in zip(br.lambdas, br.profiles, br.payoffs, br.nash_conv)],
           "limit": limit}
    if args.stability:
        _stability(cg, br, out)
    out["seconds"] = time.perf_counter() - t0
    return out


def _stability(cg, br, out: dict) -> None:
    """Each branch entry's ``stability`` (the leading eigenvalue of the logit dynamics'
    Jacobian on the strategy simplices, dynamics.learning.branch_stability) and the summary
    ``stability``: the crossings of 0 and the lambda ranges where the QRE is unstable."""
    from pokerdyn.dynamics.learning import branch_stability
    st = branch_stability(cg, br)
    for entry, z in zip(out["branch"], st.leading):
        entry["stability"] = {"max_real_eigenvalue": float(z.real), "imag": float(abs(z.imag)),
                              "stable": bool(z.real < 0)}
    # at lambda = 0 (uniform play) the Jacobian is -k: every range opens at a crossing
    ranges, start = [], None
    for c in st.crossings:
        if c["direction"] == "loses stability":
            start = c["lambda"]
        elif start is not None:
            ranges.append([start, c["lambda"]])
            start = None
    if start is not None:
        ranges.append([start, float(br.lambdas[-1])])
    lead = st.leading.real
    out["stability"] = {"crossings": list(st.crossings), "unstable_lambda_ranges": ranges,
                        "max_real_eigenvalue": float(lead.max()) if len(lead) else None}


def _profiles(args, game, values) -> dict:
    from pokerdyn.games import compile_game
    from pokerdyn.solvers.evaluation import expected_payoffs, nash_conv
    from pokerdyn.solvers.qre import qre_profiles
    lams = parse_lambdas(args.lambdas)
    cg = compile_game(game, values)
    t0 = time.perf_counter()
    profs = qre_profiles(cg, lams, progress=not args.json and sys.stderr.isatty())
    return {"game": game.name, "values": dict(cg.values),
            "profiles": [{"lambda": l, "strategy": _profile(cg, s),
                          "expected_payoffs": expected_payoffs(cg, s).tolist(),
                          "nash_conv": nash_conv(cg, s)} for l, s in zip(lams, profs)],
            "seconds": time.perf_counter() - t0}


def _selection(args, game) -> dict:
    from pokerdyn.solvers.qre.selection import selection_map
    lo, hi = parse_pots(args.pots)
    grid = int(parse_float(args.grid, "--grid", low=2, high=10000, integer=True))
    t0 = time.perf_counter()
    bar = None
    if not args.json and sys.stderr.isatty():
        from tqdm import tqdm
        bar = tqdm(total=grid + 1, desc=f"QRE selection {game.name}", leave=False)
    segs = selection_map(game, lo, hi, grid=grid,
                         progress=(lambda k: bar.update(1)) if bar is not None else None)
    if bar is not None:
        bar.close()
    out = selection_records(segs)
    return {"game": game.name, "selection": out, "seconds": time.perf_counter() - t0}


def selection_records(segs) -> list[dict]:
    """The JSON records of a selection map's segments (key ``selection``)."""
    out = []
    for s in segs:
        exact = s.exact_strategy()
        rec = {"pots": [str(s.low), str(s.high)], "pots_float": [float(s.low), float(s.high)],
               "strategy": ({k: str(v) for k, v in exact.items()} if exact is not None else
                            {k: str(v) for k, v in s.strategy} if s.strategy is not None
                            else _fitted(s)),
               "exact": exact is not None}
        if s.strategy is None:
            rec["exact"] = all(isinstance(v, str) for v in rec["strategy"].values())
            rec["points"] = [{"pot": p.pot, "strategy": p.params, "nash_conv": p.nash_conv}
                             for p in s.points]
        if s.free:
            rec["family"] = {k: str(v) for k, v in s.strategy}
            rec["selected"] = [{"pot": p.pot, "free": p.free} for p in s.points]
        out.append(rec)
    return out


# limits of games too large to enumerate are accurate to ~1e-7 along the flat directions of
# their equilibrium sets (kuhn3: x1_J_0_b = 1/P to 1.3e-7 at P = 6.125); the fit's small
# integer coefficients (<= 1000) keep this tolerance from fitting noise
FIT_TOL = 1e-6


def _fitted(seg) -> dict:
    """A segment's selected strategy where no family is known: each parameter as an
    expression in P where a small rational function fits its grid values to ``FIT_TOL``
    (solvers.qre.selection.fit_rational), else its value at the middle grid pot."""
    from pokerdyn.solvers.qre.selection import fit_rational
    pts = seg.points
    mid = pts[len(pts) // 2]
    out = {}
    for k in mid.params:
        e = fit_rational([p.pot for p in pts], [p.params[k] for p in pts], tol=FIT_TOL) \
            if len(pts) >= 2 else None
        out[k] = str(e) if e is not None else float(mid.params[k])
    return out


def run(args) -> int:
    game, values = game_and_values(args.game, args.pot)
    if args.pots is not None:
        if args.lambdas is not None or args.pot is not None or args.stability:
            raise GameError("--pots draws its own pots: give none of --pot, --lambda, "
                            "--stability with it")
        res = _selection(args, game)
    elif args.lambdas is not None:
        if args.stability or args.max_lambda is not None:
            raise GameError("--stability and --max-lambda go with the branch: give no "
                            "--lambda with them")
        res = _profiles(args, game, values)
    else:
        res = _branch(args, game, values)
    if args.json:
        emit_json(res)
        return 0
    _print(res)
    return 0


def _fmt(strategy: dict) -> str:
    return "; ".join(f"{I}: " + " ".join(f"{a}={p:.6g}" for a, p in acts.items())
                     for I, acts in strategy.items())


def _print(res: dict) -> None:
    if "selection" in res:
        for s in res["selection"]:
            lo, hi = s["pots"]
            strat = ", ".join(f"{k} = {v}" for k, v in s["strategy"].items())
            print(f"P in [{lo}, {hi}]: {strat}")
            for pt in s.get("selected", [])[:3]:
                print(f"    at P = {pt['pot']:.4g}: {pt['free']}")
    elif "profiles" in res:
        for p in res["profiles"]:
            print(f"lambda = {p['lambda']:g}: NashConv {p['nash_conv']:.3e}, payoffs "
                  f"{[round(x, 6) for x in p['expected_payoffs']]}")
            print(f"  {_fmt(p['strategy'])}")
    else:
        br, lim = res["branch"], res["limit"]
        print(f"branch: {len(br)} points, lambda up to {br[-1]['lambda']:.4g}, NashConv "
              f"{br[-1]['nash_conv']:.3e}")
        print(f"limit: NashConv {lim['nash_conv']:.3e} (certified: {lim['certified']})")
        print(f"  {_fmt(lim['strategy'])}")
        fam = lim.get("family", "n/a")
        if isinstance(fam, dict):
            print(f"  family {fam['index']}: " + ", ".join(f"{k} = {v}" for k, v in
                                                         fam["strategy"].items())
                  + (f"; free: {fam['free']}" if fam["free"] else ""))
            print(f"  exact NashConv of the family point: {fam['exact_nash_conv']}")
        elif fam is None:
            print("  matched no enumerated family")
        if "stability" in res:
            st = res["stability"]
            print(f"stability: largest real part along the branch {st['max_real_eigenvalue']:.4g}")
            for c in st["crossings"]:
                print(f"  lambda = {c['lambda']:.10g}: {c['kind']}, {c['direction']}"
                      f" (imaginary part {c['imag']:.4g})")
            for lo, hi in st["unstable_lambda_ranges"]:
                print(f"  unstable for lambda in [{lo:.10g}, {hi:.10g}]")
    print(f"seconds: {res['seconds']:.3f}")
