"""Three-way preflop all-in outcomes of the 169 classes, and exact 3-seat deal probabilities.

*Outcomes.*  When three hands are all in before the flop, the showdown realises one of the
13 weak orderings of their strengths (:func:`pokerdyn.games.preflop.orderings.weak_orderings` ``(3)``
order: 6 strict orders, 6 with one tie, the three-way tie).  For an unordered triple of
classes ``a <= b <= c`` (class indices) :class:`ThreeWayTable` estimates the probability of each
ordering by Monte Carlo over real cards: three disjoint combos drawn uniformly among the
disjoint combo triples of the three classes (independent uniform draws, redrawn on overlap),
a five-card board uniformly from the 46 other cards, each hand ranked by phevaluator's C
``evaluate_7cards`` (the function of :mod:`games.preflop._kernels`) inside numba.  Samples come
in batches of ``batch`` deals; batch ``r`` of triple ``(a, b, c)`` draws from its own stream,
seeded by ``numpy.random.SeedSequence(seed, spawn_key=(a, b, c, r))`` (a splitmix64 generator
in the kernel), so a triple's estimate depends only on the seed, the batch size and how many
batches it has: not on which other triples were computed, nor in what order.  Each probability
comes with its standard error ``sqrt(p (1 - p) / n)``.

:func:`exact_three_way` enumerates all C(46, 5) boards for three given hole-card pairs (the
check of the Monte Carlo).

*Deal probabilities.*  :func:`triple_deal_counts` counts, for every ordered class triple
``(i, j, k)``, the ordered triples of pairwise disjoint combos of those classes (exact card
removal among the three hands; 1326 * 1225 * 1128 in all).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit, prange
from numpy.typing import NDArray

from pokerdyn.games.errors import GameError
from pokerdyn.games.preflop._kernels import _native_evaluate_7cards
from pokerdyn.games.preflop.classes import N_CLASSES, combos

N_TRIPLES = 1326 * 1225 * 1128          # ordered triples of pairwise disjoint combos
N_OUTCOMES = 13                          # weak orderings of three hands
N_BOARDS3 = 1_370_754                    # C(46, 5)


@lru_cache(maxsize=1)
def _outcome_lut() -> NDArray[np.int64]:
    """Key ``s0 + 3 s1 + 9 s2`` of a dense strength vector -> row of weak_orderings(3)."""
    from pokerdyn.games.preflop.orderings import weak_orderings
    W = weak_orderings(3)
    lut = np.full(27, -1, dtype=np.int64)
    lut[W @ np.array([1, 3, 9])] = np.arange(len(W))
    return lut


@njit(cache=True)
def _strength(r, a, b):
    """Dense strength (0 = weakest) of phevaluator rank ``r`` against ranks ``a``, ``b``
    (smaller rank = stronger hand): the number of distinct weaker ranks."""
    return (1 if a > r else 0) + (1 if b > r and b != a else 0)


@njit(cache=True)
def _key(r0, r1, r2):
    """Base-3 key of the dense strengths of three ranks (row of ``_outcome_lut``)."""
    return _strength(r0, r1, r2) + 3 * _strength(r1, r0, r2) + 9 * _strength(r2, r0, r1)


@njit(cache=True)
def _next(state):
    """splitmix64: the next state and a 64-bit output."""
    state = state + np.uint64(0x9E3779B97F4A7C15)
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return state, z ^ (z >> np.uint64(31))


@njit(cache=True)
def _below(state, n):
    """A uniform integer in [0, n) (n < 2^32; bias below 2^-32)."""
    state, z = _next(state)
    return state, np.int64(((z >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@lru_cache(maxsize=1)
def _mc_kernel():
    fn = _native_evaluate_7cards()
    if fn is None:  # pragma: no cover - phevaluator without its C symbol
        raise GameError("3-way equities need phevaluator's C evaluate_7cards")

    # not cache=True: numba cannot cache a function holding a ctypes pointer
    @njit(parallel=True)
    def run(tasks, seeds, samples, class_cards, class_size, lut):
        """Outcome counts (T, 13) of ``samples`` deals for each task (a, b, c)."""
        out = np.zeros((tasks.shape[0], 13), dtype=np.int64)
        for t in prange(tasks.shape[0]):
            st = seeds[t]
            a, b, c = tasks[t, 0], tasks[t, 1], tasks[t, 2]
            for _ in range(samples):
                while True:
                    st, x = _below(st, class_size[a])
                    st, y = _below(st, class_size[b])
                    st, z = _below(st, class_size[c])
                    m0 = (np.int64(1) << class_cards[a, x, 0]) | (np.int64(1) << class_cards[a, x, 1])
                    m1 = (np.int64(1) << class_cards[b, y, 0]) | (np.int64(1) << class_cards[b, y, 1])
                    m2 = (np.int64(1) << class_cards[c, z, 0]) | (np.int64(1) << class_cards[c, z, 1])
                    if (m0 & m1) == 0 and (m0 & m2) == 0 and (m1 & m2) == 0:
                        break
                used = m0 | m1 | m2
                bd = np.empty(5, dtype=np.int64)
                for k in range(5):
                    while True:
                        st, card = _below(st, 52)
                        if not (used >> card) & 1:
                            break
                    used |= np.int64(1) << card
                    bd[k] = card
                r0 = fn(bd[0], bd[1], bd[2], bd[3], bd[4], class_cards[a, x, 0], class_cards[a, x, 1])
                r1 = fn(bd[0], bd[1], bd[2], bd[3], bd[4], class_cards[b, y, 0], class_cards[b, y, 1])
                r2 = fn(bd[0], bd[1], bd[2], bd[3], bd[4], class_cards[c, z, 0], class_cards[c, z, 1])
                out[t, lut[_key(r0, r1, r2)]] += 1
        return out

    return run


@lru_cache(maxsize=1)
def _exact_kernel():
    fn = _native_evaluate_7cards()
    if fn is None:  # pragma: no cover
        raise GameError("3-way equities need phevaluator's C evaluate_7cards")

    @njit
    def run(holes, rest, lut):
        out = np.zeros(13, dtype=np.int64)
        n = rest.size
        for i0 in range(n):
            for i1 in range(i0 + 1, n):
                for i2 in range(i1 + 1, n):
                    for i3 in range(i2 + 1, n):
                        for i4 in range(i3 + 1, n):
                            b0, b1, b2, b3, b4 = rest[i0], rest[i1], rest[i2], rest[i3], rest[i4]
                            r0 = fn(b0, b1, b2, b3, b4, holes[0], holes[1])
                            r1 = fn(b0, b1, b2, b3, b4, holes[2], holes[3])
                            r2 = fn(b0, b1, b2, b3, b4, holes[4], holes[5])
                            out[lut[_key(r0, r1, r2)]] += 1
        return out

    return run


def _check_hands(hands) -> NDArray[np.int64]:
    holes = np.asarray(hands, dtype=np.int64).ravel()
    if holes.size != 6 or len(set(holes.tolist())) != 6 or holes.min() < 0 or holes.max() > 51:
        raise GameError(f"hands={np.asarray(hands).tolist()} must be three pairs of six "
                        "distinct card ids in [0, 51]")
    return holes


def sampled_three_way(hands, samples: int, seed: int = 0) -> NDArray[np.int64]:
    """Monte Carlo outcome counts (13,) of ``samples`` boards for three given hole-card
    pairs (the kernel of :class:`ThreeWayTable` with one combo per "class")."""
    holes = _check_hands(hands).reshape(3, 1, 2)
    seeds = np.random.SeedSequence(seed).generate_state(1, np.uint64)
    return _mc_kernel()(np.array([[0, 1, 2]]), seeds, int(samples), holes,
                        np.ones(3, dtype=np.int64), _outcome_lut())[0]


def exact_three_way(hands) -> NDArray[np.int64]:
    """Exact outcome counts (13,) over all C(46, 5) boards of three given hole-card pairs
    ``[(c1, c2), (c3, c4), (c5, c6)]`` (card ids; six distinct cards), in the order of
    ``weak_orderings(3)`` with the hands as players 0, 1, 2."""
    holes = _check_hands(hands)
    rest = np.setdiff1d(np.arange(52), holes)
    return _exact_kernel()(holes, rest, _outcome_lut())


def exact_class_three_way(classes) -> NDArray[np.int64]:
    """Exact outcome counts (13,) of an ordered class triple: every triple of pairwise
    disjoint combos of the three classes (``classes``: three class indices) and every board,
    one exact enumeration per suit-isomorphism class of combo triples, times its size.
    Slow (about 1 s per orbit): a check of the Monte Carlo, not a table builder."""
    from itertools import permutations as perms
    cc, size = _class_cards()
    cl = [int(c) for c in classes]
    if len(cl) != 3 or min(cl) < 0 or max(cl) >= N_CLASSES:
        raise GameError(f"classes={list(classes)} must be three class indices in [0, 168]")
    orbit: dict = {}
    for x in range(size[cl[0]]):
        for y in range(size[cl[1]]):
            for z in range(size[cl[2]]):
                hands = [tuple(cc[c, i]) for c, i in zip(cl, (x, y, z))]
                if len({*hands[0], *hands[1], *hands[2]}) < 6:
                    continue
                key = min(tuple(tuple(sorted(4 * (a // 4) + pm[a % 4] for a in h)) for h in hands)
                          for pm in perms(range(4)))
                got = orbit.setdefault(key, [hands, 0])
                got[1] += 1
    total = np.zeros(N_OUTCOMES, dtype=np.int64)
    for hands, n in orbit.values():
        total += n * exact_three_way(hands)
    return total


@njit(cache=True, parallel=True)
def _triple_counts(cards, cls, by_card, pair_cls, size, members, starts):
    K = size.size
    out = np.zeros((K, K, K), dtype=np.int64)
    for ca in prange(K):
        for ia in range(starts[ca], starts[ca + 1]):
            a = members[ia]
            a1, a2 = cards[a, 0], cards[a, 1]
            for b in range(cards.shape[0]):
                b1, b2 = cards[b, 0], cards[b, 1]
                if b1 == a1 or b1 == a2 or b2 == a1 or b2 == a2:
                    continue
                cb = cls[b]
                row = out[ca, cb]
                for k in range(K):
                    row[k] += size[k] - by_card[a1, k] - by_card[a2, k] - by_card[b1, k] \
                        - by_card[b2, k]
                # a combo holding two of the four cards was subtracted twice
                row[pair_cls[a1, a2]] += 1
                row[pair_cls[b1, b2]] += 1
                row[pair_cls[a1, b1]] += 1
                row[pair_cls[a1, b2]] += 1
                row[pair_cls[a2, b1]] += 1
                row[pair_cls[a2, b2]] += 1
    return out


def _count_triples() -> NDArray[np.int64]:
    cards, cls = combos()
    by_card = np.zeros((52, N_CLASSES), dtype=np.int64)
    np.add.at(by_card, (cards[:, 0], cls), 1)
    np.add.at(by_card, (cards[:, 1], cls), 1)
    pair_cls = np.zeros((52, 52), dtype=np.int64)
    pair_cls[cards[:, 0], cards[:, 1]] = cls
    pair_cls[cards[:, 1], cards[:, 0]] = cls
    size = np.bincount(cls, minlength=N_CLASSES).astype(np.int64)
    members = np.argsort(cls, kind="stable").astype(np.int64)
    starts = np.concatenate([[0], np.cumsum(size)]).astype(np.int64)
    return _triple_counts(np.ascontiguousarray(cards), np.ascontiguousarray(cls), by_card,
                          pair_cls, size, members, starts)


@lru_cache(maxsize=1)
def triple_deal_counts() -> NDArray[np.int64]:
    """``n[i, j, k]``: ordered triples (combo of class i, of class j, of class k) sharing no
    card, (169, 169, 169), summing to 1326 * 1225 * 1128 (inclusion-exclusion over the four
    cards of the first two combos).  Cached on disk next to the heads-up equity table
    (``triple_counts-v1.npy``, int16) and recomputed (a few seconds) when missing or
    inconsistent.  Read-only."""
    from pokerdyn.games.io.files import write_atomically
    from pokerdyn.games.preflop.equity import cache_path
    path = cache_path().parent / "triple_counts-v1.npy"
    n = None
    try:
        got = np.load(path, allow_pickle=False).astype(np.int64)
        if got.shape == (N_CLASSES,) * 3 and got.sum() == N_TRIPLES:
            n = got
    except (OSError, ValueError, EOFError):
        pass
    if n is None:
        n = _count_triples()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(path, lambda tmp: np.save(tmp, n.astype(np.int16)))
        except OSError:
            pass  # a read-only cache folder only costs the next call its time
    n.flags.writeable = False
    return n


@lru_cache(maxsize=1)
def triple_probabilities() -> NDArray[np.float64]:
    """:func:`triple_deal_counts` / (1326 * 1225 * 1128), summing to 1.  Read-only."""
    p = triple_deal_counts() / N_TRIPLES
    p.flags.writeable = False
    return p


@lru_cache(maxsize=1)
def _class_cards() -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    cards, cls = combos()
    size = np.bincount(cls, minlength=N_CLASSES).astype(np.int64)
    out = np.zeros((N_CLASSES, 12, 2), dtype=np.int64)
    for k in range(N_CLASSES):
        out[k, :size[k]] = cards[cls == k]
    return out, size


class ThreeWayTable:
    """Lazily computed Monte Carlo outcome probabilities of sorted class triples (module
    docstring).  ``ensure(triples, samples)`` brings every given sorted triple to at least
    ``samples`` deals (whole batches); ``probabilities`` / ``standard_errors`` read them.
    Triples that cannot be dealt (e.g. three times AA) are never sampled."""

    def __init__(self, seed: int = 0, batch: int = 1000):
        if not isinstance(batch, (int, np.integer)) or batch < 1:
            raise GameError(f"batch={batch!r} is outside the allowed range [1, inf)")
        self.seed, self.batch = int(seed), int(batch)
        self._slot = np.full(N_CLASSES ** 3, -1, dtype=np.int64)    # key a K^2 + b K + c
        self.keys = np.zeros(0, dtype=np.int64)
        self.counts = np.zeros((0, N_OUTCOMES), dtype=np.int64)
        self.batches = np.zeros(0, dtype=np.int64)

    @staticmethod
    def key(triples: NDArray[np.int64]) -> NDArray[np.int64]:
        t = np.sort(np.asarray(triples, dtype=np.int64).reshape(-1, 3), axis=1)
        return (t[:, 0] * N_CLASSES + t[:, 1]) * N_CLASSES + t[:, 2]

    def slots(self, triples) -> NDArray[np.int64]:
        """Row in ``counts`` of each triple (any order of its classes), -1 if not computed."""
        return self._slot[self.key(triples)]

    @property
    def samples(self) -> NDArray[np.int64]:
        return self.batches * self.batch

    def ensure(self, triples, samples: int, progress: bool = False) -> int:
        """Sample every triple (rows of class indices, any order) up to ``samples`` deals;
        returns the number of deals drawn."""
        keys = np.unique(self.key(triples))
        keys = keys[triple_deal_counts().ravel()[keys] > 0]
        new = keys[self._slot[keys] < 0]
        if new.size:
            self._slot[new] = np.arange(self.keys.size, self.keys.size + new.size)
            self.keys = np.concatenate([self.keys, new])
            self.counts = np.concatenate([self.counts, np.zeros((new.size, N_OUTCOMES),
                                                                dtype=np.int64)])
            self.batches = np.concatenate([self.batches, np.zeros(new.size, dtype=np.int64)])
        rows = self._slot[keys]
        want = -(-int(samples) // self.batch)
        todo = [(r, b) for r in rows.tolist() for b in range(self.batches[r], want)]
        if not todo:
            return 0
        self._draw(np.array(todo, dtype=np.int64), progress)
        self.batches[rows] = np.maximum(self.batches[rows], want)
        return len(todo) * self.batch

    def _draw(self, todo: NDArray[np.int64], progress: bool) -> None:
        run = _mc_kernel()
        cc, size = _class_cards()
        keys = self.keys[todo[:, 0]]
        tasks = np.stack([keys // N_CLASSES ** 2, keys // N_CLASSES % N_CLASSES,
                          keys % N_CLASSES], axis=1)
        seeds = np.array([np.random.SeedSequence(self.seed, spawn_key=(int(a), int(b), int(c),
                                                                       int(r)))
                          .generate_state(1, np.uint64)[0]
                          for (a, b, c), r in zip(tasks.tolist(), todo[:, 1].tolist())],
                         dtype=np.uint64)
        chunk = max(1, 2_000_000 // self.batch)
        starts = range(0, len(todo), chunk)
        if progress:
            from tqdm.auto import tqdm
            starts = tqdm(starts, desc="3-way equities", unit=" chunks", leave=False)
        for s in starts:
            got = run(tasks[s:s + chunk], seeds[s:s + chunk], self.batch, cc, size,
                      _outcome_lut())
            np.add.at(self.counts, todo[s:s + chunk, 0], got)

    def probabilities(self, rows: NDArray[np.int64]) -> NDArray[np.float64]:
        """Outcome probabilities (len(rows), 13) of computed rows, players = the sorted
        classes."""
        return self.counts[rows] / np.maximum(self.samples[rows], 1)[:, None]

    def standard_errors(self, rows: NDArray[np.int64]) -> NDArray[np.float64]:
        p = self.probabilities(rows)
        return np.sqrt(p * (1 - p) / np.maximum(self.samples[rows], 1)[:, None])

    def sorted_triples(self) -> NDArray[np.int64]:
        """The computed triples (S, 3), sorted classes, in row order."""
        k = self.keys
        return np.stack([k // N_CLASSES ** 2, k // N_CLASSES % N_CLASSES, k % N_CLASSES], axis=1)


__all__ = ["N_BOARDS3", "N_OUTCOMES", "N_TRIPLES", "ThreeWayTable", "exact_three_way",
           "exact_class_three_way", "sampled_three_way",
           "triple_deal_counts", "triple_probabilities"]
