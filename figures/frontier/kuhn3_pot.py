"""3-player Kuhn poker (4 cards, pot P): the certified equilibrium families against P, from
``pokerdyn equilibria kuhn3 --pots 2:10 --json`` (supports proposed by seeded CFR+/FP runs,
each solved with P symbolic: solvers.symbolic.learned.pot_sweep; committed in
figures/frontier/data/kuhn3_pot.json), a second sweep of 5/2 <= P <= 7/2
(kuhn3_pot_low.json) and three sweeps of the parts of [2, 5] the first two did not sample,
(2, 5/2), (7/2, 4), (9/2, 5) (kuhn3_pot_gaps.json, experiments/kuhn3_pot_gaps.py); family
numbers continue from one sweep to the next.

Top: each player's payoff on every family (families with free parameters at the free values
of the family's certified point, where those stay inside the family; a family of a single pot,
such as the P = 3 families that hold Szafron et al.'s, is a marker).  Bottom: player 1's
opening bets (x1_J_0_b ... x1_A_0_b) and player 2's bets after a check with J and Q.
The set drawn is the union of the families the runs reach, not a completeness proof.
Reads only the committed data (well under 5 s)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np

from pokerdyn.figures.base import (Figure, FigureResult, described, family_colours, finish,
                                   new_figure)
from pokerdyn.solvers.symbolic.axis.math_text import set_text

DATA = Path(__file__).with_name("data") / "kuhn3_pot.json"
LOW = Path(__file__).with_name("data") / "kuhn3_pot_low.json"  # the 5/2:7/2 sweep
GAPS = Path(__file__).with_name("data") / "kuhn3_pot_gaps.json"  # (2, 5/2), (7/2, 4), (9/2, 5)
FREQUENCIES = ("x1_J_0_b", "x1_Q_0_b", "x1_K_0_b", "x1_A_0_b", "x2_J_k_b", "x2_Q_k_b")


def recorded() -> dict:
    """The recorded sweep (``pokerdyn equilibria kuhn3 --pots 2:10 --json``)."""
    return json.loads(DATA.read_text())


def _curves(rec: dict, n: int = 80) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(P grid, payoffs (n, 3), frequencies (n, len(FREQUENCIES))) along one record's
    interval at its certified point's free values; NaN where a constraint fails."""
    import sympy as sp

    pt = rec["certified_at"]["point"]
    th = [float(sp.Rational(pt[x])) for x in rec["free"]]
    lo, hi = (float(sp.N(sp.sympify(rec["ends"][k]), 15)) for k in ("low", "high"))
    if lo == hi:
        grid = np.array([lo])
    else:
        grid = np.linspace(lo, hi, n)[1:-1]
    args = ["P", *rec["free"]]
    pay = _numeric(rec["payoffs"], args)
    frq = _numeric([rec["strategy"][k] for k in FREQUENCIES], args)
    cons = [c for c in rec["constraints"] if c != "True"]  # the others are decided
    if not all(c.endswith(" >= 0") for c in cons):
        raise ValueError(f"family {rec['family']}: a constraint not of the form 'e >= 0'")
    ok_f = _numeric([c[:-len(" >= 0")] for c in cons] or ["1"], args)
    e = _on_grid(pay, grid, th, 3)
    f = _on_grid(frq, grid, th, len(FREQUENCIES))
    ok = _on_grid(ok_f, grid, th, max(len(cons), 1)).min(axis=1) >= -1e-9
    e[~ok] = np.nan
    f[~ok] = np.nan
    return grid, e, f


_ARITHMETIC = re.compile(r"[0-9A-Za-z_+\-*/(). ]*")


def _numeric(exprs: list[str], args: list[str]):
    """One numpy function of ``args`` returning the values of ``exprs``, sympy-printed
    rational functions (plain arithmetic in the named symbols): compiled directly, since
    parsing every string with sympy was most of this figure's time; anything else (a
    function call, an unknown name) goes through sympy's lambdify."""
    names = set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", " ".join(exprs)))
    if names <= set(args) and all(_ARITHMETIC.fullmatch(e) and not re.search(r"\w\s*\(", e)
                                  for e in exprs):
        return eval(f"lambda {', '.join(args)}: ({', '.join(exprs)},)", {"__builtins__": {}})
    import sympy as sp

    syms = [sp.Symbol(a, positive=True) if a == "P" else sp.Symbol(a, real=True) for a in args]
    local = {s.name: s for s in syms}
    return sp.lambdify(syms, [sp.sympify(e, locals=local) for e in exprs], "numpy")


