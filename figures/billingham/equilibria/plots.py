"""Shared plotting of exact equilibrium families against the pot size P (Billingham Figs
2, 3, 5, 6): each parameter's (or expectation's) value over P, the range of values a family
allows where it has free parameters shaded (exact LP over the free parameters at each P),
families at single critical values drawn as vertical bars, critical values marked.

The families come from :func:`solvers.symbolic.axis.piecewise.equilibrium_pieces`; they are cached as
sympy strings in ``<out_dir>/<game>_families.json`` (keyed by the game's payoff polynomials)
so that a slow enumeration runs once.  ``quick`` runs read the same records committed in
``data/`` (written by ``python -m figures.billingham.equilibria.plots``), which keeps
``reproduce --quick`` under a minute; a full run enumerates."""
from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import sympy as sp
from scipy.optimize import linprog

from pokerdyn.figures.base import family_colours
from pokerdyn.games import get_game
from pokerdyn.solvers.symbolic.model.conditions import pot_symbol
from pokerdyn.solvers.symbolic.axis.family_records import pieces_records, record_family
from pokerdyn.solvers.symbolic.axis.math_text import set_text
from pokerdyn.solvers.symbolic.model.payoffs import symbolic_payoffs

P_MAX = 12.0
CACHE_VERSION = "reduced-1"


RECORDED = Path(__file__).with_name("data")  # <game>_families.json, as the cache files
FAMILY_GAMES = ("kuhn3-third", "skp")  # the games of the family figures


def family_key(game) -> str:
    """The key of a game's family records: its payoff polynomials and the records' format
    (the version tag invalidates records written before the families were reduced)."""
    return hashlib.sha256((repr(symbolic_payoffs(game)) + CACHE_VERSION).encode()
                          ).hexdigest()[:16]


def _read(path: Path, key: str) -> list | None:
    """The family records of a cache file when it exists and its key is ``key``."""
    if not path.exists():
        return None
    data = json.loads(path.read_text())
    return data["families"] if data.get("key") == key else None


