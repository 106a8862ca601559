"""The logit precision ``lam`` that best explains observed play: maximum likelihood over the
principal QRE branch, with its profile-likelihood interval (McKelvey and Palfrey 1995, sec. 5;
Gambit's ``logit_estimate``, Turocy 2005 sec. 5).

Observed play is a table of action counts ``n[I, a]`` per information set (hands are
independent, and every hand reaching ``I`` reveals the action taken there), so the
log-likelihood of the agent QRE ``sigma_lam`` on the principal branch is

    l(lam) = sum_{I, a} n[I, a] log sigma_lam[I, a].

It is evaluated exactly at every point of the traced branch (with the branch's exact
log-probabilities), the maximum is refined by a bounded scalar search on the segments
around the best point (each trial profile solved by Newton at its ``lam``), and the ends of
the interval ``{lam : 2 (l_max - l(lam)) <= chi2_1(level)}`` (Wilks) are located by Brent's
method on the segments where the deviance crosses the threshold.  An end the branch never
crosses is 0 (below) or infinity (above: the data are as consistent with Nash play).

Count tables on the command line are JSON objects mapping information-set labels to
``{action: count}`` (or to a list of counts in the set's action order); see
:func:`counts_from_json`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import brentq, minimize_scalar
from scipy.stats import chi2

from pokerdyn.games import CompiledGame, GameError
from pokerdyn.games.strategy import check_strategy
from pokerdyn.solvers.qre import _kernels as QK
from pokerdyn.solvers.qre.branch import Branch, newton_at, trace_branch
from pokerdyn.solvers.qre.core import BranchSystem


@dataclass(frozen=True)
class LambdaFit:
    """Result of :func:`fit_lambda`.

    ``lam`` the maximum-likelihood precision (``inf`` when the likelihood still rises at the
    branch's end); ``interval`` the profile-likelihood interval at ``level`` (``inf`` above
    where it never closes); ``log_likelihood`` at ``lam``; ``profile`` the QRE there;
    ``n_observations`` the number of counted actions; ``branch_lambdas`` and
    ``branch_log_likelihood`` the likelihood at every branch point (for plots).
    """

    lam: float
    interval: tuple[float, float]
    log_likelihood: float
    profile: NDArray[np.float64]
    n_observations: int
    level: float
    branch_lambdas: NDArray[np.float64]
    branch_log_likelihood: NDArray[np.float64]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready; infinite values are written as ``null``."""
        def num(x: float) -> float | None:
            return float(x) if math.isfinite(x) else None
        return {"lambda": num(self.lam), "interval": [num(v) for v in self.interval],
                "log_likelihood": float(self.log_likelihood), "level": self.level,
                "observations": self.n_observations}


# ---------------------------------------------------------------------------- count tables
def check_counts(cg: CompiledGame, counts: NDArray) -> NDArray[np.float64]:
    """``counts`` as a float array ``(n_infosets, max_actions)``; GameError on a wrong shape,
    a negative or non-finite count, a count on an illegal action, or all counts zero."""
    C = np.asarray(counts, dtype=np.float64)
    if C.shape != cg.legal.shape:
        raise GameError(f"counts have shape {C.shape}; the game needs {cg.legal.shape}")
    if not np.all(np.isfinite(C)) or (C < 0).any():
        bad = C[~np.isfinite(C) | (C < 0)][0]
        raise GameError(f"count {bad:g} is outside the allowed range [0, inf)")
    if (C[~cg.legal] != 0).any():
        raise GameError("counts on illegal actions")
    if C.sum() <= 0:
        raise GameError("all counts are zero: nothing to fit")
    return C


def counts_from_json(cg: CompiledGame, obj: Any) -> NDArray[np.float64]:
    """The count table of a JSON object ``{"<infoset label>": {"<action>": n, ...}}`` (or
    ``{"<infoset label>": [n_a0, n_a1, ...]}`` in the set's action order); sets left out
    have zero counts.  GameError names an unknown set or action, a negative count or a
    table whose counts are all zero."""
    if not isinstance(obj, Mapping):
        raise GameError("a counts file holds a JSON object mapping information-set labels "
                        "to action counts")
    C = np.zeros(cg.legal.shape)
    labels = cg.infoset_labels
    index = {lab: i for i, lab in enumerate(labels)}
    for lab, row in obj.items():
        if lab not in index:
            raise GameError(f"unknown information set {lab!r} in game {cg.name!r}; allowed: "
                            f"{', '.join(labels)}")
        I = index[lab]
        actions = cg.game.infosets[I].actions
        if isinstance(row, Mapping):
            pairs = list(row.items())
            for a, _ in pairs:
                if a not in actions:
                    raise GameError(f"unknown action {a!r} at {lab!r}; allowed: "
                                    f"{', '.join(actions)}")
            pairs = [(actions.index(a), n) for a, n in pairs]
        elif isinstance(row, list):
            if len(row) != len(actions):
                raise GameError(f"{lab!r} needs {len(actions)} counts ({', '.join(actions)}),"
                                f" got {len(row)}")
            pairs = list(enumerate(row))
        else:
            raise GameError(f"the counts of {lab!r} must be an object or a list, got {row!r}")
        for k, n in pairs:
            if isinstance(n, bool) or not isinstance(n, (int, float)):
                raise GameError(f"count {n!r} at {lab!r} is not a number")
            if not math.isfinite(n) or n < 0:
                raise GameError(f"count {n} at {lab!r} is outside the allowed range [0, inf)")
            C[I, k] = n
    return check_counts(cg, C)


