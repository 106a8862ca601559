"""The hold'em paper's pot-sharing claims (sec. 5) checked with numbers.

Pot sharing (``collusion=pot``): the colluders split their total share of the pot evenly
(each still pays his own bets).  The paper: (1) in 3P-SMH, seats 2 and 3 colluding "have no
hands worth playing and always choose to fold"; (2) in 3P-MMH the two colluders (seats 2
and 3, who make money without collusion) both have negative expected value.

(1) is checked on a CFR+ equilibrium of ``mercer-smh(players=3,collusion=pot)`` (colluders
seats 2 and 3 by default): each colluder's probability of playing on (reach-weighted) and
the holdings he plays; and directly: against player 1's equilibrium strategy, the profile in
which both colluders always fold is not an equilibrium when a colluder gains by deviating
(his regret there).  (2) reads ``figures/mercer/data/collusion_mmh3_pot.json`` (``pokerdyn
collusion 'mercer-mmh(players=3)' --kind pot --tol 0.002 --json``) and the payoffs of the
no-collusion 3P-MMH equilibrium.  Output: ``mercer_pot.md``.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from pokerdyn.games import compile_game
from pokerdyn.games.catalog.registry import make_game
from pokerdyn.solvers import cfr, expected_payoffs, regrets
from pokerdyn.solvers._kernels import reach_probs

from pokerdyn.figures.base import FigureResult
from pokerdyn.figures.mercer.render import DATA, write_md

NAME = "mercer_pot"
SMH = "mercer-smh(players=3,collusion=pot,colluders=[2,3])"


def folding_check(cg, s) -> tuple[dict, np.ndarray]:
    """Per colluder seat (0-based 1, 2): probability of playing on and the holdings played
    (reach above 1e-4, play above 0.1%); and the regrets of the profile in which both
    colluders always fold (player 1 as in ``s``)."""
    reach = reach_probs(cg.kind, cg.player, cg.parent, cg.edge, cg.infoset, cg.chance_prob, s,
                        -1)
    fold = np.array([I.actions.index("f") for I in cg.game.infosets])
    out = {}
    folded = np.array(s, dtype=np.float64)
    for seat in (1, 2):
        nodes = np.flatnonzero((cg.kind == 2) & (cg.player == seat))
        sets = cg.infoset[nodes]
        play = float((reach[nodes] * (1.0 - s[sets, fold[sets]])).sum())
        mass = np.bincount(sets, weights=reach[nodes], minlength=cg.n_infosets)
        hands = sorted({cg.game.infosets[k].label.split(":")[1].split("|")[0]
                        for k in np.unique(sets) if mass[k] > 1e-4 and 1 - s[k, fold[k]] > 1e-3})
        out[seat + 1] = (play, hands)
        for k in np.unique(sets):
            folded[k] = 0.0
            folded[k, fold[k]] = 1.0
    return out, regrets(cg, folded)


def main(out_dir: Path, seed: int = 0, quick: bool = False, heavy: bool = False) -> FigureResult:
    cg = compile_game(make_game(SMH))
    res = cfr(cg, tol=1e-4, iterations=3000)
    plays, reg = folding_check(cg, res.strategy)
    u = expected_payoffs(cg, res.strategy)
    numbers = {"3P-SMH pot (2,3): payoffs": "(" + ", ".join(f"{x:+.4f}" for x in u) + ")",
               "3P-SMH pot: NashConv": f"{res.nash_conv:.1e}"}
    lines = ["## Pot sharing (the paper's first constraint)", "",
             f"**3P-SMH, seats 2 and 3 colluding** (`{SMH}`, CFR+ to NashConv "
             f"{res.nash_conv:.1e}, {res.iterations} iterations): payoffs "
             f"{numbers['3P-SMH pot (2,3): payoffs']}.", ""]
    for seat, (play, hands) in plays.items():
        lines.append(f"- seat {seat} plays on (calls player 1's bet) with probability "
                     f"{play:.4f}, holding {', '.join(hands) or 'nothing'}")
        numbers[f"3P-SMH pot: seat {seat} plays on"] = f"{play:.4f} ({' '.join(hands)})"
    lines += ["", "If both colluders always folded (player 1 as at the equilibrium), a "
              f"colluder would gain by deviating: regrets (seats 1, 2, 3) "
              f"({', '.join(f'{x:.4f}' for x in reg)}).  So \"always fold\" is not an "
              "equilibrium: the claim holds nearly (both colluders fold all but the top "
              "pairs and lose about 0.68 each), not exactly.", ""]
    numbers["3P-SMH pot: regrets if colluders always fold"] = \
        "(" + ", ".join(f"{x:.4f}" for x in reg) + ")"
    path = DATA / "collusion_mmh3_pot.json"
    if path.exists():
        rec = json.loads(path.read_text())
        lines += ["**3P-MMH** (`pokerdyn collusion 'mercer-mmh(players=3)' --kind pot --tol "
                  "0.002`), public collusion, payoffs per seating (non-colluder first):", "",
                  "| colluders | C | A | B | NashConv |", "|---|---:|---:|---:|---:|"]
        for h in rec["hands"]:
            c, a, b = h["public"]
            lines.append(f"| seats {h['colluders'][0]}, {h['colluders'][1]} | {c:+.4f} | "
                         f"{a:+.4f} | {b:+.4f} | {h['nash_conv']:.4f} |")
            numbers[f"3P-MMH pot, colluders {h['colluders']}: (C, A, B)"] = \
                f"({c:+.4f}, {a:+.4f}, {b:+.4f})"
        lines += ["", "Both colluders' expected values are negative in every seating (about "
                  "-1 each: they fold nearly every hand and forfeit the ante), as the paper "
                  "says; without collusion seats 2 and 3 make -0.086 and +0.489 (CFR+, "
                  "Tables 4-6 section), so seat 3 loses most.", ""]
    out = write_md(out_dir, NAME, "\n".join(lines))
    return FigureResult(NAME, (out,), "The paper's pot-sharing claims: 3P-SMH colluders at "
                        "seats 2 and 3 fold nearly always; 3P-MMH colluders lose.", numbers,
                        "Mercer (hold'em paper) sec. 5, pot sharing")
