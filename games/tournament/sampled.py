"""The N-seat jam/fold game over sampled card deals (all 169 classes, 2 to 6 seats).

Enumerating class deals (:func:`games.tournament.jamfold.jamfold_game`) costs ``169^N``
deals, infeasible from 3 seats on.  Here chance instead picks one of ``M`` *sampled full
deals of real cards*, each with probability ``1/M``: a uniformly random ordering of the
deck gives every seat two hole cards (hence its class) and a five-card board.  Card removal
between all seats and the board is then exact in distribution, and every seat's 7-card
hand is ranked once per deal by phevaluator's C ``evaluate_7cards`` (the kernel of
:mod:`games.preflop._kernels`), so the showdown winners of *any* subset of all-in players
are known for that deal.  The game is an unbiased sample of the exact jam/fold game: the
expected payoff of any profile is the mean of independent per-deal values, whose standard
error :func:`deal_values` reports.

Information sets are (seat, own class, public history) exactly as in
:mod:`games.tournament.jamfold` (labels ``P2:AKs|p``), shared across the deals, so the core
solvers (FP, hedge, CFR+) run unchanged.  Layout: node 0 is the chance root; its children
``1..B`` are blocks of at most ``BLOCK`` deals (probability block size / M), whose children
are the deals (probability 1 / block size; edge indices are 16-bit); public node ``v`` of
deal ``d`` is node ``1 + B + v M + d`` (the public tree in BFS order, parents first).

Payoffs: net chips, ICM equity differences (``payouts``), or any ``value(final_stacks)``
function (the nested loop of :mod:`solvers.tournament`), always ``value(final) -
value(start)``; side pots by :func:`~games.tournament.showdown.settle` on the weak
ordering of the showdown players' ranks (ties split the pot exactly).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numba import njit
from numpy.typing import ArrayLike, NDArray

from pokerdyn.games.arrays import game_from_arrays
from pokerdyn.games.errors import GameError
from pokerdyn.games.preflop._kernels import seat_ranks
from pokerdyn.games.preflop.classes import CLASSES, combos
from pokerdyn.games.tournament.icm import check_payouts, icm_batch
from pokerdyn.games.tournament.jamfold import MAX_SEATS, Table, _public_tree, _terminal_values, table
from pokerdyn.games.tournament.showdown import weak_orderings
from pokerdyn.games.tree import CHANCE, DECISION, TERMINAL, Game, Infoset, infoset_label

MAX_NODES = 40_000_000
# sampled cards held at once (int64: 800 MB), and boards per deal (one deal's sort keys:
# 52 floats a board); checked before anything is allocated
MAX_CARDS = 100_000_000
MAX_BOARDS = 100_000
BLOCK = 32_000
ValueFn = Callable[[NDArray[np.float64]], NDArray[np.float64]]


@dataclass(frozen=True)
class SampledDeals:
    """``M`` sampled deals: ``classes[d, i]`` the class index (games.preflop.classes order)
    of seat ``i``'s hole cards, ``ranks[d, b, i]`` its 7-card phevaluator rank on board ``b``
    of the deal (1 = royal flush, smaller is stronger)."""

    classes: NDArray[np.int64]
    ranks: NDArray[np.int32]
    seed: int

    @property
    def samples(self) -> int:
        return int(self.classes.shape[0])

    @property
    def boards(self) -> int:
        return int(self.ranks.shape[1])


@lru_cache(maxsize=1)
def _class_table() -> NDArray[np.int64]:
    """Class index of every ordered pair of distinct cards (-1 on the diagonal)."""
    cards, cls = combos()
    t = np.full((52, 52), -1, dtype=np.int64)
    t[cards[:, 0], cards[:, 1]] = cls
    t[cards[:, 1], cards[:, 0]] = cls
    return t


def sample_deals(n_seats: int, samples: int, seed: int = 0, boards: int = 1) -> SampledDeals:
    """``samples`` deals of ``2 n_seats`` distinct hole cards, each with ``boards``
    independent five-card boards from the other cards (numpy SeedSequence(seed); the same
    arguments replay exactly).  Several boards per deal average the showdown over boards
    (exact in expectation) and cut the sampling variance of the showdown."""
    if not 2 <= n_seats <= MAX_SEATS:
        raise GameError(f"{n_seats} seats is outside [2, {MAX_SEATS}]")
    for what, x in (("samples", samples), ("boards", boards)):
        if not isinstance(x, (int, np.integer)) or x < 1:
            raise GameError(f"{what}={x!r} is outside the allowed range [1, inf)")
    h = 2 * n_seats
    if boards > MAX_BOARDS:
        raise GameError(f"boards={boards} is outside the allowed range [1, {MAX_BOARDS:,}]")
    if samples * (h + 5 * boards) > MAX_CARDS:
        raise GameError(f"samples={samples} with boards={boards} and {n_seats} seats "
                        f"needs {samples * (h + 5 * boards):,} sampled cards; allowed: at most "
                        f"{MAX_CARDS:,} (lower --samples or --boards)")
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    holes = np.empty((samples, h), dtype=np.int64)
    board = np.empty((samples, boards, 5), dtype=np.int64)
    chunk = max(1, 200_000 // boards)                 # bounded memory for the argsorts
    for s in range(0, samples, chunk):
        e = min(samples, s + chunk)
        holes[s:e] = np.argsort(rng.random((e - s, 52)), axis=1)[:, :h]
        keys = rng.random((e - s, boards, 52))
        np.put_along_axis(keys, np.repeat(holes[s:e, None, :], boards, axis=1), 2.0, axis=2)
        board[s:e] = np.argsort(keys, axis=2)[:, :, :5]
    cls = _class_table()[holes[:, 0::2], holes[:, 1::2]]
    ranks = seat_ranks(holes, board, n_seats)
    return SampledDeals(classes=cls, ranks=ranks, seed=int(seed))


@njit(cache=True)
def _ordering_keys(ranks, idx):
    """Per deal, the weak ordering of the players ``idx`` as a base-m key of their dense
    strength ranks (0 = weakest distinct rank; equal ranks tie)."""
    m = idx.size
    out = np.empty(ranks.shape[0], dtype=np.int64)
    for d in range(ranks.shape[0]):
        key, mult = 0, 1
        for a in range(m):
            ra = ranks[d, idx[a]]
            s = 0
            for b in range(m):
                rb = ranks[d, idx[b]]
                if rb > ra:                       # a weaker distinct rank, counted once
                    dup = False
                    for c in range(b):
                        if ranks[d, idx[c]] == rb:
                            dup = True
                            break
                    if not dup:
                        s += 1
            key += s * mult
            mult *= m
        out[d] = key
    return out


def showdown_index(ranks: NDArray[np.int32], players: NDArray[np.int64]) -> NDArray[np.int64]:
    """Row of ``weak_orderings(m)`` realised in each deal by the ``m`` showdown ``players``."""
    m = players.size
    W = weak_orderings(m)
    lut = np.full(m ** m, -1, dtype=np.int64)
    lut[(W * m ** np.arange(m)).sum(axis=1)] = np.arange(len(W))
    return lut[_ordering_keys(np.ascontiguousarray(ranks), np.ascontiguousarray(players))]


def final_stacks(t: Table, inn: NDArray[np.bool_]) -> NDArray[np.float64]:
    """Final stacks (W, N) of a hand ending with players ``inn`` in, one row per weak
    ordering of their hands (one row when a single player is left)."""
    return _terminal_values(t, inn, None) + t.stacks


def value_function(payouts: ArrayLike | None, n: int) -> ValueFn:
    """Chips (``payouts`` None) or ICM equity of a batch of stack vectors."""
    if payouts is None:
        return lambda s: np.asarray(s, dtype=np.float64)
    pay = check_payouts(payouts, n)
    return lambda s: icm_batch(s, pay)


@dataclass(frozen=True)
class SampledJamfold:
    """The game and its layout: ``public`` (the public tree of jamfold._public_tree),
    ``node_infoset[v]`` (M,) information set of decision ``v`` per deal (-1 elsewhere),
    ``terminal_pay[v]`` (M, N) payoffs of terminal ``v``."""

    game: Game
    table: Table
    deals: SampledDeals
    public: tuple
    node_infoset: tuple
    terminal_pay: tuple


def sampled_jamfold_game(deals: SampledDeals, stacks: ArrayLike,
                         blinds: Sequence[float] = (0.5, 1.0), ante: float = 0.0,
                         button: int = 0, payouts: ArrayLike | None = None,
                         value: ValueFn | None = None,
                         name: str = "jamfold-sampled") -> SampledJamfold:
    """The jam/fold game of the module docstring over ``deals`` (``value`` overrides
    ``payouts``: stack vectors (B, N) -> values (B, N))."""
    t = table(stacks, blinds, ante, button)
    n = t.stacks.size
    if deals.classes.shape[1] != n:
        raise GameError(f"deals are for {deals.classes.shape[1]} seats, stacks for {n}")
    val = value if value is not None else value_function(payouts, n)
    pub = _public_tree(t)
    M = deals.samples
    if M * len(pub) > MAX_NODES:
        raise GameError(f"samples={M} with {n} seats makes {M * len(pub):,} nodes; "
                        f"allowed: at most {MAX_NODES:,}")
    V = len(pub)
    # chance: root -> blocks of at most BLOCK deals (edge indices are int16) -> deals
    nb = -(-M // BLOCK)
    size = np.diff(np.minimum(np.arange(nb + 1) * BLOCK, M))
    P = 1 + nb
    kind = np.empty(P + V * M, dtype=np.int8)
    parent = np.empty(P + V * M, dtype=np.int64)
    edge = np.empty(P + V * M, dtype=np.int64)
    player = np.full(P + V * M, -1, dtype=np.int8)
    infoset = np.full(P + V * M, -1, dtype=np.int64)
    prob = np.ones(P + V * M)
    kind[:P], parent[0], edge[0] = CHANCE, -1, 0
    parent[1:P], edge[1:P], prob[1:P] = 0, np.arange(nb), size / M
    prob[P:P + M] = 1.0 / np.repeat(size, size)
    d = np.arange(M)
    base = val(t.stacks[None])[0]
    infosets: list[Infoset] = []
    node_inf, term_pay = [], []
    for v, (k, par, e, actor, acts, hist, inn) in enumerate(pub):
        sl = slice(P + v * M, P + (v + 1) * M)
        kind[sl] = k
        parent[sl] = 1 + d // BLOCK if v == 0 else P + par * M + d
        edge[sl] = d % BLOCK if v == 0 else e
        if k == DECISION:
            present, inv = np.unique(deals.classes[:, actor], return_inverse=True)
            h = " ".join(hist)
            idx = len(infosets) + inv.ravel()
            infosets.extend(Infoset(infoset_label(actor, CLASSES[c], h), actor, acts)
                            for c in present)
            player[sl] = actor
            infoset[sl] = idx
            node_inf.append(idx)
            term_pay.append(None)
        else:
            vals = val(final_stacks(t, inn)) - base
            if int(inn.sum()) > 1:
                B = deals.boards
                w = showdown_index(deals.ranks.reshape(M * B, n), np.flatnonzero(inn))
                pay = vals[w.reshape(M, B)].mean(axis=1)
            else:
                pay = np.broadcast_to(vals[0], (M, n))
            node_inf.append(None)
            term_pay.append(pay)
    pays = np.concatenate([p for p in term_pay if p is not None])
    game = game_from_arrays(name, n, kind, parent, edge, player, infoset, infosets, prob, pays,
                            description=f"jam/fold over {M} sampled deals (seed "
                                        f"{deals.seed}), stacks {t.stacks.tolist()}, blinds "
                                        f"{list(blinds)}, ante {ante:g}")
    return SampledJamfold(game=game, table=t, deals=deals, public=tuple(pub),
                          node_infoset=tuple(node_inf), terminal_pay=tuple(term_pay))


def deal_values(sj: SampledJamfold, sigma: NDArray[np.float64]) -> NDArray[np.float64]:
    """Each deal's expected payoffs (M, N) under the behaviour profile ``sigma``; their mean
    is the game's expected payoff and, deals being independent, their standard deviation
    over ``sqrt(M)`` its sampling standard error."""
    M = sj.deals.samples
    reach = [None] * len(sj.public)
    out = np.zeros((M, sj.table.stacks.size))
    for v, (k, par, e, *_rest) in enumerate(sj.public):
        r = np.ones(M) if v == 0 else reach[par] * sigma[sj.node_infoset[par], e]
        reach[v] = r
        if k == TERMINAL:
            out += r[:, None] * sj.terminal_pay[v]
    return out


def action_gains(sj: SampledJamfold, sigma: NDArray[np.float64]
                 ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Per information set, the counterfactual gain of its second action (push or call)
    over folding under ``sigma`` (the mean over deals of the opponents' reach times the
    actor's value difference; zero-mean terms outside the set), and its sampling standard
    error.  ``|gain| < 2 se`` marks a decision the sample cannot settle."""
    M, n = sj.deals.samples, sj.table.stacks.size
    pub = sj.public
    own = [None] * len(pub)                          # (M, n): each player's own reach
    kids: list[list[int]] = [[] for _ in pub]
    for v, (k, par, e, *_r) in enumerate(pub):
        if v == 0:
            own[v] = np.ones((M, n))
        else:
            kids[par].append(v)
            own[v] = own[par].copy()
            own[v][:, pub[par][3]] *= sigma[sj.node_infoset[par], e]
    val = [None] * len(pub)
    for v in range(len(pub) - 1, -1, -1):
        if pub[v][0] == TERMINAL:
            val[v] = sj.terminal_pay[v]
        else:
            I = sj.node_infoset[v]
            val[v] = sum(sigma[I, pub[c][2]][:, None] * val[c] for c in kids[v])
    n_inf = len(sj.game.infosets)
    s1, s2 = np.zeros(n_inf), np.zeros(n_inf)
    for v, node in enumerate(pub):
        if node[0] != DECISION:
            continue
        i, (f, p) = node[3], sorted(kids[v], key=lambda c: pub[c][2])
        opp = np.prod(np.delete(own[v], i, axis=1), axis=1)
        term = opp * (val[p][:, i] - val[f][:, i])
        s1 += np.bincount(sj.node_infoset[v], term, n_inf)
        s2 += np.bincount(sj.node_infoset[v], term * term, n_inf)
    mean = s1 / M
    se = np.sqrt(np.maximum(s2 / M - mean ** 2, 0) / max(M - 1, 1))
    return mean, se


def standard_error(values: NDArray[np.float64]) -> NDArray[np.float64]:
    """Standard error of the mean of independent per-deal values (M, N) -> (N,)."""
    M = values.shape[0]
    return values.std(axis=0, ddof=1) / np.sqrt(M) if M > 1 else np.full(values.shape[1],
                                                                           np.inf)


__all__ = ["MAX_BOARDS", "MAX_CARDS", "MAX_NODES", "SampledDeals", "SampledJamfold", "action_gains", "deal_values", "final_stacks",
           "sample_deals", "sampled_jamfold_game", "showdown_index", "standard_error",
           "value_function"]
