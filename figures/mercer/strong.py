"""The hold'em paper's footnote 6 (sec. 5): strong collusion in 3P-SMH gains "on the order of
10^-4".  Every reading the text and the Java code allow, from the rules: the kind of
collusion (strong: shared hole cards and win sharing, as ``PokerGames.newSMHCollGame(...,
true)``; weak: win sharing only; cards: shared hole cards alone), the seats (1, 2), (1, 3),
(2, 3) and their dealer-rotation mean, the measure (the colluders' summed payoff against
their summed payoff at the same seats without collusion, public or private; per colluder;
strong over weak), the rules (as built; two orbits or a bet of 8, the readings of the
paper's 3P-SMH payoffs) and the solver (CFR+ to NashConv 2e-4; the paper's fictitious play
stopped at max regret 0.01).

Reads ``figures/mercer/data/strong_readings.json`` (written by :func:`run`;
``experiments/mercer_strong_readings.py`` is its command line); ``heavy`` re-runs it into
``out_dir`` (about 5 minutes).  Output: ``mercer_strong.md``.

The readings of the collusion (the Java: ``PokerGames.newSMHCollGame(3, team, strong)``
wraps the evaluator in ``CollusionEvaluator(..., zeroSum=true)`` -- win sharing -- in every
collusion game, and ``strong`` adds ``addStronglyColludingPlayers``: each colluder's
information-set label contains the partner's hole cards): ``strong``, shared hole cards and
win sharing (the Java's strong collusion, our default); ``weak``, win sharing only (the
Java's ``strong=false``, which ``ComputeNash.main`` hard-codes); ``cards``, shared hole
cards without win sharing (the strong game's tree with the no-collusion payoffs).  Rules:
as built (one orbit of bet 4) and the two readings that give the paper's printed 3P-SMH
payoffs (two orbits; one orbit with a bet of 8).  Solvers: CFR+ to NashConv ``tol``, and
the paper's fictitious play stopped at max regret 0.01 on the rules as built.
"""
from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path

import numpy as np

from pokerdyn.figures.base import FigureResult
from pokerdyn.figures.mercer.render import DATA, heavy_results, write_md

NAME = "mercer_strong"
RESULTS = DATA / "strong_readings.json"
SEATINGS = ("1,2", "1,3", "2,3")
KINDS = ("strong", "weak", "cards")
RULES = {"as built": "", "two orbits": ",max_bets=2", "bet 8": ",bet=8"}
PAIRS = ((1, 2), (1, 3), (2, 3))
# (rules, solver, kinds) of a full run, in order (one JSON entry each)
JOBS = (("as built", "cfr+", ("strong", "weak", "cards")),
        ("as built", "paper-fp", ("strong", "weak")),
        ("bet 8", "cfr+", ("strong", "weak")),
        ("two orbits", "cfr+", ("strong", "weak")))


def spec(rules: str, kind: str | None = None, pair=None) -> str:
    """Spec of 3P-SMH under ``rules`` (a key of RULES), collusion ``kind`` of ``pair``."""
    base = f"mercer-smh(players=3{RULES[rules]}"
    if kind is None:
        return base + ")"
    k = "strong" if kind == "cards" else kind
    return base + f",collusion={k},colluders=[{pair[0]},{pair[1]}])"


def compiled(rules: str, kind: str | None, pair=None):
    """The compiled game of :func:`spec`; ``cards``: the strong game's information sets
    with the no-collusion payoffs (no win sharing)."""
    from pokerdyn.games import compile_game
    from pokerdyn.games.catalog.registry import make_game

    g = make_game(spec(rules, kind, pair))
    if kind == "cards":   # the strong game's information sets, no win sharing
        g0 = make_game(spec(rules))
        idx = [s - 1 for s in pair]
        p0 = np.asarray(g0.payoffs, dtype=np.float64)
        shared = p0.copy()
        shared[:, idx] = p0[:, idx].mean(axis=1, keepdims=True)
        # equal up to rounding (the collusion game splits the colluders' sum in floats)
        if not np.allclose(shared, np.asarray(g.payoffs, dtype=np.float64), rtol=0, atol=1e-9):
            raise AssertionError("the strong and plain games' terminals are not aligned")
        g = dataclasses.replace(g, payoffs=g0.payoffs, name=g.name + "[cards only]")
    return compile_game(g)


