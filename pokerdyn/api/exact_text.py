"""The text output of the exact commands, written as mathematics: ``0 < P < 5``,
``P >= (5 + sqrt(73))/2``, ``b_J free in [0, 1/3]`` (the JSON keeps sympy's strings such as
``Interval.open(0, 5)``, which parse back)."""
from __future__ import annotations

from typing import Any

from pokerdyn.solvers.symbolic.axis.math_text import (interval_text, number_text, set_text,  # noqa: F401
                                                       strategy_text)


def _header(p_set: Any, has_pot: bool) -> str | None:
    import sympy as sp

    if not has_pot and (p_set is sp.S.Reals or str(p_set) == "Reals"):
        return None  # a game without a pot: no P to speak of
    return set_text(p_set) + ":"


def families_text(game: Any, fams: Any, fixed: dict | None = None) -> str:
    """The case search's families (``(P set, Solution)`` pairs), grouped by P set."""
    from pokerdyn.solvers.symbolic.axis.family_records import set_str

    lines = []
    if fixed is not None:
        lines.append(f"{len(game.named)} parameters; iterated strict dominance fixes "
                     f"{len(fixed)}, the case search takes the other "
                     f"{len(game.named) - len(fixed)}")
    last = None
    has_pot = "P" in game.param_names
    for k, (p_set, sol) in enumerate(fams, 1):
        where = set_str(p_set)
        if where != last:
            head = _header(p_set, has_pot)
            if head is not None:
                lines.append(head)
            last = where
        lines += family_lines(k, sol, sol.intervals)
    return "\n".join(lines)


def family_lines(k: int, sol: Any, intervals: Any = (), skip: Any = ()) -> list[str]:
    """Family ``k`` (a Solution): its strategy, free parameters with their constraints,
    and payoffs."""
    from pokerdyn.solvers.symbolic.axis.family_records import constraint_text

    lines = [f"  family {k}: {strategy_text(sol.strategy, intervals, skip)}"]
    if sol.free:
        lines.append(f"    free: {', '.join(sol.free)}; constraints: {constraint_text(sol)}")
    lines.append("    payoffs: " + ", ".join(f"E{i + 1} = {e}"
                                             for i, e in enumerate(sol.payoffs)))
    return lines


def supports_set_text(game: Any, pot: Any, res: Any) -> str:
    """The families and curves of an equilibrium set of the support method, and the
    runs' largest distance."""
    at = f" at P = {number_text(pot)}" if pot is not None else ""
    lines = [f"{game.name}{at}: {len(res.families)} certified families from "
             f"{len(res.runs)} runs (dominance fixes {len(res.fixed)} parameters)"]
    for k, c in enumerate(res.families, 1):
        f = c.family
        lines.append(f"  family {k}: free {', '.join(f.free) or 'none'}; payoffs at a "
                     "certified point " + ", ".join(f"E{i + 1} = {e}"
                                                     for i, e in enumerate(c.payoffs)))
        for n, v in f.strategy:
            if n not in res.fixed:
                lines.append(f"    {n} free" if str(v) == n else f"    {n} = {v}")
    for k, c in enumerate(res.curves, 1):
        parts = ", ".join(f"[{float(a):.6g}, {float(b):.6g}]" for a, b in c.parts)
        root = f"; sqrt({c.radicand})" if c.radicand is not None else ""
        lines.append(f"  curve {k} (support {c.case}): parameter {c.parameter} in {parts}"
                     f"{root}; payoffs " + ", ".join(f"E{i + 1} in [{lo:.6g}, {hi:.6g}]"
                                                     for i, (lo, hi) in
                                                     enumerate(c.payoff_range)))
        for n, v in c.values:
            lines.append(f"    {n} = {v}")
    worst = max(d for d, _ in res.distances)
    lines.append(f"  largest distance of a learned limit to its nearest family: {worst:.2e}")
    if res.curve_distances:
        best = [min(d, e) for (d, _), e in zip(res.distances, res.curve_distances)]
        lines.append(f"  ... to its nearest family or curve: {max(best):.2e}")
    return "\n".join(lines)


