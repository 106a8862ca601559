"""The hold'em paper's Tables 4-6 (3P-MMH, sec. 4.3) regenerated from the rules.

Per printed cell: the paper's fictitious play re-run on our game (uniform start, 1/(t+1)
averaging per information set) stopped at epsilon 0.1 (the epsilon of the paper's
``run.sh``) and at 0.01 (the paper's stated 0.01-equilibrium), and the spread [min, max]
over CFR+ runs to NashConv 0.01 from the uniform start and from seeded random starts
(non-uniqueness: equilibria of a 3-player game need not be unique).  Profiles are cached
(:func:`figures.mercer.render.profile`); ``heavy`` computes the missing ones (up to
``SEEDS`` CFR+ starts, about 100 s each on a quiet core).
Output: ``mercer_tables_3p.md``.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np

from pokerdyn.games import compile_game
from pokerdyn.games.catalog.registry import make_game
from pokerdyn.solvers import cfr, expected_payoffs, regrets
from pokerdyn.solvers.learning.paper_fp import paper_fictitious_play

from pokerdyn.figures.base import FigureResult
from pokerdyn.figures.mercer.paper import TABLES, table_frequencies
from pokerdyn.figures.mercer.render import profile, side_by_side, spread, write_md

NAME = "mercer_tables_3p"
SPEC = "mercer-mmh(players=3)"
SEEDS = (None, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)   # None: the uniform start


def random_start(cg, seed: int) -> np.ndarray:
    """A random interior behaviour profile (seeded)."""
    rng = np.random.default_rng(seed)
    legal = np.asarray(cg.legal, dtype=bool)
    s = np.where(legal, rng.random(legal.shape) + 1e-3, 0.0)
    return s / s.sum(axis=1, keepdims=True)


def solved_profiles(cg, prefix: str, out_dir: Path, heavy: bool, seeds=SEEDS,
                    fp_heavy: bool = True) -> dict:
    """name -> profile for the paper's FP at 0.1 and 0.01 and CFR+ from each start (cached;
    missing ones computed only when ``heavy``, the FP ones only when ``fp_heavy`` too)."""
    runs = {}
    for eps in (0.1, 0.01):
        s = profile(f"{prefix}_fp_{eps}", lambda eps=eps: paper_fictitious_play(
            cg, eps, max_iterations=20_000, check_every=25).strategy, out_dir, heavy and fp_heavy)
        if s is not None:
            runs[f"FP to {eps}"] = s
    for seed in seeds:
        s = profile(f"{prefix}_cfr_seed_{'none' if seed is None else seed}", lambda seed=seed: cfr(
            cg, iterations=5000, tol=0.01,
            sigma0=None if seed is None else random_start(cg, seed)).strategy, out_dir, heavy)
        if s is not None:
            runs[f"CFR+ start {seed or 'uniform'}"] = s
    return runs


def describe(cg, runs: dict) -> list[str]:
    """One line per profile: payoffs, max regret and NashConv (each profile's line computed
    once per process: Tables 4-6 and Table 8a describe the same 3P-MMH profiles)."""
    out = []
    for k, s in runs.items():
        key = (cg.game.name, k, hashlib.sha256(np.ascontiguousarray(s).tobytes()).hexdigest())
        if key not in _DESCRIBED:
            reg = regrets(cg, s)
            u = expected_payoffs(cg, s)
            _DESCRIBED[key] = (f"- {k}: payoffs ({', '.join(f'{x:+.4f}' for x in u)}), max "
                               f"regret (the paper's epsilon) {reg.max():.4f}, NashConv (sum) "
                               f"{reg.sum():.4f}")
        out.append(_DESCRIBED[key])
    return out


_DESCRIBED: dict = {}  # (game, label, profile digest) -> describe's line


def columns(g, t, runs: dict) -> dict:
    freq = {k: table_frequencies(g, t, s) for k, s in runs.items()}
    cols = {k: v for k, v in freq.items() if k.startswith("FP")}
    cfrs = [v for k, v in freq.items() if k.startswith("CFR+")]
    if cfrs:
        cols[f"CFR+ [min, max] over {len(cfrs)} starts"] = spread(cfrs)
    return cols


def table_sections(g, names, runs: dict, numbers: dict) -> list[str]:
    """Markdown of the tables ``names`` beside ``runs``; their largest deviations go into
    ``numbers``."""
    parts = []
    for name in names:
        md, dev = side_by_side(TABLES[name], columns(g, TABLES[name], runs))
        parts.append(md)
        for k, d in dev.items():
            numbers[f"Table {name}: largest deviation from {k}"] = round(d, 2)
    return parts


def main(out_dir: Path, seed: int = 0, quick: bool = False, heavy: bool = False) -> FigureResult:
    out_dir = Path(out_dir)
    g = make_game(SPEC)
    cg = compile_game(g)
    runs = solved_profiles(cg, "mmh3", out_dir, heavy)
    parts = ["## Tables 4-6: 3P-MMH (the paper's FP at 0.1 and 0.01; CFR+ from several starts)",
             ""] + describe(cg, runs) + [""]
    numbers = {"profiles": len(runs)}
    parts += table_sections(g, ("4", "5", "6"), runs, numbers)
    path = write_md(out_dir, NAME, "\n".join(parts))
    return FigureResult(NAME, (path,), "The paper's Tables 4-6 (3P-MMH) beside its own "
                        "fictitious play re-run (epsilon 0.1 and 0.01) and the spread of CFR+ "
                        "equilibria from several starts.", numbers,
                        "Mercer (hold'em paper) sec. 4.3, Tables 4-6")
