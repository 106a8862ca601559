"""Billingham Fig. 10: expectations along the two solutions of Fig. 9, eqs. (24)-(26).

(24)-(26) are integrals from 0 to t; the paper says they "oscillate about" the equilibrium
expectations (15), (16), which fits their time averages E_p(t)/t.  We plot the running means
E_p(t)/t (thick), the instantaneous expectations E_p(x(t)) (thin) and E_p(S1), E_p(S2)
(dashed; derived from the tree, not typed)."""
from __future__ import annotations

from pathlib import Path

from pokerdyn.dynamics.plotting import payoff_series

from pokerdyn.figures.billingham.ode._skp import named_equilibria, skp_model
from pokerdyn.figures.base import Figure, FigureResult, described, finish, new_figure
from pokerdyn.figures.billingham.ode.fates import two_solutions


def figure(seed: int = 0, quick: bool = False) -> Figure:
    m = skp_model()
    eqs = named_equilibria()
    trs = two_solutions(quick)
    fig, axes = new_figure(1, 2, size=(10, 4), sharey=True)
    numbers = {}
    for ax, tr, s in zip(axes, trs, ("S1", "S2")):
        ref = m.payoff(eqs[s].x)
        rates = m.payoff(tr.states.T)
        for p in range(m.n_players):
            ax.plot(tr.times, rates[p], lw=0.4, alpha=0.5, color=f"C{p}")
        payoff_series(ax, tr, reference=ref, mean=True, lw=1.6)
        ax.set_title(f"solution attracted to the cycles around {s} "
                     f"(dashed: E_p({s}))", fontsize=9)
        T = tr.times[-1]
        numbers[f"mean payoffs, solution -> {s}"] = [round(float(v / T), 5)
                                                    for v in tr.payoffs[-1]]
        numbers[f"E_p({s})"] = [round(float(v), 5) for v in ref]
    fig.suptitle(f"Expectations, Billingham (24)-(26) ({m.label()})", fontsize=10)
    return described(
        fig, "ode_expectations",
        "Running mean expectations E_p(t)/t of the two Fig. 9 solutions (thick), with the "
        "instantaneous expectations (thin): they oscillate about the equilibrium "
        "expectations of S1 and S2 (dashed), Billingham (15), (16).",
        numbers, "Billingham, Fig. 10 and eqs. (24)-(26)")


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/<name>.png``; its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick), out_dir)