def counts_to_json(cg: CompiledGame, counts: NDArray) -> dict[str, dict[str, int]]:
    """The JSON object of a count table (sets with no observation left out)."""
    out = {}
    for I, lab in enumerate(cg.infoset_labels):
        if counts[I].sum() > 0:
            acts = cg.game.infosets[I].actions
            out[lab] = {a: int(round(float(counts[I, k]))) for k, a in enumerate(acts)}
    return out


def _paths(cg: CompiledGame) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """``(terminal, flat (I, a))`` pairs: the decisions on the path to every terminal."""
    if "qre_paths" not in cg.cache:
        term, flat = [], []
        amax = cg.max_actions
        for node in np.flatnonzero(cg.terminal_index >= 0):
            t = int(cg.terminal_index[node])
            k = int(node)
            while k > 0:
                p = int(cg.parent[k])
                if cg.kind[p] == QK.DECISION:
                    term.append(t)
                    flat.append(int(cg.infoset[p]) * amax + int(cg.edge[k]))
                k = p
        cg.cache["qre_paths"] = (np.asarray(term, dtype=np.int64),
                                 np.asarray(flat, dtype=np.int64))
    return cg.cache["qre_paths"]


def counts_from_terminals(cg: CompiledGame, terminal_counts: NDArray) -> NDArray[np.float64]:
    """Action counts per information set from the number of hands ending at each terminal
    (rows of ``cg.payoffs``): every hand counts each decision on its path once."""
    h = np.asarray(terminal_counts, dtype=np.float64)
    if h.shape != (cg.payoffs.shape[0],):
        raise GameError(f"terminal counts have shape {h.shape}; the game has "
                        f"{cg.payoffs.shape[0]} terminals")
    term, flat = _paths(cg)
    out = np.zeros(cg.legal.size)
    np.add.at(out, flat, h[term])
    return out.reshape(cg.legal.shape)


def terminal_probabilities(cg: CompiledGame, sigma: NDArray[np.float64]) -> NDArray[np.float64]:
    """Probability of each terminal (row of ``cg.payoffs``) under ``sigma`` and chance."""
    with np.errstate(divide="ignore"):
        logsig = np.log(check_strategy(cg, sigma, "sigma", full=False))
    hi, _ = QK.log_reach(cg.kind, cg.parent, cg.edge, cg.infoset, cg.chance_prob, logsig)
    nodes = np.flatnonzero(cg.terminal_index >= 0)
    p = np.zeros(cg.payoffs.shape[0])
    np.add.at(p, cg.terminal_index[nodes], np.exp(hi[nodes]))
    return p


def sample_counts(cg: CompiledGame, sigma: NDArray[np.float64], hands: int,
                  rng: np.random.Generator) -> NDArray[np.float64]:
    """Action counts of ``hands`` independent hands played with ``sigma``."""
    p = terminal_probabilities(cg, sigma)
    return counts_from_terminals(cg, rng.multinomial(int(hands), p / p.sum()))


