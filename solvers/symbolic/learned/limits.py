"""Learned limits against a whole-axis record: do seeded CFR+ and fictitious-play runs at a
pot end on the recorded equilibrium families?

A whole-axis record (``pokerdyn equilibria GAME --pots A:B --json``, e.g.
``figures/frontier/data/full_street_families.json``) gives every family piecewise in the
pot ``P``.  :func:`families_at` reads the families of the piece holding a pot back as
:class:`~solvers.symbolic.model.conditions.Family` objects with ``P`` substituted, in the order
of the record's ``free_names``.  :func:`limits_at` runs the seeded starts of
:func:`.propose.learned_profiles` there and measures each limit's max-norm distance to the
nearest family over those frequencies (:func:`solvers.symbolic.families.geometry.distance`: a point of the family
that satisfies all of its constraints, so the distance is attained, not a lower bound).
Runs farther than ``target`` from every family are run again from the same start with more
iterations (:func:`.propose.refine`), at most ``rounds`` times; each row keeps the
iterations, NashConv and distance of every round, so a limit that approaches a family shows
it, and so does a run that does not converge (NashConv not falling with the iterations: no
limit to place, which happens in 3-player games; Billingham's full-street game at P = 4).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np
import sympy as sp

from pokerdyn.games import Game, GameError, compile_game

from pokerdyn.solvers.symbolic.model.conditions import Family, pot_symbol
from pokerdyn.solvers.symbolic.axis.family_records import parse_set, record_constraint, record_family
from pokerdyn.solvers.symbolic.families.geometry import Numeric, distance
from pokerdyn.solvers.symbolic.learned.propose import LearnedProfile, learned_profiles, refine

ITERATIONS = {"cfr+": 200_000, "fp": 200_000}


def families_at(record: Mapping[str, Any], game: Game, pot: Any) -> list[Family]:
    """The families of ``record``'s piece holding ``pot`` (exact), ``P`` substituted, each
    with its strategy over ``record["free_names"]`` and its constraints as ``(expr >= 0 or
    > 0, strict)``; an empty list where no piece holds ``pot``."""
    pot = sp.sympify(pot)
    p = pot_symbol(game)
    names = list(record["free_names"])
    out = []
    for pc in record["pieces"]:
        if parse_set(pc["p_set"]).contains(pot) is not sp.true:
            continue
        for rec in pc["families"]:
            fam = record_family({**rec, "p_interval": pc["p_set"]}, game)
            real = {s: sp.Symbol(s.name, real=True) for e in fam["strategy"].values()
                    for s in e.free_symbols if s.name in fam["free"]}
            sub = {**real, **({p: pot} if p is not None else {})}
            strategy = tuple((n, sp.simplify(fam["strategy"][n].xreplace(sub))) for n in names)
            cons = tuple(record_constraint(c.xreplace(sub)) for c in fam["constraints"])
            out.append(Family(strategy, fam["free"], tuple(c for c in cons if c is not None),
                              rec.get("support", "")))
    return out


@dataclass(frozen=True)
class Limit:
    """One seeded run at one pot: its final profile, ``(iterations, NashConv, distance to the
    nearest family)`` after each round (the first is the plain run), and that family's
    support."""

    run: LearnedProfile
    history: tuple[tuple[int, float, float], ...]
    family: str

    @property
    def distances(self) -> tuple[float, ...]:
        return tuple(d for _, _, d in self.history)

    def row(self, pot: Any, n_families: int) -> dict:
        return {"pot": str(pot), "method": self.run.method, "seed": self.run.seed,
                "iterations": self.run.iterations, "nash_conv": self.run.nash_conv,
                "families_at_pot": n_families, "distance": self.distances[-1],
                "family": self.family,
                "history": [{"iterations": i, "nash_conv": c, "distance": d}
                            for i, c, d in self.history]}


def nearest(nums: Sequence[Numeric], run: LearnedProfile, names: Sequence[str]
            ) -> tuple[float, int]:
    """(max-norm distance from ``run``'s limit to the nearest family, its index; -1 if none)."""
    y = np.array([run.values[n] for n in names], dtype=float)
    ds = [distance(num, y)[0] for num in nums]
    return (float(min(ds)), int(np.argmin(ds))) if ds else (float("inf"), -1)


def limits_at(game: Game, record: Mapping[str, Any], pot: Any, seeds: int = 2, seed: int = 0,
              iterations: Mapping[str, int] | None = None, target: float = 1e-3,
              rounds: int = 2, workers: int | None = 1) -> tuple[list[Family], list[Limit]]:
    """The families at the exact ``pot`` and the seeded runs of
    :func:`.propose.learned_profiles` there (``seeds`` starts, CFR+ and fictitious play,
    ``iterations`` each), every run farther than ``target`` from every family refined
    (:func:`.propose.refine`) up to ``rounds`` times."""
    if target <= 0 or rounds < 0:
        raise GameError(f"target={target}, rounds={rounds}: need target > 0 and rounds >= 0")
    pot = sp.sympify(pot)
    fams = families_at(record, game, pot)
    names = list(record["free_names"])
    nums = [Numeric(f, names) for f in fams]
    values = {"P": float(pot)} if pot_symbol(game) is not None else None
    cg = compile_game(game, values)
    runs = learned_profiles(cg, seeds, seed, iterations={**ITERATIONS, **(iterations or {})},
                            workers=workers)
    near = [nearest(nums, r, names) for r in runs]
    hist = [[(r.iterations, r.nash_conv, d)] for r, (d, _) in zip(runs, near)]
    for _ in range(rounds):
        far = [k for k, (d, _) in enumerate(near) if d > target]
        if not far:
            break
        runs = refine(cg, runs, far, seed, workers)
        for k in far:
            near[k] = nearest(nums, runs[k], names)
            hist[k].append((runs[k].iterations, runs[k].nash_conv, near[k][0]))
    return fams, [Limit(r, tuple(h), fams[i].cases if i >= 0 else "")
                  for r, h, (_, i) in zip(runs, hist, near)]