def load_families(game_name: str, out_dir: Path | None, quick: bool = False
                  ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Parsed family records of ``game_name`` and timing information: from the cache file
    in ``out_dir`` (written by an earlier enumeration), else with ``quick`` from the records
    committed in ``figures/billingham/equilibria/data`` (the same enumeration's output;
    tests/test_equilibrium_figures.py checks them against a fresh one), else enumerated now
    and cached (no cache when ``out_dir`` is None).  Records whose key does not match the
    game's payoffs are never used."""
    game = get_game(game_name)
    key = family_key(game)
    name = f"{game_name}_families.json"
    path = None if out_dir is None else Path(out_dir) / name
    info: dict[str, Any] = {"cache": None if path is None else str(path)}
    recs = None if path is None else _read(path, key)
    if recs is not None:
        info["enumeration"] = "cached"
    elif quick and (recs := _read(RECORDED / name, key)) is not None:
        info["enumeration"] = f"recorded ({RECORDED.name}/{name})"
    else:
        from pokerdyn.solvers.symbolic.axis.piecewise import equilibrium_pieces

        t0 = time.perf_counter()
        recs = pieces_records(equilibrium_pieces(game))
        info["enumeration"] = f"{time.perf_counter() - t0:.2f} s"
        if path is not None:
            write_families(path, game_name, key, recs)
    return [record_family(r, game) for r in recs], info


def write_families(path: Path, game_name: str, key: str, recs: list) -> None:
    """A family-records file (the cache's format, also that of the committed records)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"game": game_name, "key": key, "families": recs}, indent=1))


def _linear(rel: sp.Basic, free: Sequence[sp.Symbol]) -> tuple[sp.Expr, ...]:
    """``rel`` as rows of ``A y <= b``: (coefficients..., b) in P."""
    e = rel.lhs - rel.rhs
    if isinstance(rel, (sp.Gt, sp.Ge)):
        e = -e
    coeffs = [e.coeff(y, 1) for y in free]
    rest = sp.expand(e - sum(c * y for c, y in zip(coeffs, free)))
    if rest.free_symbols & set(free):
        raise ValueError(f"constraint {rel} is not affine in {free}")
    return (*coeffs, -rest)


def value_range(fam: dict[str, Any], expr: sp.Expr, pots: np.ndarray,
                p: sp.Symbol | None, subs: dict | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Min and max of ``expr`` over the family at each pot (NaN where it is empty): exact
    LP over the free parameters when the constraints are affine in them, else the extremes
    over 4000 seeded random points of the free box that satisfy the constraints."""
    subs = subs or {}
    expr = sp.sympify(expr).xreplace(subs)
    free = [y for y in (sp.Symbol(n, real=True) for n in fam["free"])  # as param_symbols
            if y not in subs]
    cons = [c.xreplace(subs) for c in fam["constraints"]]
    lo, hi = np.full(len(pots), np.nan), np.full(len(pots), np.nan)
    if any(c is sp.false for c in cons):
        return lo, hi
    cons = [c for c in cons if c is not sp.true]
    args = [p] if p is not None else []
    if not (expr.free_symbols & set(free)):
        f = sp.lambdify(args, expr, "numpy")
        only_p = [sp.lambdify(args, c, "numpy") for c in cons if not (c.free_symbols & set(free))]
        for i, v in enumerate(pots):
            pv = [v] if p is not None else []
            if all(bool(g(*pv)) for g in only_p):
                lo[i] = hi[i] = float(f(*pv))
        return lo, hi
    try:
        rows = [r for r in (_linear(c, free) for c in cons) if any(v != 0 for v in r)]
        c = [expr.coeff(y, 1) for y in free]
        c0 = sp.expand(expr - sum(a * y for a, y in zip(c, free)))
        if c0.free_symbols & set(free):
            raise ValueError("objective not affine")
    except ValueError:
        return _sampled_range(cons, expr, free, pots, args)
    fc = sp.lambdify(args, c + [c0], "numpy")
    fa = sp.lambdify(args, [list(r) for r in rows] or [[0] * (len(free) + 1)], "numpy")
    for i, v in enumerate(pots):
        pv = [v] if p is not None else []
        cc = np.array(fc(*pv), dtype=float)
        ab = np.array(fa(*pv), dtype=float)
        for sgn, out in ((1, lo), (-1, hi)):
            res = linprog(sgn * cc[:-1], A_ub=ab[:, :-1], b_ub=ab[:, -1],
                          bounds=[(0, 1)] * len(free), method="highs")
            if res.status == 0:
                out[i] = sgn * res.fun + cc[-1]
    return lo, hi


def _sampled_range(cons, expr, free, pots, args):
    ys = np.random.default_rng(0).random((4000, len(free)))
    f = sp.lambdify(args + free, expr, "numpy")
    gs = [sp.lambdify(args + free, c.lhs - c.rhs if isinstance(c, (sp.Gt, sp.Ge))
                      else c.rhs - c.lhs, "numpy") for c in cons]
    lo, hi = np.full(len(pots), np.nan), np.full(len(pots), np.nan)
    for i, v in enumerate(pots):
        pv = [np.full(len(ys), v)] if args else []
        ok = np.ones(len(ys), bool)
        for g in gs:
            ok &= np.asarray(g(*pv, *ys.T)) >= 0
        if ok.any():
            vals = np.broadcast_to(np.asarray(f(*pv, *ys.T), float), ok.shape)[ok]
            lo[i], hi[i] = vals.min(), vals.max()
    return lo, hi


def critical_values(fams: Sequence[dict[str, Any]]) -> list[sp.Expr]:
    """Finite endpoints of the P sets, in (0, P_MAX]."""
    pts = set()
    for f in fams:
        s = f["p_set"]
        for v in ([*s] if isinstance(s, sp.FiniteSet) else [s.inf, s.sup]):
            if v.is_finite and 0 < float(v) <= P_MAX:
                pts.add(v)
    return sorted(pts, key=float)


def _pot_text(v: sp.Expr) -> str:
    return sp.sstr(v) if v.is_Rational else f"{float(v):.3g}"


def legend_labels(fams: Sequence[dict[str, Any]]) -> list[str]:
    """One legend entry per family of the reduced set, grouped by its range of P:
    ``"2 < P < 5: 1"``, ``"P = 5: 1"``, ``"P >= 6.77: 2"`` (the number counts the families
    of that range)."""
    out, count = [], {}
    for f in fams:
        where = set_text(f["p_set"], number=_pot_text)
        count[where] = count.get(where, 0) + 1
        out.append(f"{where}: {count[where]}")
    return out


def plot_quantity(ax, fams: Sequence[dict[str, Any]], exprs: Sequence[sp.Expr], p: sp.Symbol,
                  n: int, subs: dict | None = None, keep=None) -> Any:
    """Plot one quantity (``exprs[k]`` for family k) against P on ``ax``; returns ax."""
    colours = family_colours(len(fams))
    for k, (fam, expr, lab) in enumerate(zip(fams, exprs, legend_labels(fams))):
        if keep is not None and not keep(fam):
            continue
        s, col = fam["p_set"], colours[k]
        if isinstance(s, sp.FiniteSet):
            v = float(next(iter(s)))
            if v > P_MAX:
                continue
            lo, hi = value_range(fam, expr, np.array([v]), p, subs)
            if np.isfinite(lo[0]):
                ax.plot([v, v], [lo[0], hi[0]], color=col, lw=3, alpha=0.6, label=lab,
                        marker="_" if hi[0] > lo[0] + 1e-12 else "o", ms=6)
            continue
        a, b = float(s.inf), min(float(s.sup), P_MAX)
        if a >= P_MAX:
            continue
        pots = np.linspace(a, b, n + 2)[1:-1] if s.sup <= P_MAX else np.linspace(a, b, n + 1)[1:]
        lo, hi = value_range(fam, expr, pots, p, subs)
        if np.nanmax(hi - lo, initial=0) > 1e-9:
            ax.fill_between(pots, lo, hi, color=col, alpha=0.25, label=lab)
            lab = None
        ax.plot(pots, lo, color=col, lw=1.5, label=lab)
        ax.plot(pots, hi, color=col, lw=1.5)
    return ax


def mark_critical(ax, crit: Sequence[sp.Expr]) -> Any:
    """Dashed vertical lines at the critical pot sizes, labelled with their exact values."""
    for v in crit:
        ax.axvline(float(v), color="0.5", ls=":", lw=1)
    if crit:  # their values as ticks of a top axis, clear of the panel's title
        top = ax.secondary_xaxis("top")
        top.set_xticks([float(v) for v in crit],
                       [sp.sstr(v) if v.is_Rational else f"{float(v):.3g}" for v in crit],
                       fontsize=7)
        top.tick_params(length=2, pad=1)
    ax.set_xlim(0, P_MAX)
    ax.set_xlabel("pot P")
    return ax


def family_figure(game_name: str, out_dir: Path, quantity: str, filename: str,
                  quick: bool, subs: dict | None = None, keep=None, note: str = ""):
    """:func:`family_plot` (families cached in ``out_dir``) saved as ``out_dir/filename``.
    Returns (path, numbers)."""
    from pokerdyn.figures.base import save

    fig, numbers = family_plot(game_name, quantity, quick, subs, keep, note, out_dir)
    return save(fig, out_dir, filename), numbers


def family_plot(game_name: str, quantity: str, quick: bool, subs: dict | None = None,
                keep=None, note: str = "", out_dir: Path | None = None):
    """Panels of every named parameter (``quantity="strategy"``) or of E1..En
    (``"payoffs"``) against P (the families cached in ``out_dir`` when given: see
    :func:`load_families`).  Returns (figure, numbers)."""
    from pokerdyn.figures.base import new_figure

    game = get_game(game_name)
    t0 = time.perf_counter()
    fams, info = load_families(game_name, out_dir, quick)
    p = pot_symbol(game)
    if quantity == "strategy":
        names = [n.name for n in game.named]
        series = [[f["strategy"][k] for f in fams] for k in names]
    else:
        names = [f"E{i + 1}" for i in range(game.n_players)]
        series = [[f["payoffs"][i] for f in fams] for i in range(game.n_players)]
    ncols = min(4, len(names) + 1)  # one panel for the legend
    nrows = -(-(len(names) + 1) // ncols)
    fig, axes = new_figure(nrows, ncols, size=(3.2 * ncols, 2.8 * nrows), squeeze=False)
    crit = critical_values(fams)
    for ax, name, exprs in zip(axes.flat, names, series):
        plot_quantity(ax, fams, exprs, p, 40 if quick else 300, subs, keep)
        mark_critical(ax, crit)
        ax.set_title(f"{name} against the pot P", pad=14, fontsize=10)
    for ax in list(axes.flat)[len(names):]:
        ax.axis("off")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    for ax in axes.flat:
        h, lab = ax.get_legend_handles_labels()
        for hh, ll in zip(h, lab):
            if ll not in labels:
                handles.append(hh)
                labels.append(ll)
    order = {lab: k for k, lab in enumerate(legend_labels(fams))}
    pairs = sorted(zip(handles, labels), key=lambda hl: order.get(hl[1], len(order)))
    handles, labels = [h for h, _ in pairs], [lab for _, lab in pairs]
    legend_ax = list(axes.flat)[len(names)]
    legend_ax.legend(handles, labels, loc="center", fontsize=8,
                     title=f"{game_name}: families" + (f"\n{note}" if note else ""))
    numbers = {"families": len(fams), "legend": labels, "critical P": [str(v) for v in crit],
               "enumeration": info["enumeration"],
               "figure seconds": f"{time.perf_counter() - t0:.2f}"}
    return fig, numbers


def main(argv: Sequence[str] | None = None) -> None:
    """Rewrite the committed records (``data/<game>_families.json``) by enumerating the
    family figures' games again."""
    import argparse

    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("games", nargs="*", default=list(FAMILY_GAMES))
    for name in ap.parse_args(argv).games:
        from pokerdyn.solvers.symbolic.axis.piecewise import equilibrium_pieces

        game = get_game(name)
        write_families(RECORDED / f"{name}_families.json", name, family_key(game),
                       pieces_records(equilibrium_pieces(game)))
        print(f"wrote {RECORDED / f'{name}_families.json'}")


if __name__ == "__main__":
    main()
