"""Plot helpers for any :class:`~dynamics.trajectory.Trajectory` (ODE, difference-equation
or agent-based).  Each takes a matplotlib ``ax`` and returns it; cycles get arrows for the
direction of motion."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from numpy.typing import NDArray

from pokerdyn.dynamics.trajectory import Trajectory


def _arrow_indices(pts: NDArray, n_arrows: int) -> list[int]:
    """Indices spread evenly in arc length along ``pts`` (rows)."""
    seg = np.linalg.norm(np.diff(pts, axis=0), axis=1)
    s = np.concatenate([[0.0], np.cumsum(seg)])
    if s[-1] == 0 or n_arrows <= 0:
        return []
    targets = (np.arange(n_arrows) + 0.5) / n_arrows * s[-1]
    return [int(min(np.searchsorted(s, t), len(pts) - 2)) for t in targets]


def phase_plane(ax, traj: Trajectory, x: str, y: str, arrows: int = 3,
                **kw: Any):
    """The path of ``traj`` in the (x, y) plane with ``arrows`` direction arrows."""
    X, Y = traj.column(x), traj.column(y)
    (line,) = ax.plot(X, Y, **kw)
    pts = np.column_stack([X, Y])
    for i in _arrow_indices(pts, arrows):
        j = min(i + 1, len(X) - 1)
        ax.annotate("", xy=(X[j], Y[j]), xytext=(X[i], Y[i]),
                    arrowprops={"arrowstyle": "-|>", "color": line.get_color(), "lw": 1.2,
                                "mutation_scale": 12})
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    return ax


def phase_3d(ax, trajs: Sequence[Trajectory], names: tuple[str, str, str] | None = None,
             arrows: int = 2, colors: Sequence[Any] | None = None, **kw: Any):
    """Paths in 3-D (``ax`` from ``projection='3d'``) with direction arrows."""
    names = names or trajs[0].names[:3]
    for k, tr in enumerate(trajs):
        P = np.column_stack([tr.column(n) for n in names])
        c = colors[k % len(colors)] if colors else None
        (line,) = ax.plot(P[:, 0], P[:, 1], P[:, 2], color=c, **kw)
        for i in _arrow_indices(P, arrows):
            d = P[min(i + 1, len(P) - 1)] - P[i]
            nd = np.linalg.norm(d)
            if nd > 0:
                d = d / nd * 0.05
                ax.quiver(*P[i], *d, color=line.get_color(), arrow_length_ratio=0.6)
    ax.set_xlabel(names[0])
    ax.set_ylabel(names[1])
    ax.set_zlabel(names[2])
    return ax


def time_series(ax, traj: Trajectory, names: Sequence[str] | None = None, **kw: Any):
    """Parameters of ``traj`` against time."""
    for n in names or traj.names:
        ax.plot(traj.times, traj.column(n), label=n, **kw)
    ax.set_xlabel("t")
    ax.set_ylabel("frequency")
    ax.legend(fontsize=8)
    return ax


def payoff_series(ax, traj: Trajectory, labels: Sequence[str] | None = None,
                  reference: Sequence[float] | None = None, mean: bool = False, **kw: Any):
    """Payoffs per player against time: cumulative (Billingham (24)-(26) for ODEs) or, with
    ``mean``, the running mean payoff/(t - t0).  Optional dashed ``reference`` expectations
    (e.g. an equilibrium's): lines of slope E_p, or levels E_p when ``mean``."""
    if traj.payoffs is None:
        raise ValueError("trajectory has no payoffs")
    t = traj.times - traj.times[0]
    cumulative = traj.meta.get("payoffs", "cumulative") == "cumulative"
    for p in range(traj.payoffs.shape[1]):
        lab = labels[p] if labels else f"E{p + 1}"
        y = traj.payoffs[:, p]
        if mean and cumulative:
            with np.errstate(invalid="ignore", divide="ignore"):
                y = np.where(t > 0, y / t, np.nan)
        (line,) = ax.plot(traj.times, y, label=lab, **kw)
        if reference is not None:
            ref = np.full_like(t, reference[p]) if mean else reference[p] * t
            ax.plot(traj.times, ref, "--", color=line.get_color(), lw=0.8)
    ax.set_xlabel("t")
    ax.set_ylabel("mean payoff E_p(t)/t" if mean else
                  f"{traj.meta.get('payoffs', 'cumulative')} expected payoff")
    ax.legend(fontsize=8)
    return ax


def mark_points(ax, points: Sequence[dict[str, float]], names: Sequence[str],
                labels: Sequence[str] | None = None, **kw: Any):
    """Mark equilibria (``{name: value}``) in 2-D or 3-D axes, optionally labelled."""
    for k, p in enumerate(points):
        c = [p[n] for n in names]
        ax.scatter(*c, color=kw.get("color", "k"), s=kw.get("s", 18), zorder=5)
        if labels:
            ax.text(*c, f" {labels[k]}", fontsize=9)
    return ax


def basin_image(ax, bm, axes: tuple[str, str], names: Sequence[str], cmap: str = "coolwarm"):
    """Basin map on a square grid of initial points (from ``grid_points``): colour = index
    of the face approached; undecided points grey."""
    import matplotlib
    from matplotlib.colors import ListedColormap
    i, j = names.index(axes[0]), names.index(axes[1])
    n = int(round(np.sqrt(len(bm.points))))
    used = sorted(set(int(v) for v in bm.labels if v >= 0))
    lut = {v: k for k, v in enumerate(used)}
    img = np.array([lut.get(int(v), -1) for v in bm.labels], float).reshape(n, n)
    img[img < 0] = np.nan
    base = [matplotlib.colormaps[cmap](t) for t in np.linspace(0.1, 0.9, max(1, len(used)))]
    cm = ListedColormap(base).with_extremes(bad="0.7")
    ext = (bm.points[:, i].min(), bm.points[:, i].max(), bm.points[:, j].min(),
           bm.points[:, j].max())
    ax.imshow(img, origin="lower", extent=ext, cmap=cm, vmin=-0.5, vmax=len(used) - 0.5,
              aspect="auto", interpolation="nearest")
    for k, v in enumerate(used):
        ax.plot([], [], "s", color=base[k], label=f"-> {bm.faces[v]}")
    ax.set_xlabel(axes[0])
    ax.set_ylabel(axes[1])
    ax.legend(fontsize=8, loc="upper right")
    return ax
