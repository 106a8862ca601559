"""Payoffs under collusion, for any 3-player game with a collusion variant (Mercer, hold'em
paper sec. 5 and Table 7; the Java ``ComputeNash``).

Players A and B may collude against C.  Three cases (the paper's):

- **public**: A and B collude and C knows it: all three play an equilibrium of the collusion
  game;
- **private**: A and B play the collusion game's equilibrium, C plays her equilibrium strategy
  of the game without collusion (evaluated in the collusion game);
- **suspicious**: A and B do not collude (no-collusion game and equilibrium), C plays her
  strategy of the collusion game's equilibrium.

C's information sets are the same in both games and are matched by label.  The dealer
rotates every hand (the paper's assumption): hand 1 seats A, B, C at 1, 2, 3; hand 2 seats
B, C, A; hand 3 seats C, A, B; so the colluders sit at seats (1, 2), (1, 3) and (2, 3), each
arrangement with its own collusion game and equilibrium, while the no-collusion equilibrium
is shared.  Payoffs are per hand, averaged over the three hands, ordered (C, A, B).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numpy as np
from numpy.typing import NDArray
from tqdm.auto import tqdm

from games import CompiledGame, Game, GameError, compile_game
from games.strategy import check_strategy

from solvers.evaluation import check_player, expected_payoffs

Make = Callable[[str | None, tuple[int, int] | None], Game]
Solve = Callable[[CompiledGame], tuple[NDArray[np.float64], float]]

# Seats (1-based) of A, B, C in the three hands of a dealer rotation.
ROTATION: tuple[dict[str, int], ...] = ({"A": 1, "B": 2, "C": 3}, {"A": 3, "B": 1, "C": 2},
                                        {"A": 2, "B": 3, "C": 1})
ORDER = ("C", "A", "B")  # the non-colluder first


@dataclass(frozen=True)
class Arrangement:
    """One hand of the rotation: the seats of A, B, C, and the three cases' payoffs (C, A, B)."""

    seats: dict[str, int]
    colluders: tuple[int, int]
    public: NDArray[np.float64]
    private: NDArray[np.float64]
    suspicious: NDArray[np.float64]
    nash_conv: float


@dataclass(frozen=True)
class CollusionPayoffs:
    """Payoffs per hand, averaged over the dealer rotation, each ordered (C, A, B).

    ``nash_conv`` holds the NashConv of every solve: ``"none"`` for the no-collusion game and
    ``"1,2"`` ... for the collusion game with the colluders at those seats."""

    kind: str
    public: NDArray[np.float64]
    private: NDArray[np.float64]
    suspicious: NDArray[np.float64]
    arrangements: tuple[Arrangement, ...]
    nash_conv: dict[str, float]
    seconds: float


def iterative_solver(method: str = "cfr+", tol: float | None = 0.01, iterations: int = 10_000,
                     progress: bool = False) -> Solve:
    """A ``solve`` callback running CFR+ (``"cfr+"``) or fictitious play (``"fp"``) until
    NashConv <= ``tol`` or ``iterations``."""
    if method not in ("cfr+", "fp"):
        raise GameError(f"unknown method {method!r}; allowed: cfr+, fp")

    def solve(cg: CompiledGame) -> tuple[NDArray[np.float64], float]:
        if method == "cfr+":
            from solvers.learning.cfr_plus import cfr
            res = cfr(cg, iterations=iterations, tol=tol, progress=progress)
        else:
            from solvers.learning.fictitious_play import fictitious_play
            res = fictitious_play(cg, iterations=iterations, tol=tol, progress=progress)
        return res.strategy, float(res.nash_conv)
    return solve


