"""Exact heads-up all-in equities of the 169 preflop classes.

``equity[i, j]`` is class i's share of the pot against class j when both players are all in
before the flop: the average, over every ordered pair of disjoint combos of the two classes
(card removal at the level of the 1,326 combos) and every 5-card board from the 48 other
cards, of win + tie / 2.  Computed exactly as integer counts (``win``, ``tie``, ``total``):

* boards are taken one per suit-isomorphism class (:mod:`games.preflop.boards`, 134,459
  boards) weighted by the orbit size, since renaming suits keeps every class;
* per board, phevaluator ranks the 1,081 combos not touching it (its C ``evaluate_7cards``),
  and a numba kernel turns the ranks into class-pair win and tie counts
  (:func:`games.preflop._kernels.class_showdown_counts`).

The table is shipped with the package (``games/preflop/data/hu_equity.npz``, counts only) and
also cached on disk by :func:`hu_equity_table` when recomputed (``$POKERDYN_CACHE/preflop`` or
``~/.cache/pokerdyn/preflop``, keyed by the format version and phevaluator's version).
"""
from __future__ import annotations

import json
import os
import time
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from importlib import metadata
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from pokerdyn.games.io.files import write_atomically
from pokerdyn.games.preflop.boards import canonical_boards
from pokerdyn.games.preflop.classes import CLASSES, N_CLASSES, class_index, combos, disjoint_pair_counts

FORMAT = 1  # bump when the stored arrays change meaning
BOARDS_PER_DEAL = 1_712_304  # C(48, 5)
SHIPPED = Path(__file__).with_name("data") / "hu_equity.npz"


@dataclass(frozen=True)
class EquityTable:
    """Heads-up preflop all-in equities of the 169 classes (index order of
    :data:`games.preflop.classes.CLASSES`).

    Attributes
    ----------
    equity : (169, 169) float64, class i's equity against class j, (win + tie/2) / total.
    win, tie, total : (169, 169) int64 counts over (disjoint combo pair, board) deals:
        i wins, the pot is split, all deals; ``win + win.T + tie == total``.
    classes : the class names.
    meta : how it was computed (format, phevaluator version, seconds, boards).
    """

    equity: NDArray[np.float64]
    win: NDArray[np.int64]
    tie: NDArray[np.int64]
    total: NDArray[np.int64]
    classes: tuple[str, ...]
    meta: dict

    def __call__(self, a: str, b: str) -> float:
        return float(self.equity[class_index(a), class_index(b)])

    def against_random(self) -> NDArray[np.float64]:
        """Each class's equity against a uniformly random hand from the 50 other cards
        (169,): all deals of the class pooled, so weighted by the disjoint combo pairs."""
        return (self.win.sum(axis=1) + self.tie.sum(axis=1) / 2) / self.total.sum(axis=1)


def _phevaluator_version() -> str:
    try:
        return metadata.version("phevaluator")
    except metadata.PackageNotFoundError:  # pragma: no cover
        return "unknown"


def cache_path() -> Path:
    """Cache file of the table: ``$POKERDYN_CACHE/preflop/hu_equity-v{FORMAT}-phe{version}.npz``
    (default root ``~/.cache/pokerdyn``)."""
    root = os.environ.get("POKERDYN_CACHE") or Path.home() / ".cache" / "pokerdyn"
    return Path(root) / "preflop" / f"hu_equity-v{FORMAT}-phe{_phevaluator_version()}.npz"


