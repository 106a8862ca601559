"""Billingham's mid-range bet in N-card 3-player Kuhn poker (arXiv 1802.04670: for N > 5
a bet with a middling card that bluffs against one opponent and value-bets against the
other), shown along the equilibrium branches that continuation finds for N = 6 and 7.

For every bet with a mid-range card (neither of the two lowest nor of the two highest)
that is *split* somewhere on the branches (equity above 1/2 against one opponent's
heads-up calling range and below 1/2 against the other's: ``n_card.bet_equities``), the
figure draws its frequency against the pot P (left) and its equity against each
opponent's calling range (right), branch by branch.

The data (figures/frontier/data/n_card_midrange.json) is derived from the continuation's
JSON (``pokerdyn continuation 'kuhn3(cards=N)' --pots 2:10 --start 5.3 --max-branches 1000
--json``, or the records of ``benchmarks/bench_continuation.py --records DIR`` passed to
:func:`write_data`) by :func:`midrange_series`; ``quick`` and the full run read it,
``heavy`` computes it again (tens of minutes for N = 7 on two shared cores).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from pokerdyn.figures.base import Figure, FigureResult, described, finish, new_figure
from pokerdyn.figures.frontier.n_card import bet_equities
from pokerdyn.games import get_game
from pokerdyn.games.catalog.kuhn import deck
from pokerdyn.solvers.continuation.system import IndifferenceSystem, indifference_system

DATA = Path(__file__).with_name("data") / "n_card_midrange.json"
SOURCE = "Billingham, arXiv 1802.04670 (the mid-range bet for N > 5)"
CARDS = (6, 7)
RUN = {"pots": [2.0, 10.0], "start": 5.3, "max_branches": 1000}


def branch_profiles(system: IndifferenceSystem, branch: dict) -> list[tuple[float, np.ndarray]]:
    """``(pot, x)`` at every sample of a branch of the continuation's JSON: the sampled
    mixed frequencies, 0 and 1 where the support says so, and the held (and unreached)
    ones at their value at the branch's first point."""
    names = system.names()
    first = branch["bifurcation_points"][0]["frequencies"]
    base = np.array([float(first[n]) for n in names])
    sup = branch["support"]
    for k, n in enumerate(names):
        if n in sup["zero"]:
            base[k] = 0.0
        elif n in sup["one"]:
            base[k] = 1.0
    smp = branch["samples"]
    cols = {names.index(n): v for n, v in smp["frequencies"].items()}
    out = []
    for i, p in enumerate(smp["pot"]):
        x = base.copy()
        for k, v in cols.items():
            x[k] = v[i]
        out.append((float(p), x))
    return out


def _mid(card: str, cards: str) -> bool:
    return 2 <= cards.index(card) <= len(cards) - 3


def midrange_series(system: IndifferenceSystem, record: dict) -> dict[str, Any]:
    """The split mid-range bets of a continuation record (``ContinuationResult.to_json()``):
    ``{"bets": [{"player", "card", "history", "split_pots": [lo, hi], "branches": [{"index",
    "pot", "frequency", "equity": {opponent: [...]}}]}]}``, equities ``None`` where the
    opponent never calls."""
    cards = deck(len({inf.label.split(":")[1].split("|")[0] for inf in system.game.infosets}))
    rows = [(b["index"], p, bet_equities(system, x)) for b in record["branches"]
            for p, x in branch_profiles(system, b)]
    split: dict[tuple, list[float]] = {}
    for _, p, bets in rows:
        for r in bets:
            eq = r["equity"]
            if (_mid(r["card"], cards) and len(eq) == 2
                    and min(eq.values()) < 0.5 < max(eq.values())):
                split.setdefault((r["player"], r["card"], r["history"]), []).append(p)
    out = []
    for key, pots in sorted(split.items()):
        series: dict[int, dict] = {}
        for bi, p, bets in rows:
            r = next((r for r in bets if (r["player"], r["card"], r["history"]) == key), None)
            s = series.setdefault(bi, {"index": bi, "pot": [], "frequency": [], "equity": {}})
            s["pot"].append(round(p, 6))
            s["frequency"].append(0.0 if r is None else round(r["frequency"], 6))
            for q in {1, 2, 3} - {key[0]}:
                e = None if r is None else r["equity"].get(q)
                s["equity"].setdefault(str(q), []).append(None if e is None else round(e, 6))
        used = [s for s in series.values() if max(s["frequency"]) > 0]
        out.append({"player": key[0], "card": key[1], "history": key[2],
                    "split_pots": [min(pots), max(pots)], "branches": used})
    return {"bets": out}


