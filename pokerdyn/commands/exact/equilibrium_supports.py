"""``pokerdyn equilibria`` for games past the case search (more than 16 undominated
parameters, e.g. kuhn3): families at one pot from supports proposed by seeded CFR+ and FP
runs, solved and certified exactly (solvers.symbolic.supports); with ``--pots A:B`` the
supports solved with P symbolic and the families printed piecewise in P."""
from __future__ import annotations

from pokerdyn.commands.common import emit_json


def run_supports(game, args) -> int:
    import sympy as sp

    from pokerdyn.solvers.symbolic.supports.equilibrium_set import (check_size, equilibrium_set,
                                                           set_record)

    from pokerdyn.commands.common import parse_pot

    check_size(game)
    if args.pot is not None:
        pot = parse_pot(args.pot, game)
    else:
        pot = sp.sympify(game.defaults.get("P")) if "P" in game.param_names else None
    res = equilibrium_set(game, pot, seeds=args.seeds or 20, seed=args.seed, workers=args.workers)
    if args.json:
        emit_json(set_record(res))
        return 0
    print_set(game, pot, res)
    return 0


def print_set(game, pot, res) -> None:
    """The families and curves of an equilibrium set, and the runs' largest distance."""
    print(f"{game.name} at P = {pot}: {len(res.families)} certified families from "
          f"{len(res.runs)} runs (dominance fixes {len(res.fixed)} parameters)")
    for k, c in enumerate(res.families, 1):
        f = c.family
        print(f"  family {k}: free {', '.join(f.free) or 'none'}; payoffs at a certified point "
              + ", ".join(f"E{i + 1} = {e}" for i, e in enumerate(c.payoffs)))
        for n, v in f.strategy:
            if n not in res.fixed:
                print(f"    {n} = {v}")
    for k, c in enumerate(res.curves, 1):
        parts = ", ".join(f"[{float(a):.6g}, {float(b):.6g}]" for a, b in c.parts)
        root = f"; sqrt({c.radicand})" if c.radicand is not None else ""
        print(f"  curve {k} (support {c.case}): parameter {c.parameter} in {parts}{root}; "
              "payoffs " + ", ".join(f"E{i + 1} in [{lo:.6g}, {hi:.6g}]"
                                          for i, (lo, hi) in enumerate(c.payoff_range)))
        for n, v in c.values:
            print(f"    {n} = {v}")
    worst = max(d for d, _ in res.distances)
    print(f"  largest distance of a learned limit to its nearest family: {worst:.2e}")
    if res.curve_distances:
        best = [min(d, e) for (d, _), e in zip(res.distances, res.curve_distances)]
        print(f"  ... to its nearest family or curve: {max(best):.2e}")


def parse_pot_range(text: str, game) -> tuple:
    """``A:B`` as two exact pots with ``0 < A <= B``."""
    from pokerdyn.games import GameError

    from pokerdyn.commands.common import parse_pot

    parts = text.split(":")
    if len(parts) != 2:
        raise GameError(f"--pots={text!r} is not a range A:B (two exact pots, 0 < A <= B)")
    a, b = (parse_pot(s.strip(), game) for s in parts)
    if not (a.is_Rational and b.is_Rational) or b < a:
        raise GameError(f"--pots={text}: give rational pots A:B with 0 < A <= B")
    return a, b


def run_pot_sweep(game, args) -> int:
    from pokerdyn.solvers.symbolic.family_records import constraint_text, set_str
    from pokerdyn.solvers.symbolic.supports.equilibrium_set import check_size
    from pokerdyn.solvers.symbolic.supports.pot_sweep import NOTE, display, pot_sweep, sweep_records

    check_size(game)
    if "P" not in game.param_names:
        from pokerdyn.games import GameError
        raise GameError(f"--pots: game {game.name!r} has no pot parameter P")
    a, b = parse_pot_range(args.pots, game)
    seeds = args.seeds or 4
    res = pot_sweep(game, a, b, seeds=seeds, seed=args.seed, workers=args.workers,
                    progress=not args.json)
    if args.json:
        emit_json(sweep_records(res))
        return 0
    print(f"{game.name} for {a} <= P <= {b}: {len(res.families)} certified families "
          f"(supports from runs at {len(res.sets)} sample pots; {NOTE})")
    for s, idx in res.pieces:
        where = set_str(s)
        print(f"P in {where}:" if not s.is_FiniteSet else f"P = {where}:")
        if not idx:
            print("  no family found")
        for i in idx:
            pf = res.families[i]
            sol = display(pf)
            strat = ", ".join(f"{n} = {v}" for n, v in sol.strategy
                              if not (v.is_number and n in _dominated(res)))
            print(f"  family {i + 1}: {strat}")
            if sol.free:
                print(f"    free: {', '.join(sol.free)}; constraints: {constraint_text(sol)}")
            print("    payoffs: " + ", ".join(f"E{k + 1} = {e}"
                                             for k, e in enumerate(sol.payoffs)))
    worst = max((d for es in res.sets for d, _ in es.distances), default=float("nan"))
    print(f"  largest distance of a learned limit to its nearest family at its pot: {worst:.2e}")
    return 0


def _dominated(res) -> set:
    """Parameters fixed by dominance at every sample pot (left out of the printout)."""
    sets = [set(es.fixed) for es in res.sets]
    return set.intersection(*sets) if sets else set()
