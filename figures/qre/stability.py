"""Stability of the logit QRE along the principal branch under the logit dynamics
dx/dt = softmax(lam v(x)) - x (dynamics.learning): the real part of the leading eigenvalue
of the Jacobian on the strategy simplices against lam, for Kuhn poker, SKP and the
one-third street game at P = 9, and for Jordan's (1993) three-player matching pennies,
where the unique (uniform) QRE loses stability in a Hopf bifurcation at lam = 2 and the
noisy players cycle.  Right panel (not in ``quick``): the largest real part over the whole
branch against the pot P for SKP and the one-third street game (never >= 0: the QRE
branch is stable at every pot; SKP comes within 1e-3 of 0 near P = 7.75, lam ~ 23, a
real eigenvalue: the near-fold of the branch there).  ``quick``: Kuhn and Jordan's game
only."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from pokerdyn.games import Game, GameBuilder, compile_game, get_game
from pokerdyn.dynamics.learning import branch_stability

from pokerdyn.figures.base import Figure, FigureResult, described, finish, new_figure


def jordan_game() -> Game:
    """Jordan's (1993) three-player matching pennies in extensive form (simultaneous moves
    as information sets): player 1 wants to match player 2, player 2 to match player 3 and
    player 3 to mismatch player 1; payoffs +-1.  Its logit dynamics have J = -1 + lam C at
    the uniform QRE with C's eigenvalues the cube roots of -1, so the QRE loses stability
    where lam cos(pi/3) = 1: a Hopf bifurcation at lam = 2."""
    b = GameBuilder("jordan-pennies", n_players=3)
    r = b.decision(0, "P1:", ("H", "T"))
    for a1 in "HT":
        n2 = b.decision(1, "P2:", ("H", "T"), parent=r, via=a1)
        for a2 in "HT":
            n3 = b.decision(2, "P3:", ("H", "T"), parent=n2, via=a2)
            for a3 in "HT":
                pay = (1 if a1 == a2 else -1, 1 if a2 == a3 else -1, 1 if a3 != a1 else -1)
                b.terminal(pay, parent=n3, via=a3)
    return b.build()


def _pot_axis(ax) -> dict:
    pots = np.append(np.arange(0.5, 12.01, 0.5), [7.7, 7.75, 7.8])
    pots.sort()
    out = {}
    for name in ("skp", "kuhn3-third"):
        game = get_game(name)
        top = np.array([branch_stability(compile_game(game, {"P": float(P)}),
                                         max_lambda=1e3).leading.real.max() for P in pots])
        ax.plot(pots, top, ".-", ms=3, lw=1, label=name)
        out[f"{name}_max_leading_real_over_pots"] = float(top.max())
        out[f"{name}_least_stable_pot"] = float(pots[np.argmax(top)])
    ax.axhline(0.0, color="k", lw=0.6)
    ax.set_xlabel("pot P")
    ax.set_ylabel("max over the branch of Re(leading eigenvalue)")
    ax.set_title("the least stable point of the QRE branch, by pot")
    ax.legend(fontsize=8)
    return out


def figure(seed: int = 0, quick: bool = False) -> Figure:
    cases = [("kuhn", get_game("kuhn"), {}), ("jordan-pennies", jordan_game(), {})]
    if not quick:
        cases[1:1] = [("skp P=9", get_game("skp"), {"P": 9.0}),
                      ("kuhn3-third P=9", get_game("kuhn3-third"), {"P": 9.0})]
    fig, axes = new_figure(1, 1 if quick else 2, size=(7.0 if quick else 13.0, 4.4),
                           squeeze=False)
    ax = axes[0, 0]
    numbers = {}
    for label, game, vals in cases:
        st = branch_stability(compile_game(game, vals), max_lambda=100.0)
        keep = st.lambdas > 0
        ax.semilogx(st.lambdas[keep], st.leading.real[keep], ".-", ms=2.5, lw=1, label=label)
        for c in st.crossings:
            ax.axvline(c["lambda"], color="0.5", ls=":", lw=0.8)
        numbers[f"{label}_crossings"] = [c["lambda"] for c in st.crossings]
        numbers[f"{label}_max_leading_real"] = float(np.max(st.leading.real[keep]))
    ax.axhline(0.0, color="k", lw=0.6)
    ax.set_yscale("symlog", linthresh=1.0)
    ax.set_xlabel("precision lambda")
    ax.set_ylabel("Re of the leading eigenvalue (logit dynamics at the QRE)")
    ax.set_title("stability of the logit QRE along the principal branch (< 0: settles)")
    ax.legend(fontsize=8)
    if not quick:
        numbers.update(_pot_axis(axes[0, 1]))
    return described(fig, "qre_stability",
                     "leading eigenvalue of the logit dynamics along the QRE branch; Hopf "
                     "points where it crosses 0", numbers)


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/<name>.png``; its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick), out_dir)