def showdown_counts(boards: NDArray[np.int64], weights: NDArray[np.int64],
                    chunk: int = 4096, progress: bool = False
                    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Weighted ``(win, tie)`` class-pair counts over the given boards ((n, 5) card ids, each
    counted ``weights`` times): ``win[i, j]`` sums, over the boards and the ordered pairs of
    disjoint combos (class i, class j) not touching the board, the deals that i wins."""
    from pokerdyn.games.preflop._kernels import board_ranks, class_showdown_counts

    cards, cls = combos()
    cards, cls = np.ascontiguousarray(cards), np.ascontiguousarray(cls)
    win = np.zeros((N_CLASSES, N_CLASSES), dtype=np.int64)
    le = np.zeros_like(win)
    starts = range(0, len(boards), chunk)
    if progress:
        from tqdm.auto import tqdm
        starts = tqdm(starts, desc="heads-up equity", unit=" chunks")
    for s in starts:
        ranks = board_ranks(boards[s:s + chunk], cards)
        w, l_ = class_showdown_counts(ranks, np.ascontiguousarray(weights[s:s + chunk],
                                                                  dtype=np.int64),
                                      cards, cls, N_CLASSES)
        win += w
        le += l_
    return win, le - win


def build_hu_equity(progress: bool = False) -> EquityTable:
    """Compute the table from scratch (every board, through its suit-isomorphism classes)."""
    t0 = time.perf_counter()
    boards, sizes = canonical_boards()
    win, tie = showdown_counts(boards, sizes, progress=progress)
    total = disjoint_pair_counts() * BOARDS_PER_DEAL
    if not (np.array_equal(win + win.T + tie, total) and np.array_equal(tie, tie.T)):
        raise AssertionError("heads-up equity counts do not add up")  # pragma: no cover
    meta = {"format": FORMAT, "phevaluator": _phevaluator_version(),
            "boards": int(len(boards)), "seconds": round(time.perf_counter() - t0, 2)}
    return _table(win, tie, np.array(total), meta)


def _table(win, tie, total, meta) -> EquityTable:
    equity = (win + tie / 2) / np.where(total > 0, total, 1)
    for a in (equity, win, tie, total):
        a.flags.writeable = False
    return EquityTable(equity, win, tie, total, CLASSES, meta)


def save_table(table: EquityTable, path: str | os.PathLike) -> Path:
    """Write the counts and metadata to ``path`` (compressed npz, atomically)."""
    meta = np.frombuffer(json.dumps(table.meta).encode(), dtype=np.uint8)
    return write_atomically(path, lambda tmp: np.savez_compressed(
        tmp, win=table.win, tie=table.tie, total=table.total, meta=meta))


def load_table(path: str | os.PathLike) -> EquityTable | None:
    """The table stored at ``path``, or None if missing, unreadable or of another format."""
    try:
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(z["meta"].tobytes().decode())
            win, tie, total = z["win"], z["tie"], z["total"]
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None
    if meta.get("format") != FORMAT or win.shape != (N_CLASSES, N_CLASSES):
        return None
    return _table(win.astype(np.int64), tie.astype(np.int64), total.astype(np.int64), meta)


@lru_cache(maxsize=1)
def _loaded() -> EquityTable:
    for path in (cache_path(), SHIPPED):
        got = load_table(path)
        if got is not None:
            return got
    return hu_equity_table(recompute=True)


def hu_equity_table(recompute: bool = False, progress: bool = False) -> EquityTable:
    """The heads-up equity table: from the on-disk cache, else the copy shipped with the
    package, else (or with ``recompute``) computed (12-30 s on two shared cores) and cached."""
    if not recompute:
        return _loaded()
    table = build_hu_equity(progress=progress)
    try:
        save_table(table, cache_path())
    except OSError:
        pass  # a read-only cache folder only costs the next call its time
    _loaded.cache_clear()
    return table


def hu_equity(a: str, b: str) -> float:
    """Heads-up all-in equity of class ``a`` against class ``b`` (e.g. ``hu_equity("AA",
    "KK")``), from :func:`hu_equity_table`."""
    i, j = class_index(a), class_index(b)
    return float(hu_equity_table().equity[i, j])


__all__ = ["BOARDS_PER_DEAL", "EquityTable", "FORMAT", "SHIPPED", "build_hu_equity", "cache_path",
           "hu_equity", "hu_equity_table", "load_table", "save_table", "showdown_counts"]
