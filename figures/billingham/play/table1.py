"""Billingham Table 1: ex-showdown expectations of SKP repeated play at P = 9 from near S3
(the runs of Figs. 11-12), for every estimator of the opponents' frequencies.

Grid: k in {0.001, 0.01}, L in {6, 12, 24, 48, 96, 192}, 3 seeds of 3e6 hands each (quick
mode: 1.5e4 hands), 12 deals (the paper's convention: twice the 24-deal expectation; S2 gives
twice (16) = -0.130, -0.104, 0.233), start S3 + 0.01, and the four estimators "unbiased",
"paper", "corrected" and "ml" (:mod:`dynamics.play.estimators`).  The seed of replicate r of
cell (k, L) is ``SeedSequence(seed, spawn_key=(k index, L index, r))``, the same for every
estimator (common random numbers), so a run replays bit for bit.

The paper's values are withheld from us; everything here is derived from the model.
Output: ``billingham_table1.png`` (payoffs against L per player and k, one line per
estimator, bars: seed min-max), ``billingham_table1.json`` (the rows with per-seed values)
and ``billingham_table1.csv`` (one row per k, L, estimator); the summary states how far the
estimators' payoffs differ, measured from the run.
"""
from __future__ import annotations

import csv
import json
from itertools import combinations
from pathlib import Path

import numpy as np

from pokerdyn.dynamics.play.estimators import ESTIMATORS, RATIO_KINDS
from pokerdyn.dynamics.play.repeated import simulate

from pokerdyn.figures.base import Figure, FigureResult, described, finish, new_figure

POT = 9
KS = (0.001, 0.01)
LS = (6, 12, 24, 48, 96, 192)
SEEDS = 3
FULL_ROUNDS = 3_000_000  # per seed (Billingham sec. 4.2)
QUICK_ROUNDS = 15_000
S2_TWICE_16 = (-0.130, -0.104, 0.233)  # the paper's Solution 2 values (12-deal convention)
NAME = "billingham_table1"


def run_table(rounds: int, seed: int = 0) -> list[dict]:
    """One row per (k, L, estimator): mean ex-showdown payoffs per player over the seeds,
    their sample s.d., min and max, and the per-seed values (``seeds[r][p]``)."""
    rows = []
    for ik, k in enumerate(KS):
        for iL, L in enumerate(LS):
            seqs = [np.random.SeedSequence(seed, spawn_key=(ik, iL, r)) for r in range(SEEDS)]
            for est in ESTIMATORS:
                per_seed = np.array([simulate("skp", pot=POT, k=k, L=L, rounds=rounds, seed=ss,
                                              estimator=est, n_points=1).mean_payoffs
                                     for ss in seqs])
                rows.append({"k": k, "L": L, "estimator": est,
                             "payoffs": per_seed.mean(axis=0).tolist(),
                             "sd": per_seed.std(axis=0, ddof=1).tolist(),
                             "min": per_seed.min(axis=0).tolist(),
                             "max": per_seed.max(axis=0).tolist(),
                             "seeds": per_seed.tolist()})
    return rows


def differences(rows: list[dict]) -> list[dict]:
    """For every (k, L, player) and pair of estimators: the difference of the seed means
    and its size in standard errors (``sqrt(sd_a^2 / n + sd_b^2 / n)``)."""
    cells: dict[tuple, dict[str, dict]] = {}
    for r in rows:
        cells.setdefault((r["k"], r["L"]), {})[r["estimator"]] = r
    out = []
    for (k, L), by in cells.items():
        for p in range(3):
            for a, b in combinations(by, 2):
                d = by[a]["payoffs"][p] - by[b]["payoffs"][p]
                se = np.hypot(by[a]["sd"][p], by[b]["sd"][p]) / np.sqrt(SEEDS)
                out.append({"k": k, "L": L, "player": p + 1, "pair": (a, b), "diff": d,
                            "z": abs(d) / se if se > 0 else float("inf")})
    return out


GROUPS = {"all four estimators": ESTIMATORS, "the ratio estimators": RATIO_KINDS,
          "paper vs corrected (only (46) differs)": ("paper", "corrected")}


