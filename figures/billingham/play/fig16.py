"""Billingham Fig. 16: mean of each sliding-window estimator against L with frequencies
fixed at S3 (P = 9), from :func:`dynamics.play.repeated.estimator_study`; the true values
dashed."""
from __future__ import annotations

from pathlib import Path

from pokerdyn.figures.base import Figure, FigureResult, described, finish, new_figure
from pokerdyn.figures.billingham.play.series import study

COLORS = ("tab:red", "tab:orange", "tab:blue", "tab:purple", "tab:green")


def figure(seed: int = 0, quick: bool = False) -> Figure:
    st = study(quick, seed)
    fig, ax = new_figure(size=(6.4, 4.4))
    numbers = {"rounds": st.rounds, "discard": st.discard, "L": list(st.L)}
    for j, name in enumerate(st.names):
        c = COLORS[j % len(COLORS)]
        ax.errorbar(st.L, st.mean[:, j], yerr=2 * st.stderr[:, j], marker="o", ms=3, color=c,
                    label=name, capsize=2)
        ax.axhline(st.truth[j], color=c, ls="--", lw=0.7)
        worst = max(abs(st.mean[:, j] - st.truth[j]) / st.stderr[:, j])
        numbers[f"{name}: truth"] = round(st.truth[j], 4)
        numbers[f"{name}: mean by L"] = [round(float(v), 4) for v in st.mean[:, j]]
        numbers[f"{name}: max |mean - truth| / stderr"] = round(float(worst), 2)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("L (window length, hands)")
    ax.set_ylabel("mean estimate")
    ax.set_title("Estimator means at S3, P = 9 (dashed: true values; bars: 2 s.e.)", fontsize=9)
    ax.legend(fontsize=7, ncol=2)
    return described(fig, "billingham_fig16",
                     "Mean of every player's every-L unbiased estimate of each opponent "
                     "frequency against L, frequencies fixed at S3 (P = 9): the means sit "
                     "on the true values for every L.", numbers,
                     "Billingham (three-player Kuhn), Fig. 16 (Appendix D)")


def main(out_dir: Path, seed: int = 0, quick: bool = False) -> FigureResult:
    """Save :func:`figure` as ``out_dir/<name>.png``; its :class:`FigureResult`."""
    return finish(figure(seed=seed, quick=quick), out_dir)
