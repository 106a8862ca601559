"""The hold'em paper's open question (sec. 5, "how collusion pays as the number of colluders
grows"): the colluders' total gain and the non-colluders' total loss per hand against the
number of colluders k, Mercer Hold'em with N players, under the three constraints (strong:
shared hole cards and winnings; weak: win sharing; pot: pot sharing).

The colluders are the last k seats; a gain is the colluders' summed payoff in the collusion
game minus their summed payoff at the same seats in the game without collusion, both at a
CFR+ equilibrium (:func:`run`, whose JSON ``data/mercer_colluders.json`` this module reads;
with ``heavy`` it re-solves everything into ``out_dir``; ``experiments/mercer_colluders.py``
is its command line).
"""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Iterable

import numpy as np
from matplotlib.lines import Line2D

from pokerdyn.figures.base import Figure, FigureResult, described, finish, new_figure
from pokerdyn.figures.mercer.render import DATA, heavy_results
from pokerdyn.games.errors import GameError

KINDS = ("strong", "weak", "pot")
NAME = "mercer_colluders"
RESULTS = DATA / "mercer_colluders.json"


NOTE = ("Colluders are the last k seats; gains are against the game without collusion at the "
        "same seats (both CFR+; 3P to NashConv 0.0005, 4P 40 iterations, NashConv <= 0.008; "
        "5P 20 iterations on the game with its board collapsed, 35,857,341 nodes, NashConv "
        "0.008-0.049), so weak-collusion gains below about 0.005 (3P, 4P) or 0.03-0.05 (5P) are "
        "within the solves' error.  Strong collusion gains grow with k up to k = N - 2 "
        "(3P +0.080; 4P +0.107, +0.146; 5P +0.121, +0.245) and not beyond (5P, k = 4: "
        "+0.220, one victim left; the drop is about the solves' NashConv); the paper's "
        "footnote 6 puts 3P-SMH strong-collusion gains at 1e-4, far below our +0.080 with "
        "seats 2 and 3: only weak collusion gains that little (section mercer_strong: the "
        "footnote fits weak collusion, not strong).  Pot sharing costs the colluders about an ante each.  "
        "4P-MMH (382,234,181 nodes, no board collapse: it bets after the board) is counted, "
        "not built (about 14 GB compiled, 25-30 GB while building; BENCHMARKS.md).")


def spec_of(game: str, n: int, kind: str | None, k: int) -> str:
    """Spec of N-player Mercer ``game`` (smh/mmh), colluders the last ``k`` seats."""
    if kind is None:
        return f"mercer-{game}(players={n})"
    seats = ",".join(str(s) for s in range(n - k + 1, n + 1))
    return f"mercer-{game}(players={n},collusion={kind},colluders=[{seats}])"


def solve(spec: str, tol: float, iterations: int, growth: float = 1.1) -> dict:
    """CFR+ on ``spec`` to NashConv ``tol`` or ``iterations`` (NashConv measured at
    checkpoints 1..10, then growing by ``growth``): the record :func:`run` keeps per game
    (sizes, build and solve seconds, payoffs, NashConv history, peak memory so far)."""
    import resource

    from pokerdyn.games import compile_game
    from pokerdyn.games.catalog.registry import make_game
    from pokerdyn.solvers.iterative import run_iterative
    from pokerdyn.solvers.learning.cfr_plus import CFR

    t0 = time.perf_counter()
    cg = compile_game(make_game(spec))
    t1 = time.perf_counter()
    built_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2 ** 20
    r = run_iterative(cg, CFR(), iterations=iterations, tol=tol, growth=growth)
    return {"spec": spec, "nodes": int(cg.n_nodes), "infosets": int(cg.n_infosets),
            "build_s": round(t1 - t0, 2), "solve_s": round(time.perf_counter() - t1, 2),
            "iterations": int(r.iterations), "nash_conv": float(r.nash_conv),
            "payoffs": [float(x) for x in r.expected_payoffs],
            "history": [[int(i), float(nc), round(float(s), 2)] for i, nc, s in r.history],
            "build_peak_rss_gb": round(built_rss, 2),
            "peak_rss_gb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2 ** 20,
                                 2)}


def specs(game: str, n: int) -> list[str]:
    """The games of N-player Mercer ``game`` that :func:`run` solves: without collusion,
    then every (k, constraint) for k = 2 .. N-1."""
    return [spec_of(game, n, None, 0)] + [spec_of(game, n, kind, k)
                                          for k in range(2, n) for kind in KINDS]


def run(out: Path, players: Iterable[int] = (3, 4), game: str = "smh", tol: float = 0.002,
        iterations: int = 400, growth: float = 1.1, shard: tuple[int, int] = (0, 1),
        progress: bool = False) -> dict:
    """Solve (:func:`solve`) every game of :func:`specs` for each player count not yet in
    the JSON file ``out`` (spec -> record), rewriting it after each solve, so an
    interrupted run resumes; ``shard=(i, m)`` solves every m-th game from the i-th (run
    m shards in parallel, each to its own file, then :func:`merge` them).  Returns the
    records; ``progress`` prints each record as it is solved."""
    out = Path(out)
    done = json.loads(out.read_text()) if out.exists() else {}
    i, m = shard
    for n in players:
        for spec in specs(game, n)[i::m]:
            if spec in done:
                continue
            done[spec] = solve(spec, tol, iterations, growth)
            if progress:
                print(json.dumps(done[spec]), flush=True)
            out.write_text(json.dumps(done, indent=1))
    return done


def merge(out: Path, parts: Iterable[Path]) -> dict:
    """The records of the files ``parts`` merged into ``out`` (rewritten); returns them."""
    out = Path(out)
    done = json.loads(out.read_text()) if out.exists() else {}
    for p in parts:
        done.update(json.loads(Path(p).read_text()))
    out.write_text(json.dumps(done, indent=1))
    return done