def compute(cards: int, opts: dict = RUN) -> dict[str, Any]:
    """Continuation of ``kuhn3(cards=N)`` over ``opts['pots']`` and its split mid-range
    bets, with the run's coverage and timing."""
    from pokerdyn.solvers.continuation.api import continuation
    from pokerdyn.solvers.continuation.trace import Options

    res = continuation(get_game(f"kuhn3(cards={cards})"), tuple(opts["pots"]),
                       start=opts["start"], opts=Options(max_branches=opts["max_branches"]))
    return summarise(res.system, res.to_json())


def summarise(system: IndifferenceSystem, record: dict) -> dict[str, Any]:
    br = record["branches"]
    return {"game": record["game"], "pots": record["pots"], "start_pot": record["start_pot"],
            "branches": len(br),
            "covered": [min(b["pot_range"][0] for b in br), max(b["pot_range"][1] for b in br)],
            "max_nash_conv": record["max_nash_conv"], "seconds": record["seconds"],
            **midrange_series(system, record)}


def write_data(records: Path, out: Path = DATA) -> dict[str, Any]:
    """The figure's data from continuation records ``records/kuhn3(cards=N).json`` (as
    ``benchmarks/bench_continuation.py --records DIR`` writes them), written to ``out``."""
    data: dict[str, Any] = {"run": RUN}
    for n in CARDS:
        game = get_game(f"kuhn3(cards={n})")
        rec = json.loads((Path(records) / f"{game.name}.json").read_text())
        data[f"N={n}"] = summarise(indifference_system(game), rec)
    Path(out).write_text(json.dumps(data))
    return data


def _joined(series: list[dict], value) -> tuple[np.ndarray, np.ndarray]:
    """Every branch's pots and values in one pair of arrays, NaN between branches (one
    line per bet instead of one per branch; None, an opponent who never calls, is NaN)."""
    xs, ys = [], []
    for s in series:
        xs += [*s["pot"], np.nan]
        ys += [np.nan if v is None else v for v in value(s)] + [np.nan]
    return np.array(xs, dtype=float), np.array(ys, dtype=float)


def _label(b: dict) -> str:
    hist = b["history"] or "first"
    return f"P{b['player']} {b['card']} after '{hist}'"


def figure(seed: int = 0, quick: bool = False, heavy: bool = False,
           out_dir: Path | None = None) -> Figure:
    """The figure from the committed data, or with ``heavy`` from the continuations run
    again (their data written to ``out_dir`` when given)."""
    if heavy:
        data = {f"N={n}": compute(n) for n in CARDS}
        if out_dir is not None:
            (Path(out_dir) / DATA.name).write_text(json.dumps({"run": RUN, **data}))
    else:
        data = {k: v for k, v in json.loads(DATA.read_text()).items() if k.startswith("N=")}
    fig, axes = new_figure(len(data), 2, size=(11, 3.4 * len(data)), squeeze=False)
    numbers: dict[str, Any] = {}
    for (ax, bx), (key, d) in zip(axes, data.items()):
        for c, b in enumerate(d["bets"]):
            col = f"C{c}"
            ax.plot(*_joined(b["branches"], lambda s: s["frequency"]), color=col, lw=0.9,
                    label=_label(b))
            for q, ls in zip(sorted(b["branches"][0]["equity"]), ("-", "--")):
                bx.plot(*_joined(b["branches"], lambda s: s["equity"][q]), color=col, lw=0.8,
                        ls=ls, label=f"{_label(b)}: vs P{q}")
        bx.axhline(0.5, color="0.5", lw=0.6)
        ax.set_title(f"{key}: frequency of the split mid-range bets ({d['branches']} branches, "
                     f"P in [{d['covered'][0]:.2f}, {d['covered'][1]:.2f}])", fontsize=9)
        bx.set_title(f"{key}: equity against each opponent's calling range", fontsize=9)
        for a, lab in ((ax, "frequency"), (bx, "equity (1/2: value above, bluff below)")):
            a.set_xlabel("pot P")
            a.set_ylabel(lab)
            a.legend(fontsize=6)
        numbers[key] = {"branches": d["branches"], "covered": d["covered"],
                        "bets": {_label(b): b["split_pots"] for b in d["bets"]}}
    return described(fig, "n_card_midrange",
                     "N-card 3-player Kuhn poker, N = 6 and 7: the bets with a mid-range card "
                     "that value-bet one opponent and bluff the other, their frequency against "
                     f"P and their equity against each opponent's calling range: {numbers}",
                     numbers, SOURCE)


def main(out_dir: Path, seed: int = 0, quick: bool = False, heavy: bool = False
         ) -> FigureResult:
    """Save :func:`figure` as ``out_dir/n_card_midrange.png``; its :class:`FigureResult`."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    return finish(figure(seed=seed, quick=quick, heavy=heavy, out_dir=out_dir), out_dir)