# ---------------------------------------------------------------------------- likelihood
def log_likelihood(counts: NDArray, logs: NDArray[np.float64]) -> NDArray[np.float64] | float:
    """``sum n[I, a] log sigma[I, a]`` for one profile's log-probabilities ``(n_inf, A)`` or
    a stack of them ``(k, n_inf, A)`` (terms with zero count are 0)."""
    C = np.asarray(counts, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        terms = np.where(C > 0, C * logs, 0.0)
    return terms.sum(axis=(-2, -1))


class _Profile:
    """The likelihood along one traced branch, at any ``lam`` between its points."""

    def __init__(self, cg: CompiledGame, branch: Branch, counts: NDArray[np.float64]):
        self.sys = BranchSystem(cg)
        self.br = branch
        self.C = counts
        self.x = branch.logs.reshape(len(branch), -1)[:, self.sys.idx]
        self.ll = np.asarray(log_likelihood(counts, branch.logs))

    def logs_at(self, i: int, lam: float) -> NDArray[np.float64]:
        """The branch's log-profile at ``lam`` in the segment ``[i, i + 1]``."""
        l0, l1 = self.br.lambdas[i], self.br.lambdas[i + 1]
        if lam == l0:
            return self.br.logs[i]
        if lam == l1:
            return self.br.logs[i + 1]
        s = (lam - l0) / (l1 - l0)
        x = newton_at(self.sys, self.x[i] + s * (self.x[i + 1] - self.x[i]), lam)
        return self.sys.logsig(x)

    def at(self, i: int, lam: float) -> float:
        return float(log_likelihood(self.C, self.logs_at(i, lam)))


def fit_lambda(cg: CompiledGame, counts: NDArray, branch: Branch | None = None,
               level: float = 0.95, max_lambda: float = 1e6, tol: float = 1e-6) -> LambdaFit:
    """Maximum-likelihood ``lam`` of the action ``counts`` (``(n_infosets, max_actions)``,
    :func:`counts_from_json`) over the principal branch, and its profile-likelihood interval
    at ``level``.  ``branch``: a branch traced once for many fits (else traced here until
    the profile's NashConv is below ``tol`` or ``lam`` passes ``max_lambda``; beyond that
    the profile is an equilibrium to within ``tol`` and a likelihood still rising there
    gives ``lam = inf``)."""
    C = check_counts(cg, counts)
    if not 0 < level < 1:
        raise GameError(f"level={level} is outside the allowed range (0, 1)")
    if branch is None:
        branch = trace_branch(cg, tol=tol, max_lambda=max_lambda)[0]
    pr = _Profile(cg, branch, C)
    lams, ll = branch.lambdas, pr.ll
    k = len(branch)
    i = int(np.argmax(ll))
    if i == k - 1:                       # still rising at the branch's end
        lam, best, logs = math.inf, float(ll[-1]), branch.logs[-1]
    else:
        lam, best, logs = float(lams[i]), float(ll[i]), branch.logs[i]
        for j in (i - 1, i):             # the segments on either side of the best point
            if j < 0 or not lams[j + 1] > lams[j]:
                continue
            res = minimize_scalar(lambda v, j=j: -pr.at(j, v), bounds=(lams[j], lams[j + 1]),
                                  method="bounded", options={"xatol": 1e-10 * lams[j + 1]})
            if -res.fun > best:
                lam, best, logs = float(res.x), float(-res.fun), pr.logs_at(j, float(res.x))
    thr = best - 0.5 * float(chi2.ppf(level, 1))
    if math.isfinite(lam):
        seg = min(max(int(np.searchsorted(lams, lam)) - 1, 0), k - 2)
        lo, hi = _crossing(pr, thr, seg, lam, -1), _crossing(pr, thr, seg, lam, +1)
    else:
        lo, hi = _crossing(pr, thr, k - 2, float(lams[-1]), -1), math.inf
    return LambdaFit(lam=lam, interval=(lo, hi), log_likelihood=best, profile=np.exp(logs),
                     n_observations=int(round(C.sum())), level=level, branch_lambdas=lams,
                     branch_log_likelihood=ll)


def _crossing(pr: _Profile, thr: float, seg: int, lam: float, step: int) -> float:
    """The ``lam`` where the log-likelihood falls to ``thr`` walking from ``lam`` (in the
    segment ``seg``, where it is above ``thr``) in direction ``step``; 0 or inf when it
    never does."""
    ll, lams = pr.ll, pr.br.lambdas
    a = lam
    j = seg if step < 0 else seg + 1       # the next branch point in that direction
    while 0 <= j < len(ll) and ll[j] > thr:
        a = float(lams[j])
        j += step
    if not 0 <= j < len(ll):
        return 0.0 if step < 0 else math.inf
    s = j if step < 0 else j - 1           # the segment holding the crossing
    b = float(lams[j])
    if not lams[s + 1] > lams[s]:          # a fold of the branch: the point itself
        return b
    f = lambda v: pr.at(s, v) - thr        # noqa: E731
    lo_, hi_ = min(a, b), max(a, b)
    return float(brentq(f, lo_, hi_, xtol=1e-12 * hi_))


__all__ = ["LambdaFit", "check_counts", "counts_from_json", "counts_from_terminals",
           "counts_to_json", "fit_lambda", "log_likelihood", "sample_counts",
           "terminal_probabilities"]