def solve(cg, method: str, tol: float):
    """(profile, record) of CFR+ to NashConv ``tol`` (``method="cfr+"``) or of the paper's
    fictitious play stopped at max regret 0.01 (``"paper-fp"``)."""
    from pokerdyn.solvers import cfr
    from pokerdyn.solvers.evaluation import nash_conv
    from pokerdyn.solvers.learning.paper_fp import paper_fictitious_play

    t = time.perf_counter()
    if method == "cfr+":
        r = cfr(cg, iterations=5000, tol=tol)
    else:
        r = paper_fictitious_play(cg, epsilon=0.01)
    s, it = r.strategy, r.iterations
    return s, {"iterations": int(it), "nash_conv": float(nash_conv(cg, s)),
               "seconds": round(time.perf_counter() - t, 1)}


def readings(rules: str, method: str, tol: float, kinds, progress: bool = False) -> dict:
    """One entry of :func:`run`: the game without collusion and each kind at each seating,
    solved by ``method``, with public and private (the non-colluder keeps her no-collusion
    strategy) payoffs."""
    from pokerdyn.solvers.methods.collusion import transplant
    from pokerdyn.solvers.evaluation import expected_payoffs

    g0 = compiled(rules, None)
    s0, info0 = solve(g0, method, tol)
    u0 = expected_payoffs(g0, s0)
    out = {"rules": rules, "method": method, "none": {**info0, "payoffs": u0.tolist()}}
    for kind in kinds:
        for pair in PAIRS:
            gc = compiled(rules, kind, pair)
            sc, info = solve(gc, method, tol)
            c = ({1, 2, 3} - set(pair)).pop() - 1
            private = transplant(gc, sc, g0, s0, c)
            out[f"{kind} {pair[0]},{pair[1]}"] = {
                **info, "payoffs": expected_payoffs(gc, sc).tolist(),
                "private": expected_payoffs(gc, private).tolist()}
            if progress:
                print(rules, method, kind, pair, out[f"{kind} {pair[0]},{pair[1]}"],
                      flush=True)
    return out


def run(out: Path, tol: float = 2e-4, progress: bool = False) -> dict:
    """Every reading of :data:`JOBS` not yet in the JSON file ``out`` ("rules / solver" ->
    :func:`readings`), rewriting it after each, so an interrupted run resumes; returns
    them (``progress``: print each solve)."""
    out = Path(out)
    done = json.loads(out.read_text()) if out.exists() else {}
    for rules, method, kinds in JOBS:
        key = f"{rules} / {method}"
        if key in done:
            continue
        done[key] = {"tol": tol if method == "cfr+" else None,
                     **readings(rules, method, tol, kinds, progress)}
        out.write_text(json.dumps(done, indent=1))
    return done


def gains(run: dict) -> dict[str, dict[str, float]]:
    """Per kind present in ``run``: the colluders' summed gain (public, private) per seating
    and its rotation mean, and each colluder's own change, against the same seats without
    collusion."""
    u0 = np.array(run["none"]["payoffs"])
    out = {}
    for kind in KINDS:
        if f"{kind} 1,2" not in run:
            continue
        row: dict[str, float] = {}
        for pair in SEATINGS:
            r = run[f"{kind} {pair}"]
            idx = [int(s) - 1 for s in pair.split(",")]
            u, v = np.array(r["payoffs"]), np.array(r["private"])
            row[f"public {pair}"] = float(u[idx].sum() - u0[idx].sum())
            row[f"private {pair}"] = float(v[idx].sum() - u0[idx].sum())
            for s in idx:
                row[f"seat {s + 1} in {pair}"] = float(u[s] - u0[s])
            row[f"nash_conv {pair}"] = float(r["nash_conv"])
        row["public mean"] = float(np.mean([row[f"public {p}"] for p in SEATINGS]))
        row["private mean"] = float(np.mean([row[f"private {p}"] for p in SEATINGS]))
        out[kind] = row
    return out


