"""The hold'em paper's Tables 1-3 (two players, sec. 4.2) regenerated from the rules.

Per printed cell: the LP's whole optimal face [min, max] of that betting frequency
(:func:`solvers.optimal_face_range`; a printed value inside it is an equilibrium value), and
the paper's own fictitious play (:func:`solvers.learning.paper_fp.paper_fictitious_play`:
uniform start, 1/(t+1) averaging per information set, stop when the largest single-player
regret falls below epsilon) at epsilon 0.01 (the paper's stated 0.01-equilibrium) and, with
``heavy``, at 2e-5 on 2P-SMH (Table 1's rounding to whole percent needs a long run).
Output: ``mercer_tables_2p.md`` (also the section of the Mercer report).
"""
from __future__ import annotations

import time
from pathlib import Path

from pokerdyn.games import compile_game
from pokerdyn.games.catalog.registry import make_game
from pokerdyn.solvers import expected_payoffs, optimal_face_ranges, solve_lp
from pokerdyn.solvers.learning.paper_fp import paper_fictitious_play

from pokerdyn.figures.base import FigureResult
from pokerdyn.figures.mercer.paper import (ALWAYS_BET, NEVER_BET, TABLES, VALUE_2P_MMH, VALUE_2P_SMH,
                                  table_cells, table_frequencies)
from pokerdyn.figures.mercer.render import profile, side_by_side, write_md

NAME = "mercer_tables_2p"
GAMES = (("mercer-smh(players=2)", VALUE_2P_SMH, ("1",)),
         ("mercer-mmh(players=2)", VALUE_2P_MMH, ("2", "3")))


def face_column(g, cg, t, value) -> dict:
    """Cell -> (min, max) percent over the LP's optimal face."""
    cells = table_cells(g, t)
    faces = optimal_face_ranges(cg, [(i, 0) for i in cells.values()], value=value)
    return {k: (100 * f.low, 100 * f.high) for k, f in zip(cells, faces)}


def always_never(g, cg, value) -> str:
    """The paper's sec. 4.2 claim for 2P-SMH checked on the whole optimal face."""
    cells = [(p, h, hist, want) for p, hist in ((1, ""), (2, "b"))
             for hands, want in ((ALWAYS_BET, 1.0), (NEVER_BET, 0.0)) for h in hands]
    faces = optimal_face_ranges(cg, [(g.infoset_index(f"P{p}:{h}|{hist}"), 0)
                                     for p, h, hist, _ in cells], value)  # one LP per player
    bad = [f"P{p} {h} [{f.low:.4f}, {f.high:.4f}]" for (p, h, _, want), f in zip(cells, faces)
           if max(abs(f.low - want), abs(f.high - want)) > 1e-6]
    return ("Sec. 4.2: always bet 22 26 33 36 44 45 46 55 56 66, never bet 23 24 (both "
            "players), unique on the optimal face: " + ("yes" if not bad else
                                                        "no: " + ", ".join(bad)) + ".")


def main(out_dir: Path, seed: int = 0, quick: bool = False, heavy: bool = False) -> FigureResult:
    out_dir = Path(out_dir)
    parts, numbers = ["## Tables 1-3: two players (LP optimal face; the paper's FP)", ""], {}
    for spec, printed_value, tables in GAMES:
        g = make_game(spec)
        cg = compile_game(g)
        t0 = time.perf_counter()
        lp = solve_lp(cg)
        fp = paper_fictitious_play(cg, 0.01)
        cols_fp = {"FP to 0.01": fp.strategy}
        if spec.startswith("mercer-smh"):
            long = profile("smh2_fp_2e-05", lambda: paper_fictitious_play(
                cg, 2e-5, max_iterations=200_000).strategy, out_dir, heavy)
            if long is not None:
                cols_fp["FP to 2e-5"] = long
        v2 = -float(expected_payoffs(cg, fp.strategy)[0])
        parts += [f"### {spec}", "",
                  f"Player 2's value: LP {-lp.value:.6f}; the paper's FP to 0.01: {v2:.4f} "
                  f"after {fp.iterations} iterations (max regret {fp.max_regret:.4f}, NashConv "
                  f"{fp.nash_conv:.4f}); the builder issue's figure {printed_value}.", ""]
        numbers[f"{spec} value (LP)"] = round(-lp.value, 6)
        for name in tables:
            t = TABLES[name]
            cols = {"LP optimal face": face_column(g, cg, t, lp.value)}
            cols.update({k: table_frequencies(g, t, s) for k, s in cols_fp.items()})
            md, dev = side_by_side(t, cols)
            parts.append(md)
            for k, d in dev.items():
                numbers[f"Table {name}: largest deviation from {k}"] = round(d, 2)
        if spec.startswith("mercer-smh"):
            parts += [always_never(g, cg, lp.value), ""]
        numbers[f"{spec} seconds"] = round(time.perf_counter() - t0, 1)
    path = write_md(out_dir, NAME, "\n".join(parts))
    return FigureResult(NAME, (path,), "The paper's Tables 1-3 (2P-SMH and 2P-MMH) beside the "
                        "LP's optimal face and the paper's fictitious play re-run on our game.",
                        numbers, "Mercer (hold'em paper) sec. 4.2, Tables 1-3")