def gains(results: dict, game: str, n: int) -> list[dict]:
    """One row per (k, kind) present in ``results`` (spec -> solve record): the colluders'
    gain, the non-colluders' loss, per hand, and the largest NashConv of the two solves."""
    base = results.get(spec_of(game, n, None, 0))
    rows = []
    if base is None:
        return rows
    u0 = np.array(base["payoffs"])
    for k in range(2, n):
        team = np.arange(n - k, n)
        rest = np.arange(n - k)
        for kind in KINDS:
            r = results.get(spec_of(game, n, kind, k))
            if r is None:
                continue
            u = np.array(r["payoffs"])
            rows.append({"players": n, "colluders": k, "kind": kind,
                         "gain": float(u[team].sum() - u0[team].sum()),
                         "loss": float(u0[rest].sum() - u[rest].sum()),
                         "colluders_payoff": float(u[team].sum()),
                         "nash_conv": max(float(r["nash_conv"]), float(base["nash_conv"])),
                         "seconds": float(r["build_s"] + r["solve_s"])})
    return rows


def markdown(rows: list[dict]) -> str:
    out = ["| game | N | k | constraint | colluders' gain | non-colluders' loss | "
           "colluders' payoff | NashConv (max of the two solves) |",
           "|---|---:|---:|---|---:|---:|---:|---:|"]
    for r in rows:
        out.append(f"| {r['game']} | {r['players']} | {r['colluders']} | {r['kind']} | "
                   f"{r['gain']:+.4f} | {r['loss']:+.4f} | {r['colluders_payoff']:+.4f} | "
                   f"{r['nash_conv']:.4f} |")
    return "\n".join(out)


def plot_constraint(ax, rows: list[dict], kind: str):
    """One constraint: the colluders' gain (a line and dots, one colour per game) and the
    non-colluders' loss (black crosses, on the gain: these games are zero-sum) against k."""
    colours = {}
    for r in rows:
        colours.setdefault((r["game"], r["players"]), f"C{len(colours)}")
    for (game, n), colour in colours.items():
        pts = sorted((r["colluders"], r["gain"], r["loss"]) for r in rows
                     if r["kind"] == kind and r["players"] == n and r["game"] == game)
        if not pts:
            continue
        x, gain, loss = zip(*pts)
        ax.plot(x, gain, "o-", color=colour, ms=7, label=f"{n}P-{game.upper()}")
        ax.plot(x, loss, "x", color="k", ms=6, mew=1.2)  # on the gain: zero-sum
    ax.axhline(0, color="k", lw=0.5)
    ax.set_xticks([2, 3, 4])
    ax.set_xlabel("number of colluders k (the last k seats)")
    ax.set_ylabel("antes per hand")
    ax.set_title(f"{kind} collusion: colluders' total gain", fontsize=10)
    handles, _ = ax.get_legend_handles_labels()
    handles += [Line2D([], [], marker="o", color="0.4", ls="-", label="colluders' total gain"),
                Line2D([], [], marker="x", color="k", ls="none",
                       label="non-colluders' total loss\n(equal: the games are zero-sum)")]
    ax.legend(handles=handles, fontsize=8)
    return ax


def _draw(heavy: bool, out_dir: Path | None) -> tuple[Figure, list[dict]]:
    """The figure and its rows (:func:`gains`), from the committed results or, with
    ``heavy``, from :func:`run` into ``out_dir`` (3 and 4 players, then 5P-SMH)."""
    def solve_all(path: Path) -> None:
        run(path, players=(3, 4))
        # 5P-SMH (35,857,341 nodes with the board collapsed): 20 CFR+ iterations per solve
        run(path, players=(5,), iterations=20, growth=2)

    if heavy and out_dir is None:
        raise GameError("heavy needs an out_dir for its results")
    path, results = heavy_results(RESULTS, out_dir, heavy, solve_all)
    rows = []
    for game in ("smh", "mmh"):
        for n in (3, 4, 5):
            rows += [{"game": game, **r} for r in gains(results, game, n)]
    fig, axes = new_figure(1, len(KINDS), size=(14, 4.6))
    for ax, kind in zip(np.ravel(axes), KINDS):
        plot_constraint(ax, rows, kind)
    numbers = {f"{r['players']}P-{r['game'].upper()} k={r['colluders']} {r['kind']}: gain / loss":
               f"{r['gain']:+.4f} / {r['loss']:+.4f}" for r in rows}
    return described(fig, NAME,
                     "Colluders' total gain and non-colluders' total loss per hand (antes) "
                     "against the number of colluders k (the last k seats), Mercer Hold'em "
                     "with N players, CFR+ equilibria of the collusion game and of the game "
                     "without collusion. Read from " + path.name + ".",
                     numbers, "Mercer (hold'em paper) sec. 5, its open question"), rows


def figure(seed: int = 0, quick: bool = False, heavy: bool = False,
           out_dir: Path | None = None) -> Figure:
    """Gain and loss against k, one panel per constraint (``heavy``: every game solved
    again into ``out_dir``, hours)."""
    return _draw(heavy, out_dir)[0]


def main(out_dir: Path, seed: int = 0, quick: bool = False, heavy: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/mercer_colluders.png`` and its table as
    ``mercer_colluders.md``; the :class:`FigureResult`."""
    out_dir = Path(out_dir)
    fig, rows = _draw(heavy, out_dir)
    table = out_dir / f"{NAME}.md"
    result = finish(fig, out_dir, extra=(table,))
    table.write_text("## The colluder count (the paper's open question)\n\n" + markdown(rows)
                     + "\n\n" + NOTE + "\n")
    return result
