"""Supports proposed by seeded learning runs: CFR+ and fictitious play from random starting
profiles, and the (a)/(b)/(c) case string of each limit.

Every run draws its starting profile (a Dirichlet(1) vector at each information set) from its
own child of one :class:`numpy.random.SeedSequence`, so a seed replays exactly.  CFR+ forgets
a starting profile after its first iteration, so its runs start warm (Brown & Sandholm 2016,
"Strategy-based warm starting for regret minimization in games"): the initial cumulative
regrets are the starting profile times ``warm`` chips, which regret matching turns back into
that profile until the regrets of the game outweigh them.

A limit ``x`` with counterfactual gains ``g`` reads as a support case by case: ``g_x > tol``
is case (a) (``x = 1``), ``g_x < -tol`` case (b) (``x = 0``), anything closer to zero case
(c) (indifferent, ``0 <= x <= 1``).
"""
from __future__ import annotations

import multiprocessing as mp
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from pokerdyn.games import CompiledGame, GameError, params_from_strategy

from pokerdyn.solvers.iterative import run_iterative
from pokerdyn.solvers.symbolic.axis.forked_map import _default_signals, terminate_workers
from pokerdyn.solvers.learning._regret_kernels import RegretState
from pokerdyn.solvers.learning.cfr_plus import CFR
from pokerdyn.solvers.learning.fictitious_play import FictitiousPlay

METHODS = ("cfr+", "fp")
# fictitious play needs more iterations for the same NashConv (3-player Kuhn, P = 3: about
# 1e-5 after 1e5 CFR+ iterations, 5e-5 after 4e5 alternating FP iterations)
ITERATIONS = {"cfr+": 100_000, "fp": 400_000}
REFINE = 4  # a run refined by :func:`refine` gets this many times the iterations


@dataclass(frozen=True)
class LearnedProfile:
    """One seeded run: its method, seed index, named parameter values of the output
    (average) profile, and its NashConv."""

    method: str
    seed: int
    values: dict
    nash_conv: float
    iterations: int


@dataclass
class _WarmCFR(CFR):
    warm: float = 10.0

    def init(self, cg: CompiledGame, sigma0: NDArray[np.float64]) -> RegretState:
        return RegretState.start(sigma0, np.ascontiguousarray(sigma0 * self.warm))


def random_profile(cg: CompiledGame, rng: np.random.Generator) -> NDArray[np.float64]:
    """A Dirichlet(1) probability vector over the legal actions of every information set."""
    out = np.zeros(cg.legal.shape)
    for I in range(cg.legal.shape[0]):
        legal = np.flatnonzero(cg.legal[I])
        out[I, legal] = rng.dirichlet(np.ones(len(legal)))
    return out


def learned_profiles(cg: CompiledGame, seeds: int = 20, seed: int = 0,
                     methods: Sequence[str] = METHODS,
                     iterations: Mapping[str, int] | None = None,
                     warm: float = 10.0, only: Sequence[int] | None = None,
                     workers: int | None = 1, tol: float | None = None
                     ) -> list[LearnedProfile]:
    """``seeds`` runs of each method, run ``k`` from the ``k``-th child of
    ``SeedSequence(seed)`` (the same starting profile for every method); fictitious play
    is Brown's alternating schedule with reach-weighted averaging.  ``only``: run just these
    seed indices (a refinement of chosen runs).  ``workers`` > 1 runs them in that many
    forked processes (None: one per CPU); the results do not depend on it.  ``tol``: a run
    stops at the first checkpoint (iterations growing by 2x) where its NashConv is at most
    ``tol``, so well-converging starts cost a fraction of ``iterations``."""
    iterations = {**ITERATIONS, **(iterations or {})}
    bad = [m for m in methods if m not in METHODS]
    if bad or seeds < 1:
        raise GameError(f"methods={list(methods)!r}, seeds={seeds}: methods must be among "
                        f"{METHODS} and seeds >= 1")
    children = np.random.SeedSequence(seed).spawn(seeds)
    tasks = [(k, m, iterations[m], warm, tol) for k in range(seeds)
             if only is None or k in only for m in methods]
    starts = {k: random_profile(cg, np.random.default_rng(children[k])) for k, *_ in tasks}
    workers = min(workers or os.cpu_count() or 1, len(tasks))
    if workers <= 1:
        return [_one_run(cg, starts[t[0]], *t) for t in tasks]
    # forked workers inherit the compiled game and numba's compiled kernels
    global _SHARED
    _SHARED = (cg, starts)
    ctx = mp.get_context("fork")
    # workers leave Ctrl-C to this process and die on SIGTERM (forked._default_signals)
    pool = ProcessPoolExecutor(workers, mp_context=ctx, initializer=_default_signals)
    try:
        return list(pool.map(_shared_run, tasks))
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM (pokerdyn.cli): the running seeded runs
        terminate_workers(pool)  # are stopped now, not waited for
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def refine(cg: CompiledGame, runs: Sequence[LearnedProfile], far: Sequence[int], seed: int = 0,
           workers: int | None = 1, tol: float | None = None, factor: int = REFINE
           ) -> list[LearnedProfile]:
    """``runs`` (from :func:`learned_profiles` with this ``seed``) with the runs at the
    indices ``far`` run again from their own starting profiles with ``factor`` times the
    iterations (per method: the most any of them ran), and ``tol`` divided by ``factor``."""
    runs = list(runs)
    for m in sorted({runs[k].method for k in far}):
        ks = sorted((k for k in far if runs[k].method == m), key=lambda k: runs[k].seed)
        its = {m: max(runs[k].iterations for k in ks) * factor}
        redo = learned_profiles(cg, max(r.seed for r in runs) + 1, seed, [m], its,
                                only=[runs[k].seed for k in ks], workers=workers,
                                tol=None if tol is None else tol / factor)
        for k, r in zip(ks, redo):
            runs[k] = r
    return runs


_SHARED: tuple | None = None


def _shared_run(task: tuple) -> LearnedProfile:
    cg, starts = _SHARED
    return _one_run(cg, starts[task[0]], *task)


def _one_run(cg: CompiledGame, sigma0, k: int, m: str, n: int, warm: float,
             tol: float | None = None) -> LearnedProfile:
    method = _WarmCFR(warm=warm) if m == "cfr+" else FictitiousPlay("alternating", "reach")
    res = run_iterative(cg, method, iterations=n, tol=tol, sigma0=sigma0, growth=2.0)
    return LearnedProfile(m, k, params_from_strategy(cg, res.strategy), float(res.nash_conv),
                          res.iterations)


def case_string(gains: NDArray[np.float64], tol: float) -> str:
    """The support case of each parameter from its counterfactual gain at a limit."""
    return "".join("a" if g > tol else "b" if g < -tol else "c" for g in gains)
