"""Mercer Hold'em against its paper: our numbers derived from the rules beside the printed
ones (shared/papers/mercer_holdem_collusion.txt, sec. 4.2-4.3, Tables 1-6).

For every printed frequency: the LP's optimal-face range [min, max] (2 players), the paper's
own fictitious play re-run on our game (``solvers.learning.paper_fp.paper_fictitious_play``:
uniform start, 1/(t+1) per-information-set averaging, stop at max single-player regret
< 0.01), and for 3 players CFR+ to NashConv 0.01 from several starts.  Markdown goes to
stdout and to ``--out``.

    python experiments/mercer_paper.py --quick          # 2-player games and 3P-SMH (~1 min)
    python experiments/mercer_paper.py --out mercer_paper.md   # + 3P-MMH (tens of minutes)

``pokerdyn reproduce --only mercer_tables_2p,mercer_tables_3p,...,mercer_report`` writes the
same tables section by section (``mercer_paper.md``) from cached profiles.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from pokerdyn.figures.mercer.paper import (ALWAYS_BET, NEVER_BET, PAYOFFS_3P_SMH, TABLES,
                                           VALUE_2P_MMH, VALUE_2P_SMH, table_cells,
                                           table_frequencies)
from pokerdyn.figures.mercer.tables_3p import random_start
from pokerdyn.games import compile_game
from pokerdyn.games.catalog.registry import make_game
from pokerdyn.games.holdem import MercerEvaluator, Round, build_game
from pokerdyn.games.holdem.standard import MERCER_DECK
from pokerdyn.solvers import cfr, expected_payoffs, optimal_face_range, regrets, solve_lp
from pokerdyn.solvers.learning.paper_fp import paper_fictitious_play

OUT: list[str] = []


def say(line: str = "") -> None:
    print(line, flush=True)
    OUT.append(line)


def _pct(x: float) -> str:
    return f"{x:.1f}"


def table_2p(g, cg, lp, fp, name: str) -> None:
    """Printed | paper's FP (ours) | LP face range, for every cell of table ``name``."""
    t = TABLES[name]
    fpf = table_frequencies(g, t, fp.strategy)
    say(f"**Table {name}** ({t.caption}): printed / paper's FP re-run / LP optimal face "
        "[min, max], percent")
    say()
    say("| row | " + " | ".join(t.columns) + " |")
    say("|---|" + "---|" * len(t.columns))
    dev_fp = dev_lp = 0.0
    for r in t.rows:
        cells = []
        for c, printed in zip(t.columns, t.values[r]):
            i = table_cells(g, t)[r, c]
            f = optimal_face_range(cg, i, 0, value=lp.value)
            lo, hi = 100 * f.low, 100 * f.high
            rng = _pct(lo) if hi - lo < 0.05 else f"[{_pct(lo)}, {_pct(hi)}]"
            cells.append(f"{printed:g} / {_pct(fpf[r, c])} / {rng}")
            dev_fp = max(dev_fp, abs(printed - fpf[r, c]))
            dev_lp = max(dev_lp, max(lo - printed, printed - hi, 0.0))
        say(f"| {r} | " + " | ".join(cells) + " |")
    say()
    say(f"Largest deviation of a printed cell: from the paper's FP re-run {dev_fp:.2f} points, "
        f"from the LP's optimal face {dev_lp:.1f} points.")
    say()