def transplant(dst: CompiledGame, sigma: NDArray[np.float64], src: CompiledGame,
               src_sigma: NDArray[np.float64], player: int) -> NDArray[np.float64]:
    """``sigma`` (a profile of ``dst``) with ``player``'s rows (0-based) taken from
    ``src_sigma`` (a profile of ``src``), information sets matched by label; GameError when
    one of the player's sets of ``dst`` is missing in ``src`` or has other actions."""
    player = check_player(dst, player)
    out = check_strategy(dst, sigma, "sigma").copy()
    src_sigma = check_strategy(src, src_sigma, "src_sigma")
    src_infosets = src.game.infosets
    index = {I.label: i for i, I in enumerate(src_infosets)}
    missing = []
    for i, I in enumerate(dst.game.infosets):
        if I.player != player:
            continue
        j = index.get(I.label)
        if j is None or src_infosets[j].actions != I.actions or src_infosets[j].player != player:
            missing.append(I.label)
            continue
        out[i] = 0.0
        out[i, :len(I.actions)] = src_sigma[j, :len(I.actions)]
    if missing:
        raise GameError(f"player {player + 1}'s information sets differ between {src.name!r} "
                        f"and {dst.name!r}: {len(missing)} not matched by label and actions "
                        f"(first: {missing[0]!r})")
    return out


def _by_role(u: NDArray[np.float64], seats: dict[str, int]) -> NDArray[np.float64]:
    return np.array([u[seats[r] - 1] for r in ORDER], dtype=np.float64)


def _compiled(game: Game, what: str) -> CompiledGame:
    if game.n_players != 3:
        raise GameError(f"collusion needs a 3-player game; {what}{game.name!r} has "
                        f"{game.n_players} players")
    return compile_game(game)


def collusion_payoffs(make: Make, kind: str, solve: Solve | None = None, *,
                      tol: float | None = 0.01, iterations: int = 10_000,
                      progress: bool = False) -> CollusionPayoffs:
    """The public, private and suspicious payoffs (C, A, B) of collusion ``kind``.

    Parameters
    ----------
    make : ``make(collusion, colluders) -> Game``; ``make(None, None)`` is the game without
        collusion, ``make(kind, (i, j))`` the collusion game with colluders at 1-based seats
        ``i < j``.
    solve : ``solve(compiled_game) -> (profile, nash_conv)``; default CFR+ to ``tol`` or
        ``iterations`` (:func:`iterative_solver`).
    """
    start = time.perf_counter()
    solve = solve or iterative_solver("cfr+", tol, iterations, progress)
    pairs = [tuple(sorted((seats["A"], seats["B"]))) for seats in ROTATION]
    # build the no-collusion game and one collusion game before any solve, so that a bad
    # game or option fails at once (and at most two games are held at a time)
    g0 = _compiled(make(None, None), "")
    gc = _compiled(make(kind, pairs[0]), "collusion ")
    bar = tqdm(total=1 + len(ROTATION), desc=f"collusion ({kind})", disable=not progress,
               leave=False, unit="solve")
    try:
        s0, nc0 = solve(g0)
        bar.update(1)
        ncs = {"none": float(nc0)}
        rows = []
        for k, (seats, pair) in enumerate(zip(ROTATION, pairs)):
            if k:
                gc = _compiled(make(kind, pair), "collusion ")
            sc, ncc = solve(gc)
            c = seats["C"] - 1
            private = transplant(gc, sc, g0, s0, c)
            suspicious = transplant(g0, s0, gc, sc, c)
            ncs[f"{pair[0]},{pair[1]}"] = float(ncc)
            rows.append(Arrangement(
                seats=dict(seats), colluders=pair,
                public=_by_role(expected_payoffs(gc, sc), seats),
                private=_by_role(expected_payoffs(gc, private), seats),
                suspicious=_by_role(expected_payoffs(g0, suspicious), seats),
                nash_conv=float(ncc)))
            bar.update(1)
    finally:
        bar.close()

    def mean(case: str) -> NDArray[np.float64]:
        return np.mean([getattr(r, case) for r in rows], axis=0)
    return CollusionPayoffs(kind=kind, public=mean("public"), private=mean("private"),
                            suspicious=mean("suspicious"), arrangements=tuple(rows),
                            nash_conv=ncs, seconds=time.perf_counter() - start)
