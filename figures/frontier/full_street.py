"""Full-street simplified 3-player Kuhn poker (Billingham, arXiv 1707.01392): the 13
frequencies iterated dominance leaves free, at every equilibrium found by exact enumeration
at a set of pots (one marker per equilibrium family at its exact sample point; a family
with free parameters is drawn at its interior sample).

``quick`` reads the families recorded in ``full_street_families.json`` (written by this
module's :func:`record`, each sample certified by an exact NashConv of 0); the full mode
enumerates them again at the recorded pots (minutes per pot).
"""
from __future__ import annotations

import json
from pathlib import Path

from figures.base import FigureResult, new_figure, save

RECORD = Path(__file__).with_name("full_street_families.json")
GAME = "kuhn3-full-simplified"


def record(pots, path: Path = RECORD) -> dict:
    """Enumerate every equilibrium at each exact pot in ``pots`` and write the record."""
    import sympy as sp

    from games import get_game
    from solvers.symbolic.dominance import reduce_game
    from solvers.symbolic.nash_conv import exact_nash_conv
    from solvers.symbolic.piecewise import solutions_at

    game = get_game(GAME)
    fixed = reduce_game(game)
    out = {}
    for x in pots:
        pot = sp.Rational(str(x))
        fams = []
        for s in solutions_at(game, pot, fixed):
            smp = s.sample()
            fams.append({"strategy": {k: str(v) for k, v in s.strategy}, "free": list(s.free),
                         "constraints": [str(c) for c in s.constraints],
                         "payoffs": [str(e) for e in s.payoffs],
                         "sample": {k: str(v) for k, v in smp.items()},
                         "nash_conv": str(exact_nash_conv(game, pot, smp))})
        out[str(pot)] = {"families": fams}
    path.write_text(json.dumps(out, indent=1) + "\n")
    return out


def free_names(rec: dict) -> list[str]:
    """The frequencies that are not the same in every recorded family."""
    fams = [f for v in rec.values() for f in v["families"]]
    names = list(fams[0]["sample"]) if fams else []
    return [n for n in names if len({f["sample"][n] for f in fams}) > 1]


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    import sympy as sp

    rec = json.loads(RECORD.read_text())
    if not quick:
        rec = record([sp.Rational(k) for k in rec], Path(out_dir) / RECORD.name)
    names = free_names(rec)
    ncols = 4
    nrows = -(-len(names) // ncols) or 1
    fig, axes = new_figure(nrows, ncols, size=(3.0 * ncols, 2.5 * nrows), squeeze=False)
    counts = {}
    for pot, v in rec.items():
        x = float(sp.Rational(pot))
        counts[pot] = len(v["families"])
        for k, fam in enumerate(v["families"]):
            for ax, n in zip(axes.flat, names):
                ax.plot([x], [float(sp.sympify(fam["sample"][n]))], "o", ms=4,
                        color=f"C{k % 10}", alpha=0.8)
    for ax, n in zip(axes.flat, names):
        ax.set_title(n)
        ax.set_ylim(-0.05, 1.05)
        ax.set_xlabel("P")
    for ax in list(axes.flat)[len(names):]:
        ax.axis("off")
    path = save(fig, out_dir, "full_street_frequencies.png")
    return FigureResult("full_street_frequencies", (path,),
                        "Equilibrium frequencies of full-street simplified 3-player Kuhn "
                        "poker at the enumerated pots (exact, NashConv 0); colours index the "
                        "families at each pot.", {"families_per_pot": counts},
                        "Billingham arXiv 1707.01392")