def two_player() -> None:
    say("## Two players: LP (exact equilibria) and the paper's fictitious play")
    say()
    for spec, paper_value, tables in (("mercer-smh(players=2)", VALUE_2P_SMH, ("1",)),
                                      ("mercer-mmh(players=2)", VALUE_2P_MMH, ("2", "3"))):
        g = make_game(spec)
        cg = compile_game(g)
        t0 = time.perf_counter()
        lp = solve_lp(cg)
        t_lp = time.perf_counter() - t0
        fp = paper_fictitious_play(cg, 0.01)
        say(f"### {spec}")
        say()
        say(f"Player 2's value: LP {-lp.value:.6f} ({t_lp:.1f} s); the paper's FP re-run "
            f"{-float(fp_payoff(cg, fp)[0]):.4f} after {fp.iterations} iterations "
            f"(max regret {fp.max_regret:.4f}, {fp.seconds:.1f} s); printed {paper_value}.")
        say()
        for name in tables:
            table_2p(g, cg, lp, fp, name)
        if spec.startswith("mercer-smh"):
            always_never(g, cg, lp)


def fp_payoff(cg, fp):
    return expected_payoffs(cg, fp.strategy)


def always_never(g, cg, lp) -> None:
    bad = []
    for p, hist in ((1, ""), (2, "b")):
        for hands, want in ((ALWAYS_BET, 1.0), (NEVER_BET, 0.0)):
            for h in hands:
                f = optimal_face_range(cg, g.infoset_index(f"P{p}:{h}|{hist}"), 0, lp.value)
                if max(abs(f.low - want), abs(f.high - want)) > 1e-6:
                    bad.append(f"P{p} {h} [{f.low:.4f}, {f.high:.4f}]")
    say("Always bet (22 26 33 36 44 45 46 55 56 66) and never bet (23 24), both players, "
        "every history, unique on the optimal face: " + ("yes" if not bad else
                                                          "except " + ", ".join(bad)) + ".")
    say()


SMH3_READINGS = {
    "as built (1 orbit, bet 4)": (Round(ante=1, hole_cards=2, bets=(4,), max_bets=1),
                                  Round(shared_cards=2, bets=())),
    "2 orbits of bet 4": (Round(ante=1, hole_cards=2, bets=(4,), max_bets=2),
                          Round(shared_cards=2, bets=())),
    "1 orbit, bet 8": (Round(ante=1, hole_cards=2, bets=(8,), max_bets=1),
                       Round(shared_cards=2, bets=())),
}


def _fmt(v) -> str:
    return "(" + ", ".join(f"{x:+.4f}" for x in v) + ")"


def three_smh() -> None:
    say("## 3P-SMH: payoffs per player (chips = antes)")
    say()
    say(f"Printed (sec. 4.3): {PAYOFFS_3P_SMH}.")
    say()
    say("| reading | CFR+ payoffs | CFR+ NashConv | paper's FP payoffs | FP iterations | "
        "FP max regret / NashConv | FP: mixed sets, least decisive |")
    say("|---|---|---|---|---|---|---|")
    for name, rounds in SMH3_READINGS.items():
        cg = compile_game(build_game(MERCER_DECK, rounds, MercerEvaluator(), 3))
        c = cfr(cg, iterations=2000, tol=1e-5)
        fp = paper_fictitious_play(cg, 0.01)
        say(f"| {name} | {_fmt(c.expected_payoffs)} | {c.nash_conv:.1e} | "
            f"{_fmt(fp_payoff(cg, fp))} | {fp.iterations} | {fp.max_regret:.4f} / "
            f"{fp.nash_conv:.4f} | {decisiveness(cg, fp.strategy)} |")
    say()


def decisiveness(cg, sigma) -> str:
    """Information sets played mixed (between 0.5% and 99.5%) and the smallest largest
    action probability: the paper's "in every situation players either bet or fold at least
    90% of the time" and "15 situations ... some amount of bluffing" (sec. 4.3)."""
    top = np.asarray(sigma).max(axis=1)
    return f"{int((top < 0.995).sum())}, {100 * top.min():.1f}%"


FP = "paper's FP"
FP1, FP2 = f"{FP} 0.1", f"{FP} 0.01"


