"""3-player Kuhn poker (4 cards, P = 3): the utility transfer inside the equilibrium families
found by the support method (solvers.symbolic.learned), with Szafron, Gibson & Sturtevant's
family (AAMAS 2013) overlaid.

Left: E1 against E3 at points sampled in every certified family (player 2's payoff is the
same -1/48 everywhere, so the families lie on the line E1 + E3 = 1/48: whatever one of them
gains the other loses).  Right: each player's payoff against player 2's bluff frequency
beta = max(b11, b21) (x2_J_k_b, x2_Q_k_b: bet J or Q after player 1's check), which is what
moves it: the exact payoffs on each family (sympy, in the figure's numbers) reduce to
E1 = -(1 + 2 beta)/48, E3 = (1 + beta)/24.  ``quick`` re-certifies the recorded families (figures/frontier/data); the full run
derives them again from 8 seeded CFR+/FP runs (a few minutes)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from pokerdyn.figures.base import Figure, FigureResult, described, finish, new_figure
from pokerdyn.figures.frontier import szafron

DATA = Path(__file__).with_name("data") / "kuhn3_families_P3.json"


def recorded() -> list[dict]:
    """The recorded family records (``pokerdyn equilibria kuhn3 --json``'s ``families``)."""
    return json.loads(DATA.read_text())["families"]


def _points(num, rng, n: int) -> list[np.ndarray]:
    """Points of a family: random points and vertices of the box moved into it."""
    from pokerdyn.solvers.symbolic.families.geometry import sample

    return sample(num, rng, n)


def figure(seed: int = 0, quick: bool = False) -> Figure:
    from fractions import Fraction

    import sympy as sp

    from pokerdyn.games.catalog.kuhn import kuhn3
    from pokerdyn.solvers.symbolic.learned.equilibrium_set import equilibrium_set, family_from_record, set_record
    from pokerdyn.solvers.symbolic.model.sparse_gains import exact_nash_conv_at, float_evaluator, gain_system
    from pokerdyn.solvers.symbolic.model.nash_conv import payoffs_at
    from pokerdyn.solvers.symbolic.families.geometry import Numeric

    game = kuhn3()
    sysm = gain_system(game, 3)
    names = sysm.names
    if quick:
        recs = recorded()
    else:
        recs = set_record(equilibrium_set(game, sp.Integer(3), seeds=8, seed=seed))["families"]
    fams = [family_from_record(r) for r in recs]
    for _, pts in fams:  # the certificate, again: exact NashConv 0 at the recorded points
        assert all(exact_nash_conv_at(sysm, q) == 0 for q in pts[:1])
    pay = float_evaluator(sysm.payoffs, names)
    rng = np.random.default_rng(seed)
    fig, (ax, bx) = new_figure(1, 2, size=(11, 4.6))
    all_e, all_th = [], []
    for k, (fam, _) in enumerate(fams):
        num = Numeric(fam, names)
        pts = _points(num, rng, 60)
        e = np.array([pay(num.x(th)) for th in pts])
        ax.scatter(e[:, 0], e[:, 2], s=6, alpha=0.5, label=f"family {k + 1} ({len(fam.free)} free)")
        all_e.append(e)
        all_th.append([dict(zip(names, num.x(th))) for th in pts])
    sz = [szafron.profile(*t) for t in szafron.sample(rng, 60)]
    es = np.array([pay(np.array([float(Fraction(p[n])) for n in names])) for p in sz])
    ax.scatter(es[:, 0], es[:, 2], marker="x", c="k", s=14, label="Szafron et al. 2013")
    ax.set_xlabel("E1 (player 1)")
    ax.set_ylabel("E3 (player 3)")
    ax.set_title("utility transfer: E2 = -1/48 on every family")
    ax.legend(fontsize=7)
    e = np.vstack(all_e)
    prof = [p for ps in all_th for p in ps]
    beta = np.array([max(p["x2_J_k_b"], p["x2_Q_k_b"]) for p in prof])
    for i in range(3):
        bx.scatter(beta, e[:, i], s=5, alpha=0.4, label=f"E{i + 1}")
    bx.set_xlabel("beta = max(x2_J_k_b, x2_Q_k_b): player 2's bluffs after a check")
    bx.set_ylabel("payoff")
    bx.legend(fontsize=8)
    exact = {}
    E = payoffs_at(game, 3)
    for k, (fam, _) in enumerate(fams):
        sub = {sp.Symbol(n, real=True): v for n, v in fam.strategy}
        exact[f"family {k + 1} payoffs"] = [str(sp.factor(sp.expand(x.xreplace(sub)))) for x in E]
    numbers = {"families": len(fams), "E1_range": [float(e[:, 0].min()), float(e[:, 0].max())],
               "E2_range": [float(e[:, 1].min()), float(e[:, 1].max())],
               "E3_range": [float(e[:, 2].min()), float(e[:, 2].max())],
               "szafron_E1_range": [float(es[:, 0].min()), float(es[:, 0].max())], **exact}
    return described(fig, "kuhn3_family",
                     "3-player Kuhn poker at P = 3: payoffs across the certified equilibrium "
                     "families; player 2 gets -1/48 everywhere while players 1 and 3 trade "
                     "utility along E1 + E3 = 1/48.", numbers,
                     "Szafron, Gibson & Sturtevant, AAMAS 2013 (the family and its utility "
                     "transfer)")


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/<name>.png``; its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick), out_dir)