def summarise(rows: list[dict]) -> tuple[str, dict]:
    """The summary sentences and key numbers, measured from ``rows``: per k and group of
    estimators (:data:`GROUPS`) the largest difference of mean payoffs, where it is, its
    size in seed standard errors and the (L, player) cells with a pair > 3 s.e. apart."""
    diffs = differences(rows)
    numbers: dict = {}
    text = []
    for k in KS:
        parts = []
        for group, members in GROUPS.items():
            dk = [d for d in diffs if d["k"] == k and set(d["pair"]) <= set(members)]
            worst = max(dk, key=lambda d: abs(d["diff"]))
            where = sorted({(d["L"], d["player"]) for d in dk if d["z"] > 3})
            numbers[f"k={k}, {group}: largest difference"] = (
                f"{abs(worst['diff']):.4f} (L={worst['L']}, P{worst['player']}, "
                f"{worst['pair'][0]} vs {worst['pair'][1]}, {worst['z']:.1f} s.e.)")
            numbers[f"k={k}, {group}: (L, player) cells > 3 s.e. apart"] = \
                ", ".join(f"L={L} P{p}" for L, p in where) or "none"
            parts.append(f"{group} up to {abs(worst['diff']):.4f} (L = {worst['L']}, Player "
                         f"{worst['player']}, {worst['pair'][0]} vs {worst['pair'][1]}, "
                         f"{worst['z']:.0f} s.e. (3 seeds); {len(where)} of {len(LS) * 3} "
                         f"(L, player) cells > 3 s.e. apart)")
        s2 = max(abs(r["payoffs"][p] - S2_TWICE_16[p]) for r in rows
                 if r["k"] == k and r["estimator"] in RATIO_KINDS for p in range(3))
        numbers[f"k={k}: ratio estimators' max |payoff - 2 x (16) at S2|"] = round(s2, 4)
        text.append(f"At k = {k} the mean payoffs differ between {'; '.join(parts)}; the "
                    f"ratio estimators' payoffs are within {s2:.4f} of twice (16) at S2.")
    return " ".join(text), numbers


def plot(rows: list[dict], axes):
    """Mean payoff against L per player (columns) and k (rows), one line per estimator,
    bars from the seed minimum to maximum; returns ``axes``."""
    for i, k in enumerate(KS):
        for p in range(3):
            ax = axes[i, p]
            for e, est in enumerate(ESTIMATORS):
                rs = [r for r in rows if r["k"] == k and r["estimator"] == est]
                L = np.array([r["L"] for r in rs]) * 1.06 ** (e - 1.5)  # dodge the bars
                y = np.array([r["payoffs"][p] for r in rs])
                lo = y - np.array([r["min"][p] for r in rs])
                hi = np.array([r["max"][p] for r in rs]) - y
                ax.errorbar(L, y, yerr=[lo, hi], marker="o", ms=3, capsize=2, lw=1, label=est)
            ax.axhline(S2_TWICE_16[p], color="grey", ls="--", lw=0.8)
            ax.set_xscale("log", base=2)
            ax.set_xticks(LS, [str(L) for L in LS])
            ax.minorticks_off()
            ax.set_title(f"Player {p + 1}, k = {k} (dashed: 2 x (16) at S2)", fontsize=9)
            ax.set_xlabel("L")
            ax.set_ylabel("mean ex-showdown payoff per hand")
    axes[0, 0].legend(fontsize=7)
    return axes


def write_tables(rows: list[dict], out_dir: Path, rounds: int, seed: int) -> tuple[Path, Path]:
    """``billingham_table1.json`` (rows and run parameters) and ``.csv`` in ``out_dir``."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    js = out_dir / f"{NAME}.json"
    js.write_text(json.dumps({"pot": POT, "deals": 12, "start": "S3 + 0.01",
                              "rounds_per_seed": rounds, "seeds": SEEDS, "seed": seed,
                              "payoffs": "mean ex-showdown per hand, players 1-3",
                              "rows": rows}, indent=1))
    cs = out_dir / f"{NAME}.csv"
    with cs.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["k", "L", "estimator", *(f"{q}_{p}" for q in ("payoff", "sd", "min", "max")
                                              for p in (1, 2, 3))])
        for r in rows:
            w.writerow([r["k"], r["L"], r["estimator"],
                        *(repr(v) for q in ("payoffs", "sd", "min", "max") for v in r[q])])
    return js, cs


def _draw(seed: int, quick: bool) -> tuple[Figure, list[dict], int]:
    """The figure, the table's rows and the hands per seed."""
    rounds = QUICK_ROUNDS if quick else FULL_ROUNDS
    rows = run_table(rounds, seed)
    summary, numbers = summarise(rows)
    numbers = {"hands per seed": rounds, "seeds": SEEDS, **numbers}
    for r in rows:
        numbers[f"k={r['k']} L={r['L']} {r['estimator']}: payoffs (P1, P2, P3) ± s.d."] = \
            ", ".join(f"{m:+.4f} ± {s:.4f}" for m, s in zip(r["payoffs"], r["sd"]))
    fig, axes = new_figure(len(KS), 3, size=(13, 7), sharex=True)
    plot(rows, axes)
    return described(
        fig, NAME,
        f"Billingham Table 1 derived from the model: mean ex-showdown payoffs per hand (12 "
        f"deals) at P = 9 from S3 + 0.01, {SEEDS} seeds of {rounds} hands, for the "
        f"estimators {', '.join(ESTIMATORS)}. {summary}",
        numbers, "Billingham (three-player Kuhn), sec. 4.2, Table 1, App. D (44)-(47)"), \
        rows, rounds


def figure(seed: int = 0, quick: bool = False) -> Figure:
    """Mean payoff against L per player and k, one line per estimator (the table's rows:
    :func:`run_table`)."""
    return _draw(seed, quick)[0]


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/billingham_table1.png`` and the table as ``.json``
    and ``.csv``; the :class:`FigureResult`."""
    fig, rows, rounds = _draw(seed, quick)
    js, cs = write_tables(rows, out_dir, rounds, seed)
    return finish(fig, out_dir, extra=(js, cs))