def three_mmh(seeds=(None, 1, 2), fp_iterations: int = 4000, cache: Path | None = None) -> None:
    say("## 3P-MMH: Tables 4-6 (CFR+ to NashConv 0.01 from several starts; the paper's FP)")
    say()
    g = make_game("mercer-mmh(players=3)")
    cg = compile_game(g)
    runs = {}

    def solved(name, fname, run):
        """``run()`` -> (profile, note); with ``cache``, profiles are saved/loaded there."""
        path = None if cache is None else cache / fname
        t0 = time.perf_counter()
        if path is not None and path.exists():
            s, note = np.load(path), "loaded from " + str(path)
        else:
            s, note = run()
            note += f", {time.perf_counter() - t0:.0f} s"
            if path is not None:
                np.save(path, s)
        reg = regrets(cg, s)
        runs[name] = s
        say(f"- {name}: {note}; payoffs {_fmt(expected_payoffs(cg, s))}, NashConv "
            f"{reg.sum():.4f}, max regret {reg.max():.4f}")

    for seed in seeds:
        def run(seed=seed):
            r = cfr(cg, iterations=5000, tol=0.01,
                    sigma0=None if seed is None else random_start(cg, seed))
            return r.strategy, f"{r.iterations} iterations"
        solved("CFR+ uniform start" if seed is None else f"CFR+ random start {seed}",
               f"mmh3_cfr_{seed}.npy", run)

    for eps, fname in ((0.1, "mmh3_fp01.npy"), (0.01, "mmh3_fp.npy")):
        def run_fp(eps=eps):
            fp = paper_fictitious_play(cg, eps, max_iterations=fp_iterations, check_every=25)
            return fp.strategy, f"{fp.iterations} iterations"
        solved(f"{FP} {eps}", fname, run_fp)
    say()
    for name in ("4", "5", "6"):
        t = TABLES[name]
        freq = {k: table_frequencies(g, t, s) for k, s in runs.items()}
        cfrs = [v for k, v in freq.items() if k.startswith("CFR+")]
        say(f"**Table {name}** ({t.caption}): printed / paper's FP re-run to max regret 0.1 "
            "(`run.sh`'s epsilon) / to 0.01 / CFR+ [min, max] over starts, percent")
        say()
        say("| row | " + " | ".join(t.columns) + " |")
        say("|---|" + "---|" * len(t.columns))
        dev = {FP1: 0.0, FP2: 0.0, "cfr": 0.0}
        for r in t.rows:
            cells = []
            for c, printed in zip(t.columns, t.values[r]):
                lo = min(f[r, c] for f in cfrs)
                hi = max(f[r, c] for f in cfrs)
                cells.append(f"{printed:g} / {_pct(freq[FP1][r, c])} / "
                             f"{_pct(freq[FP2][r, c])} / [{_pct(lo)}, {_pct(hi)}]")
                for k in (FP1, FP2):
                    dev[k] = max(dev[k], abs(printed - freq[k][r, c]))
                dev["cfr"] = max(dev["cfr"], lo - printed, printed - hi)
            say(f"| {r} | " + " | ".join(cells) + " |")
        say()
        say(f"Largest deviation of a printed cell: from the paper's FP at 0.1 {dev[FP1]:.1f} "
            f"points, at 0.01 {dev[FP2]:.1f}, from the CFR+ range {dev['cfr']:.1f}.")
        say()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="skip 3P-MMH")
    ap.add_argument("--out", type=Path, default=None, help="also write the markdown here")
    ap.add_argument("--fp-iterations", type=int, default=4000,
                    help="cap of the paper's FP on 3P-MMH")
    ap.add_argument("--cache", type=Path, default=None,
                    help="folder to save (and reuse) the 3P-MMH profiles")
    a = ap.parse_args()
    t0 = time.perf_counter()
    two_player()
    three_smh()
    if not a.quick:
        three_mmh(fp_iterations=a.fp_iterations, cache=a.cache)
    say(f"Total {time.perf_counter() - t0:.0f} s.")
    if a.out:
        a.out.write_text("\n".join(OUT) + "\n")


if __name__ == "__main__":
    main()
