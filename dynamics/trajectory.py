"""One trajectory type shared by every dynamics model in pokerdyn (ODE, difference
equations, agent-based simulation), so that one plotting module serves them all.

A :class:`Trajectory` is a frozen record of sampled times, the named strategy parameters at
those times and, optionally, the players' payoffs along the way.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray


@dataclass(frozen=True)
class Trajectory:
    """A sampled path of a dynamical model.

    Attributes
    ----------
    times : (n_times,) float array, increasing (time for ODEs, round/iteration for
        discrete models).
    states : (n_times, n_params) float array; column j is parameter ``names[j]``.
    names : parameter names, e.g. ``("b_J", "c_K", "d_Q")``.
    payoffs : optional (n_times, n_players) float array of payoffs per player.  Its meaning
        is given by ``meta["payoffs"]``: ``"cumulative"`` (integral / sum of the expected
        payoff from ``times[0]``, the default for ODEs) or ``"mean"`` (running mean).
    meta : free-form metadata (model, game, parameter values, rates, integrator, ...).
    """

    times: NDArray[np.float64]
    states: NDArray[np.float64]
    names: tuple[str, ...]
    payoffs: NDArray[np.float64] | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        t = np.asarray(self.times, dtype=float)
        s = np.asarray(self.states, dtype=float)
        if s.ndim != 2 or s.shape[0] != t.shape[0] or s.shape[1] != len(self.names):
            raise ValueError(f"states must have shape (n_times={t.shape[0]}, "
                             f"n_params={len(self.names)}), got {s.shape}")
        object.__setattr__(self, "times", t)
        object.__setattr__(self, "states", s)
        object.__setattr__(self, "names", tuple(self.names))
        if self.payoffs is not None:
            p = np.asarray(self.payoffs, dtype=float)
            if p.ndim != 2 or p.shape[0] != t.shape[0]:
                raise ValueError(f"payoffs must have shape (n_times={t.shape[0]}, n_players),"
                                 f" got {p.shape}")
            object.__setattr__(self, "payoffs", p)

    def __len__(self) -> int:
        return self.times.shape[0]

    def __repr__(self) -> str:  # a summary: the samples themselves were 30,300 characters
        from pokerdyn.dynamics.summary import format_repr, summarize

        n = len(self)
        span = f"{n:,} samples, t in [{self.times[0]:.6g}, {self.times[-1]:.6g}]" if n else \
            "no samples"
        pay = "none" if self.payoffs is None else \
            f"{self.meta.get('payoffs', 'cumulative')}, {self.payoffs.shape[1]} players"
        meta = {k: v for k, v in self.meta.items() if k in ("model", "method", "nfev")}
        final = {k: round(v, 6) for k, v in self.final.items()} if n else {}
        return format_repr("Trajectory", {"times": span, "names": summarize(self.names),
                                          "final": summarize(final, 400), "payoffs": pay,
                                          "meta": summarize(meta, 400)})

    def to_frame(self):
        """The samples as a pandas DataFrame: column ``t``, one per parameter and, when
        the trajectory has payoffs, ``E1 ... En`` (imported when asked)."""
        import pandas as pd

        cols = {"t": self.times, **{n: self.states[:, j] for j, n in enumerate(self.names)}}
        if self.payoffs is not None:
            cols.update({f"E{p + 1}": self.payoffs[:, p] for p in range(self.payoffs.shape[1])})
        return pd.DataFrame(cols)

    def _repr_html_(self) -> str:
        import html
        return f"<pre>{html.escape(repr(self))}</pre>"

    @property
    def final(self) -> dict[str, float]:
        """The last state as ``{name: value}``."""
        return {n: float(v) for n, v in zip(self.names, self.states[-1])}

    def column(self, name: str) -> NDArray[np.float64]:
        """The time series of parameter ``name``."""
        try:
            return self.states[:, self.names.index(name)]
        except ValueError:
            raise KeyError(f"unknown parameter {name!r}; have {', '.join(self.names)}") from None

