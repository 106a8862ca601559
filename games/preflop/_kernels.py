"""Hot loops of the heads-up equity table.

Ranks come from phevaluator's own C function ``evaluate_7cards`` (exported by its extension
module; numba calls it through ctypes), or, if that symbol cannot be loaded, from its Python
binding one hand at a time (same numbers, much slower).  phevaluator ranks run from 1 (royal
flush) to 7462 (worst high card): smaller is stronger.
"""
from __future__ import annotations

import ctypes
from functools import lru_cache

import numpy as np
from numba import njit, prange
from numpy.typing import NDArray

NO_RANK = 0  # combo touching the board: not dealt


@lru_cache(maxsize=1)
def _native_evaluate_7cards():
    """phevaluator's C ``evaluate_7cards`` as a ctypes function, or None."""
    try:
        from phevaluator import _pheval
        fn = ctypes.CDLL(_pheval.__file__).evaluate_7cards
    except (ImportError, OSError, AttributeError):  # pragma: no cover - other builds
        return None
    fn.argtypes = [ctypes.c_int] * 7
    fn.restype = ctypes.c_int
    return fn


@lru_cache(maxsize=1)
def _native_rank_kernel():
    fn = _native_evaluate_7cards()
    if fn is None:  # pragma: no cover
        return None

    # not cache=True: numba cannot cache a function holding a ctypes pointer (compiles in ~1 s)
    @njit(parallel=True)
    def ranks_of(boards, cards):
        out = np.zeros((boards.shape[0], cards.shape[0]), dtype=np.int16)
        for b in prange(boards.shape[0]):
            x0, x1, x2, x3, x4 = boards[b, 0], boards[b, 1], boards[b, 2], boards[b, 3], boards[b, 4]
            used = (1 << x0) | (1 << x1) | (1 << x2) | (1 << x3) | (1 << x4)
            for k in range(cards.shape[0]):
                c1, c2 = cards[k, 0], cards[k, 1]
                if (used >> c1) & 1 or (used >> c2) & 1:
                    continue
                out[b, k] = fn(x0, x1, x2, x3, x4, c1, c2)
        return out

    return ranks_of


@lru_cache(maxsize=1)
def _native_seat_kernel():
    fn = _native_evaluate_7cards()
    if fn is None:  # pragma: no cover
        return None

    # not cache=True, as above
    @njit(parallel=True)
    def ranks_of(holes, boards, n):
        out = np.empty((boards.shape[0], boards.shape[1], n), dtype=np.int32)
        for d in prange(boards.shape[0]):
            for b in range(boards.shape[1]):
                x = boards[d, b]
                for i in range(n):
                    out[d, b, i] = fn(x[0], x[1], x[2], x[3], x[4], holes[d, 2 * i],
                                      holes[d, 2 * i + 1])
        return out

    return ranks_of


def seat_ranks(holes: NDArray[np.int64], boards: NDArray[np.int64], n: int) -> NDArray[np.int32]:
    """phevaluator rank of each of ``n`` seats' hole cards (``holes[d, 2i:2i+2]``) on each
    board of each deal (``boards``, (deals, boards, 5)), shape (deals, boards, n)."""
    kernel = _native_seat_kernel()
    if kernel is not None:
        return kernel(holes, boards, n)
    from phevaluator import evaluate_cards  # slow fallback, same numbers
    return np.array([[[evaluate_cards(*x, hs[2 * i], hs[2 * i + 1]) for i in range(n)]
                      for x in bs] for hs, bs in zip(holes.tolist(), boards.tolist())],
                    dtype=np.int32)


def board_ranks(boards: NDArray[np.int64], cards: NDArray[np.int64]) -> NDArray[np.int16]:
    """phevaluator rank of every combo (``cards``, (m, 2)) on every board ((n, 5)), shape
    (n, m); ``NO_RANK`` where the combo shares a card with the board."""
    boards = np.ascontiguousarray(boards, dtype=np.int64)
    cards = np.ascontiguousarray(cards, dtype=np.int64)
    kernel = _native_rank_kernel()
    if kernel is not None:
        return kernel(boards, cards)
    from phevaluator import evaluate_cards  # slow fallback, same numbers
    out = np.zeros((len(boards), len(cards)), dtype=np.int16)
    for b, board in enumerate(boards.tolist()):
        for k, (c1, c2) in enumerate(cards.tolist()):
            if c1 not in board and c2 not in board:
                out[b, k] = evaluate_cards(*board, c1, c2)
    return out


@njit(cache=True, parallel=True)
def class_showdown_counts(ranks, weights, cards, cls, n_classes):
    """Weighted win and win-or-tie counts of class i against class j over all disjoint combo
    pairs on the given boards: ``(win, win_or_tie)``, each (n_classes, n_classes) int64.

    Per board the dealt combos are visited from the weakest to the strongest, one group of
    equal rank at a time, keeping per class the number of combos seen (``cnt``) and per card
    and class the number of those holding that card (``by_card``): the disjoint opponents of
    class j weaker than combo a = ``cnt[j] - by_card[c1, j] - by_card[c2, j]`` (only a itself
    holds both of a's cards, and it is not weaker).  Counting again after adding a's group
    gives the opponents at most as strong, less a itself once (counted once in ``cnt`` and
    twice in ``by_card``).  Cost per board: two rows of n_classes per combo, instead of one
    step per pair of combos.  Boards are split across threads, each with its own
    accumulators, and summed in a fixed order: integer results, identical on every run."""
    n_boards = ranks.shape[0]
    n_combos = cards.shape[0]
    parts = min(n_boards, 64)
    win = np.zeros((parts, n_classes, n_classes), dtype=np.int64)
    le = np.zeros((parts, n_classes, n_classes), dtype=np.int64)
    for p in prange(parts):
        cnt = np.zeros(n_classes, dtype=np.int64)
        by_card = np.zeros((52, n_classes), dtype=np.int64)
        for b in range(p, n_boards, parts):
            w = weights[b]
            r = ranks[b]
            order = np.argsort(-r.astype(np.int64), kind="mergesort")  # weakest first
            cnt[:] = 0
            by_card[:, :] = 0
            start = 0
            while start < n_combos and r[order[start]] != 0:
                stop = start
                while stop < n_combos and r[order[stop]] == r[order[start]]:
                    stop += 1
                for t in range(start, stop):
                    k = order[t]
                    c1, c2, i = cards[k, 0], cards[k, 1], cls[k]
                    for j in range(n_classes):
                        win[p, i, j] += w * (cnt[j] - by_card[c1, j] - by_card[c2, j])
                for t in range(start, stop):
                    k = order[t]
                    cnt[cls[k]] += 1
                    by_card[cards[k, 0], cls[k]] += 1
                    by_card[cards[k, 1], cls[k]] += 1
                for t in range(start, stop):
                    k = order[t]
                    c1, c2, i = cards[k, 0], cards[k, 1], cls[k]
                    for j in range(n_classes):
                        le[p, i, j] += w * (cnt[j] - by_card[c1, j] - by_card[c2, j])
                    le[p, i, i] += w
                start = stop
    total_win = np.zeros((n_classes, n_classes), dtype=np.int64)
    total_le = np.zeros((n_classes, n_classes), dtype=np.int64)
    for p in range(parts):
        total_win += win[p]
        total_le += le[p]
    return total_win, total_le
