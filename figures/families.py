"""The frequencies of exact equilibrium families against the pot P (``pokerdyn equilibria
GAME --plot FILE``, :meth:`pokerdyn.api.exact.EquilibriaResult.plot`), for any game and
whichever algorithm found the families: drawn from the JSON record alone.

Each family is drawn on the pots of its piece (an interval: a curve; one pot: a marker).
Where free parameters let a frequency range over a set, the band shows its range and the
line the middle of that range, both over a fixed set of points of the free parameters' box
``[0, 1]^k`` that satisfy the family's constraints at that pot (seeded: the same picture
every time).
A game without a pot puts its families side by side (x: the family's number)."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

SAMPLES = 512   # points of the free parameters' box tried per pot
GRID = 160      # pots per interval piece
TOL = 1e-9      # a constraint holds within this


def _families(record: dict) -> list[tuple[str | None, dict]]:
    """(P set as text or None, family record) for every family of the record."""
    if "pieces" in record and "p_min" in record:  # the whole-axis sweep
        return [(pc["p_set"], f) for pc in record["pieces"] for f in pc["families"]]
    pot = record.get("pot")
    return [(f.get("p_interval", pot if pot not in (None, "None") else None), f)
            for f in record.get("families", [])]


def _range(sets: Sequence[Any], pots: Sequence[Any] | None) -> tuple[float, float]:
    """The pots drawn: those asked, else 0 to past the largest finite end of a piece."""
    import sympy as sp

    if pots is not None:
        lo, hi = (float(sp.sympify(v)) for v in pots)
        if hi == float("inf"):
            hi = max(2 * lo, lo + 10)
        return lo, hi
    ends = [float(e) for s in sets for e in (s.inf, s.sup) if e.is_finite]
    top = max(ends, default=0.0)
    return 0.0, max(10.0, 1.5 * top)


def plot_families(record: dict, pots: Sequence[Any] | None = None, ax=None):
    """Draw every family's frequencies of ``record`` (the JSON of ``pokerdyn equilibria``)
    against P over ``pots`` = (low, high) (None: the whole axis drawn up to 1.5 times the
    largest critical value); returns the Axes."""
    import sympy as sp

    from pokerdyn.solvers.symbolic.axis.family_records import parse_set

    if ax is None:
        import matplotlib.pyplot as plt
        ax = plt.figure(figsize=(8, 4.5)).add_subplot()
    fams = _families(record)
    has_pot = any(s is not None and s != "Reals" for s, _ in fams)
    sets = [parse_set(s) if has_pot and s is not None else None for s, _ in fams]
    lo, hi = _range([s for s in sets if s is not None], pots) if has_pot else (0.0, 0.0)
    names: list[str] = []
    for _, f in fams:
        names += [n for n in f["strategy"] if n not in names]
    colour = {n: f"C{i % 10}" for i, n in enumerate(names)}
    styles = ["-", "--", ":", "-."]
    rng = np.random.default_rng(0)
    P = sp.Symbol("P")
    for k, ((_, f), s) in enumerate(zip(fams, sets)):
        free = list(f.get("free", []))
        syms = [sp.Symbol(x) for x in free]
        box = rng.random((SAMPLES, len(free))) if free else np.zeros((1, 0))
        if has_pot and s is not None:
            part = s.intersect(sp.Interval(lo, hi))
            if isinstance(part, sp.FiniteSet):
                xs = np.array([float(v) for v in part])
            elif isinstance(part, sp.Interval) and part.measure > 0:
                a, b = float(part.start), float(part.end)
                cut = (int(bool(part.left_open)), GRID - int(bool(part.right_open)))
                xs = np.linspace(a, b, GRID)[cut[0]:cut[1]]
            else:
                continue
        else:
            xs = np.array([float(k + 1)])
        strat = [(n, sp.lambdify([P, *syms], sp.sympify(v), "numpy"))
                 for n, v in f["strategy"].items()]
        cons = []
        for c in f.get("constraints", []):
            r = sp.sympify(c)
            if isinstance(r, (sp.Ge, sp.Gt)):
                cons.append((sp.lambdify([P, *syms], r.lhs - r.rhs, "numpy"), 1.0))
            elif isinstance(r, (sp.Le, sp.Lt)):
                cons.append((sp.lambdify([P, *syms], r.rhs - r.lhs, "numpy"), 1.0))
        n = box.shape[0]
        rows = {name: np.full((len(xs), 3), np.nan) for name, _ in strat}
        for i, x in enumerate(xs):
            args = [np.full(n, x)] + [box[:, j] for j in range(len(free))]
            ok = np.ones(n, dtype=bool)
            for g, _sign in cons:  # each as expr >= 0
                with np.errstate(all="ignore"):
                    ok &= np.broadcast_to(np.asarray(g(*args), dtype=float), (n,)) >= -TOL
            if not ok.any():
                continue
            for name, fn in strat:
                with np.errstate(all="ignore"):
                    v = np.broadcast_to(np.asarray(fn(*args), dtype=float), (n,))[ok]
                rows[name][i] = (v.min(), (v.min() + v.max()) / 2, v.max())
        style = styles[k % len(styles)]
        for name, vals in rows.items():
            c = colour[name]
            if len(xs) == 1:
                ax.errorbar(xs, vals[:, 1], yerr=[vals[:, 1] - vals[:, 0],
                                                  vals[:, 2] - vals[:, 1]],
                            fmt="o", color=c, ms=4, capsize=3)
                continue
            ax.plot(xs, vals[:, 1], style, color=c, lw=1.2)
            if np.nanmax(vals[:, 2] - vals[:, 0], initial=0.0) > 1e-9:
                ax.fill_between(xs, vals[:, 0], vals[:, 2], color=c, alpha=0.15, lw=0)
    for name in names:
        ax.plot([], [], color=colour[name], label=name)
    if names:
        ax.legend(fontsize=7, ncol=max(1, (len(names) + 11) // 12), loc="upper right")
    ax.set_ylim(-0.03, 1.03)
    ax.set_ylabel("frequency")
    if has_pot:
        ax.set_xlabel("pot P")
        ax.set_xlim(lo - 0.02 * (hi - lo or 1), hi + 0.02 * (hi - lo or 1))
    else:
        ax.set_xlabel("family")
        ax.set_xticks(range(1, len(fams) + 1))
    ax.set_title(f"{record.get('game', '')}: {len(fams)} equilibrium families")
    return ax


__all__ = ["plot_families"]