def _on_grid(fn, grid: np.ndarray, th: list[float], k: int) -> np.ndarray:
    """The ``k`` values of the lambdified list ``fn`` at every pot of ``grid`` (one vectorised
    call; entries constant in P broadcast), shape (len(grid), k)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        vals = fn(grid, *th)
    return np.column_stack([np.broadcast_to(np.asarray(v, float), grid.shape) for v in vals]
                           ).reshape(len(grid), k)


def _numbers(ks: list[int]) -> str:
    """Family numbers with runs shortened: ``35-47, 52``."""
    out, start = [], None
    for i, k in enumerate(ks):
        if start is None:
            start = k
        if i + 1 == len(ks) or ks[i + 1] != k + 1:
            out.append(str(start) if start == k else f"{start}-{k}")
            start = None
    return ", ".join(out)


def sp_low(p_set: str) -> float:
    """The lower end of a piece's P set (as printed by sympy) as a float, for sorting."""
    import sympy as sp

    s = sp.sympify(p_set)
    return float(s.inf if isinstance(s, sp.Set) else s)


def figure(seed: int = 0, quick: bool = False) -> Figure:
    data = recorded()
    fig, axes = new_figure(2, 3, size=(14, 7.5), sharex=True)
    low = json.loads(LOW.read_text())
    sweeps = [data, low] + json.loads(GAPS.read_text())["sweeps"]
    recs, lines, off = [], [], 0
    for sw in sweeps:
        recs += [dict(r, family=r["family"] + off) for r in sw["families"]]
        lines += [(sp_low(q["p_set"]), f"{set_text(q['p_set'])}: "
                   f"{_numbers([i + 1 + off for i in q['families']])}") for q in sw["pieces"]
                  if q["families"]]  # a piece where no family was certified: left out
        off += max(r["family"] for r in sw["families"]) + 1
    colours = family_colours(max(r["family"] for r in recs) + 1)
    for rec in recs:
        grid, e, f = _curves(rec)
        c = colours[rec["family"]]
        style = dict(marker="o", ms=5, ls="none") if len(grid) == 1 else dict(lw=1.6)
        for i in range(3):
            axes[0, i].plot(grid, e[:, i], c=c, label=f"family {rec['family'] + 1}", **style)
        for j, name in enumerate(FREQUENCIES):
            ax = axes[1, 0] if j < 4 else axes[1, 1]
            kw = dict(style, ls=("-", "--", ":", "-.")[j % 4]) if len(grid) > 1 else style
            ax.plot(grid, f[:, j], c=c, **kw)
    for i in range(3):
        axes[0, i].set_title(f"E{i + 1} (player {i + 1})")
        axes[0, i].axhline(0, c="0.8", lw=0.6)
    axes[0, 0].text(0.98, 0.97, f"{len(recs)} families (colour: the family number, blue to red;\n"
                    "a marker: a family of one pot)", transform=axes[0, 0].transAxes,
                    fontsize=6, ha="right", va="top")
    axes[1, 0].set_title("player 1 opens: J - , Q -- , K : , A -.")
    axes[1, 1].set_title("player 2 bets after a check: J - , Q --")
    ax = axes[1, 2]
    for k, (_, text) in enumerate(sorted(lines, key=lambda t: t[0])):
        ax.text(-0.05, 1.0 - 0.032 * k, text[:72], transform=ax.transAxes, fontsize=6.3,
                va="top")
    ax.set_axis_off()
    ax.set_title("families on each piece of the P axis\n(pieces of a sweep with none "
                 "omitted)", fontsize=9)
    for a in axes[1, :2]:
        a.set_xlabel("pot P")
    numbers = {"families": len({r["family"] for r in data["families"]}),
               "families_5/2:7/2": len({r["family"] for r in low["families"]}),
               "families_gaps": {sw["pots"]: len(sw["families"]) for sw in sweeps[2:]},
               "pieces": len(data["pieces"]), "pots": data["pots"],
               "sample_pots": [q["pot"] for q in data["sample_pots"]],
               "largest_distance": max((q["largest_distance"] or 0) for q in data["sample_pots"])}
    return described(fig, "kuhn3_pot",
                     "3-player Kuhn poker: certified equilibrium families against the pot P "
                     "(union of the families the seeded runs reach)", numbers,
                     "Szafron, Gibson & Sturtevant, AAMAS 2013 (the P = 3 family)")


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/<name>.png``; its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick), out_dir)
