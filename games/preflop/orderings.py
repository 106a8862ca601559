"""Showdown outcomes as weak orderings: ``m`` hands at a showdown realise one weak ordering
of their strengths (ties allowed).  The multiway equities (:mod:`.multiway`) give a
probability to each, and the jam/fold games (:mod:`pokerdyn.games.tournament.showdown`)
settle the pots of each."""
from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray


@lru_cache(maxsize=None)
def weak_orderings(m: int) -> NDArray[np.int64]:
    """All weak orderings of ``m`` players as strength vectors (W, m), ranks 0..m-1 with no
    gaps (m=2: (0,1), (1,0), (0,0))."""
    rows = {tuple(np.unique(r, return_inverse=True)[1].ravel())
            for r in itertools.product(range(m), repeat=m)}
    out = np.array(sorted(rows, key=lambda r: (-len(set(r)), r)), dtype=np.int64)
    out.setflags(write=False)
    return out