def _table(results: dict) -> list[str]:
    lines = ["| rules / solver | collusion | gain (1,2) | gain (1,3) | gain (2,3) | "
             "rotation mean | private mean | each colluder's own change | largest NashConv |",
             "|---|---|---:|---:|---:|---:|---:|---|---:|"]
    for key, entry in results.items():
        for kind, g in gains(entry).items():
            own = "; ".join(f"{k.split(' in ')[0]} ({k.split(' in ')[1]}) {v:+.4f}"
                            for k, v in g.items() if k.startswith("seat"))
            nc = max(max(v for k, v in g.items() if k.startswith("nash_conv")),
                     entry["none"]["nash_conv"])
            lines.append(f"| {key} | {kind} | " + " | ".join(
                f"{g[f'public {p}']:+.4f}" for p in SEATINGS)
                + f" | {g['public mean']:+.4f} | {g['private mean']:+.4f} | {own} | {nc:.4f} |")
    return lines


TEXT = """\
Gains are the colluders' summed payoff per hand (antes) in the collusion game minus their
summed payoff at the same seats in the game without collusion (public collusion: everyone
at an equilibrium of the collusion game; private: the non-colluder keeps her no-collusion
strategy); the rotation mean averages the three seatings (with the dealer rotating, the
no-collusion part averages to 0, so it is also the colluders' mean summed payoff).

What the Java code does (rules only; `PokerGames.java`, `PokerGame.java`,
`CollusionEvaluator.java`): every collusion game wraps the evaluator in
`CollusionEvaluator(..., zeroSum=true)` (the colluders' net payoffs summed and split evenly:
win sharing), and `strong=true` adds `addStronglyColludingPlayers`, whose
`buildLabel`/`sameTeam` put the partner's hole cards into each colluder's information-set
label.  So strong collusion there is shared cards *and* win sharing, exactly our
`collusion=strong` (1,140 information sets for seats 2 and 3, against 90 without
collusion), and weak collusion is win sharing alone.  The gain the paper quotes is not defined in the code
(its `ComputeNash` prints each player's payoff with and without collusion); every measure
the text allows is in the table.

Which reading reproduces "on the order of 10^-4": none of the strong-collusion readings.
Shared cards with win sharing gain the pair 0.04-0.08 per hand as built (0.04-0.11 under
the two-orbit and bet-8 readings of the paper's 3P-SMH payoffs; 0.10-0.15 under the paper's
own fictitious play stopped at max regret 0.01, whose NashConv of at most 0.022 is far
below those gains) at every seating, public or private; per colluder the gain halves and is
never below 0.02.  Shared cards without win sharing ("cards") gain the pair even more
(0.08-0.13).  Only **weak collusion** (win sharing alone) gains on the order of 10^-4 in
3P-SMH as built: -0.00004 for seats 2 and 3 and +0.0005 for seats 1 and 3 (both within
the solves' NashConv of 2e-4 of zero), +0.003 for seats 1 and 2, +0.0012 over the dealer
rotation; the paper's fictitious play at 0.01 cannot resolve gains this small (its weak
gains scatter from -0.005 to +0.003).  So footnote 6 fits weak collusion, not strong: most
likely a weak-collusion run (the code's `ComputeNash` hard-codes the strong/weak flag,
flipped between commits) or a mislabelled footnote; Table 7's caption (the error 0.00577
is "orders of magnitude more than the expected payoffs under weak collusion") says the
same of weak collusion in 3P-MMH.  Our +0.080 for seats 2 and 3 stands for strong
collusion as the code defines it.
"""


def main(out_dir: Path, seed: int = 0, quick: bool = False, heavy: bool = False) -> FigureResult:
    out_dir = Path(out_dir)
    path, results = heavy_results(RESULTS, out_dir, heavy, run)
    lines = ["## Footnote 6: strong collusion in 3P-SMH, every reading", ""]
    lines += _table(results) if results else ["n/a (run --heavy)"]
    lines += ["", TEXT]
    md = write_md(out_dir, NAME, "\n".join(lines))
    numbers = {}
    for key, entry in results.items():
        for kind, g in gains(entry).items():
            numbers[f"{key} {kind}: gain (1,2), (1,3), (2,3)"] = ", ".join(
                f"{g[f'public {p}']:+.4f}" for p in SEATINGS)
    return FigureResult(NAME, (md,), "3P-SMH collusion gains per hand under every reading "
                        "of the paper's footnote 6 (kind, seats, measure, rules, solver); "
                        "read from " + path.name + ".", numbers,
                        "Mercer (hold'em paper) sec. 5, footnote 6")
