"""The hold'em paper's Table 8 (sec. 5): player 3's first bet in 3P-MMH without collusion
(top; the same cells as Tables 5 and 6) and with players 1 and 2 in weak collusion (win
sharing; bottom), each beside the paper's fictitious play re-run at epsilon 0.1 (the
paper's ``run.sh``) and 0.01 where cached, and the spread of CFR+ equilibria to NashConv
0.01 from several starts (``heavy`` computes the missing CFR+ starts of the collusion game;
the collusion game's FP profiles come from ``epsilon.fp_epsilon_log``).
Output: ``mercer_table8.md``.
"""
from __future__ import annotations

from pathlib import Path

from pokerdyn.games import compile_game
from pokerdyn.games.catalog.registry import make_game

from pokerdyn.figures.base import FigureResult
from pokerdyn.figures.mercer.paper import TABLES
from pokerdyn.figures.mercer.render import write_md
from pokerdyn.figures.mercer.tables_3p import SEEDS, describe, solved_profiles, table_sections

NAME = "mercer_table8"
WEAK_SEEDS = (None, 1, 2)


def main(out_dir: Path, seed: int = 0, quick: bool = False, heavy: bool = False) -> FigureResult:
    out_dir = Path(out_dir)
    parts = ["## Table 8: player 3's first bet, without and with weak collusion of players "
             "1 and 2 (3P-MMH)", ""]
    numbers = {}
    for name, prefix, seeds in (("8a", "mmh3", SEEDS), ("8b", "mmh3w12", WEAK_SEEDS)):
        t = TABLES[name]
        g = make_game(t.game)
        cg = compile_game(g)
        runs = solved_profiles(cg, prefix, out_dir, heavy, seeds=seeds, fp_heavy=False)
        parts += [f"`{t.game}`:", ""] + describe(cg, runs) + [""]
        parts += table_sections(g, (name,), runs, numbers)
    path = write_md(out_dir, NAME, "\n".join(parts))
    return FigureResult(NAME, (path,), "The paper's Table 8 (player 3's first bet in 3P-MMH "
                        "without and with weak collusion of players 1 and 2) beside the "
                        "paper's fictitious play re-run and CFR+ equilibria.", numbers,
                        "Mercer (hold'em paper) sec. 5, Table 8")