def pot_sweep_text(game: Any, res: Any) -> str:
    """The support method's families piecewise in P over a pot range."""
    from pokerdyn.solvers.symbolic.learned.pot_sweep import NOTE, display

    dominated = set.intersection(*[set(es.fixed) for es in res.sets]) if res.sets else set()
    lines = [f"{game.name} for {number_text(res.low)} <= P <= {number_text(res.high)}: "
             f"{len(res.families)} certified families (supports from runs at "
             f"{len(res.sets)} sample pots; {NOTE})"]
    for s, idx in res.pieces:
        lines.append(set_text(s) + ":")
        if not idx:
            lines.append("  no family found")
        for i in idx:
            sol = display(res.families[i])
            skip = {n for n, v in sol.strategy if v.is_number and n in dominated}
            lines += family_lines(i + 1, sol, (), skip)
    worst = max((d for es in res.sets for d, _ in es.distances), default=float("nan"))
    lines.append(f"  largest distance of a learned limit to its nearest family at its pot: "
                 f"{worst:.2e}")
    return "\n".join(lines)


def axis_text(rec: dict) -> str:
    """The whole-axis sweep's pieces, coexistence, unresolved and undecided supports, and
    the completeness proof's line."""
    lines = []
    for pc in rec["pieces"]:
        lines.append(f"{set_text(pc['p_set'])}: {len(pc['families'])} families")
        for k, fam in enumerate(pc["families"], 1):
            own = {n: v for n, v in fam["strategy"].items() if n not in rec["fixed"]}
            lines.append(f"  family {k} (support {fam['support']}): "
                         + strategy_text(own, _record_intervals(fam)))
            if fam["free"]:
                lines.append(f"    free: {', '.join(fam['free'])}; constraints: "
                             + ", ".join(fam["constraints"]))
            lines.append("    payoffs: " + ", ".join(f"E{i + 1} = {e}"
                                                     for i, e in enumerate(fam["payoffs"])))
    for c in rec["coexistence"]:
        lines.append(f"{c['count']} distinct equilibria coexist on {set_text(c['p_set'])}")
    for u in rec["unresolved_supports"]:
        lines.append(f"support {u['support']} (equilibria at P = {', '.join(u['pots'])}) has "
                     "no family rational in P (not in the pieces above; README: the "
                     "quadratic family F10 is one)")
    for u in rec["undecided"]:
        lines.append(f"at P = {u['pot']} support {u['support']} is undecided: {u['reason']}")
    lines.append(f"{len(rec['pots_enumerated'])} pots enumerated in {rec['seconds']} s"
                 + ("" if rec["undecided"] else ", each completely"))
    if "completeness" in rec:
        lines.append(completeness_line(rec["completeness"]))
    return "\n".join(lines)


def _record_intervals(fam: dict) -> tuple:
    return tuple((x, iv["low"], iv["high"], iv["low_open"], iv["high_open"])
                 for x, iv in fam.get("intervals", {}).items())


def completeness_line(c: dict) -> str:
    """One line: what the proof with P symbolic found."""
    head = (f"proven complete on {c['p_min']} <= P <= {c['p_max']}" if c["complete"] else
            f"NOT proven complete on {c['p_min']} <= P <= {c['p_max']}")
    alg = f"; {len(c['algebraic'])} supports with irrational branches checked separately" \
        if c["algebraic"] else ""
    return (f"{head}: {c['leaves']} leaves with P symbolic, {len(c['exceptional_pots'])} "
            f"exceptional pots, {len(c['new'])} new families, {len(c['missing'])} missing at "
            f"pots, {len(c['open_pots'])} pots open, {len(c['nonlinear'])} leaves with "
            f"non-linear positive-dimensional blocks{alg} ({c['seconds']} s)")


__all__ = ["axis_text", "completeness_line", "families_text", "family_lines", "interval_text",
           "number_text",
           "pot_sweep_text", "set_text", "strategy_text", "supports_set_text"]
