"""The 2,598,960 five-card boards up to suit isomorphism.

Renaming the suits (24 permutations) maps boards to boards and keeps every hole-card class
(:mod:`games.preflop.classes`), so any per-board count summed over classes is the same on all
boards of an orbit.  :func:`canonical_boards` returns one board per orbit (134,459 of them)
with the orbit's size; summing ``size * count(board)`` over them equals summing ``count`` over
all boards.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import chain, combinations, permutations
from math import comb

import numpy as np
from numpy.typing import NDArray


@lru_cache(maxsize=1)
def all_boards() -> NDArray[np.int8]:
    """The C(52, 5) = 2,598,960 boards as sorted card ids (n, 5), in combinations order
    (13 MB, read-only)."""
    flat = np.fromiter(chain.from_iterable(combinations(range(52), 5)), dtype=np.int8,
                       count=5 * comb(52, 5))
    flat.flags.writeable = False
    return flat.reshape(-1, 5)


@lru_cache(maxsize=1)
def canonical_boards() -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """``(boards, sizes)``: one board per suit-isomorphism class as sorted card ids (n, 5)
    (the member whose 52-bit card mask is smallest) and the size of its orbit (n,), summing
    to C(52, 5).  Deterministic order (increasing mask).  Read-only arrays."""
    boards = all_boards()
    best = None
    for perm in permutations(range(4)):
        # bit of each card once its suit is renamed by ``perm``
        bit = np.array([1 << (4 * (c // 4) + perm[c % 4]) for c in range(52)], dtype=np.uint64)
        mask = bit[boards[:, 0]]
        for k in range(1, 5):
            mask |= bit[boards[:, k]]
        best = mask if best is None else np.minimum(best, mask)
    masks, sizes = np.unique(best, return_counts=True)
    bits = (masks[:, None] >> np.arange(52, dtype=np.uint64)) & np.uint64(1)
    out = np.nonzero(bits)[1].reshape(-1, 5).astype(np.int64)
    sizes = sizes.astype(np.int64)
    out.flags.writeable = False
    sizes.flags.writeable = False
    return out, sizes


__all__ = ["all_boards", "canonical_boards"]
